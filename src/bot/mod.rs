//! The azalea adapter: joining a server with one bot or a swarm, staying connected (reconnect with backoff), and
//! handing each bot's events to whoever drives it ([`Brain`]). [`BotHandle`] is the bot as the rest of Wayfarer sees
//! it.
//!
//! This module knows nothing of commands, owners, scripts or learning (the app layer above does); it must not parse
//! chat grammar nor read configuration sources.

mod caves;
mod changes;
mod clock;
mod connect;
mod handle;
mod menus;
pub mod moves;
pub mod pickups;
mod reconnect;
pub mod reflex;

use std::{
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
    ecs::component::Component,
    protocol::address::ResolvedAddr,
    swarm::{Swarm, SwarmBuilder, SwarmEvent},
};

// The ECS derive macros expect `bevy_ecs` in scope; azalea re-exports it.
use azalea::ecs as bevy_ecs;
pub use changes::Changed;
pub use clock::DayClock;
pub use connect::preflight;
pub use handle::{BotHandle, HOSTILE_RANGE, MAX_AIR, MoveError, Observation, SmeltJob, Status, fmt_block, fmt_pos};
use reconnect::ReconnectBackoffPlugin;

use crate::config::{AuthMode, Config};

/// Why a run could not start or ended with an error.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("cannot resolve server address {server}: {reason}")]
    Resolve { server: String, reason: String },
    #[error("cannot connect to {server} ({socket}): {reason}; is the server running and the address right?")]
    Unreachable { server: String, socket: std::net::SocketAddr, reason: String },
    #[error("Microsoft sign-in for {account} failed: {reason}")]
    Auth { account: String, reason: String },
    #[error("the bots stopped with an error (see the log above)")]
    Stopped,
}

/// What drives one bot: it hears the bot's events. Every method is called on azalea's local task set (so it may
/// `tokio::task::spawn_local`) and must return quickly.
pub trait Brain: Send + Sync + 'static {
    /// The bot is in the world: `again` after a respawn or a reconnect.
    fn spawned(&self, bot: BotHandle, again: bool);
    /// A chat line from another player (or the server: then `sender` is `None`).
    fn heard(&self, bot: BotHandle, sender: Option<String>, content: String);
    /// The connection was lost; a reconnect follows on its own.
    fn disconnected(&self);
    fn died(&self, bot: BotHandle);
}

/// One bot to join: its player name and what drives it.
pub struct Member {
    pub name: String,
    pub brain: Arc<dyn Brain>,
}

/// Per-bot state azalea hands to the event handler with every event.
#[derive(Clone, Component, Default)]
struct BotState {
    brain: Option<Arc<dyn Brain>>,
    spawned_before: Arc<AtomicBool>,
    started: Option<Instant>,
}

/// Joins `address` (checked with [`preflight`]) with every member and serves their events until the process is
/// stopped.
pub async fn run_swarm(config: &Config, address: &ResolvedAddr, members: Vec<Member>) -> Result<(), BotError> {
    let started = Instant::now();
    let mut builder = SwarmBuilder::new()
        .set_handler(handle_event)
        .set_swarm_handler(handle_swarm_event)
        .reconnect_after(config.reconnect.initial)
        .add_plugins(ReconnectBackoffPlugin { policy: config.reconnect })
        .add_plugins(clock::DayClockPlugin)
        .add_plugins(pickups::PickupsPlugin)
        .add_plugins(menus::MenusPlugin)
        .add_plugins(changes::ChangesPlugin)
        .add_plugins(reflex::ReflexPlugins(config.reflexes));
    let count = members.len();
    for Member { name, brain } in members {
        let account = match config.auth {
            AuthMode::Offline => Account::offline(&name),
            AuthMode::Microsoft => Account::microsoft(&name)
                .await
                .map_err(|e| BotError::Auth { account: name.clone(), reason: e.to_string() })?,
        };
        let state = BotState { brain: Some(brain), started: Some(started), ..Default::default() };
        builder = builder.add_account_with_state(account, state);
    }
    tracing::info!(
        "joining {} ({}) with {count} bot{}; owners: {}",
        config.server,
        address.socket,
        if count == 1 { "" } else { "s" },
        if config.owners.is_empty() { "none".to_owned() } else { config.owners.join(", ") }
    );
    match builder.start(address).await {
        AppExit::Success => Ok(()),
        AppExit::Error(_) => Err(BotError::Stopped),
    }
}

async fn handle_swarm_event(_swarm: Swarm, _event: SwarmEvent, _state: azalea::swarm::NoSwarmState) {}

async fn handle_event(client: Client, event: Event, state: BotState) {
    let Some(brain) = &state.brain else { return };
    match event {
        Event::Spawn => {
            // The spawn comes before the server says where the bot stands; wait for that (2 s at most), so what
            // starts now (and the log line) sees the real place rather than the origin.
            for _ in 0..40 {
                if client.position() != azalea::Vec3::ZERO {
                    break;
                }
                client.wait_ticks(1).await;
            }
            let bot = BotHandle::new(client);
            let again = state.spawned_before.swap(true, Ordering::Relaxed);
            if again {
                tracing::info!("{} spawned again at {}", bot.name(), fmt_pos(bot.position()));
            } else {
                let ms = state.started.map_or(0, |s| s.elapsed().as_millis());
                tracing::info!("{} spawned at {} in {ms} ms", bot.name(), fmt_pos(bot.position()));
            }
            brain.spawned(bot, again);
        }
        Event::Chat(packet) => {
            let (sender, content) = packet.split_sender_and_content();
            brain.heard(BotHandle::new(client), sender, content);
        }
        Event::Disconnect(_) => brain.disconnected(),
        Event::Death(_) => {
            tracing::warn!("{} died", client.username());
            brain.died(BotHandle::new(client));
        }
        _ => {}
    }
}
