//! `killMob(name, timeout)`: hunt the nearest mob of a kind within 32 blocks (exploring for one when there is none)
//! with the best weapon carried, then pick up what it dropped; loot of its kind already lying near is picked up first.

use std::{str::FromStr, time::Duration};

use azalea::{
    EntityRef,
    buf::AzBufVar,
    ecs::query::Without,
    entity::{EntityKindComponent, LocalEntity, metadata::ItemItem},
    protocol::packets::{
        ProtocolPacket,
        game::{
            ServerboundGamePacket, s_attack::ServerboundAttack, s_interact::InteractionHand, s_swing::ServerboundSwing,
        },
    },
    registry::builtin::EntityKind,
};
use rhai::Dynamic;

use super::{explore, facts, items};
use crate::{
    bot::{BotHandle, reflex::WEAPONS},
    script::Answer,
};

/// A full-strength hit with a sword needs 0.625 s between swings; waiting that long makes every hit count.
pub(super) const ATTACK_INTERVAL: Duration = Duration::from_millis(650);

/// Hits `target` once and swings the arm.
///
/// azalea 0.16 writes the attack packet's entity id as a fixed 4-byte int, but 26.1 reads a VarInt (as
/// minecraft-data and vanilla-tested Mineflayer have it), so a server sees the wrong entity or a malformed packet.
/// The packet is therefore written by hand here: its id, then the entity id as a VarInt.
pub(super) fn attack(bot: &BotHandle, target: &EntityRef) {
    let entity_id = target.minecraft_id();
    let packet_id = ServerboundGamePacket::Attack(ServerboundAttack { entity_id }).id();
    let mut raw = Vec::with_capacity(8);
    let encoded = packet_id.azalea_write_var(&mut raw).and_then(|()| entity_id.0.azalea_write_var(&mut raw));
    if encoded.is_err() {
        return;
    }
    let client = bot.client();
    let sent = client.with_raw_connection_mut(|mut connection| connection.net_conn().map(|net| net.write_raw(&raw)));
    if !matches!(sent, Some(Ok(()))) {
        tracing::warn!("{}: could not send an attack on {entity_id}", bot.name());
    }
    client.write_packet(ServerboundSwing { hand: InteractionHand::MainHand });
}

/// Takes the best weapon carried in hand, if it carries one.
pub(super) async fn hold_best_weapon(bot: &BotHandle) {
    if let Some(weapon) = WEAPONS.iter().find(|w| items::count(bot, w) > 0)
        && let Err(err) = items::hold(bot, weapon).await
    {
        tracing::debug!("{}: could not take the {weapon}: {err}", bot.name());
    }
}

/// How long a hunt stays on while the bot readies itself for it (a sword made).
const ARMING: Duration = Duration::from_secs(180);

/// Marks a hunt for `mob` as on while the bot readies itself for it (a plan's steps before the hunt, a sword made
/// after a death): a night's monsters are hunted at night, so the bot does not dig in for the night meanwhile, and
/// what the mob drops is not eaten.
pub fn ready_hunt(bot: &BotHandle, mob: &str) {
    bot.set_on_hunt(ARMING, loot_of(mob));
}

/// How far around the bot `killMob` looks for its mob.
const RANGE: f64 = 32.0;

fn nearest_mob(bot: &BotHandle, kind: EntityKind) -> Option<EntityRef> {
    let nearest = bot
        .client()
        .nearest_entities_by::<&EntityKindComponent, Without<LocalEntity>>(move |k: &EntityKindComponent| k.0 == kind);
    nearest.iter().find(|e| e.position().distance_to(bot.position()) <= RANGE).cloned()
}

/// Keeps a hunt marked as under way while it lasts, and a little after: a reflex that takes the body (a monster
/// fought off) drops the call, which is then made again.
struct OnHunt<'a>(&'a BotHandle, std::sync::Arc<[String]>);

impl Drop for OnHunt<'_> {
    fn drop(&mut self) {
        self.0.set_on_hunt(Duration::from_secs(10), self.1.clone());
    }
}

/// What a `mob` drops when a player kills it.
fn loot_of(mob: &str) -> std::sync::Arc<[String]> {
    facts::facts().mob_loot.get(mob).map(|loot| loot.iter().map(|(item, _)| item.clone()).collect()).unwrap_or_default()
}

pub async fn kill_mob(bot: &BotHandle, name: &str, timeout: Duration, search_budget: Duration) -> Answer {
    let kind = EntityKind::from_str(name).map_err(|()| format!("There is no mob called {name}"))?;
    let keeps = loot_of(name);
    // A monster is not hunted bare-handed: twenty punches for a zombie, which hits back every second. The hunt stays
    // on while a weapon is made for it: a night's monsters are hunted at night, so the bot does not dig in meanwhile.
    if super::sources::sources().fights_back(name) && !WEAPONS.iter().any(|w| items::count(bot, w) > 0) {
        ready_hunt(bot, name);
        return Err(format!("I carry no weapon to fight a {name} with: make a sword first (a wooden_sword will do)"));
    }
    bot.set_on_hunt(timeout + search_budget, keeps.clone());
    let _hunt = OnHunt(bot, keeps.clone());
    // What one of its kind dropped nearby (killed while the bot fought off others, with no time to stop for it) is
    // picked up first: it is what the hunt is for.
    gather_loot(bot, name, &keeps).await;
    let target = match nearest_mob(bot, kind) {
        Some(target) => target,
        None => {
            bot.chat(&format!("No {name} within {RANGE} blocks; exploring for one."));
            explore::search(bot, search_budget, || std::future::ready(nearest_mob(bot, kind))).await.map_err(
                |searched| format!("{} for a {name} and saw none within {RANGE} blocks of my way", searched.describe()),
            )?
        }
    };
    if super::sources::sources().fights_back(name) {
        items::wear_best_armour(bot).await;
    }
    hold_best_weapon(bot).await;
    let deadline = tokio::time::Instant::now() + timeout;
    match strike_until_dead(bot, &target, deadline, || false).await {
        Struck::Dead { at } => {
            pick_up_drops(bot, at).await;
            Ok(Dynamic::TRUE)
        }
        Struck::TimedOut | Struck::Interrupted => {
            Err(format!("I could not kill the {name} within {}s", timeout.as_secs()))
        }
    }
}

/// How a chase ended.
pub(super) enum Struck {
    /// The mob died; `at` is where it was last seen.
    Dead {
        at: azalea::Vec3,
    },
    TimedOut,
    /// `interrupt` said to stop.
    Interrupted,
}

/// Chases `target` and hits it at full strength until it dies, the deadline passes or `interrupt` returns true; the
/// bot is left standing still.
pub(super) async fn strike_until_dead(
    bot: &BotHandle,
    target: &EntityRef,
    deadline: tokio::time::Instant,
    interrupt: impl Fn() -> bool,
) -> Struck {
    let client = bot.client();
    let mut last_seen = target.position();
    let mut last_hit = None;
    while target.exists() && target.is_alive() {
        if tokio::time::Instant::now() > deadline {
            bot.stop_moving();
            return Struck::TimedOut;
        }
        if interrupt() {
            bot.stop_moving();
            return Struck::Interrupted;
        }
        last_seen = target.position();
        if bot.position().distance_to(last_seen) > 2.5 {
            bot.start_toward(last_seen, 1.5);
        } else {
            bot.stop_moving();
            target.look_at();
            if last_hit.is_none_or(|t: tokio::time::Instant| t.elapsed() >= ATTACK_INTERVAL) {
                attack(bot, target);
                last_hit = Some(tokio::time::Instant::now());
            }
        }
        client.wait_ticks(2).await;
    }
    bot.stop_moving();
    Struck::Dead { at: last_seen }
}

/// How far from the bot loot lying on the ground is walked to.
const LOOT_RANGE: f64 = 12.0;
/// The most loot items one hunt walks to before it goes on.
const MOST_LOOT: usize = 4;

/// Walks to the items lying within [`LOOT_RANGE`] that a `mob` drops when killed (`wanted`: one killed may have left
/// them there), nearest first, until none is left or [`MOST_LOOT`] have been walked to.
async fn gather_loot(bot: &BotHandle, mob: &str, wanted: &[String]) {
    if wanted.is_empty() {
        return;
    }
    for _ in 0..MOST_LOOT {
        let Some(item) = loot_lying(bot, wanted) else { return };
        let at = item.position();
        tracing::info!("{}: picking up {mob} loot at {}", bot.name(), crate::bot::fmt_pos(at));
        let walked = tokio::time::timeout(Duration::from_secs(10), bot.goto_block(azalea::BlockPos::from(at))).await;
        bot.client().wait_ticks(6).await;
        if item.exists() && !matches!(walked, Ok(Ok(_))) {
            // Out of reach (down a hole, across water): left.
            return;
        }
    }
}

/// The nearest item lying within [`LOOT_RANGE`] that is one of `wanted`.
fn loot_lying(bot: &BotHandle, wanted: &[String]) -> Option<EntityRef> {
    let here = bot.position();
    bot.client()
        .nearest_entities_by::<(&EntityKindComponent, Option<&ItemItem>), Without<LocalEntity>>(
            |(k, item): (&EntityKindComponent, Option<&ItemItem>)| {
                k.0 == EntityKind::Item && item.and_then(|i| items::item_name(i)).is_some_and(|n| wanted.contains(&n))
            },
        )
        .into_iter()
        .find(|e| e.position().distance_to(here) <= LOOT_RANGE)
}

/// Whether what a `mob` drops lies within reach of a hunt's first look (a hunt for it picks that up first).
pub fn loot_lying_near(bot: &BotHandle, mob: &str) -> bool {
    loot_lying(bot, &loot_of(mob)).is_some()
}

/// Walks over the place a mob died, where its drops lie, and waits for them to be picked up.
pub(super) async fn pick_up_drops(bot: &BotHandle, at: azalea::Vec3) {
    tokio::time::sleep(Duration::from_millis(300)).await;
    let _ = tokio::time::timeout(Duration::from_secs(10), bot.goto_block(azalea::BlockPos::from(at))).await;
    bot.client().wait_ticks(10).await;
}
