//! Observations: inventory, blocks and entities around the bot. Nothing here moves the bot or waits.

use std::str::FromStr;

use azalea::{
    BlockPos,
    block::BlockStates,
    core::position::{ChunkBlockPos, ChunkPos},
    ecs::query::Without,
    entity::{EntityKindComponent, LocalEntity},
    registry::builtin::{BlockKind, EntityKind},
    world::{Chunk, find_blocks::find_blocks_in_chunk},
};
use rhai::{Dynamic, Map};

use crate::{bot::BotHandle, script::Vec3};

/// `#{oak_log: 12, dirt: 3}`
pub fn inventory(bot: &BotHandle) -> Dynamic {
    let map: Map = bot.items().into_iter().map(|(name, count)| (name.into(), Dynamic::from_int(count.into()))).collect();
    Dynamic::from_map(map)
}

/// The positions of up to `count` blocks called `name` within `max_distance` of the bot, nearest first.
pub fn find_blocks(bot: &BotHandle, name: &str, max_distance: f64, count: usize) -> Result<Dynamic, String> {
    let kind = BlockKind::from_str(name).map_err(|()| format!("There is no block called {name}"))?;
    let found = nearest_blocks(bot, kind, max_distance, count);
    Ok(Dynamic::from_array(found.into_iter().map(|p| Dynamic::from(Vec3::from(p))).collect()))
}

/// Finds matches within `max_distance` (from the bot's feet to block centres) in the loaded world, nearest first.
pub fn nearest_blocks(bot: &BotHandle, kind: BlockKind, max_distance: f64, count: usize) -> Vec<BlockPos> {
    nearest_blocks_preferring(bot, kind, max_distance, count, |_| true)
}

/// As [`nearest_blocks`], with the positions `prefer` accepts ahead of the rest (each group nearest first); one scan.
/// Chunk sections whose palette cannot hold `kind` are skipped without reading a block.
pub fn nearest_blocks_preferring(
    bot: &BotHandle,
    kind: BlockKind,
    max_distance: f64,
    count: usize,
    prefer: impl Fn(BlockPos) -> bool,
) -> Vec<BlockPos> {
    let origin = bot.position();
    let states = BlockStates::from([kind]);
    let radius = max_distance.ceil() as i32;
    let mut found: Vec<(bool, f64, BlockPos)> = Vec::new();
    for_each_chunk(bot, BlockPos::from(origin), radius, |chunk_pos, chunk, min_y| {
        find_blocks_in_chunk(&states, chunk_pos, chunk, min_y, |pos| {
            let distance = pos.center().distance_to(origin);
            if distance <= max_distance {
                found.push((!prefer(pos), distance, pos));
            }
        });
    });
    found.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    found.into_iter().take(count).map(|(_, _, pos)| pos).collect()
}

/// Calls `visit` with every loaded chunk column that overlaps the square of `radius` blocks around `centre`. The
/// world lock is held only to look each chunk up, and that chunk's own lock only while `visit` reads it: a wide search
/// never holds up the game tick (every bot's) for longer than one chunk takes.
fn for_each_chunk(bot: &BotHandle, centre: BlockPos, radius: i32, mut visit: impl FnMut(ChunkPos, &Chunk, i32)) {
    let world = bot.client().world();
    let radius = radius.clamp(0, MAX_SCAN_RADIUS);
    let chunks = |low: i32, high: i32| low.div_euclid(16)..=high.div_euclid(16);
    for cx in chunks(centre.x - radius, centre.x + radius) {
        for cz in chunks(centre.z - radius, centre.z + radius) {
            let pos = ChunkPos::new(cx, cz);
            let (chunk, min_y) = {
                let world = world.read();
                (world.chunks.get(&pos), world.chunks.min_y())
            };
            if let Some(chunk) = chunk {
                visit(pos, &chunk.read(), min_y);
            }
        }
    }
}

/// No scan looks farther than this (blocks): past it, chunks are rarely loaded and the answer is "explore".
const MAX_SCAN_RADIUS: i32 = 256;

/// The kind of block at `pos`, if its chunk is loaded.
pub fn block_kind(bot: &BotHandle, pos: BlockPos) -> Option<BlockKind> {
    bot.client().world().read().get_block_state(pos).map(BlockKind::from)
}

/// The nearest entity of kind `name` (`pig`, `zombie`, `item`…) or the player called `name`, within `max_distance`:
/// `#{name, position, distance}`, or `()` when there is none.
pub fn nearest_entity(bot: &BotHandle, name: &str, max_distance: f64) -> Result<Dynamic, String> {
    let origin = bot.position();
    let describe = |label: String, position: azalea::Vec3| {
        let distance = position.distance_to(origin);
        (distance <= max_distance).then(|| {
            let mut map = Map::new();
            map.insert("name".into(), label.into());
            map.insert("position".into(), Dynamic::from(Vec3::from(position)));
            map.insert("distance".into(), Dynamic::from_float(distance));
            Dynamic::from_map(map)
        })
    };
    if let Some(position) = bot.player_position(name) {
        return Ok(describe(name.to_owned(), position).unwrap_or(Dynamic::UNIT));
    }
    let kind = EntityKind::from_str(name)
        .map_err(|()| format!("There is no entity type or visible player called {name}"))?;
    let nearest = bot
        .client()
        .nearest_entities_by::<&EntityKindComponent, Without<LocalEntity>>(move |k: &EntityKindComponent| k.0 == kind);
    Ok(nearest
        .iter()
        .find_map(|entity| describe(name.to_owned(), entity.position()))
        .unwrap_or(Dynamic::UNIT))
}

/// The kinds of block within `radius` (air left out), nearest kind first, at most `limit` of them: what the agents
/// are told the bot can see.
pub fn block_kinds_near(bot: &BotHandle, radius: i32, limit: usize) -> Vec<String> {
    let origin = bot.position();
    let centre = BlockPos::from(origin);
    let mut nearest: std::collections::HashMap<BlockKind, f64> = std::collections::HashMap::new();
    for_each_chunk(bot, centre, radius, |chunk_pos, chunk, min_y| {
        let (x0, z0) = (chunk_pos.x * 16, chunk_pos.z * 16);
        for x in (centre.x - radius).max(x0)..=(centre.x + radius).min(x0 + 15) {
            for z in (centre.z - radius).max(z0)..=(centre.z + radius).min(z0 + 15) {
                for y in centre.y - radius..=centre.y + radius {
                    let pos = BlockPos::new(x, y, z);
                    let Some(state) = chunk.get_block_state(&ChunkBlockPos::from(pos), min_y) else { continue };
                    let kind = BlockKind::from(state);
                    if matches!(kind, BlockKind::Air | BlockKind::CaveAir | BlockKind::VoidAir) {
                        continue;
                    }
                    let distance = pos.center().distance_to(origin);
                    let best = nearest.entry(kind).or_insert(f64::MAX);
                    *best = best.min(distance);
                }
            }
        }
    });
    let mut kinds: Vec<(f64, BlockKind)> = nearest.into_iter().map(|(kind, d)| (d, kind)).collect();
    kinds.sort_by(|a, b| a.0.total_cmp(&b.0));
    kinds.into_iter().take(limit).map(|(_, kind)| kind.to_string().trim_start_matches("minecraft:").to_owned()).collect()
}

/// Entities within `max_distance` (items and the bot itself left out), nearest first: `pig (4 blocks)`.
pub fn entities_near(bot: &BotHandle, max_distance: f64, limit: usize) -> Vec<String> {
    let origin = bot.position();
    let nearby = bot
        .client()
        .nearest_entities_by::<&EntityKindComponent, Without<LocalEntity>>(|k: &EntityKindComponent| k.0 != EntityKind::Item);
    nearby
        .iter()
        .filter_map(|entity| {
            let distance = entity.position().distance_to(origin);
            if distance > max_distance {
                return None;
            }
            let kind = entity.get_component::<EntityKindComponent>()?.0.to_string();
            Some(format!("{} ({distance:.0} blocks)", kind.trim_start_matches("minecraft:")))
        })
        .take(limit)
        .collect()
}

/// What the bot wears and holds: `held: stone_pickaxe, head: iron_helmet`, or `nothing`.
pub fn equipment(bot: &BotHandle) -> String {
    let slots = super::items::inventory_slots(bot);
    let held = 36 + usize::from(bot.client().selected_hotbar_slot());
    // Player menu: armour 5..=8 (head to feet), hotbar 36..=44, off-hand 45.
    let parts: Vec<String> = [("held", held), ("head", 5), ("chest", 6), ("legs", 7), ("feet", 8), ("off-hand", 45)]
        .into_iter()
        .filter_map(|(place, slot)| Some(format!("{place}: {}", super::items::item_name(slots.get(slot)?)?)))
        .collect();
    if parts.is_empty() { "nothing".to_owned() } else { parts.join(", ") }
}

/// Chests within `max_distance`, nearest first, as `x y z`.
pub fn chests_near(bot: &BotHandle, max_distance: f64, limit: usize) -> Vec<String> {
    nearest_blocks(bot, BlockKind::Chest, max_distance, limit).into_iter().map(|p| format!("{} {} {}", p.x, p.y, p.z)).collect()
}

/// The biome the bot stands in (`plains`), if its chunk carries biomes.
pub fn biome(bot: &BotHandle) -> Option<String> {
    let pos = BlockPos::from(bot.position());
    let biome = bot.client().world().read().get_biome(pos)?;
    let name = bot.client().with_resolved_registry(biome, |id, _| id.to_string())?;
    Some(name.trim_start_matches("minecraft:").to_owned())
}
