//! Observations: inventory, blocks and entities around the bot. Nothing here moves the bot or waits.

use std::str::FromStr;

use azalea::{
    BlockPos,
    block::BlockStates,
    ecs::query::Without,
    entity::{EntityKindComponent, LocalEntity},
    registry::builtin::{BlockKind, EntityKind},
};
use rhai::{Dynamic, Map};

use super::search::Columns;
use crate::{bot::BotHandle, script::Vec3};

/// Blocks that hold items: what `placeItem` will not place over, and what a store must not break.
pub const CONTAINERS: [&str; 3] = ["chest", "trapped_chest", "barrel"];

/// `#{oak_log: 12, dirt: 3}`
pub fn inventory(bot: &BotHandle) -> Dynamic {
    let map: Map =
        bot.items().into_iter().map(|(name, count)| (name.into(), Dynamic::from_int(count.into()))).collect();
    Dynamic::from_map(map)
}

/// The positions of up to `count` blocks called `name` within `max_distance` of the bot, nearest first.
pub async fn find_blocks(bot: &BotHandle, name: &str, max_distance: f64, count: usize) -> Result<Dynamic, String> {
    let kind = BlockKind::from_str(name).map_err(|()| format!("There is no block called {name}"))?;
    let found = nearest_reachable_blocks(bot, kind, max_distance, count).await;
    Ok(Dynamic::from_array(found.into_iter().map(|p| Dynamic::from(Vec3::from(p))).collect()))
}

/// As [`nearest_blocks`], passing over the blocks the bot failed to walk to lately (see
/// [`BotHandle::mark_unreachable`]): a crafting table across a ravine is not the one to use again and again.
pub async fn nearest_reachable_blocks(
    bot: &BotHandle,
    kind: BlockKind,
    max_distance: f64,
    count: usize,
) -> Vec<BlockPos> {
    let skip = bot.unreachable();
    let found = nearest_blocks(bot, kind, max_distance, count + skip.len()).await;
    found.into_iter().filter(|pos| !skip.contains(pos)).take(count).collect()
}

/// Finds matches within `max_distance` (from the bot's feet to block centres) in the loaded world, nearest first.
pub async fn nearest_blocks(bot: &BotHandle, kind: BlockKind, max_distance: f64, count: usize) -> Vec<BlockPos> {
    nearest_blocks_preferring(bot, kind, max_distance, count, |_| true).await
}

/// As [`nearest_blocks`], with the positions `prefer` accepts ahead of the rest (each group nearest first). The scan
/// runs off the game tick (see [`super::search`]).
pub async fn nearest_blocks_preferring(
    bot: &BotHandle,
    kind: BlockKind,
    max_distance: f64,
    count: usize,
    prefer: impl Fn(BlockPos) -> bool + Send + 'static,
) -> Vec<BlockPos> {
    let origin = bot.position();
    let columns = columns_around(bot, origin, max_distance);
    let states = BlockStates::from([kind]);
    off_tick(move || columns.nearest(&states, origin, max_distance, count, prefer)).await.unwrap_or_default()
}

/// Blocks worth remembering where they are: ores, chests and stations.
pub const NOTABLE: &[&str] = &[
    "coal_ore",
    "deepslate_coal_ore",
    "iron_ore",
    "deepslate_iron_ore",
    "copper_ore",
    "deepslate_copper_ore",
    "gold_ore",
    "deepslate_gold_ore",
    "redstone_ore",
    "deepslate_redstone_ore",
    "lapis_ore",
    "deepslate_lapis_ore",
    "diamond_ore",
    "deepslate_diamond_ore",
    "emerald_ore",
    "deepslate_emerald_ore",
    "chest",
    "crafting_table",
    "furnace",
];

/// The [`NOTABLE`] blocks within `radius`, nearest first, at most `limit`: kind and position.
pub async fn notable_blocks(bot: &BotHandle, radius: f64, limit: usize) -> Vec<(String, BlockPos)> {
    let kinds: std::collections::HashSet<BlockKind> =
        NOTABLE.iter().filter_map(|n| BlockKind::from_str(n).ok()).collect();
    let states = BlockStates::from(kinds);
    let origin = bot.position();
    let columns = columns_around(bot, origin, radius);
    let found = off_tick(move || columns.nearest(&states, origin, radius, limit, |_| true)).await.unwrap_or_default();
    found
        .into_iter()
        .filter_map(|pos| Some((block_kind(bot, pos)?.to_string().trim_start_matches("minecraft:").to_owned(), pos)))
        .collect()
}

fn columns_around(bot: &BotHandle, origin: azalea::Vec3, radius: f64) -> Columns {
    Columns::around(&bot.client().world().read(), BlockPos::from(origin), radius.ceil() as i32)
}

/// Runs a scan on tokio's blocking pool, so the game ticks of every bot go on meanwhile. `None` if it panicked.
async fn off_tick<T: Send + 'static>(scan: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    match tokio::task::spawn_blocking(scan).await {
        Ok(found) => Some(found),
        Err(err) => {
            tracing::error!("a block search failed: {err}");
            None
        }
    }
}

/// The kind of block at `pos`, if its chunk is loaded.
pub fn block_kind(bot: &BotHandle, pos: BlockPos) -> Option<BlockKind> {
    block_state(bot, pos).map(BlockKind::from)
}

/// The block at `pos` with its properties (a snow layer's depth…), if its chunk is loaded.
pub fn block_state(bot: &BotHandle, pos: BlockPos) -> Option<azalea::block::BlockState> {
    bot.client().world().read().get_block_state(pos)
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
    let kind =
        EntityKind::from_str(name).map_err(|()| format!("There is no entity type or visible player called {name}"))?;
    let nearest = bot
        .client()
        .nearest_entities_by::<&EntityKindComponent, Without<LocalEntity>>(move |k: &EntityKindComponent| k.0 == kind);
    Ok(nearest.iter().find_map(|entity| describe(name.to_owned(), entity.position())).unwrap_or(Dynamic::UNIT))
}

/// The kinds of block within `radius` (air left out), nearest kind first, at most `limit` of them: what the agents
/// are told the bot can see.
pub async fn block_kinds_near(bot: &BotHandle, radius: i32, limit: usize) -> Vec<String> {
    let origin = bot.position();
    let columns = columns_around(bot, origin, f64::from(radius));
    let nearest = off_tick(move || columns.kinds(origin, f64::from(radius))).await.unwrap_or_default();
    let mut kinds: Vec<(f64, BlockKind)> = nearest.into_iter().map(|(kind, d)| (d, kind)).collect();
    kinds.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.to_string().cmp(&b.1.to_string())));
    kinds
        .into_iter()
        .take(limit)
        .map(|(_, kind)| kind.to_string().trim_start_matches("minecraft:").to_owned())
        .collect()
}

/// Entities within `max_distance` (items and the bot itself left out), nearest first: `pig (4 blocks)`.
pub fn entities_near(bot: &BotHandle, max_distance: f64, limit: usize) -> Vec<String> {
    let origin = bot.position();
    let nearby =
        bot.client().nearest_entities_by::<&EntityKindComponent, Without<LocalEntity>>(|k: &EntityKindComponent| {
            k.0 != EntityKind::Item
        });
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

/// Item entities lying within `radius` of `at`, nearest to the bot first.
pub fn items_near(bot: &BotHandle, at: azalea::Vec3, radius: f64) -> Vec<azalea::Vec3> {
    bot.client()
        .nearest_entities_by::<&EntityKindComponent, Without<LocalEntity>>(|k: &EntityKindComponent| {
            k.0 == EntityKind::Item
        })
        .iter()
        .map(|e| e.position())
        .filter(|p| p.distance_to(at) <= radius)
        .collect()
}

/// What the bot wears and holds, by place: `[("held", "stone_pickaxe"), ("head", "iron_helmet")]`.
pub fn worn(bot: &BotHandle) -> Vec<(&'static str, String)> {
    let slots = super::items::inventory_slots(bot);
    let held = 36 + usize::from(bot.client().selected_hotbar_slot());
    // Player menu: armour 5..=8 (head to feet), hotbar 36..=44, off-hand 45.
    [("held", held), ("head", 5), ("chest", 6), ("legs", 7), ("feet", 8), ("off-hand", 45)]
        .into_iter()
        .filter_map(|(place, slot)| Some((place, super::items::item_name(slots.get(slot)?)?)))
        .collect()
}

/// What the bot wears and holds: `held: stone_pickaxe, head: iron_helmet`, or `nothing`.
pub fn equipment(bot: &BotHandle) -> String {
    let parts: Vec<String> = worn(bot).into_iter().map(|(place, item)| format!("{place}: {item}")).collect();
    if parts.is_empty() { "nothing".to_owned() } else { parts.join(", ") }
}

/// Chests within `max_distance`, nearest first, as `x y z`.
pub async fn chests_near(bot: &BotHandle, max_distance: f64, limit: usize) -> Vec<String> {
    nearest_blocks(bot, BlockKind::Chest, max_distance, limit)
        .await
        .into_iter()
        .map(|p| format!("{} {} {}", p.x, p.y, p.z))
        .collect()
}

/// The biome the bot stands in (`plains`), if its chunk carries biomes.
pub fn biome(bot: &BotHandle) -> Option<String> {
    let pos = BlockPos::from(bot.position());
    let biome = bot.client().world().read().get_biome(pos)?;
    let name = bot.client().with_resolved_registry(biome, |id, _| id.to_string())?;
    Some(name.trim_start_matches("minecraft:").to_owned())
}

/// The block at `pos` as the bot sees it, by name (`None` where not loaded).
pub fn block_name(bot: &BotHandle, [x, y, z]: [i32; 3]) -> Option<String> {
    block_kind(bot, BlockPos::new(x, y, z)).map(strip)
}

/// The blocks of the box `min`..=`max` as the bot sees them, by name (`None` where not loaded).
pub fn area(bot: &BotHandle, min: [i32; 3], max: [i32; 3]) -> super::area::Area {
    super::area::Area::capture(min, max, |[x, y, z]| block_kind(bot, BlockPos::new(x, y, z)).map(strip))
}

/// The most `blocksAround` shows on each side of its spot.
pub const MAX_AROUND: i32 = 4;

/// The blocks within `radius` of `centre` as a compact listing, one layer a paragraph from the top down: each block a
/// letter (`.` for air, `?` not loaded) with a legend, rows running north to south (z up), letters west to east (x up).
pub fn blocks_around(bot: &BotHandle, centre: BlockPos, radius: i32) -> String {
    let r = radius.clamp(0, MAX_AROUND);
    let (min, max) = ([centre.x - r, centre.y - r, centre.z - r], [centre.x + r, centre.y + r, centre.z + r]);
    layered(&area(bot, min, max), [centre.x, centre.y, centre.z])
}

/// See [`blocks_around`].
pub fn layered(area: &super::area::Area, centre: [i32; 3]) -> String {
    const LETTERS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut legend: Vec<(String, char)> = Vec::new();
    let mut layers = Vec::new();
    for y in (area.min[1]..=area.max[1]).rev() {
        let mut rows = Vec::new();
        for z in area.min[2]..=area.max[2] {
            let row: String = (area.min[0]..=area.max[0])
                .map(|x| match area.get([x, y, z]) {
                    None => '?',
                    Some(name) if super::area::is_air(name) => '.',
                    Some(name) => match legend.iter().find(|(n, _)| n == name) {
                        Some((_, c)) => *c,
                        None => {
                            let c = LETTERS.chars().nth(legend.len()).unwrap_or('#');
                            legend.push((name.to_owned(), c));
                            c
                        }
                    },
                })
                .collect();
            rows.push(row);
        }
        let here = if y == centre[1] { " (the spot's layer)" } else { "" };
        layers.push(format!("y {y}{here}:\n{}", rows.join("\n")));
    }
    let legend: Vec<String> = legend.iter().map(|(name, c)| format!("{c} {name}")).collect();
    format!(
        "Blocks from {} {} {} to {} {} {}; rows z {} to {}, columns x {} to {}; . air, {}\n{}",
        area.min[0],
        area.min[1],
        area.min[2],
        area.max[0],
        area.max[1],
        area.max[2],
        area.min[2],
        area.max[2],
        area.min[0],
        area.max[0],
        if legend.is_empty() { "nothing else".to_owned() } else { legend.join(", ") },
        layers.join("\n")
    )
}

fn strip(kind: BlockKind) -> String {
    let name = kind.to_string();
    name.strip_prefix("minecraft:").unwrap_or(&name).to_owned()
}
