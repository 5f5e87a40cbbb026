//! Acting on reflexes: the bot eats, hits back, runs, comes up for air or out of the fire when its body says so
//! (the urges the `bot::reflex` plugins sense every tick), whatever a script or command was doing.
//!
//! [`drive`] runs beside everything else a bot does. When an urge comes, it takes the body (`BotHandle::body`
//! announces it): the primitive in flight is dropped and the bot stops, the reflex acts, and the script's call is
//! then carried out again from the start (see [`super::serve`]). `!status` shows the reflex meanwhile.

use std::time::Duration;

use azalea::{
    BlockPos, Vec3,
    entity::{Position, metadata::Health},
    interact::BlockStatePredictionHandler,
    protocol::packets::game::{s_interact::InteractionHand, s_use_item::ServerboundUseItem},
};
use tokio::time::Instant;

use super::{items, kill, observe};
use crate::{
    bot::{
        BotHandle,
        reflex::{Urge, needs_food},
    },
    config::Reflexes,
};

/// Foods from best to worst (saturation first, then hunger points; vanilla 26.1's values). Raw chicken, rotten flesh
/// and the like can poison, so they come last and only when nothing else is left.
const FOODS: [&str; 26] = [
    "golden_carrot", "cooked_beef", "cooked_porkchop", "cooked_mutton", "cooked_salmon", "rabbit_stew",
    "mushroom_stew", "beetroot_soup", "cooked_chicken", "cooked_rabbit", "cooked_cod", "baked_potato", "bread",
    "pumpkin_pie", "golden_apple", "apple", "carrot", "melon_slice", "sweet_berries", "beef", "porkchop", "mutton",
    "rabbit", "cod", "salmon", "rotten_flesh",
];

/// Ticks of holding use to eat (vanilla: 32), with a margin for the server's answer.
const EAT_WAIT: Duration = Duration::from_millis(2200);
/// The longest any one reflex keeps the body.
const LONGEST: Duration = Duration::from_secs(20);
/// After a reflex that could not act (no food carried), the same urge is left alone this long.
const RETRY_AFTER: Duration = Duration::from_secs(30);

/// Acts on the bot's urges for as long as it is connected. Spawn it on azalea's local task set when the bot spawns;
/// a second call for the same connection returns at once.
pub async fn drive(bot: BotHandle, on: Reflexes) {
    let Some(body) = bot.claim_body() else { return };
    let mut no_food_until: Option<Instant> = None;
    let mut gone_since: Option<Instant> = None;
    loop {
        tokio::time::sleep(Duration::from_millis(50)).await;
        // The connection's entity goes away when the bot disconnects; a reconnect starts another driver.
        if bot.client().get_component::<Position>().is_none() {
            let since = *gone_since.get_or_insert_with(Instant::now);
            if since.elapsed() > Duration::from_secs(5) {
                return;
            }
            continue;
        }
        gone_since = None;
        let Some(urge) = bot.urge() else { continue };
        if urge == Urge::Eat && no_food_until.is_some_and(|t| t > Instant::now()) {
            continue;
        }
        let what = urge.describe();
        tracing::info!("{}: reflex: {what}", bot.name());
        body.send_replace(Some(what.clone()));
        // A tick for the script's call in flight to be dropped before the reflex moves the bot.
        tokio::time::sleep(Duration::from_millis(50)).await;
        bot.stop_all();
        let acted = tokio::time::timeout(LONGEST, act(&bot, &urge)).await;
        bot.stop_all();
        bot.client().set_jumping(false);
        match acted {
            Ok(Ok(())) => {}
            Ok(Err(why)) => {
                tracing::info!("{}: reflex {what} could not act: {why}", bot.name());
                if urge == Urge::Eat {
                    no_food_until = Some(Instant::now() + RETRY_AFTER);
                }
            }
            Err(_) => tracing::warn!("{}: reflex {what} gave up after {}s", bot.name(), LONGEST.as_secs()),
        }
        body.send_replace(None);
        let _ = on;
    }
}

async fn act(bot: &BotHandle, urge: &Urge) -> Result<(), String> {
    match urge {
        Urge::Eat => eat(bot).await,
        Urge::Defend { target, .. } => defend(bot, *target).await,
        Urge::Flee { from, .. } => flee(bot, *from).await,
        Urge::Breathe => breathe(bot).await,
        Urge::Escape { from } => escape(bot, *from).await,
    }
}

/// The best food carried, if any.
pub fn best_food(bot: &BotHandle) -> Option<&'static str> {
    FOODS.iter().copied().find(|food| items::count(bot, food) > 0)
}

/// Eats one of the best food carried, as a player holding use for 32 ticks does; again while still hungry.
async fn eat(bot: &BotHandle) -> Result<(), String> {
    for _ in 0..4 {
        let Some(food) = best_food(bot) else { return Err("no food carried".to_owned()) };
        items::hold(bot, food).await?;
        let before = items::count(bot, food);
        use_held_item(bot);
        if !items::wait_until(bot, EAT_WAIT, || items::count(bot, food) < before).await {
            return Err(format!("the server did not let me eat the {food}"));
        }
        let hunger = bot.client().hunger();
        if !needs_food(hunger.food, bot.client().health()) {
            return Ok(());
        }
    }
    Ok(())
}

/// Presses use with the held item into the air (not at a block, which would place or open it instead).
fn use_held_item(bot: &BotHandle) {
    let client = bot.client();
    let seq = {
        let mut ecs = client.ecs.write();
        let mut entity = ecs.entity_mut(client.entity);
        entity.get_mut::<BlockStatePredictionHandler>().map_or(0, |mut p| p.start_predicting())
    };
    let look = client.direction();
    client.write_packet(ServerboundUseItem { hand: InteractionHand::MainHand, seq, y_rot: look.y_rot(), x_rot: look.x_rot() });
}

/// Hits the attacker with the best weapon until it dies or is out of reach.
async fn defend(bot: &BotHandle, target: azalea::ecs::entity::Entity) -> Result<(), String> {
    kill::hold_best_weapon(bot).await;
    let client = bot.client();
    let target = client.entity_ref_for(target);
    let mut last_hit: Option<Instant> = None;
    while target.exists() && target.is_alive() {
        let distance = bot.position().distance_to(target.position());
        if distance > 8.0 || client.health() <= crate::bot::reflex::FLEE_HEALTH {
            break;
        }
        if distance > 3.0 {
            bot.start_toward(target.position(), 2.0);
        } else {
            bot.stop_moving();
            target.look_at();
            if last_hit.is_none_or(|t| t.elapsed() >= kill::ATTACK_INTERVAL) {
                kill::attack(bot, &target);
                last_hit = Some(Instant::now());
            }
        }
        client.wait_ticks(2).await;
    }
    Ok(())
}

/// Runs 20 blocks straight away from `from` (or as straight as the ground allows).
async fn flee(bot: &BotHandle, from: Vec3) -> Result<(), String> {
    let here = bot.position();
    let (dx, dz) = (here.x - from.x, here.z - from.z);
    let length = (dx * dx + dz * dz).sqrt().max(0.1);
    let away = Vec3::new(here.x + dx / length * 20.0, here.y, here.z + dz / length * 20.0);
    bot.start_toward_xz(away);
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(8) {
        tokio::time::sleep(Duration::from_millis(250)).await;
        if bot.position().distance_to(from) >= 14.0 {
            break;
        }
    }
    Ok(())
}

/// Swims up (jump held) until breath is full, heading for the nearest block of dry ground if one is near.
async fn breathe(bot: &BotHandle) -> Result<(), String> {
    let client = bot.client();
    client.set_jumping(true);
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(12) && bot.air() < crate::bot::MAX_AIR {
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    client.set_jumping(false);
    Ok(())
}

/// Steps out of lava or fire onto the nearest block that is neither, jumping as it goes.
async fn escape(bot: &BotHandle, from: Vec3) -> Result<(), String> {
    let feet = BlockPos::from(from);
    let safe = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1), (2, 0), (-2, 0), (0, 2), (0, -2)]
        .into_iter()
        .map(|(x, z)| BlockPos::new(feet.x + x, feet.y, feet.z + z))
        .find(|p| {
            let here = observe::block_kind(bot, *p);
            let below = observe::block_kind(bot, p.down(1));
            here.is_some_and(is_clear) && below.is_some_and(|k| !is_clear(k) && !is_burning(k))
        })
        .ok_or_else(|| "no safe block next to the fire".to_owned())?;
    bot.client().set_jumping(true);
    let _ = bot.goto_block(safe).await;
    bot.client().set_jumping(false);
    Ok(())
}

fn is_burning(kind: azalea::registry::builtin::BlockKind) -> bool {
    use azalea::registry::builtin::BlockKind::{Fire, Lava, MagmaBlock, SoulFire};
    matches!(kind, Lava | Fire | SoulFire | MagmaBlock)
}

fn is_clear(kind: azalea::registry::builtin::BlockKind) -> bool {
    use azalea::registry::builtin::BlockKind::{Air, CaveAir, ShortGrass, TallGrass};
    matches!(kind, Air | CaveAir | ShortGrass | TallGrass)
}

/// The bot's health, or 0 while it has none (dead, or not in the world).
pub fn health(bot: &BotHandle) -> f32 {
    bot.client().get_component::<Health>().map_or(0.0, |h| h.0)
}
