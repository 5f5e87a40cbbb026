//! Block search over the loaded world, off the game tick.
//!
//! A search copies out the chunk columns in range under one short world read lock ([`Columns::around`]) and then
//! scans them on tokio's blocking pool: every bot's game tick runs on one local task set, and a scan of a natural
//! world's underground (stone and deepslate in nearly every section) would otherwise hold all of them up.
//!
//! The scan visits 16³ sections nearest first, skips those out of range (in y too: a 64-block search touches 9 of a
//! column's 24 sections), skips those whose palette cannot hold the wanted block without reading a block of them,
//! and stops once the wanted number of matches is found and no unvisited section can hold a nearer one.

use std::{collections::HashMap, sync::Arc};

use azalea::{
    BlockPos, Vec3,
    block::{BlockState, BlockStates},
    core::position::ChunkPos,
    registry::builtin::BlockKind,
    world::{Chunk, Section, palette::Palette},
};
use parking_lot::RwLock;

/// No search looks farther than this (blocks): past it, chunks are rarely loaded and the answer is "explore".
pub const MAX_RADIUS: i32 = 256;

/// The loaded chunk columns within a square around a point, shared with the world (a block that changes after the
/// copy is seen as it is when the scan reaches it).
pub struct Columns {
    columns: Vec<(ChunkPos, Arc<RwLock<Chunk>>)>,
    min_y: i32,
}

impl Columns {
    /// The columns overlapping the square of `radius` (clamped to [`MAX_RADIUS`]) around `centre`, taken under one
    /// world read lock.
    pub fn around(world: &azalea::world::World, centre: BlockPos, radius: i32) -> Columns {
        let radius = radius.clamp(0, MAX_RADIUS);
        let span = |low: i32, high: i32| low.div_euclid(16)..=high.div_euclid(16);
        let mut columns = Vec::new();
        for cx in span(centre.x - radius, centre.x + radius) {
            for cz in span(centre.z - radius, centre.z + radius) {
                let pos = ChunkPos::new(cx, cz);
                if let Some(chunk) = world.chunks.get(&pos) {
                    columns.push((pos, chunk));
                }
            }
        }
        Columns { columns, min_y: world.chunks.min_y() }
    }

    /// The loaded column at `pos`, to read under its own lock (never the world's).
    pub fn column(&self, pos: ChunkPos) -> Option<&Arc<RwLock<Chunk>>> {
        self.columns.iter().find(|(p, _)| *p == pos).map(|(_, chunk)| chunk)
    }

    /// The world's lowest block height (what a column's sections count from).
    pub fn min_y(&self) -> i32 {
        self.min_y
    }

    /// Columns made up directly (tests, benchmarks).
    pub fn from_chunks(columns: Vec<(ChunkPos, Chunk)>, min_y: i32) -> Columns {
        let columns = columns.into_iter().map(|(pos, chunk)| (pos, Arc::new(RwLock::new(chunk)))).collect();
        Columns { columns, min_y }
    }

    /// Every section within `radius` of `origin` (distance to its nearest point), nearest first:
    /// `(distance, column index, section index)`.
    fn sections_by_distance(&self, origin: Vec3, radius: f64) -> Vec<(f64, usize, usize)> {
        let mut order = Vec::new();
        for (column, (pos, chunk)) in self.columns.iter().enumerate() {
            let count = chunk.read().sections.len();
            for section in 0..count {
                let low = Vec3::new(
                    f64::from(pos.x * 16),
                    f64::from(self.min_y + section as i32 * 16),
                    f64::from(pos.z * 16),
                );
                let distance = box_distance(origin, low, 16.0);
                if distance <= radius {
                    order.push((distance, column, section));
                }
            }
        }
        order.sort_by(|a, b| a.0.total_cmp(&b.0));
        order
    }

    fn block_pos(&self, column: usize, section: usize, index: usize) -> BlockPos {
        let pos = self.columns[column].0;
        // Sections store blocks y-major, then z, then x (4 bits each).
        BlockPos::new(
            pos.x * 16 + (index & 15) as i32,
            self.min_y + section as i32 * 16 + (index >> 8) as i32,
            pos.z * 16 + ((index >> 4) & 15) as i32,
        )
    }

    /// Up to `count` blocks of `kinds` within `max_distance` of `origin` (to block centres), nearest first, those
    /// `prefer` accepts ahead of the rest.
    pub fn nearest(
        &self,
        kinds: &BlockStates,
        origin: Vec3,
        max_distance: f64,
        count: usize,
        prefer: impl Fn(BlockPos) -> bool,
    ) -> Vec<BlockPos> {
        // A block centre lies at most √3/2 from the nearest point of its section's box.
        let order = self.sections_by_distance(origin, max_distance + 0.87);
        let mut found: Vec<(bool, f64, BlockPos)> = Vec::new();
        for (i, &(_, column, section)) in order.iter().enumerate() {
            {
                let chunk = self.columns[column].1.read();
                let Some(states) = chunk.sections.get(section).map(|s| &s.states) else { continue };
                if !palette_may_hold(&states.palette, kinds) {
                    continue;
                }
                for index in 0..4096 {
                    if kinds.contains(&states.get_at_index(index)) {
                        let pos = self.block_pos(column, section, index);
                        let distance = pos.center().distance_to(origin);
                        if distance <= max_distance {
                            found.push((!prefer(pos), distance, pos));
                        }
                    }
                }
            }
            // Done when `count` preferred matches are nearer than anything an unvisited section could hold.
            let next = order.get(i + 1).map_or(f64::INFINITY, |s| s.0);
            if found.iter().filter(|f| !f.0 && f.1 <= next).count() >= count {
                break;
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        found.into_iter().take(count).map(|(_, _, pos)| pos).collect()
    }

    /// Each kind of block within `radius` of `origin` (air left out) with its nearest distance. A section is read
    /// only when its palette names a kind not yet seen as near as the section itself.
    pub fn kinds(&self, origin: Vec3, radius: f64) -> HashMap<BlockKind, f64> {
        let mut nearest: HashMap<BlockKind, f64> = HashMap::new();
        for (section_distance, column, section) in self.sections_by_distance(origin, radius + 0.87) {
            let chunk = self.columns[column].1.read();
            let Some(Section { states, .. }) = chunk.sections.get(section) else { continue };
            let worth_reading = match palette_states(&states.palette) {
                Some(states) => states.iter().any(|state| {
                    let kind = BlockKind::from(*state);
                    !is_air(kind) && nearest.get(&kind).is_none_or(|&d| d > section_distance)
                }),
                None => true,
            };
            if !worth_reading {
                continue;
            }
            for index in 0..4096 {
                let kind = BlockKind::from(states.get_at_index(index));
                if is_air(kind) {
                    continue;
                }
                let distance = self.block_pos(column, section, index).center().distance_to(origin);
                if distance <= radius {
                    let best = nearest.entry(kind).or_insert(f64::MAX);
                    *best = best.min(distance);
                }
            }
        }
        nearest
    }
}

fn is_air(kind: BlockKind) -> bool {
    matches!(kind, BlockKind::Air | BlockKind::CaveAir | BlockKind::VoidAir)
}

/// The states a section's palette lists, or `None` for a global palette (any state may be there).
fn palette_states(palette: &Palette<BlockState>) -> Option<&[BlockState]> {
    match palette {
        Palette::SingleValue(state) => Some(std::slice::from_ref(state)),
        Palette::Linear(states) | Palette::Hashmap(states) => Some(states),
        Palette::Global => None,
    }
}

fn palette_may_hold(palette: &Palette<BlockState>, kinds: &BlockStates) -> bool {
    palette_states(palette).is_none_or(|states| states.iter().any(|s| kinds.contains(s)))
}

/// Distance from `point` to the axis-aligned cube with corner `low` and edge `size`.
fn box_distance(point: Vec3, low: Vec3, size: f64) -> f64 {
    let axis = |p: f64, lo: f64| (lo - p).max(0.0).max(p - (lo + size));
    let (dx, dy, dz) = (axis(point.x, low.x), axis(point.y, low.y), axis(point.z, low.z));
    (dx * dx + dy * dy + dz * dz).sqrt()
}

#[cfg(test)]
mod tests {
    use azalea::core::position::ChunkBlockPos;

    use super::*;

    const MIN_Y: i32 = -64;

    fn columns(blocks: &[(BlockPos, BlockKind)], fill_stone_below: Option<i32>) -> Columns {
        let mut chunks: HashMap<ChunkPos, Chunk> = HashMap::new();
        for cx in -2..=2 {
            for cz in -2..=2 {
                let mut chunk = Chunk::default();
                if let Some(top) = fill_stone_below {
                    // Whole sections as the server sends them (one-value palettes), the rest block by block.
                    let whole = (top - MIN_Y) / 16;
                    for section in &mut chunk.sections[..whole as usize] {
                        section.states.palette = Palette::SingleValue(BlockKind::Stone.into());
                    }
                    for y in MIN_Y + whole * 16..top {
                        for x in 0..16 {
                            for z in 0..16 {
                                chunk.set_block_state(&ChunkBlockPos::new(x, y, z), BlockKind::Stone.into(), MIN_Y);
                            }
                        }
                    }
                }
                chunks.insert(ChunkPos::new(cx, cz), chunk);
            }
        }
        for &(pos, kind) in blocks {
            let chunk = chunks.get_mut(&ChunkPos::from(pos)).unwrap();
            chunk.set_block_state(&ChunkBlockPos::from(pos), kind.into(), MIN_Y);
        }
        Columns::from_chunks(chunks.into_iter().collect(), MIN_Y)
    }

    fn iron() -> BlockStates {
        BlockStates::from([BlockKind::IronOre])
    }

    #[test]
    fn nearest_first_within_range_and_count() {
        let origin = Vec3::new(0.5, 64.0, 0.5);
        let near = BlockPos::new(3, 60, 0);
        let middle = BlockPos::new(-10, 50, 12);
        let far = BlockPos::new(30, 64, 30);
        let cols =
            columns(&[(far, BlockKind::IronOre), (near, BlockKind::IronOre), (middle, BlockKind::IronOre)], Some(40));
        assert_eq!(cols.nearest(&iron(), origin, 64.0, 10, |_| true), vec![near, middle, far]);
        assert_eq!(cols.nearest(&iron(), origin, 64.0, 2, |_| true), vec![near, middle]);
        assert_eq!(cols.nearest(&iron(), origin, 25.0, 10, |_| true), vec![near, middle]);
        assert!(cols.nearest(&BlockStates::from([BlockKind::DiamondOre]), origin, 64.0, 10, |_| true).is_empty());
    }

    #[test]
    fn preferred_blocks_come_first_even_when_farther() {
        let origin = Vec3::new(0.5, 64.0, 0.5);
        let below = BlockPos::new(0, 62, 0);
        let level = BlockPos::new(20, 64, 0);
        let cols = columns(&[(below, BlockKind::IronOre), (level, BlockKind::IronOre)], None);
        assert_eq!(cols.nearest(&iron(), origin, 32.0, 1, |p| p.y >= 64), vec![level]);
        assert_eq!(cols.nearest(&iron(), origin, 32.0, 2, |p| p.y >= 64), vec![level, below]);
    }

    #[test]
    fn a_whole_section_of_one_block_is_found_from_its_single_value_palette() {
        // Stone fills every section below y 0 (single-value palettes) and part of the one above.
        let cols = columns(&[], Some(8));
        let origin = Vec3::new(8.5, 20.0, 8.5);
        let stone = BlockStates::from([BlockKind::Stone]);
        let found = cols.nearest(&stone, origin, 64.0, 3, |_| true);
        assert_eq!(found.len(), 3);
        assert!(found.iter().all(|p| p.y == 7), "{found:?}");
        let inside = Vec3::new(8.5, -29.8, 8.5);
        assert_eq!(cols.nearest(&stone, inside, 8.0, 1, |_| true), vec![BlockPos::new(8, -30, 8)]);
    }

    #[test]
    fn blocks_out_of_range_in_height_are_not_found() {
        let deep = BlockPos::new(0, -50, 0);
        let cols = columns(&[(deep, BlockKind::IronOre)], None);
        assert!(cols.nearest(&iron(), Vec3::new(0.5, 70.0, 0.5), 64.0, 1, |_| true).is_empty());
        assert_eq!(cols.nearest(&iron(), Vec3::new(0.5, 70.0, 0.5), 128.0, 1, |_| true), vec![deep]);
    }

    #[test]
    fn kinds_lists_each_block_with_its_nearest_distance() {
        let cols = columns(
            &[(BlockPos::new(2, 64, 0), BlockKind::OakLog), (BlockPos::new(9, 64, 0), BlockKind::OakLog)],
            Some(60),
        );
        let kinds = cols.kinds(Vec3::new(0.5, 64.0, 0.5), 16.0);
        assert!((kinds[&BlockKind::OakLog] - 2.06).abs() < 0.01, "{kinds:?}");
        assert!((kinds[&BlockKind::Stone] - 4.5).abs() < 0.01, "{kinds:?}");
        assert!(!kinds.contains_key(&BlockKind::Air));
        assert_eq!(kinds.len(), 2);
    }
}
