//! `mineBlock(name, count)`: find the nearest such block within 64 (exploring for one when there is none), walk to
//! it, take the best tool, dig, and pick up the drops — `count` times.

use std::{
    collections::HashMap,
    str::FromStr,
    sync::LazyLock,
    time::{Duration, Instant},
};

use azalea::{
    BlockPos,
    ecs::query::Without,
    entity::{EntityKindComponent, LocalEntity},
    inventory::operations::{ClickOperation, SwapClick},
    registry::builtin::{BlockKind, EntityKind},
};
use parking_lot::Mutex;
use rhai::Dynamic;

use super::{explore, facts, items, observe};
use crate::{bot::BotHandle, script::Answer};

/// How far around the bot `mineBlock` looks for its block (the search is cheap: see `search`).
const SEARCH: f64 = 64.0;
/// How many blocks one `mineBlock` call fails to reach before it gives up.
const MAX_UNREACHED: u32 = 3;
/// How many digs the server undid (the block came back) one `mineBlock` call tries again.
const MAX_REDIGS: u32 = 2;

/// Blocks this process's bots are on their way to mine: position → (bot, since when). A bot passes over the blocks
/// another one claimed, so a team on one tree takes a log each instead of racing for the same one (and for its drop).
static CLAIMS: LazyLock<Mutex<HashMap<BlockPos, (String, Instant)>>> = LazyLock::new(Default::default);
/// A claim lapses after this long (its bot gave up, died or left without releasing it).
const CLAIM_FOR: Duration = Duration::from_secs(60);
/// Blocks this close (across) to another bot's claim are left to it too: its drops land there, and a bot digging
/// beside it would pick them up.
const CLAIM_SPREAD: f64 = 2.5;

fn claims() -> parking_lot::MutexGuard<'static, HashMap<BlockPos, (String, Instant)>> {
    CLAIMS.lock()
}

/// The blocks other bots of this process claimed (lapsed claims are dropped).
fn claimed_by_others(me: &str) -> Vec<BlockPos> {
    let mut claims = claims();
    claims.retain(|_, (_, since)| since.elapsed() < CLAIM_FOR);
    claims.iter().filter(|(_, (bot, _))| bot != me).map(|(pos, _)| *pos).collect()
}

/// Holds a claim on a block while this bot mines it; dropping it releases the claim.
struct Claim(BlockPos, String);

impl Claim {
    fn take(bot: &BotHandle, pos: BlockPos) -> Claim {
        let me = bot.name();
        claims().insert(pos, (me.clone(), Instant::now()));
        Claim(pos, me)
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut claims = claims();
        if claims.get(&self.0).is_some_and(|(bot, _)| *bot == self.1) {
            claims.remove(&self.0);
        }
    }
}

pub async fn mine_block(bot: &BotHandle, name: &str, count: u32, search_budget: Duration) -> Answer {
    let kind = BlockKind::from_str(name).map_err(|()| format!("There is no block called {name}"))?;
    let drops = facts::drops_of(name);
    let mut mined = 0;
    let mut lost = 0;
    let mut unreached = 0;
    let mut redone = 0;
    while mined < count {
        let pos = match target(bot, kind).await {
            Some(pos) => pos,
            None => {
                bot.chat(&format!("No {name} within {SEARCH} blocks; exploring for some."));
                match explore::search(bot, search_budget, || target(bot, kind)).await {
                    Ok(pos) => pos,
                    Err(searched) => {
                        let so_far = if mined == 0 { String::new() } else { format!("I mined {mined} {name}, but ") };
                        return Err(format!(
                            "{so_far}{} for {name} and saw none within {SEARCH} blocks of my way; try another direction \
                             (exploreUntil) or underground",
                            searched.describe()
                        ));
                    }
                }
            }
        };
        facts::check_harvest(name, &items::carried(bot))?;
        let _claim = Claim::take(bot, pos);
        // Counted before the walk: stairs dug on the way may take the block itself, and a bot standing where the
        // drop lands picks it up at once.
        let before: Vec<i32> = drops.iter().map(|d| items::count(bot, d)).collect();
        if let Err(err) = bot.goto_reach(pos).await {
            // Left out of searches for a while, so the next try (this one or the script's next) takes another.
            bot.mark_unreachable(pos);
            unreached += 1;
            if unreached >= MAX_UNREACHED {
                let others =
                    if unreached > 1 { format!(" (nor to {} others before it)", unreached - 1) } else { String::new() };
                return Err(format!("I could not get to the {name} at {}{others}: {err}", fmt_block(pos)));
            }
            tracing::info!("{}: could not get to the {name} at {} ({err}); trying another", bot.name(), fmt_block(pos));
            continue;
        }
        if observe::block_kind(bot, pos) == Some(kind) {
            // The drop needs a free slot (or a stack it fits on): junk goes first, by `items::junk_slot`'s rule.
            if let Some(thrown) = items::make_room(bot, pos.center()).await? {
                tracing::debug!("{}: made room for the {name} by throwing away {thrown}", bot.name());
            }
            take_best_tool(bot, pos).await;
            dig(bot, pos, kind, name).await?;
        } else {
            tracing::debug!("{}: the way to the {name} at {} dug it", bot.name(), fmt_block(pos));
        }
        mined += 1;
        if !collect_drops(bot, pos, &drops, &before).await {
            if observe::block_kind(bot, pos) == Some(kind) && redone < MAX_REDIGS {
                // The server put the block back (it did not take the dig): it was not mined, so dig it again.
                tracing::debug!("{}: the {name} at {} is back; digging it again", bot.name(), fmt_block(pos));
                mined -= 1;
                redone += 1;
                continue;
            }
            lost += 1;
        }
    }
    // Nothing at all from every block mined is a failure, not a success to report (some drops are chances, so a
    // partial loss is not).
    if lost == mined && mined > 0 {
        let what = drops.join(" or ");
        return Err(format!(
            "I mined {mined} {name} but got no {what} (the drops fell out of reach, or the server did not accept the dig)"
        ));
    }
    Ok(Dynamic::from_int(i64::from(mined)))
}

/// The block to mine next: the nearest one not below the bot's feet if there is one in range, else the nearest.
/// Digging down to a block underneath leaves the bot in a pit it may not climb out of (it cannot build its way up),
/// so blocks it can walk to come first. Blocks the bot recently failed to walk to are passed over, and so are blocks
/// where monsters are, or drove it off lately (a cave of zombies is no place to mine stone), and blocks under water,
/// while others exist.
async fn target(bot: &BotHandle, kind: BlockKind) -> Option<BlockPos> {
    let feet = BlockPos::from(bot.position()).y;
    let skip = bot.unreachable();
    let others = claimed_by_others(&bot.name());
    let near_others = |pos: &BlockPos| {
        others.iter().any(|c| f64::from((c.x - pos.x).pow(2) + (c.z - pos.z).pow(2)).sqrt() <= CLAIM_SPREAD)
    };
    // Room for the blocks passed over: each claim may cover a tree's worth of them.
    let wanted = 1 + skip.len() + AVOIDED + 8 * others.len();
    let found = observe::nearest_blocks_preferring(bot, kind, SEARCH, wanted, move |pos| pos.y >= feet).await;
    let reachable: Vec<BlockPos> = found.into_iter().filter(|pos| !skip.contains(pos) && !near_others(pos)).collect();
    let zones = bot.danger_zones();
    let safe = |pos: &BlockPos| zones.iter().all(|(centre, radius)| pos.center().distance_to(*centre) > *radius);
    let dry = |pos: &BlockPos| !under_water(bot, *pos);
    reachable
        .iter()
        .find(|pos| safe(pos) && dry(pos))
        .or_else(|| reachable.iter().find(|pos| safe(pos)))
        .or(reachable.first())
        .copied()
}

/// How far above a block water makes it a last choice.
const WET_ABOVE: i32 = 12;

/// Whether water lies within [`WET_ABOVE`] blocks over `pos`: ore under a lake or the sea floor. Stairs dug to it run
/// under sand, which falls into them behind the bot, and the way back up would open the water: the bot is shut in.
fn under_water(bot: &BotHandle, pos: BlockPos) -> bool {
    let world = bot.client().world();
    let world = world.read();
    (1..=WET_ABOVE).any(|d| world.get_block_state(pos.up(d)).is_some_and(|s| BlockKind::from(s) == BlockKind::Water))
}

/// How many of the nearest blocks a search looks past for one away from monsters.
const AVOIDED: usize = 24;

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
            tracing::info!("{}: took the {name} at {} along", bot.name(), fmt_block(pos));
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
    let kind = observe::block_kind(bot, pos).ok_or_else(|| format!("The block at {} is not loaded", fmt_block(pos)))?;
    let name = kind.to_string();
    take_best_tool(bot, pos).await;
    dig(bot, pos, kind, name.trim_start_matches("minecraft:")).await
}

/// Digs the block at `pos` and waits until it is gone. A dig the client abandons (the view moved, the server
/// disagreed about timing) is tried again, up to three times.
async fn dig(bot: &BotHandle, pos: BlockPos, kind: BlockKind, name: &str) -> Result<(), String> {
    let client = bot.client();
    for _attempt in 0..3 {
        client.look_at(pos.center());
        client.wait_ticks(1).await;
        bot.note_block(pos);
        // Survival dig times reach ~15 s for hard blocks bare-handed; anything past a minute is stuck.
        if tokio::time::timeout(Duration::from_secs(60), client.mine(pos)).await.is_err() {
            return Err(format!("I could not break the {name} at {} within a minute", fmt_block(pos)));
        }
        let gone = |bot: &BotHandle| observe::block_kind(bot, pos).is_some_and(|k| k != kind);
        if items::wait_until(bot, Duration::from_secs(1), || gone(bot)).await {
            // Noted again as it is now: a block that breaks at once (grass, flowers) may get no update from the
            // server, and the world diff must still see it gone.
            bot.note_block(pos);
            return Ok(());
        }
        tracing::debug!("{}: the {name} at {} is still there; digging again", bot.name(), fmt_block(pos));
    }
    Err(format!("The server did not let me break the {name} at {}", fmt_block(pos)))
}

/// Takes the fastest tool for the block in hand. azalea's search only sees the hotbar, so the strongest tool in the
/// main inventory is swapped into the selected hotbar slot first (azalea applies the swap to its copy at once).
async fn take_best_tool(bot: &BotHandle, pos: BlockPos) {
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

/// Walks over the items that fell near `pos` until the expected drops arrive: the item entity appears a tick or two
/// after the block breaks, and the bot walks onto it straight away.
/// Returns whether a drop arrived since the counts `before` were taken (true when the block drops nothing).
async fn collect_drops(bot: &BotHandle, pos: BlockPos, drops: &[String], before: &[i32]) -> bool {
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
            .find(|p| p.distance_to(centre) < 4.0)
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
            tracing::debug!("{}: no drop seen near {}", bot.name(), fmt_block(pos));
            return false;
        };
        // To where the item comes to rest (a drop from a log overhead falls to the bot's feet), and no farther than
        // its arrival: a walk toward a spot that cannot be stood on would otherwise run to its time limit.
        let landing = landing_spot(bot, item);
        let walk = bot.goto_block(landing);
        let picked_up = items::wait_until(bot, Duration::from_secs(20), || arrived(bot));
        tokio::select! {
            walked = walk => {
                tracing::debug!("{}: to the drop at {}: {walked:?}", bot.name(), crate::bot::fmt_pos(item));
            }
            true = picked_up => {
                bot.stop_moving();
                return true;
            }
        }
        if items::wait_until(bot, Duration::from_millis(800), || arrived(bot)).await {
            return true;
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

fn fmt_block(pos: BlockPos) -> String {
    format!("{} {} {}", pos.x, pos.y, pos.z)
}
