//! `mineBlock(name, count)`: find the nearest such block within 64 (exploring for one when there is none), walk to
//! it, take the best tool, dig, and pick up the drops — `count` times.

use std::{
    collections::HashMap,
    str::FromStr,
    sync::LazyLock,
    time::{Duration, Instant},
};

use azalea::{BlockPos, registry::builtin::BlockKind};
use parking_lot::Mutex;
use rhai::Dynamic;

use super::{
    dig::{collect_drops, dig, take_best_tool},
    explore, facts, items, observe,
};
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
                return Err(format!("I could not get to the {name} at {}{others}: {err}", crate::bot::fmt_block(pos)));
            }
            tracing::info!(
                "{}: could not get to the {name} at {} ({err}); trying another",
                bot.name(),
                crate::bot::fmt_block(pos)
            );
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
            tracing::debug!("{}: the way to the {name} at {} dug it", bot.name(), crate::bot::fmt_block(pos));
        }
        mined += 1;
        if !collect_drops(bot, pos, &drops, &before).await {
            if observe::block_kind(bot, pos) == Some(kind) && redone < MAX_REDIGS {
                // The server put the block back (it did not take the dig): it was not mined, so dig it again.
                tracing::debug!(
                    "{}: the {name} at {} is back; digging it again",
                    bot.name(),
                    crate::bot::fmt_block(pos)
                );
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
