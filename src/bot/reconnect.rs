//! Reconnecting with exponential backoff.
//!
//! azalea rejoins a disconnected client after the delay in its `AutoReconnectDelay` component. This plugin sets that
//! component per bot before each rejoin, doubling it after every failed attempt (up to the configured maximum) and
//! starting over once the bot has spawned again. It also logs why each disconnect happened.

use azalea::{
    app::{App, Plugin, Update},
    auto_reconnect::{AutoReconnectDelay, start_rejoin_on_disconnect},
    disconnect::DisconnectEvent,
    ecs::prelude::*,
    events::SentSpawnEvent,
    join::ConnectionFailedEvent,
    player::GameProfileComponent,
};

use crate::config::Backoff;
// The ECS derive macros expect `bevy_ecs` in scope; azalea re-exports it.
use azalea::ecs as bevy_ecs;

/// Adds backoff to azalea's auto-reconnect.
pub struct ReconnectBackoffPlugin {
    pub policy: Backoff,
}

impl Plugin for ReconnectBackoffPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(BackoffPolicy(self.policy))
            .add_systems(Update, (reset_after_spawn, schedule_rejoin).chain().before(start_rejoin_on_disconnect));
    }
}

#[derive(Resource)]
struct BackoffPolicy(Backoff);

/// How many reconnect attempts in a row have failed for this bot.
#[derive(Component, Default)]
struct FailedAttempts(u32);

fn schedule_rejoin(
    mut commands: Commands,
    mut disconnects: MessageReader<DisconnectEvent>,
    mut failures: MessageReader<ConnectionFailedEvent>,
    attempts: Query<(Option<&FailedAttempts>, Option<&GameProfileComponent>)>,
    policy: Res<BackoffPolicy>,
) {
    let disconnects = disconnects.read().map(|e| {
        let reason = e.reason.as_ref().map_or_else(|| "connection closed".to_owned(), |r| r.to_string());
        (e.entity, reason)
    });
    let failures = failures.read().map(|e| (e.entity, format!("connection failed: {}", e.error)));
    for (entity, reason) in disconnects.chain(failures) {
        let (previous, profile) = attempts.get(entity).unwrap_or((None, None));
        let attempt = previous.map_or(0, |a| a.0) + 1;
        let delay = policy.0.delay(attempt);
        let name = profile.map_or_else(|| format!("{entity}"), |p| p.0.name.clone());
        tracing::warn!(
            "{name} disconnected ({reason}); reconnecting in {:.1}s (attempt {attempt})",
            delay.as_secs_f64()
        );
        commands.entity(entity).insert((FailedAttempts(attempt), AutoReconnectDelay::new(delay)));
    }
}

fn reset_after_spawn(mut spawned: Query<&mut FailedAttempts, Added<SentSpawnEvent>>) {
    for mut attempts in &mut spawned {
        attempts.0 = 0;
    }
}
