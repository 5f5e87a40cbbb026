//! Caves, as the pathfinder sees them: open ground under the terrain's top that the bot did not dig itself.
//!
//! Monsters spawn in the dark, and underground it is dark everywhere: a walk through a cave meets the zombies and
//! skeletons that spawned in it, from every side, and skeletons shoot across it. Stairs and tunnels the bot digs
//! itself are reached only the way it came. So below the terrain's top a step into a cave costs [`CAVE_PENALTY`]
//! more, and with a pickaxe that digs stone quickly the bot would rather dig its own way than walk a cave (with a
//! poor one, or by hand, caves stay the cheaper way).

use std::collections::HashSet;

use azalea::{
    BlockPos,
    block::BlockState,
    core::{
        heightmap_kind::HeightmapKind,
        position::{ChunkBlockPos, ChunkPos},
    },
    pathfinder::world::is_block_state_passable,
    registry::{builtin::BlockKind, tags::blocks::LEAVES, tags::blocks::LOGS},
    world::World,
};

/// Added to every step into a cave (ticks): about what digging a stair step through stone with an iron pickaxe costs.
pub const CAVE_PENALTY: f32 = 40.0;
/// How far from the bot (blocks, each way) the terrain's top is read when a walk starts.
const AROUND: i32 = 64;
/// Terrain at least this many blocks above a cell's floor makes it underground: one over the head is an overhang or
/// a dip under a ledge, not a cave.
const COVER: i32 = 4;
/// The most blocks of trees and plants looked through, down from a column's top, for the terrain under them.
const CANOPY: i32 = 40;

/// The terrain's top around where a walk starts, and the cells the bot opened itself (see the module's docs).
#[derive(Clone, Debug, Default)]
pub struct Underground {
    /// The grid's corner column (x, z) and side; `ground` holds one height per column, row by row of z.
    corner: (i32, i32),
    side: i32,
    /// The terrain's top per column (trees and plants left out); `i32::MAX` where the world did not say.
    ground: Vec<i32>,
    /// Cells the bot dug or saw opened near it: its own stairs and tunnels.
    opened: HashSet<BlockPos>,
}

impl Underground {
    /// Reads the terrain's top for the columns within [`AROUND`] of `centre`, from the heights the server sent with
    /// each chunk, looking down through leaves, logs and plants.
    pub fn around(world: &World, centre: BlockPos, opened: HashSet<BlockPos>) -> Underground {
        let side = 2 * AROUND + 1;
        let corner = (centre.x - AROUND, centre.z - AROUND);
        let mut ground = vec![i32::MAX; (side * side) as usize];
        let min_y = world.chunks.min_y();
        let (first, last) = (
            ChunkPos::from(BlockPos::new(corner.0, 0, corner.1)),
            ChunkPos::from(BlockPos::new(corner.0 + side - 1, 0, corner.1 + side - 1)),
        );
        for cx in first.x..=last.x {
            for cz in first.z..=last.z {
                let Some(chunk) = world.chunks.get(&ChunkPos::new(cx, cz)) else { continue };
                let chunk = chunk.read();
                let Some(heights) = chunk.heightmaps.get(&HeightmapKind::MotionBlocking) else { continue };
                for lx in 0..16u8 {
                    for lz in 0..16u8 {
                        let (x, z) = (cx * 16 + i32::from(lx), cz * 16 + i32::from(lz));
                        let (dx, dz) = (x - corner.0, z - corner.1);
                        if dx < 0 || dz < 0 || dx >= side || dz >= side {
                            continue;
                        }
                        let top = heights.get_highest_taken(lx, lz);
                        let terrain = (0..CANOPY)
                            .map(|d| top - d)
                            .take_while(|y| *y >= min_y)
                            .find(|y| {
                                let at = ChunkBlockPos::new(lx, *y, lz);
                                chunk.get_block_state(&at, min_y).is_some_and(is_terrain)
                            })
                            .unwrap_or(top - CANOPY);
                        ground[(dz * side + dx) as usize] = terrain;
                    }
                }
            }
        }
        Underground { corner, side, ground, opened }
    }

    /// Whether nothing was read (a walk that goes through caves).
    pub fn is_empty(&self) -> bool {
        self.ground.is_empty()
    }

    /// Whether open ground at `pos` (a cell the bot would stand in) lies in a cave.
    pub fn is_cave(&self, pos: BlockPos) -> bool {
        let (dx, dz) = (pos.x - self.corner.0, pos.z - self.corner.1);
        if dx < 0 || dz < 0 || dx >= self.side || dz >= self.side {
            return false;
        }
        let ground = self.ground[(dz * self.side + dx) as usize];
        ground != i32::MAX && ground >= pos.y + COVER && !self.opened.contains(&pos)
    }
}

/// Whether a block is terrain a cave's roof is made of, rather than air, a plant or part of a tree.
fn is_terrain(state: BlockState) -> bool {
    if is_block_state_passable(state) {
        return false;
    }
    let kind = BlockKind::from(state);
    !LEAVES.contains(&kind) && !LOGS.contains(&kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(ground: i32, opened: &[BlockPos]) -> Underground {
        let side = 5;
        Underground {
            corner: (-2, -2),
            side,
            ground: vec![ground; (side * side) as usize],
            opened: opened.iter().copied().collect(),
        }
    }

    #[test]
    fn open_ground_well_under_the_terrain_is_a_cave_unless_the_bot_dug_it() {
        let under = flat(64, &[BlockPos::new(1, 50, 1)]);
        assert!(under.is_cave(BlockPos::new(0, 50, 0)));
        assert!(under.is_cave(BlockPos::new(0, 60, 0)), "four blocks of terrain above the floor cover it");
        assert!(!under.is_cave(BlockPos::new(0, 61, 0)), "under a ledge");
        assert!(!under.is_cave(BlockPos::new(0, 65, 0)), "on the surface");
        assert!(!under.is_cave(BlockPos::new(1, 50, 1)), "the bot's own tunnel");
        assert!(!under.is_cave(BlockPos::new(9, 50, 0)), "outside what was read");
    }

    #[test]
    fn a_column_the_world_did_not_say_is_no_cave() {
        assert!(!flat(i32::MAX, &[]).is_cave(BlockPos::new(0, -40, 0)));
    }
}
