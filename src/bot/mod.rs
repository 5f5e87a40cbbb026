//! The bots: connecting (one or a swarm), staying connected, and turning chat lines into commands.
//!
//! This module owns everything that talks to azalea. It answers owners only; other players' lines are logged at
//! debug level and dropped. It must not parse chat grammar itself ([`crate::chat`] does) nor read configuration
//! sources ([`crate::config`] does).

mod activity;
mod commands;
mod connect;
mod handle;
mod reconnect;

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Instant,
};

use azalea::{
    Client, Event,
    account::Account,
    app::AppExit,
    chat::ChatPacket,
    ecs::component::Component,
    swarm::{Swarm, SwarmBuilder, SwarmEvent},
};

// The ECS derive macros expect `bevy_ecs` in scope; azalea re-exports it.
use azalea::ecs as bevy_ecs;
pub use activity::Activity;
pub use handle::{BotHandle, MoveError, Status, fmt_pos};
use reconnect::ReconnectBackoffPlugin;

use tokio::sync::broadcast;

use crate::{
    chat::{Owners, parse_line},
    config::{AuthMode, Config, ReplyMode},
    script::library::{LoadEvent, ScriptLibrary},
    skills::{SkillEvent, SkillLibrary},
};

/// Why a run could not start or ended with an error.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("cannot resolve server address {server}: {reason}")]
    Resolve { server: String, reason: String },
    #[error("cannot connect to {server} ({socket}): {reason}; is the server running and the address right?")]
    Unreachable { server: String, socket: SocketAddr, reason: String },
    #[error("Microsoft sign-in for {account} failed: {reason}")]
    Auth { account: String, reason: String },
    #[error("the bots stopped with an error (see the log above)")]
    Stopped,
}

/// What every bot in the process shares.
pub struct Shared {
    pub config: Config,
    pub owners: Owners,
    /// Our own bots' names: their chat is never taken as a command.
    pub bot_names: Vec<String>,
    /// When the run started: the first spawn is logged with the time it took.
    pub started: Instant,
    /// The scripts `!run` knows, kept current by a file watcher.
    pub scripts: Arc<ScriptLibrary>,
    /// The skill library: callable from every script, runnable by `!run`, searchable by `!skills`.
    pub skills: Arc<SkillLibrary>,
    /// The LLM client, when one is configured (`!task`).
    pub llm: Option<Arc<crate::llm::Llm>>,
    /// News for the owners (script reload results), said in chat by the first bot.
    pub announcements: broadcast::Sender<String>,
}

impl Default for Shared {
    fn default() -> Self {
        let config = Config::default();
        let scripts = Arc::new(ScriptLibrary::empty(&config.scripts_dir));
        let skills = Arc::new(SkillLibrary::open(&config.skills_dir).0);
        Self::new(config, scripts, skills)
    }
}

impl Shared {
    pub fn new(config: Config, scripts: Arc<ScriptLibrary>, skills: Arc<SkillLibrary>) -> Self {
        Self {
            llm: config.llm.clone().map(|llm| Arc::new(crate::llm::Llm::new(llm))),
            owners: Owners::new(config.owners.iter().cloned()),
            bot_names: config.bot_names(),
            config,
            started: Instant::now(),
            scripts,
            skills,
            announcements: broadcast::channel(64).0,
        }
    }
}

/// Per-bot state handed to the event handler with every event.
#[derive(Clone, Component, Default)]
pub struct BotState {
    pub shared: Arc<Shared>,
    pub activity: Activity,
    spawned_before: Arc<AtomicBool>,
}

/// Joins the configured server with every configured bot and serves chat commands until the process is stopped.
pub async fn run(config: Config) -> Result<(), BotError> {
    let address = connect::preflight(&config.server).await?;
    if config.owners.is_empty() {
        tracing::warn!("no owners configured: every chat command will be ignored (add --owner PLAYER)");
    }
    let (scripts, loaded) = ScriptLibrary::open(&config.scripts_dir);
    for event in &loaded {
        match event {
            LoadEvent::Failed { .. } => tracing::warn!("{event}"),
            _ => tracing::debug!("{event}"),
        }
    }
    tracing::info!("{} script(s) in {}", scripts.names().len(), config.scripts_dir.display());
    let skills = Arc::new(open_skills(&config));
    let shared = Arc::new(Shared::new(config, Arc::new(scripts), skills));
    let announcements = shared.announcements.clone();
    // Kept alive for the whole run: dropping it stops the hot reload.
    let _watcher = shared
        .scripts
        .watch(move |event| {
            match &event {
                LoadEvent::Failed { .. } => tracing::warn!("{event}"),
                _ => tracing::info!("{event}"),
            }
            let _ = announcements.send(format!("Scripts: {event}"));
        })
        .inspect_err(|err| tracing::warn!("script files will not hot-reload: {err}"))
        .ok();
    let announcements = shared.announcements.clone();
    let _skill_watcher = shared
        .skills
        .watch(move |event| {
            match &event {
                SkillEvent::Failed { .. } => tracing::warn!("{event}"),
                _ => tracing::info!("{event}"),
            }
            let _ = announcements.send(format!("Skills: {event}"));
        })
        .inspect_err(|err| tracing::warn!("skill files will not hot-reload: {err}"))
        .ok();
    let config = &shared.config;

    let mut builder = SwarmBuilder::new()
        .set_handler(handle_event)
        .set_swarm_handler(handle_swarm_event)
        .reconnect_after(config.reconnect.initial)
        .add_plugins(ReconnectBackoffPlugin { policy: config.reconnect });
    for name in &shared.bot_names {
        let account = match config.auth {
            AuthMode::Offline => Account::offline(name),
            AuthMode::Microsoft => Account::microsoft(name)
                .await
                .map_err(|e| BotError::Auth { account: name.clone(), reason: e.to_string() })?,
        };
        let state = BotState { shared: shared.clone(), ..Default::default() };
        builder = builder.add_account_with_state(account, state);
    }
    tracing::info!(
        "joining {} ({}) with {} bot{}; owners: {}",
        config.server,
        address.socket,
        shared.bot_names.len(),
        if shared.bot_names.len() == 1 { "" } else { "s" },
        if config.owners.is_empty() { "none".to_owned() } else { config.owners.join(", ") }
    );
    match builder.start(&address).await {
        AppExit::Success => Ok(()),
        AppExit::Error(_) => Err(BotError::Stopped),
    }
}

/// Loads the skills' code. Search loads the embedding model when it is first needed (an idle bot stays small and
/// joins at once); a missing model is reported now. Skills run with `!run` either way.
fn open_skills(config: &Config) -> SkillLibrary {
    let (skills, loaded) = SkillLibrary::open(&config.skills_dir);
    for event in &loaded {
        match event {
            SkillEvent::Failed { .. } => tracing::warn!("{event}"),
            _ => tracing::debug!("{event}"),
        }
    }
    tracing::info!("{} skill(s) in {}", skills.len(), config.skills_dir.display());
    if let Err(err) = crate::skills::Embedder::check(&config.models_dir) {
        tracing::warn!("skill search will not work until the model is there: {err}");
    }
    skills.search_lazily(config.models_dir.clone());
    skills
}

async fn handle_swarm_event(_swarm: Swarm, _event: SwarmEvent, _state: azalea::swarm::NoSwarmState) {}

async fn handle_event(client: Client, event: Event, state: BotState) {
    match event {
        Event::Spawn => {
            let bot = BotHandle::new(client);
            if state.spawned_before.swap(true, Ordering::Relaxed) {
                tracing::info!("{} spawned again at {}", bot.name(), fmt_pos(bot.position()));
            } else {
                let ms = state.shared.started.elapsed().as_millis();
                tracing::info!("{} spawned at {} in {ms} ms", bot.name(), fmt_pos(bot.position()));
                if state.shared.bot_names.first() == Some(&bot.name()) {
                    tokio::task::spawn_local(announce(bot.clone(), state.shared.clone()));
                    if let Some(iterations) = state.shared.config.learn_on_spawn {
                        let to = state.shared.config.owners.first().cloned().unwrap_or_default();
                        let reply = commands::Replier::new(bot.clone(), to, state.shared.config.reply);
                        commands::start_learning(bot, &state, reply, Some(iterations), true);
                    }
                }
            }
        }
        Event::Chat(packet) => on_chat(BotHandle::new(client), &packet, &state),
        Event::Disconnect(_) => {
            // The reconnect plugin logs the reason; whatever the bot was doing cannot go on.
            state.activity.cancel();
        }
        Event::Death(_) => tracing::warn!("{} died", client.username()),
        _ => {}
    }
}

/// Says the owners' news in chat for as long as the run lasts (only the first bot does this).
async fn announce(bot: BotHandle, shared: Arc<Shared>) {
    let mut news = shared.announcements.subscribe();
    loop {
        match news.recv().await {
            Ok(line) => match shared.config.reply {
                ReplyMode::Public => commands::Replier::new(bot.clone(), "", ReplyMode::Public).say(&line),
                ReplyMode::Whisper => {
                    for owner in &shared.config.owners {
                        commands::Replier::new(bot.clone(), owner, ReplyMode::Whisper).say(&line);
                    }
                }
            },
            Err(broadcast::error::RecvError::Lagged(missed)) => tracing::warn!("{missed} announcements were dropped"),
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

fn on_chat(bot: BotHandle, packet: &ChatPacket, state: &BotState) {
    let (Some(sender), content) = packet.split_sender_and_content() else {
        return;
    };
    let shared = &state.shared;
    if shared.bot_names.iter().any(|name| name.eq_ignore_ascii_case(&sender)) {
        return;
    }
    let Some(line) = parse_line(&content, &shared.config.prefix) else {
        return;
    };
    let me = bot.name();
    if !line.is_for(&me) {
        return;
    }
    if !shared.owners.contains(&sender) {
        tracing::debug!("{me} ignores a command from {sender}, who is not an owner: {content:?}");
        return;
    }
    match line.command {
        Ok(command) => commands::execute(bot, state, &sender, command),
        Err(hint) => {
            tracing::info!("{me}: malformed command from {sender}: {content:?}");
            commands::Replier::new(bot, &sender, shared.config.reply).say(&hint.to_string());
        }
    }
}
