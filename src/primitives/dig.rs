//! `digBlock(pos)`: dig the one block at a position with the best tool carried, collect what it drops, and say what
//! it was. For building and clearing, where `mineBlock`'s "the nearest of a kind" is not the block meant. Also the
//! digging every primitive shares: the best tool, the dig itself, collecting the drops, taking stations along.

use std::{
    collections::HashMap,
    sync::{LazyLock, Mutex},
    time::{Duration, Instant},
};

use azalea::{
    BlockPos,
    ecs::query::Without,
    entity::{EntityKindComponent, LocalEntity},
    inventory::operations::{ClickOperation, SwapClick},
    registry::builtin::{BlockKind, EntityKind},
};
use rhai::Dynamic;

use super::{facts, items, observe};
use crate::{
    bot::BotHandle,
    script::{Answer, Vec3},
};

pub async fn dig_block(bot: &BotHandle, pos: Vec3) -> Answer {
    let pos = BlockPos::from(pos);
    let at = format!("{} {} {}", pos.x, pos.y, pos.z);
    let kind =
        observe::block_kind(bot, pos).ok_or_else(|| format!("The block at {at} is not loaded; go closer first"))?;
    let name = kind.to_string().trim_start_matches("minecraft:").to_owned();
    if super::area::is_air(&name) {
        return Err(format!("There is nothing to dig at {at}: it is {name} already"));
    }
    if matches!(name.as_str(), "water" | "lava" | "bedrock") {
        return Err(format!("The {name} at {at} cannot be dug"));
    }
    // A block that drops nothing without the right tool would be dug for nothing.
    super::facts::check_harvest(&name, &items::carried(bot))?;
    bot.goto_reach(pos).await.map_err(|e| format!("I could not get within reach of the {name} at {at}: {e}"))?;
    dig_and_collect(bot, pos, kind).await?;
    items::settle(bot).await;
    Ok(Dynamic::from(name))
}

/// Digs up the crafting tables and furnaces this bot placed within 8 blocks and collects them (and what a furnace
/// held), so a bot leaving the area takes them along instead of strewing them over the map.
pub async fn take_stations_along(bot: &BotHandle) {
    let here = bot.position();
    for pos in bot.stations() {
        if pos.center().distance_to(here) > 8.0 {
            continue;
        }
        bot.forget_station(pos);
        let Some(kind) = observe::block_kind(bot, pos) else { continue };
        let name = match kind {
            BlockKind::CraftingTable => "crafting_table",
            BlockKind::Furnace => "furnace",
            _ => continue,
        };
        let before = [items::count(bot, name)];
        let drops = [name.to_owned()];
        if bot.goto_reach(pos).await.is_err() {
            continue;
        }
        take_best_tool(bot, pos).await;
        if dig(bot, pos, kind, name).await.is_ok() && collect_drops(bot, pos, &drops, &before).await {
            tracing::info!("{}: took the {name} at {} along", bot.name(), crate::bot::fmt_block(pos));
        }
    }
}

/// Digs the block of `kind` at `pos` (within reach) with the fastest tool carried and collects what it drops.
pub(super) async fn dig_and_collect(bot: &BotHandle, pos: BlockPos, kind: BlockKind) -> Result<(), String> {
    let name = kind.to_string();
    let name = name.trim_start_matches("minecraft:");
    let drops = facts::drops_of(name);
    let before: Vec<i32> = drops.iter().map(|d| items::count(bot, d)).collect();
    items::make_room(bot, pos.center()).await?;
    take_best_tool(bot, pos).await;
    dig(bot, pos, kind, name).await?;
    collect_drops(bot, pos, &drops, &before).await;
    Ok(())
}

/// Digs the block at `pos` with the fastest tool carried.
pub(super) async fn dig_with_best_tool(bot: &BotHandle, pos: BlockPos) -> Result<(), String> {
    let kind = observe::block_kind(bot, pos)
        .ok_or_else(|| format!("The block at {} is not loaded", crate::bot::fmt_block(pos)))?;
    let name = kind.to_string();
    take_best_tool(bot, pos).await;
    dig(bot, pos, kind, name.trim_start_matches("minecraft:")).await
}

/// Digs the block at `pos` and waits until it is gone. A dig the client abandons (the view moved, the server
/// disagreed about timing) is tried again, up to three times.
pub(super) async fn dig(bot: &BotHandle, pos: BlockPos, kind: BlockKind, name: &str) -> Result<(), String> {
    let client = bot.client();
    for _attempt in 0..3 {
        client.look_at(pos.center());
        client.wait_ticks(1).await;
        bot.note_block(pos);
        // Survival dig times reach ~15 s for hard blocks bare-handed; anything past a minute is stuck.
        if tokio::time::timeout(Duration::from_secs(60), client.mine(pos)).await.is_err() {
            return Err(format!("I could not break the {name} at {} within a minute", crate::bot::fmt_block(pos)));
        }
        let gone = |bot: &BotHandle| observe::block_kind(bot, pos).is_some_and(|k| k != kind);
        if items::wait_until(bot, Duration::from_secs(1), || gone(bot)).await {
            // Noted again as it is now: a block that breaks at once (grass, flowers) may get no update from the
            // server, and the world diff must still see it gone.
            bot.note_block(pos);
            return Ok(());
        }
        tracing::debug!("{}: the {name} at {} is still there; digging again", bot.name(), crate::bot::fmt_block(pos));
    }
    Err(format!("The server did not let me break the {name} at {}", crate::bot::fmt_block(pos)))
}

/// Takes the fastest tool for the block in hand. azalea's search only sees the hotbar, so the strongest tool in the
/// main inventory is swapped into the selected hotbar slot first (azalea applies the swap to its copy at once).
pub(super) async fn take_best_tool(bot: &BotHandle, pos: BlockPos) {
    const TIERS: [&str; 7] = ["netherite", "diamond", "iron", "copper", "stone", "golden", "wooden"];
    const TOOLS: [&str; 4] = ["pickaxe", "axe", "shovel", "hoe"];
    let Some(state) = bot.client().world().read().get_block_state(pos) else { return };
    let client = bot.client();
    let slots = items::inventory_slots(bot);
    let strongest_in_main = TIERS
        .iter()
        .flat_map(|tier| TOOLS.iter().map(move |tool| format!("{tier}_{tool}")))
        .find_map(|name| items::slots_with(&slots, 9..=35, &name).first().copied());
    if let Some(slot) = strongest_in_main {
        let selected = client.selected_hotbar_slot();
        client
            .get_inventory()
            .click(ClickOperation::Swap(SwapClick { source_slot: slot as u16, target_slot: selected }));
    }
    let menu = client.component::<azalea::entity::inventory::Inventory>().inventory_menu.clone();
    let best = azalea::auto_tool::best_tool_in_hotbar_for_block(state, &menu);
    client.set_selected_hotbar_slot(best.index as u8);
}

/// Drops a walk could not reach lately, per bot, and when: not walked to again for [`UNREACHED_FOR`] (a drop in a
/// pool or a pit would otherwise be walked toward after every block dug near it: clearing a site by one cost minutes).
static UNREACHED: LazyLock<Mutex<HashMap<String, Vec<Unreached>>>> = LazyLock::new(Default::default);
/// Where a drop lay that a walk did not reach, and when.
type Unreached = (azalea::Vec3, Instant);
const UNREACHED_FOR: Duration = Duration::from_secs(90);

/// Whether a walk of `bot`'s to a drop about `at` failed lately.
fn unreached(bot: &BotHandle, at: azalea::Vec3) -> bool {
    let mut all = UNREACHED.lock().unwrap_or_else(|e| e.into_inner());
    let Some(list) = all.get_mut(&bot.name()) else { return false };
    list.retain(|(_, when)| when.elapsed() < UNREACHED_FOR);
    list.iter().any(|(p, _)| p.distance_to(at) < 1.5)
}

fn mark_unreached(bot: &BotHandle, at: azalea::Vec3) {
    let mut all = UNREACHED.lock().unwrap_or_else(|e| e.into_inner());
    all.entry(bot.name()).or_default().push((at, Instant::now()));
}

/// Walks over the items that fell near `pos` until the expected drops arrive: the item entity appears a tick or two
/// after the block breaks, and the bot walks onto it straight away.
/// Returns whether a drop arrived since the counts `before` were taken (true when the block drops nothing).
pub(super) async fn collect_drops(bot: &BotHandle, pos: BlockPos, drops: &[String], before: &[i32]) -> bool {
    if drops.is_empty() {
        return true;
    }
    let arrived = |bot: &BotHandle| drops.iter().zip(before).any(|(d, b)| items::count(bot, d) > *b);
    let centre = pos.center();
    let dropped_item = |bot: &BotHandle| {
        bot.client()
            .nearest_entities_by::<&EntityKindComponent, Without<LocalEntity>>(|k: &EntityKindComponent| {
                k.0 == EntityKind::Item
            })
            .iter()
            .map(|e| e.position())
            .find(|p| p.distance_to(centre) < 4.0 && !unreached(bot, *p))
    };
    for attempt in 0..3 {
        let mut item = None;
        // The item entity comes a tick or two after the break; on a busy server, later.
        let wait = if attempt == 0 { Duration::from_millis(1500) } else { Duration::from_millis(500) };
        items::wait_until(bot, wait, || {
            item = dropped_item(bot);
            item.is_some() || arrived(bot)
        })
        .await;
        if arrived(bot) {
            return true;
        }
        let Some(item) = item else {
            tracing::debug!("{}: no drop seen near {}", bot.name(), crate::bot::fmt_block(pos));
            return false;
        };
        // To where the item comes to rest (a drop from a log overhead falls to the bot's feet), and no farther than
        // its arrival: a walk toward a spot that cannot be stood on would otherwise run to its time limit.
        let landing = landing_spot(bot, item);
        let walk = bot.goto_block(landing);
        let picked_up = items::wait_until(bot, Duration::from_secs(20), || arrived(bot));
        let no_way = tokio::select! {
            walked = walk => {
                tracing::debug!("{}: to the drop at {}: {walked:?}", bot.name(), crate::bot::fmt_pos(item));
                walked.is_err()
            }
            true = picked_up => {
                bot.stop_moving();
                return true;
            }
        };
        if items::wait_until(bot, Duration::from_millis(800), || arrived(bot)).await {
            return true;
        }
        // A drop no path leads to (in a pool, down a pit) is left, here and after the next blocks dug near it.
        if no_way {
            mark_unreached(bot, item);
        }
    }
    arrived(bot)
}

/// The block an item at `item` comes to rest in: the first one down from it with solid ground under it (at most
/// 16 blocks down; the item's own block when the column is not loaded).
fn landing_spot(bot: &BotHandle, item: azalea::Vec3) -> BlockPos {
    let start = BlockPos::from(item);
    let world = bot.client().world();
    let world = world.read();
    let solid = |p: BlockPos| world.get_block_state(p).is_some_and(azalea::pathfinder::world::is_block_state_solid);
    (0..16).map(|d| start.down(d)).find(|p| solid(p.down(1))).unwrap_or(start)
}
