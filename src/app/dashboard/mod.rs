//! The live dashboard (`wayfarer run --dashboard 127.0.0.1:8080`): one web page to watch and steer the bots.
//!
//! The page (`page.html`, compiled in) opens a server-sent event stream and gets every bot's state once a second, with
//! the chat lines it has not seen; it asks for the map, the skills, the learning history and the memory stream when
//! it shows them, and posts commands as the owner named in the configuration. Everything is copied out when a page
//! asks: with nobody connected the dashboard does nothing but wait for a connection.
//!
//! Security: served to loopback unless configured otherwise; any other address needs a token (given or made at
//! start) on every request, `?token=` or `Authorization: Bearer`. A request without it gets 401 and changes nothing.

mod map;
pub(super) mod view;

use view::BotView;

use std::{convert::Infallible, net::SocketAddr, sync::Arc, time::Duration};

use axum::{
    Json, Router,
    extract::{DefaultBodyLimit, FromRequestParts, Query, State, rejection::JsonRejection},
    http::{HeaderMap, StatusCode, header, request::Parts},
    response::{
        Html, IntoResponse, Response,
        sse::{Event, Sse},
    },
    routing::{get, post},
};
use futures_util::stream::{self, Stream};
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;

use super::state::{BotState, PageCommand, Shared};
use crate::{chat::parse_line, config::DashboardConfig};

/// How often a connected page gets the bots' state.
const TICK: Duration = Duration::from_secs(1);
/// How long a state update waits for the bots' task set (a tick is 50 ms).
const LOOK_TIMEOUT: Duration = Duration::from_secs(3);
/// The longest command line the page may send (a chat line is at most 256 characters).
const MAX_LINE: usize = 256;
/// Requests' bodies are small JSON objects.
const MAX_BODY: usize = 16 * 1024;

const PAGE: &str = include_str!("page.html");

/// Why the dashboard could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot serve the dashboard at {address}: {cause}")]
pub struct DashboardError {
    address: SocketAddr,
    cause: std::io::Error,
}

/// A listening dashboard, not yet serving: the address it got (a port of 0 picks a free one) and its token.
pub struct Bound {
    listener: TcpListener,
    pub address: SocketAddr,
    pub token: Option<String>,
    /// What an MCP client sends as its bearer token at `/mcp`: the page's token, or one made for MCP alone when
    /// the page is served to loopback without one.
    pub mcp_token: String,
    owner: Option<String>,
}

impl Bound {
    /// The page's address, with the token when one is needed.
    pub fn url(&self) -> String {
        match &self.token {
            Some(token) => format!("http://{}/?token={token}", self.address),
            None => format!("http://{}/", self.address),
        }
    }
}

/// Listens at the configured address (before the bots join, so a port in use is said at once). An address other
/// than loopback without a configured token gets a new random one.
pub async fn bind(config: &DashboardConfig) -> Result<Bound, DashboardError> {
    let listener =
        TcpListener::bind(config.address).await.map_err(|cause| DashboardError { address: config.address, cause })?;
    let address = listener.local_addr().map_err(|cause| DashboardError { address: config.address, cause })?;
    let token = match &config.token {
        Some(token) => Some(token.clone()),
        None if config.is_loopback() => None,
        None => Some(new_token().map_err(|cause| DashboardError { address, cause })?),
    };
    let mcp_token = match &token {
        Some(token) => token.clone(),
        None => new_token().map_err(|cause| DashboardError { address, cause })?,
    };
    Ok(Bound { listener, address, token, mcp_token, owner: config.owner.clone() })
}

/// 128 random bits, in hex.
fn new_token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(std::io::Error::other)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// What every handler reaches.
struct Board {
    shared: Arc<Shared>,
    bots: Vec<Arc<BotState>>,
    token: Option<String>,
    owner: Option<String>,
}

impl Board {
    fn bot(&self, name: &str) -> Result<&Arc<BotState>, Problem> {
        self.bots
            .iter()
            .find(|b| b.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| Problem::new(StatusCode::NOT_FOUND, format!("no bot called {name:?} here")))
    }
}

/// Serves the page until the process ends (spawned on the runtime; the bots' task set is not involved).
/// `more` is served beside the page (the MCP endpoint), behind its own guard.
pub fn serve(bound: Bound, shared: Arc<Shared>, bots: Vec<Arc<BotState>>, more: Router) {
    let url = bound.url();
    match &bound.owner {
        Some(owner) => tracing::info!("dashboard: {url} (commands typed there count as {owner}'s)"),
        None => tracing::info!("dashboard: {url} (no owner is configured, so it cannot send commands)"),
    }
    let app = router(Arc::new(Board { shared, bots, token: bound.token, owner: bound.owner })).merge(more);
    tokio::spawn(async move {
        // Small answers go out at once: with Nagle's algorithm each waited for the client's delayed ACK (~40 ms).
        let listener = axum::serve::ListenerExt::tap_io(bound.listener, |tcp| {
            if let Err(err) = tcp.set_nodelay(true) {
                tracing::debug!("TCP_NODELAY not set on a dashboard connection: {err}");
            }
        });
        if let Err(err) = axum::serve(listener, app).await {
            tracing::error!("the dashboard stopped: {err}");
        }
    });
}

fn router(board: Arc<Board>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/events", get(events))
        .route("/api/state", get(state))
        .route("/api/map", get(map_of))
        .route("/api/command", post(command))
        .route("/api/skills", get(skills))
        .route("/api/skill", get(skill))
        .route("/api/learning", get(learning))
        .route("/api/memory", get(memory))
        .fallback(|| async { Problem::new(StatusCode::NOT_FOUND, "no such page: the dashboard is at /".to_owned()) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(board)
}

/// A request refused, as JSON `{"error": …}` with its status.
#[derive(Debug)]
struct Problem {
    status: StatusCode,
    message: String,
}

impl Problem {
    fn new(status: StatusCode, message: String) -> Self {
        Problem { status, message }
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}

/// A request carrying the token, when one is needed.
struct Authorized;

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

impl FromRequestParts<Arc<Board>> for Authorized {
    type Rejection = Problem;

    async fn from_request_parts(parts: &mut Parts, board: &Arc<Board>) -> Result<Self, Self::Rejection> {
        let Some(expected) = &board.token else {
            // Without a token only this machine is served; a page of another site whose name was made to point
            // here (DNS rebinding) still names that site in `Host`, and is refused.
            let host = parts.headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
            return if is_local_host(host) {
                Ok(Authorized)
            } else {
                Err(Problem::new(
                    StatusCode::FORBIDDEN,
                    format!("this dashboard answers to localhost only, not {host:?}"),
                ))
            };
        };
        let from_query = Query::<TokenQuery>::try_from_uri(&parts.uri).ok().and_then(|q| q.0.token);
        let from_header = bearer(&parts.headers);
        let given = from_query.or(from_header).unwrap_or_default();
        if same(given.as_bytes(), expected.as_bytes()) {
            Ok(Authorized)
        } else {
            Err(Problem::new(
                StatusCode::UNAUTHORIZED,
                "this dashboard needs its token: open the address printed at start (…/?token=…)".to_owned(),
            ))
        }
    }
}

/// `localhost:8080`, `127.0.0.1:8080`, `[::1]:8080` (with or without the port).
fn is_local_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split_once(']').map_or("", |(ip, _)| ip),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

pub(super) fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(|t| t.trim().to_owned())
}

/// Compares in time that does not depend on where the two differ.
pub(super) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

async fn page(_: Authorized) -> impl IntoResponse {
    ([(header::CACHE_CONTROL, "no-store")], Html(PAGE))
}

/// What the page is sent each second.
#[derive(Serialize)]
struct Tick {
    bots: Vec<view::BotView>,
    chat: Vec<super::state::ChatLine>,
    /// The owner the page's commands count as, if it may send any.
    owner: Option<String>,
    skills: usize,
}

#[derive(Deserialize)]
struct Since {
    /// The last chat line the page has.
    #[serde(default)]
    chat: u64,
}

/// Every bot's state, copied out on the bots' task set (none while no bot has spawned to carry the request).
async fn tick(board: &Board, chat_seen: u64) -> Tick {
    let mut bots = Vec::new();
    if !board.bots.is_empty() {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let looked_at = board.bots.clone();
        let look: PageCommand = Box::new(move || {
            let _ = reply.send(looked_at.iter().map(|bot| view::bot(bot)).collect::<Vec<BotView>>());
        });
        if board.shared.page_commands.sender.send(look).is_ok()
            && let Ok(Ok(views)) = tokio::time::timeout(LOOK_TIMEOUT, answer).await
        {
            bots = views;
        }
    }
    Tick {
        bots,
        chat: board.shared.chat.since(chat_seen),
        owner: board.owner.clone(),
        skills: board.shared.skills.len(),
    }
}

/// One state, for a page without event streams (and for tests).
async fn state(_: Authorized, State(board): State<Arc<Board>>, Query(since): Query<Since>) -> Json<Tick> {
    Json(tick(&board, since.chat).await)
}

/// The event stream: the state at once and then every [`TICK`], for as long as the page stays.
async fn events(
    _: Authorized,
    State(board): State<Arc<Board>>,
    Query(since): Query<Since>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let stream = stream::unfold((board, since.chat, true), |(board, seen, first)| async move {
        if !first {
            tokio::time::sleep(TICK).await;
        }
        let tick = tick(&board, seen).await;
        let seen = tick.chat.last().map_or(seen, |line| line.seq);
        let event = Event::default()
            .event("state")
            .json_data(&tick)
            .unwrap_or_else(|_| Event::default().comment("unserialisable"));
        Some((Ok(event), (board, seen, false)))
    });
    Sse::new(stream)
}

#[derive(Deserialize)]
struct BotQuery {
    bot: String,
}

async fn map_of(
    _: Authorized,
    State(board): State<Arc<Board>>,
    Query(q): Query<BotQuery>,
) -> Result<Json<map::MapView>, Problem> {
    let bot = board.bot(&q.bot)?;
    let Some(handle) = bot.connected() else {
        return Err(Problem::new(StatusCode::CONFLICT, format!("{} is not connected now", bot.name)));
    };
    let mut map = tokio::task::spawn_blocking(move || map::around(&handle))
        .await
        .map_err(|_| Problem::new(StatusCode::INTERNAL_SERVER_ERROR, "the map could not be read".to_owned()))?;
    map.preview = bot.preview.lock().clone();
    Ok(Json(map))
}

#[derive(Deserialize)]
struct CommandBody {
    bot: String,
    line: String,
}

/// A command typed in the page, carried out as the owner's chat command would be (its replies go to chat).
async fn command(
    _: Authorized,
    State(board): State<Arc<Board>>,
    body: Result<Json<CommandBody>, JsonRejection>,
) -> Result<(StatusCode, Json<serde_json::Value>), Problem> {
    let Json(body) = body.map_err(|rejection| {
        Problem::new(
            rejection.status(),
            format!("send JSON {{\"bot\": NAME, \"line\": \"!command …\"}}: {}", rejection.body_text()),
        )
    })?;
    let Some(owner) = board.owner.clone() else {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            "no owner is configured (--owner PLAYER), so the page cannot command".to_owned(),
        ));
    };
    let bot = board.bot(&body.bot)?.clone();
    let line = body.line.trim().to_owned();
    if line.is_empty() || line.len() > MAX_LINE || line.chars().any(char::is_control) {
        return Err(Problem::new(
            StatusCode::BAD_REQUEST,
            format!("a command is one line of 1 to {MAX_LINE} characters"),
        ));
    }
    let prefix = &board.shared.config.prefix;
    let parsed = parse_line(&line, prefix).ok_or_else(|| {
        Problem::new(
            StatusCode::BAD_REQUEST,
            format!("not a command: commands start with {prefix} ({prefix}help lists them)"),
        )
    })?;
    let command = parsed.command.map_err(|hint| Problem::new(StatusCode::BAD_REQUEST, hint.to_string()))?;
    if bot.connected().is_none() {
        return Err(Problem::new(
            StatusCode::CONFLICT,
            format!("{} is not connected now; try again when it is back", bot.name),
        ));
    }
    board.shared.chat.push(None, &owner, &format!("{}: {line}", bot.name));
    let name = bot.name.clone();
    board
        .shared
        .page_commands
        .sender
        .send(Box::new(move || obey(&bot, &owner, &line, command)))
        .map_err(|_| Problem::new(StatusCode::SERVICE_UNAVAILABLE, "the bots are not running".to_owned()))?;
    Ok((StatusCode::ACCEPTED, Json(serde_json::json!({ "ok": format!("sent to {name}") }))))
}

/// Carries out the page's requests on the bots' task set, for as long as the bots run (started by the first bot to
/// spawn): commands typed there, and copies of the bots' state.
pub async fn carry_out(mut requests: tokio::sync::mpsc::UnboundedReceiver<PageCommand>) {
    while let Some(request) = requests.recv().await {
        request();
    }
}

/// Carries out `command`, typed in the page as `line` by `owner` for `state`'s bot.
fn obey(state: &Arc<BotState>, owner: &str, line: &str, command: crate::chat::Command) {
    let Some(bot) = state.connected() else {
        tracing::info!("{}: a command from the dashboard arrived while it was away: {line:?}", state.name);
        return;
    };
    tracing::info!("{}: {owner} (dashboard): {line}", state.name);
    // Remembered as the same words said in chat would be (a goal asked for is).
    super::memory::heard(state, &bot, owner, line, Some(&Ok(command.clone())));
    state.shared.languages.heard_command(owner, line, &state.shared.config.prefix);
    super::commands::execute(bot, state, owner, command);
}

#[derive(Deserialize)]
struct SkillsQuery {
    #[serde(default)]
    q: String,
}

#[derive(Serialize)]
struct SkillRow {
    name: String,
    signature: String,
    description: String,
    version: u32,
    /// How well it matched the search, 0 to 1 (absent when listing).
    score: Option<f32>,
}

/// The library, or the skills nearest a query by the same retrieval as `!skills`.
async fn skills(
    _: Authorized,
    State(board): State<Arc<Board>>,
    Query(q): Query<SkillsQuery>,
) -> Result<Json<Vec<SkillRow>>, Problem> {
    let row = |skill: &crate::skills::Skill, score| SkillRow {
        name: skill.name.clone(),
        signature: skill.signature(),
        description: skill.meta.description.clone(),
        version: skill.meta.version,
        score,
    };
    let query = q.q.trim().to_owned();
    if query.is_empty() {
        return Ok(Json(board.shared.skills.list().iter().map(|s| row(s, None)).collect()));
    }
    if query.len() > 500 {
        return Err(Problem::new(StatusCode::BAD_REQUEST, "a search is at most 500 characters".to_owned()));
    }
    let library = board.shared.skills.clone();
    let found = tokio::task::spawn_blocking(move || library.retrieve(&query, 10))
        .await
        .map_err(|_| Problem::new(StatusCode::INTERNAL_SERVER_ERROR, "the skill search failed".to_owned()))?
        .map_err(|err| {
            Problem::new(StatusCode::SERVICE_UNAVAILABLE, format!("skill search is not available: {err}"))
        })?;
    Ok(Json(found.iter().map(|m| row(&m.skill, Some(m.score))).collect()))
}

#[derive(Deserialize)]
struct SkillQuery {
    name: String,
}

/// One skill: its description, task, code, and its other versions (`nameV2`, … or the one it is a version of).
async fn skill(
    _: Authorized,
    State(board): State<Arc<Board>>,
    Query(q): Query<SkillQuery>,
) -> Result<Json<serde_json::Value>, Problem> {
    let library = &board.shared.skills;
    let skill = library
        .get(&q.name)
        .ok_or_else(|| Problem::new(StatusCode::NOT_FOUND, format!("no skill called {:?}", q.name)))?;
    let base = base_name(&skill.name);
    let versions: Vec<serde_json::Value> = library
        .list()
        .iter()
        .filter(|other| base_name(&other.name) == base)
        .map(|other| serde_json::json!({ "name": other.name, "version": other.meta.version, "created": other.meta.created }))
        .collect();
    Ok(Json(serde_json::json!({
        "name": skill.name,
        "signature": skill.signature(),
        "description": skill.meta.description,
        "task": skill.meta.task,
        "created": skill.meta.created,
        "version": skill.meta.version,
        "code": skill.code,
        "versions": versions,
    })))
}

/// `craftTableV3` → `craftTable`: the name a skill's versions share.
fn base_name(name: &str) -> &str {
    match name.rsplit_once('V') {
        Some((base, number))
            if !base.is_empty() && !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) =>
        {
            base
        }
        _ => name,
    }
}

/// The learning history: the tasks learning completed and failed, and its latest task events.
async fn learning(
    _: Authorized,
    State(board): State<Arc<Board>>,
    Query(q): Query<BotQuery>,
) -> Result<Json<serde_json::Value>, Problem> {
    let bot = board.bot(&q.bot)?;
    let dir = bot.shared.config.checkpoint_for(&bot.name);
    let history = tokio::task::spawn_blocking(move || {
        let checkpoint = crate::agent::checkpoint::Checkpoint::open(dir);
        let events = checkpoint.events();
        let latest: Vec<_> = events.iter().rev().take(50).cloned().collect();
        serde_json::json!({
            "completed": checkpoint.tasks.completed,
            "failed": checkpoint.tasks.failed,
            "events": latest,
        })
    })
    .await
    .map_err(|_| Problem::new(StatusCode::INTERNAL_SERVER_ERROR, "the checkpoint could not be read".to_owned()))?;
    let goals = crate::agent::goals::with(&bot.goals, |book| {
        book.goals()
            .iter()
            .rev()
            .take(20)
            .map(|g| serde_json::json!({ "id": g.id, "text": g.text, "status": g.status.name(), "asked_by": g.asked_by, "reason": g.reason }))
            .collect::<Vec<_>>()
    });
    let mut history = history;
    history["goals"] = serde_json::Value::Array(goals);
    Ok(Json(history))
}

#[derive(Deserialize)]
struct MemoryQuery {
    bot: String,
    #[serde(default)]
    q: String,
}

/// The memory stream: the latest memories, or those a query recalls (ranked without refreshing their recency: the
/// page looks, the bot does not remember).
async fn memory(
    _: Authorized,
    State(board): State<Arc<Board>>,
    Query(q): Query<MemoryQuery>,
) -> Result<Json<serde_json::Value>, Problem> {
    let bot = board.bot(&q.bot)?;
    let Some(memories) = bot.memory.clone() else {
        return Ok(Json(serde_json::json!({ "enabled": false, "memories": [] })));
    };
    let query = q.q.trim().to_owned();
    if query.len() > 500 {
        return Err(Problem::new(StatusCode::BAD_REQUEST, "a search is at most 500 characters".to_owned()));
    }
    let found = crate::agent::memory::blocking(&memories, move |stream| {
        let now = stream.now(None);
        let row = |m: &crate::memory::Memory| {
            serde_json::json!({
                "id": m.id,
                "text": m.text,
                "importance": m.importance,
                "kind": format!("{:?}", m.kind()).to_lowercase(),
                "age": crate::memory::age_text(now.saturating_sub(m.at)),
            })
        };
        let rows: Vec<_> = if query.is_empty() {
            stream.recent(40, now).into_iter().rev().map(row).collect()
        } else {
            stream.rank(&query, now, 20)?.iter().map(|r| row(&r.memory)).collect()
        };
        Ok(serde_json::json!({ "enabled": true, "count": stream.len(), "memories": rows }))
    })
    .await
    .map_err(|err| Problem::new(StatusCode::SERVICE_UNAVAILABLE, err))?;
    Ok(Json(found))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The routes over real HTTP, without bots: the token, and a clear 4xx for each kind of bad request.
    #[tokio::test]
    async fn requests_need_the_token_and_bad_ones_get_a_clear_4xx() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let dir = crate::test_dir("dashboard");
        let scripts = Arc::new(crate::script::library::ScriptLibrary::open(dir.join("scripts")).0);
        let skills = Arc::new(crate::skills::SkillLibrary::open(dir.join("skills")).0);
        let shared = Arc::new(Shared::new(crate::config::Config::default(), scripts, skills, None));
        let serve = |owner: Option<&str>| {
            let board = Board {
                shared: shared.clone(),
                bots: Vec::new(),
                token: Some("s3cret-token".into()),
                owner: owner.map(str::to_owned),
            };
            async move {
                let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
                let address = listener.local_addr().unwrap();
                tokio::spawn(axum::serve(listener, router(Arc::new(board))).into_future());
                address
            }
        };
        let ask = |address: SocketAddr, head: String, body: String| async move {
            let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
            let host = if head.contains("Host:") { "" } else { "\r\nHost: x" };
            let request = format!("{head}{host}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}", body.len());
            stream.write_all(request.as_bytes()).await.unwrap();
            let mut response = String::new();
            let _ = stream.read_to_string(&mut response).await;
            let status: u16 = response.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
            (status, response.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default())
        };
        let address = serve(Some("Alice")).await;
        let get = |path: &str| ask(address, format!("GET {path} HTTP/1.1"), String::new());
        let post = |path: &str, body: &str| {
            ask(address, format!("POST {path} HTTP/1.1\r\nContent-Type: application/json"), body.to_owned())
        };
        for path in [
            "/",
            "/api/state",
            "/api/events",
            "/api/map?bot=x",
            "/api/skills",
            "/api/memory?bot=x",
            "/api/learning?bot=x",
        ] {
            assert_eq!(get(path).await.0, 401, "{path} without the token");
        }
        assert_eq!(get("/?token=s3cret-tokem").await.0, 401, "a wrong token");
        let (status, page) = get("/?token=s3cret-token").await;
        assert_eq!(status, 200);
        assert!(page.contains("<title>Wayfarer</title>"));
        let bearer =
            ask(address, "GET /api/state HTTP/1.1\r\nAuthorization: Bearer s3cret-token".into(), String::new()).await;
        assert_eq!(bearer.0, 200, "the token in a header: {}", bearer.1);
        assert!(bearer.1.contains("\"bots\":[]"), "{}", bearer.1);
        assert_eq!(post("/api/command", r#"{"bot": "Wayfarer", "line": "!stop"}"#).await.0, 401);

        let t = |path: &str| format!("{path}{}token=s3cret-token", if path.contains('?') { '&' } else { '?' });
        let (status, body) = post(&t("/api/command"), r#"{"bot": "Wayfarer", "line": "!stop"}"#).await;
        assert_eq!(status, 404, "{body}");
        assert!(body.contains("no bot called"), "{body}");
        assert_eq!(post(&t("/api/command"), r#"{"bot": 5}"#).await.0, 422, "a field of the wrong type");
        assert_eq!(post(&t("/api/command"), "not json").await.0, 400);
        let huge = format!(r#"{{"bot": "Wayfarer", "line": "{}"}}"#, "a".repeat(MAX_BODY));
        assert_eq!(post(&t("/api/command"), &huge).await.0, 413, "a body past the limit");
        assert_eq!(get(&t("/api/map")).await.0, 400, "no ?bot=");
        assert_eq!(get(&t("/api/map?bot=Nobody")).await.0, 404);
        assert_eq!(get(&t("/api/skill?name=nothing")).await.0, 404);
        assert_eq!(get(&t("/api/skills?q=")).await.0, 200, "an empty search lists the library");
        assert_eq!(get(&t("/api/nowhere")).await.0, 404);

        // Without a token, only local names are served.
        let board = Board { shared: shared.clone(), bots: Vec::new(), token: None, owner: None };
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let open = listener.local_addr().unwrap();
        tokio::spawn(axum::serve(listener, router(Arc::new(board))).into_future());
        let local = ask(open, "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1".into(), String::new()).await;
        assert_eq!(local.0, 200);
        let (status, body) = ask(open, "GET /api/state HTTP/1.1\r\nHost: evil.example".into(), String::new()).await;
        assert_eq!(status, 403, "{body}");

        // Without an owner the page can look but not command.
        let address = serve(None).await;
        let (status, body) = ask(
            address,
            "POST /api/command?token=s3cret-token HTTP/1.1\r\nContent-Type: application/json".into(),
            r#"{"bot": "Wayfarer", "line": "!stop"}"#.into(),
        )
        .await;
        assert_eq!(status, 403, "{body}");
        assert!(body.contains("no owner is configured"), "{body}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn versions_share_a_base_name() {
        assert_eq!(base_name("craftTableV3"), "craftTable");
        assert_eq!(base_name("craftTable"), "craftTable");
        assert_eq!(base_name("mineV"), "mineV");
        assert_eq!(base_name("V2"), "V2");
        assert_eq!(base_name("getVillagerV12"), "getVillager");
    }

    #[test]
    fn only_local_names_pass_without_a_token() {
        for host in ["localhost:8080", "127.0.0.1:8080", "127.0.0.1", "[::1]:8080", "LOCALHOST"] {
            assert!(is_local_host(host), "{host}");
        }
        for host in ["evil.example:8080", "192.168.1.5:8080", "", "[::1", "localhost.evil.example"] {
            assert!(!is_local_host(host), "{host}");
        }
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same(b"abcdef12", b"abcdef12"));
        assert!(!same(b"abcdef12", b"abcdef13"));
        assert!(!same(b"abcdef1", b"abcdef12"));
        assert!(!same(b"", b"abcdef12"));
        let token = new_token().unwrap();
        assert_eq!(token.len(), 32);
        assert_ne!(token, new_token().unwrap());
    }
}
