//! The MCP server: any assistant that speaks the Model Context Protocol drives this process's bots.
//!
//! Two transports serve the same [`Server`]: standard input and output (`wayfarer mcp`, which joins the world itself,
//! for desktop clients that start a process) and Streamable HTTP at `/mcp` on the dashboard's listener (the bots of a
//! running `wayfarer run --dashboard …`). Both are the official SDK's (`rmcp`).
//!
//! What a caller gets is what an owner typing chat commands gets, through the same paths: a tool call becomes the
//! command line an owner would type, logged and remembered as one, carried out on the bots' task set by
//! [`super::commands::execute_answering`]; the bot's answers come back to the caller as they are said (and are said
//! in chat as usual). A goal tool (`task`, `build`, `team`) follows its goal in the bot's book to the end, sending
//! the plan's progress as MCP progress notifications, and ends with the world's verdict and its reason.
//!
//! Security: an MCP caller counts as an owner (the dashboard's owner, else the first configured one). Over HTTP every
//! request needs the dashboard's token as a bearer token (a loopback dashboard without one gets one made at start),
//! and a browser page of another origin is refused; standard input and output belong to whoever started the process.

mod follow;
mod resources;
mod tools;

use std::{
    collections::BTreeSet,
    sync::{Arc, atomic::Ordering},
    time::Duration,
};

use parking_lot::Mutex;
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::router::tool::ToolRouter,
    model::{
        GetPromptRequestParams, GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
        ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
        ServerCapabilities, ServerConfig, SubscribeRequestParams, UnsubscribeRequestParams,
    },
    service::RequestContext,
    tool_handler,
};

use super::state::{BotState, PageCommand, Shared};

/// How long a look at the bots (their state, a command handed over) may wait for the bots' task set.
const LOOK_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a look that searches the world may take.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(20);
/// The longest goal, description or fact a tool takes (a chat line is at most 256 characters; an assistant may say
/// more).
const MAX_WORDS: usize = 1000;

/// The bots one MCP server serves, and who its callers count as.
pub struct Fleet {
    shared: Arc<Shared>,
    bots: Vec<Arc<BotState>>,
    /// The owner an MCP caller counts as.
    caller: String,
    /// `stdio` or `http`, for the log.
    via: &'static str,
}

impl Fleet {
    /// The bots of this process, served over `via`; callers count as the dashboard's owner, else the first owner.
    pub fn new(shared: Arc<Shared>, bots: Vec<Arc<BotState>>, via: &'static str) -> Arc<Self> {
        let caller = shared
            .config
            .dashboard
            .as_ref()
            .and_then(|d| d.owner.clone())
            .or_else(|| shared.config.owners.first().cloned())
            .unwrap_or_else(|| "MCP".to_owned());
        Arc::new(Self { shared, bots, caller, via })
    }

    /// The bot called `name`, or with no name the first bot.
    fn bot(&self, name: Option<&str>) -> Result<Arc<BotState>, String> {
        let names = || self.bots.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(", ");
        match name.map(str::trim).filter(|n| !n.is_empty()) {
            None => self.bots.first().cloned().ok_or_else(|| "this process has no bots".to_owned()),
            Some(name) => self
                .bots
                .iter()
                .find(|b| b.name.eq_ignore_ascii_case(name))
                .cloned()
                .ok_or_else(|| format!("there is no bot called {name:?} here; the bots are: {}", names())),
        }
    }

    /// Runs `look` on the bots' task set (azalea's state is read there, never from another thread) and returns what
    /// it gives.
    async fn on_bots<T: Send + 'static>(&self, look: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let request: PageCommand = Box::new(move || {
            let _ = answer.send(look());
        });
        self.ask(request, answered, LOOK_TIMEOUT).await
    }

    /// Hands `request` to the bots' task set and waits up to `within` for what it sends to `answered`.
    async fn ask<T>(
        &self,
        request: PageCommand,
        answered: tokio::sync::oneshot::Receiver<T>,
        within: Duration,
    ) -> Result<T, String> {
        self.shared.page_commands.sender.send(request).map_err(|_| "the bots are not running".to_owned())?;
        match tokio::time::timeout(within, answered).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(_)) => Err("the bots stopped before answering".to_owned()),
            Err(_) => Err(format!("the bots did not answer within {} s", within.as_secs())),
        }
    }

    /// Runs `look` on the bots' task set and waits for the future it makes (a block search), up to
    /// [`SEARCH_TIMEOUT`].
    async fn on_bots_later<T, F>(&self, look: impl FnOnce() -> F + Send + 'static) -> Result<T, String>
    where
        T: Send + 'static,
        F: std::future::Future<Output = T> + 'static,
    {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let request: PageCommand = Box::new(move || {
            let work = look();
            tokio::task::spawn_local(async move {
                let _ = answer.send(work.await);
            });
        });
        self.ask(request, answered, SEARCH_TIMEOUT).await
    }

    /// Notes a tool call on `bot`: logged like a chat command and counted in its `!usage`.
    fn count(&self, bot: &BotState, call: &str) {
        bot.mcp_calls.fetch_add(1, Ordering::Relaxed);
        tracing::info!("{}: {} (mcp {}): {call}", bot.name, self.caller, self.via);
    }

    /// Notes a tool call refused before it ran, and why: logged, and counted on `bot` when there is one.
    fn refused(&self, bot: Option<&BotState>, why: &str) {
        if let Some(bot) = bot {
            bot.mcp_calls.fetch_add(1, Ordering::Relaxed);
        }
        let name = bot.map_or("mcp", |b| b.name.as_str());
        tracing::info!("{name}: {} (mcp {}): refused: {why}", self.caller, self.via);
    }
}

/// One MCP session's server: the fleet, its tools, and the resources the session follows.
#[derive(Clone)]
pub struct Server {
    fleet: Arc<Fleet>,
    tool_router: ToolRouter<Server>,
    /// Resources this session subscribed to, and the task that watches them (started on the first subscription).
    watched: Arc<Mutex<Watched>>,
}

#[derive(Default)]
struct Watched {
    uris: BTreeSet<String>,
    watcher: Option<tokio::task::AbortHandle>,
}

impl Drop for Watched {
    fn drop(&mut self) {
        if let Some(watcher) = self.watcher.take() {
            watcher.abort();
        }
    }
}

impl Server {
    pub fn new(fleet: Arc<Fleet>) -> Self {
        Self { fleet, tool_router: Self::tool_router(), watched: Arc::default() }
    }
}

const INSTRUCTIONS: &str = "Wayfarer's Minecraft bots. Ask for what you want done, not for single actions: `task` \
    takes a goal in words (\"a stone pickaxe\", \"12 oak logs\", \"a 3 by 3 platform of dirt here\"), plans it from the \
    game's facts, does it, and the world judges every step; `build` builds a blueprint by name or from a \
    description. Both stream progress and end with the world's verdict. `status`, `inventory` and `look_around` show \
    where a bot is and what is near it; `stop` ends what a bot is doing. Every tool takes an optional `bot` when the \
    process runs several bots (resources list them).";

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_resources_list_changed()
                .enable_prompts()
                .build(),
        )
        .with_server_info(Implementation::new("wayfarer", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list(&self.fleet)))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(resources::templates()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read(&self.fleet, &request.uri).await.map(Into::into)
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        resources::check_uri(&self.fleet, &request.uri)?;
        let mut watched = self.watched.lock();
        watched.uris.insert(request.uri);
        if watched.watcher.is_none() {
            let task = tokio::spawn(resources::watch(self.fleet.clone(), self.watched.clone(), context.peer));
            watched.watcher = Some(task.abort_handle());
        }
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.watched.lock().uris.remove(&request.uri);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(resources::prompts()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        resources::prompt(&request).map(Into::into)
    }
}

/// Serves `fleet` over standard input and output until the client closes them.
pub async fn serve_stdio(fleet: Arc<Fleet>) -> Result<(), String> {
    use rmcp::ServiceExt;
    let running = Server::new(fleet)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|err| format!("the MCP client did not start a session: {err}"))?;
    running.waiting().await.map_err(|err| format!("the MCP session ended with an error: {err}"))?;
    Ok(())
}

/// `/mcp` for the dashboard's listener at `address`: sessions of [`Server`] over `fleet` over Streamable HTTP, each
/// request let through only with `token` as its bearer token; a browser page of another origin than the
/// dashboard's own is refused.
pub fn router(fleet: Arc<Fleet>, address: std::net::SocketAddr, token: String) -> axum::Router {
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
    tracing::info!("MCP: http://{address}/mcp (send Authorization: Bearer {token})");
    let loopback = address.ip().is_loopback();
    let mut origins = vec![format!("http://{address}")];
    if loopback {
        origins.extend(["localhost", "127.0.0.1", "[::1]"].map(|host| format!("http://{host}:{}", address.port())));
    }
    let mut config = StreamableHttpServerConfig::default().with_allowed_origins(origins).enforce_origin_validation();
    if !loopback {
        // Served beyond this machine: the token guards every request, whatever name the client used.
        config = config.disable_allowed_hosts();
    }
    let service: StreamableHttpService<Server, _> = StreamableHttpService::new(
        move || Ok(Server::new(fleet.clone())),
        Arc::new(rmcp::transport::streamable_http_server::session::local::LocalSessionManager::default()),
        config,
    );
    let token = Arc::new(token);
    axum::Router::new()
        .route_service("/mcp", service)
        .layer(axum::middleware::from_fn(move |request, next| guard(token.clone(), request, next)))
}

/// Lets a request through only with the token as its bearer token.
async fn guard(
    token: Arc<String>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match super::dashboard::bearer(request.headers()) {
        Some(given) if super::dashboard::same(given.as_bytes(), token.as_bytes()) => next.run(request).await,
        given => {
            let why = if given.is_some() { "this one is wrong" } else { "none was sent" };
            let message =
                format!("the MCP endpoint needs the token printed at start, as Authorization: Bearer TOKEN ({why})");
            (axum::http::StatusCode::UNAUTHORIZED, axum::Json(serde_json::json!({ "error": message }))).into_response()
        }
    }
}
