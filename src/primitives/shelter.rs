//! Digging in for the night: three blocks straight down where the ground is whole, the hole closed overhead with one
//! of the blocks dug, and a wait for morning. Monsters cannot reach into a closed hole; in the morning the pathfinder
//! digs and pillars the bot out again when a script sends it somewhere.
//!
//! Straight down is safe here only because every block of the shaft and around it is checked first: the floor
//! under the third block is solid, the walls beside the bot are solid, no liquid touches the shaft, and each block
//! can be dug quickly with what the bot carries.

use std::time::Duration;

use azalea::{
    BlockPos,
    pathfinder::world::is_block_state_solid,
    registry::builtin::{BlockKind, ItemKind},
};
use tokio::time::Instant;

use super::{dig, items, place};
use crate::bot::{BotHandle, moves::SCAFFOLD};

/// How deep the bot digs: its body (two blocks) under the ground, and one more for the lid.
const DEPTH: i32 = 3;
/// The longest a night lasts (10 000 ticks), with a margin; the bot gives up the shelter after this anyway.
pub const LONGEST_NIGHT: Duration = Duration::from_secs(540);

/// Monsters this close keep the bot in its shelter after dawn (a zombie on the lid burns in the sun first).
const AROUND_AT_MORNING: f64 = 8.0;

/// Blocks dug fast by hand or shovel.
const SOFT: [BlockKind; 11] = [
    BlockKind::Dirt,
    BlockKind::GrassBlock,
    BlockKind::CoarseDirt,
    BlockKind::Podzol,
    BlockKind::RootedDirt,
    BlockKind::Mycelium,
    BlockKind::Sand,
    BlockKind::RedSand,
    BlockKind::Clay,
    BlockKind::SnowBlock,
    BlockKind::Mud,
];
/// Blocks dug fast with a pickaxe.
const STONY: [BlockKind; 10] = [
    BlockKind::Stone,
    BlockKind::Deepslate,
    BlockKind::Andesite,
    BlockKind::Diorite,
    BlockKind::Granite,
    BlockKind::Tuff,
    BlockKind::Cobblestone,
    BlockKind::Sandstone,
    BlockKind::RedSandstone,
    BlockKind::Calcite,
];
const PICKAXES: [&str; 6] =
    ["wooden_pickaxe", "stone_pickaxe", "copper_pickaxe", "iron_pickaxe", "diamond_pickaxe", "netherite_pickaxe"];

/// Digs in under the bot's feet, closes the hole overhead and waits until `morning()` says the night is over and the
/// monsters near have burnt or gone (or `leave()` says to get out: fire, water, a hurt that should not happen in a
/// closed hole). An error says what went wrong; one before any digging says why the ground here does not do.
pub async fn dig_in(bot: &BotHandle, morning: impl Fn() -> bool, leave: impl Fn() -> bool) -> Result<(), String> {
    let bottom = close_in(bot).await?;
    let sealed_at = Instant::now();
    tracing::info!("{}: sheltering at {} until morning", bot.name(), fmt(bottom));
    let mut morning_since: Option<Instant> = None;
    while !leave() && sealed_at.elapsed() < LONGEST_NIGHT {
        // Morning, and the monsters waiting on top have burnt or gone (or a minute has passed).
        if morning() {
            let since = *morning_since.get_or_insert_with(Instant::now);
            if bot.hostiles_near(AROUND_AT_MORNING).is_empty() || since.elapsed() > Duration::from_secs(60) {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    Ok(())
}

/// Digs three blocks straight down under the bot's feet and closes the hole over its head with a block carried;
/// returns where the bot then stands. An error before any digging says why the ground here does not do.
pub async fn close_in(bot: &BotHandle) -> Result<BlockPos, String> {
    let feet = BlockPos::from(bot.position());
    ground_ok(bot, feet)?;
    bot.stop_moving();
    place::centre_on_block(bot).await;
    for depth in 1..=DEPTH {
        let block = feet.down(depth);
        dig::dig_with_best_tool(bot, block).await?;
        let down = || bot.position().y < f64::from(block.y) + 0.1;
        let mut fallen = items::wait_until(bot, Duration::from_secs(2), down).await;
        if !fallen {
            // Knocked aside (a monster's hit) or stopped on the edge: over the hole, and down.
            place::centre_over(bot, block).await;
            fallen = items::wait_until(bot, Duration::from_secs(2), down).await;
        }
        if !fallen {
            return Err(format!("I dug the block under me at {} but did not drop into the hole", fmt(block)));
        }
    }
    let lid = feet.down(1);
    // The blocks dug are picked up as the bot drops past them; the last may take a moment.
    items::wait_until(bot, Duration::from_secs(1), || lid_carried(bot).is_some()).await;
    let block = lid_carried(bot).ok_or("I have no block to close the hole over my head with")?;
    place::place_against_side(bot, &block, lid).await?;
    Ok(feet.down(DEPTH))
}

/// Whether the ground under the bot will do for a shelter; the error says why not.
pub fn check_ground(bot: &BotHandle) -> Result<(), String> {
    ground_ok(bot, BlockPos::from(bot.position()))
}

/// Whether the three blocks under `feet` can be dug quickly, with solid floor under them, solid walls beside the two
/// the bot will stand in, a wall to set the lid against, and no liquid anywhere around.
fn ground_ok(bot: &BotHandle, feet: BlockPos) -> Result<(), String> {
    let world = bot.client().world();
    let world = world.read();
    let state = |p: BlockPos| world.get_block_state(p);
    let kind = |p: BlockPos| state(p).map(BlockKind::from);
    let solid = |p: BlockPos| state(p).is_some_and(is_block_state_solid);
    let liquid = |p: BlockPos| matches!(kind(p), Some(BlockKind::Water | BlockKind::Lava));
    let sides = |p: BlockPos| [p.north(1), p.south(1), p.east(1), p.west(1)];
    let pickaxe = PICKAXES.iter().any(|p| items::count(bot, p) > 0);
    let mut lid = lid_carried(bot).is_some();
    for depth in 1..=DEPTH {
        let block = feet.down(depth);
        let Some(k) = kind(block) else { return Err("the ground under me is not loaded".to_owned()) };
        if !(SOFT.contains(&k) || (pickaxe && STONY.contains(&k))) {
            return Err(format!("{} under me is too slow to dig", name(k)));
        }
        lid |= DROPS_A_LID.contains(&k);
        if sides(block).into_iter().chain([block.down(1)]).any(liquid) {
            return Err("there is water or lava next to the ground under me".to_owned());
        }
    }
    if !solid(feet.down(DEPTH + 1)) {
        return Err("there is no solid floor three blocks down (a cave, maybe)".to_owned());
    }
    let walls = [feet.down(2), feet.down(3)].into_iter().flat_map(sides);
    if !walls.into_iter().all(solid) {
        return Err("the ground under me is not solid all round".to_owned());
    }
    if !sides(feet.down(1)).into_iter().any(solid) {
        return Err("there is nothing to set a block against over my head".to_owned());
    }
    if !lid {
        return Err("I have no block to close the hole with (sand and gravel fall)".to_owned());
    }
    Ok(())
}

/// Ground blocks whose drop closes the hole (dirt from grass, cobblestone from stone, …).
const DROPS_A_LID: [BlockKind; 11] = [
    BlockKind::Dirt,
    BlockKind::GrassBlock,
    BlockKind::Podzol,
    BlockKind::Mycelium,
    BlockKind::Stone,
    BlockKind::Deepslate,
    BlockKind::Andesite,
    BlockKind::Diorite,
    BlockKind::Granite,
    BlockKind::Tuff,
    BlockKind::Cobblestone,
];

/// A block the bot carries that can close the hole (dirt, cobblestone, …; not sand or gravel, which would fall on
/// its head), cheapest kind first.
fn lid_carried(bot: &BotHandle) -> Option<String> {
    SCAFFOLD
        .iter()
        .filter(|kind| !matches!(kind, ItemKind::Sand | ItemKind::Gravel))
        .map(|kind| kind.to_string().trim_start_matches("minecraft:").to_owned())
        .find(|n| items::count(bot, n) > 0)
}

fn name(kind: BlockKind) -> String {
    kind.to_string().trim_start_matches("minecraft:").replace('_', " ")
}

fn fmt(p: BlockPos) -> String {
    format!("{} {} {}", p.x, p.y, p.z)
}
