//! The Rust side of every function scripts call: observations, movement and the Voyager primitives.
//!
//! Calls arrive from script threads as [`Call`]s over a channel ([`serve`]) and are carried out one at a time on
//! azalea's local task set. A call whose run is stopped is dropped mid-way and the bot stops moving. Answers are
//! script values, or texts that tell the script (and an LLM reading them) what to do next.

mod animal;
pub mod area;
pub mod build;
mod chest;
mod craft;
mod dig;
pub use craft::STATION_RANGE;
mod explore;
pub mod facts;
mod give;
pub mod items;
mod kill;
pub use kill::{loot_lying_near, ready_hunt};
mod mine;
pub mod observe;
mod place;
pub use place::PLACED_AS;
pub use place::item_placing;
pub mod reflex;
pub mod search;
mod shelter;
mod smelt;
pub mod sources;
mod stand;

use std::{future::Future, panic::AssertUnwindSafe};

use futures_util::FutureExt;
use rhai::Dynamic;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::{
    bot::BotHandle,
    script::{Answer, CANCELLED, Call, ChannelHost, Job},
};

/// A host for scripts acting through `bot`, and the task that serves its calls. Spawn the task on azalea's local
/// task set (`tokio::task::spawn_local` from an event handler); it ends when the host and its clones are dropped.
pub fn serve(bot: BotHandle) -> (ChannelHost, impl Future<Output = ()>) {
    let (jobs, mut incoming) = mpsc::unbounded_channel::<Job>();
    let task = async move {
        while let Some(Job { call, reply, cancel, deadline }) = incoming.recv().await {
            // `RUST_LOG=wayfarer=debug` traces every call with its outcome and how long it took.
            let started = std::time::Instant::now();
            let traced = tracing::enabled!(tracing::Level::DEBUG).then(|| format!("{call:?}"));
            let answer = serve_one(&bot, call, &cancel, deadline).await;
            if let Some(call) = traced {
                let outcome = match &answer {
                    Ok(_) => "done".to_owned(),
                    Err(err) => format!("failed: {err}"),
                };
                tracing::debug!("{}: {call} {outcome} in {:.1?}", bot.name(), started.elapsed());
            }
            // The script may have given up waiting (stopped); nobody to tell then.
            let _ = reply.send(answer);
        }
    };
    (ChannelHost::new(jobs), task)
}

/// Whether a primitive's failure is one the world may route around on another try — a way it found no path along, a
/// block it could not get within reach of, a spot the world refused (each is passed over for a while, see
/// [`BotHandle::mark_unreachable`]) — rather than something missing or impossible.
pub fn routable(message: &str) -> bool {
    const SAYS: [&str; 6] = [
        "I could not get ",
        "I could not reach ",
        "I could not walk to ",
        "I found no way there",
        "the server refused it",
        "I could not place ",
    ];
    SAYS.iter().any(|said| message.contains(said))
}

/// Carries out one call, yielding the body to reflexes: the call waits while a reflex acts, and a call a reflex
/// interrupts is dropped (the bot stops) and carried out again from the start once the reflex is done.
async fn serve_one(bot: &BotHandle, call: Call, cancel: &CancellationToken, deadline: std::time::Instant) -> Answer {
    let what = format!("{call:?}");
    if let (Call::SmeltItem { .. }, Some(job)) = (&call, bot.smelt_job()) {
        // Output an earlier smelt took was its own: this call asks afresh, from the furnace still loaded.
        bot.set_smelt_job(Some(crate::bot::SmeltJob { output_before: None, ..job }));
    }
    // A hunt a reflex cut short by killing the very kind of mob hunted (it came at the bot) is done.
    let hunted = match &call {
        Call::KillMob { name, .. } => Some((name.clone(), bot.reflex_kills(name))),
        _ => None,
    };
    let deaths = bot.deaths().count;
    let served = bot.between_reflexes(&what, || {
        let time_left = deadline.saturating_duration_since(std::time::Instant::now());
        let call = call.clone();
        let hunted = hunted.clone();
        // A panic in a primitive (a bug) is that call's error; the bot goes on serving the script.
        AssertUnwindSafe(async move {
            if let Some((name, before)) = &hunted
                && bot.reflex_kills(name) > *before
            {
                tracing::info!("{}: a reflex killed the {name} this hunt was for", bot.name());
                return Ok(rhai::Dynamic::TRUE);
            }
            // Killed while hunting: the hunt ends there (its goal decides when to go out again, armed).
            if let Some((name, _)) = &hunted
                && bot.deaths().count > deaths
            {
                return Err(format!("I died while hunting {name}"));
            }
            perform(bot, call, time_left).await
        })
        .catch_unwind()
    });
    let panicked = |panic: Box<dyn std::any::Any + Send>| {
        let message = crate::script::runner::panic_message(&*panic);
        tracing::error!("a primitive panicked: {message}");
        Err(format!("an internal error stopped it: {message}"))
    };
    tokio::pin!(served);
    tokio::select! {
        answer = &mut served => answer.unwrap_or_else(panicked),
        () = cancel.cancelled() => {
            if bot.in_transaction() {
                // Items are moving in an open chest: dropped now, the bot would not note what the chest holds. Once
                // they have moved, the call has nothing left that moves the bot, and a command given meanwhile may
                // have set it walking: it is not stopped.
                tracing::info!("{}: {what} finishes its moves before it stops", bot.name());
                match tokio::time::timeout(TRANSACTION_GRACE, &mut served).await {
                    Ok(Ok(_)) => return Err(CANCELLED.to_owned()),
                    Ok(Err(panic)) => drop(panicked(panic)),
                    Err(_) => {}
                }
            }
            bot.stop_all();
            Err(CANCELLED.to_owned())
        }
    }
}

/// How long a stopped call may take to finish the item moves it began in an open container.
const TRANSACTION_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// How far below the bot a `goTo`'s point lies for the walk to keep out of caves.
const DOWN_AWAY_FROM_CAVES: f64 = 8.0;

/// How deep one flight of a long way down goes: short enough for the pathfinder to plan it whole at once.
const FLIGHT: f64 = 12.0;

/// Takes a way down of more than a flight and a half, to a goal more down than across, in flights first: each a walk
/// to a point a flight lower and a flight across, turning a quarter each time, so the stairs the bot digs wind down
/// near where it started. Planned at once, a way a hundred blocks down through rock (caves cost more than digging:
/// `bot::caves`) is far more than the pathfinder searches in its time, and the bot creeps down a few blocks a search.
/// A flight that fails ends the flights; the walk to the goal itself goes on from there.
async fn down_in_flights(bot: &BotHandle, to: azalea::Vec3) {
    const TURNS: [(f64, f64); 4] = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
    let mut turn = 0;
    // A goal more across than down (a valley over the hill) is walked to, not dug to.
    let across = |here: azalea::Vec3| here.horizontal_distance_squared_to(to).sqrt();
    while bot.position().y - to.y > FLIGHT * 1.5 && across(bot.position()) < bot.position().y - to.y {
        let here = bot.position();
        let (dx, dz) = TURNS[turn % TURNS.len()];
        let landing = azalea::Vec3::new(here.x + dx * FLIGHT, here.y - FLIGHT, here.z + dz * FLIGHT);
        if let Err(err) = bot.goto_down(landing, 3.0).await {
            tracing::info!(
                "{}: a flight down to {} failed ({err}); walking the rest",
                bot.name(),
                crate::bot::fmt_pos(landing)
            );
            return;
        }
        turn += 1;
    }
}

/// What a container holds (a chest's contents by item), looked at by opening it.
pub async fn container_contents(
    bot: &BotHandle,
    pos: azalea::BlockPos,
) -> Result<std::collections::BTreeMap<String, u32>, String> {
    let map = chest::check(bot, crate::script::Vec3::from(pos)).await?.try_cast::<rhai::Map>().unwrap_or_default();
    Ok(map
        .into_iter()
        .map(|(name, n)| (name.to_string(), n.as_int().unwrap_or(0).clamp(0, i64::from(u32::MAX)) as u32))
        .collect())
}

/// Carries out one call, with `time_left` in the run that made it.
pub async fn perform(bot: &BotHandle, call: Call, time_left: std::time::Duration) -> Answer {
    // Searches end with a few seconds to spare, so the script hears what was searched rather than "out of time".
    let search_budget = explore::SEARCH_BUDGET.min(time_left.saturating_sub(std::time::Duration::from_secs(5)));
    match call {
        Call::Position => Ok(Dynamic::from(crate::script::Vec3::from(bot.position()))),
        Call::Inventory => Ok(observe::inventory(bot)),
        Call::InventoryCount { name } => Ok(Dynamic::from_int(i64::from(items::count(bot, &name)))),
        Call::Health => Ok(Dynamic::from_float(f64::from(bot.client().health()))),
        Call::Food => Ok(Dynamic::from_int(i64::from(bot.client().hunger().food))),
        Call::Chat { text } => {
            bot.chat(&text);
            Ok(Dynamic::UNIT)
        }
        Call::FindBlocks { name, max_distance, count } => observe::find_blocks(bot, &name, max_distance, count).await,
        Call::NearestEntity { name, max_distance } => observe::nearest_entity(bot, &name, max_distance),
        Call::FreeSpot { max_distance } => {
            Ok(place::free_spot(bot, max_distance)
                .map_or(Dynamic::UNIT, |p| Dynamic::from(crate::script::Vec3::from(p))))
        }
        Call::Goto { pos, range } => {
            down_in_flights(bot, pos.into()).await;
            // Within one block means "stand on that block": in it when it is open (air over the ground), on top of
            // it when it is solid with room on top, not dug out to stand in (`goTo(findBlock("gold_block", 32))` dug
            // the gold block a goal asked the bot to stand on). Farther ranges are a radius around the point. A point
            // well below is reached by stairs of the bot's own, away from caves.
            let walked = if range > 1.0 && bot.position().y - pos.y > DOWN_AWAY_FROM_CAVES {
                bot.goto_down(pos.into(), range as f32).await
            } else if range <= 1.0 {
                use azalea::physics::collision::BlockWithShape;
                let block = azalea::BlockPos::from(pos);
                let solid = |p| observe::block_state(bot, p).is_some_and(|state| !state.is_collision_shape_empty());
                // Only with room on top: a log in its trunk, a buried block are walked to as before.
                let on_top = solid(block) && !solid(block.up(1)) && !solid(block.up(2));
                bot.goto_block(if on_top { block.up(1) } else { block }).await
            } else {
                bot.goto_near(pos.into(), range as f32).await
            };
            walked.map_err(|e| e.to_string())?;
            Ok(Dynamic::UNIT)
        }
        Call::Explore { direction, leg } => explore::leg(bot, direction, leg).await,
        Call::StopMoving => {
            bot.stop_moving();
            Ok(Dynamic::UNIT)
        }
        Call::Equip { name, slot } => items::equip(bot, &name, &slot).await.map(|()| Dynamic::UNIT),
        Call::MineBlock { name, count } => mine::mine_block(bot, &name, count, search_budget).await,
        Call::CraftItem { name, count } => craft::craft_item(bot, &name, count).await,
        Call::SmeltItem { item, fuel, count } => smelt::smelt_item(bot, &item, &fuel, count).await,
        Call::PlaceItem { name, pos } => place::place_item(bot, &name, pos).await,
        Call::PlaceItemNear { name } => place::place_item_near(bot, &name).await,
        Call::PillarUp { name, height } => place::pillar_up_with(bot, &name, height).await,
        Call::BuildStructure { blueprint, pos, facing, share } => {
            build::structure(bot, &blueprint, pos, &facing, share.as_deref()).await
        }
        Call::DigBlock { pos } => dig::dig_block(bot, pos).await,
        Call::StandOn { pos } => stand::stand_on(bot, pos).await,
        Call::BlockAt { pos } => {
            let at = azalea::BlockPos::from(pos);
            let kind = observe::block_kind(bot, at)
                .ok_or_else(|| format!("The block at {} {} {} is not loaded; go closer first", at.x, at.y, at.z))?;
            Ok(Dynamic::from(kind.to_string().trim_start_matches("minecraft:").to_owned()))
        }
        Call::BlocksAround { pos, radius } => {
            Ok(Dynamic::from(observe::blocks_around(bot, azalea::BlockPos::from(pos), radius)))
        }
        Call::KillMob { name, timeout } => kill::kill_mob(bot, &name, timeout, search_budget).await,
        Call::ShearSheep => animal::shear_sheep(bot, search_budget).await,
        Call::MilkCow => animal::milk_cow(bot, search_budget).await,
        Call::FillBucket { fluid } => animal::fill_bucket(bot, &fluid, search_budget).await,
        Call::GetItemFromChest { pos, items } => chest::transfer(bot, pos, &items, false).await,
        Call::DepositItemIntoChest { pos, items } => chest::transfer(bot, pos, &items, true).await,
        Call::CheckItemInsideChest { pos } => chest::check(bot, pos).await,
        Call::GiveItem { player, item, count } => give::give_item(bot, &player, &item, count).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_the_world_may_route_around_are_told_from_the_rest() {
        for routable_one in [
            "in placeCraftingTable: I could not place crafting_table near 1 64 2. I tried 6 spots: …",
            "I could not get to the crafting_table at 4 72 0: I found no way there; I stopped at 1 64 0",
            "I could not get within reach of the iron_ore at 3 12 5: …",
            "the top of the grass_block at -2 63 0: the server refused it (the spot holds air)",
        ] {
            assert!(routable(routable_one), "{routable_one}");
        }
        for not in [
            "I cannot make wooden_pickaxe because I need: 2 more stick",
            "I have no crafting_table to place",
            "I could not find a free spot on solid ground within 8 blocks of 30 60 0 to place crafting_table",
            "There is no iron_ore within 64 blocks",
        ] {
            assert!(!routable(not), "{not}");
        }
    }
}
