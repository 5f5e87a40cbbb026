//! The top-down map around a bot: for each column the first block at or below the bot's head height (so a bot in a
//! cave sees the cave's floor, not the hill above it), coloured by what it is, shaded by how far below it lies.

use std::collections::HashMap;

use azalea::{
    BlockPos,
    block::BlockState,
    core::position::{ChunkBlockPos, ChunkPos},
    pathfinder::ExecutingPath,
    registry::builtin::BlockKind,
    world::Chunk,
};
use serde::Serialize;

use crate::{bot::BotHandle, primitives::search::Columns};

/// Blocks from the bot to the map's edge.
pub const RADIUS: i32 = 32;
/// How far above the bot's feet a column is read from, and how far below them at most.
const ABOVE: i32 = 3;
const BELOW: i32 = 24;

/// One map: `size`² cells from the north-west corner (`x0`, `z0`), row by row (z, then x). `cells` holds one
/// character per cell, an index into `colours` (`0` + index); `depth` one per cell, how far below the top of the
/// scan (`ABOVE` over the feet) the block is, in base 36 (`z` for nothing found).
#[derive(Clone, Debug, Serialize)]
pub struct MapView {
    pub x0: i32,
    pub z0: i32,
    pub y: i32,
    pub size: usize,
    pub colours: Vec<&'static str>,
    pub names: Vec<&'static str>,
    pub cells: String,
    pub depth: String,
    /// The build last previewed (`!build … preview`), drawn over the map where it would stand.
    pub preview: Option<crate::app::state::Preview>,
}

/// What a block looks like on the map: (legend name, CSS colour). The first entry is "not loaded".
const LEGEND: [(&str, &str); 19] = [
    ("not loaded", "#111418"),
    ("air below", "#2a2f36"),
    ("grass", "#5d9b3a"),
    ("leaves", "#2f6b26"),
    ("wood", "#7a5a33"),
    ("stone", "#7d7f82"),
    ("dirt", "#86603e"),
    ("sand", "#d8cc8c"),
    ("water", "#3b68c9"),
    ("lava", "#e8601c"),
    ("snow and ice", "#e8eef2"),
    ("coal", "#2b2b2b"),
    ("iron", "#d8a47f"),
    ("copper", "#c8693d"),
    ("gold", "#f2d23c"),
    ("redstone", "#c0201b"),
    ("diamond", "#4fe0d6"),
    ("crafted", "#d65bd8"),
    ("plants", "#8fcf5a"),
];

/// The legend entry for a block's id (`oak_log` → wood).
pub fn class_of(id: &str) -> u8 {
    let has = |part: &str| id.contains(part);
    let class = if id == "grass_block" || has("moss") || id == "podzol" || id == "mycelium" {
        "grass"
    } else if has("leaves") {
        "leaves"
    } else if has("diamond") {
        "diamond"
    } else if has("coal") {
        "coal"
    } else if has("iron") {
        "iron"
    } else if has("copper") {
        "copper"
    } else if has("gold") {
        "gold"
    } else if has("redstone") {
        "redstone"
    } else if has("_log") || has("_wood") || has("planks") || has("stem") {
        "wood"
    } else if has("water") || has("kelp") || has("seagrass") {
        "water"
    } else if has("lava") || has("magma") {
        "lava"
    } else if has("snow") || has("ice") {
        "snow and ice"
    } else if has("sand") {
        "sand"
    } else if has("dirt") || has("gravel") || has("mud") || has("clay") || id == "farmland" {
        "dirt"
    } else if has("crafting_table") || has("furnace") || has("chest") || has("torch") {
        "crafted"
    } else if has("grass")
        || has("fern")
        || has("flower")
        || has("bush")
        || has("tulip")
        || has("poppy")
        || has("dandelion")
    {
        "plants"
    } else {
        "stone"
    };
    LEGEND.iter().position(|(name, _)| *name == class).unwrap_or(5) as u8
}

/// Reads the map around `bot`, column by column under each chunk's own lock (the world's lock only for the moment
/// it takes to list the chunks, as the block search does: the game's systems take it too). Only when a page asks.
pub fn around(bot: &BotHandle) -> MapView {
    let centre = BlockPos::from(bot.position());
    let (x0, z0, size) = (centre.x - RADIUS, centre.z - RADIUS, (RADIUS * 2 + 1) as usize);
    let columns = {
        let world = bot.client().world();
        let world = world.read();
        Columns::around(&world, centre, RADIUS)
    };
    // (class, depth) per cell; chunks not loaded stay "not loaded".
    let mut map = vec![(0u8, 0i32); size * size];
    let mut classes: HashMap<BlockState, u8> = HashMap::new();
    let span = |low: i32| low.div_euclid(16)..=(low + size as i32 - 1).div_euclid(16);
    for cx in span(x0) {
        for cz in span(z0) {
            let Some(chunk) = columns.column(ChunkPos::new(cx, cz)) else { continue };
            let chunk = chunk.read();
            for x in (cx * 16).max(x0)..(cx * 16 + 16).min(x0 + size as i32) {
                for z in (cz * 16).max(z0)..(cz * 16 + 16).min(z0 + size as i32) {
                    let cell = (z - z0) as usize * size + (x - x0) as usize;
                    map[cell] = floor(
                        &chunk,
                        columns.min_y(),
                        (x - cx * 16) as u8,
                        centre.y,
                        (z - cz * 16) as u8,
                        &mut classes,
                    );
                }
            }
        }
    }
    MapView {
        x0,
        z0,
        y: centre.y,
        size,
        colours: LEGEND.iter().map(|(_, colour)| *colour).collect(),
        names: LEGEND.iter().map(|(name, _)| *name).collect(),
        cells: map.iter().map(|(class, _)| char::from(b'0' + class)).collect(),
        depth: map.iter().map(|&(_, below)| char::from_digit(below.clamp(0, 35) as u32, 36).unwrap_or('z')).collect(),
        preview: None,
    }
}

/// The first block at or below `ABOVE` over the feet in one column of a chunk: its legend class and how far below
/// the top of the scan it is ("air below" and 35 when there is none within `BELOW`).
fn floor(chunk: &Chunk, min_y: i32, x: u8, feet: i32, z: u8, classes: &mut HashMap<BlockState, u8>) -> (u8, i32) {
    let top = feet + ABOVE;
    for y in (feet - BELOW..=top).rev() {
        match chunk.get_block_state(&ChunkBlockPos::new(x, y, z), min_y) {
            Some(state) if !state.is_air() => {
                let class = *classes.entry(state).or_insert_with(|| {
                    let kind = BlockKind::from(state).to_string();
                    class_of(kind.trim_start_matches("minecraft:"))
                });
                return (class, top - y);
            }
            _ => {}
        }
    }
    (1, 35)
}

/// The blocks the pathfinder is walking through now, next first (empty when it is not walking).
pub fn path(bot: &BotHandle) -> Vec<[i32; 3]> {
    bot.client()
        .get_component::<ExecutingPath>()
        .map(|walking| {
            walking
                .path
                .iter()
                .take(256)
                .map(|edge| {
                    let p = edge.movement.target;
                    [p.x, p.y, p.z]
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_coloured_by_what_they_are() {
        let class = |id: &str| LEGEND[usize::from(class_of(id))].0;
        assert_eq!(class("grass_block"), "grass");
        assert_eq!(class("oak_leaves"), "leaves");
        assert_eq!(class("birch_log"), "wood");
        assert_eq!(class("deepslate_iron_ore"), "iron");
        assert_eq!(class("diamond_ore"), "diamond");
        assert_eq!(class("coal_ore"), "coal");
        assert_eq!(class("water"), "water");
        assert_eq!(class("crafting_table"), "crafted");
        assert_eq!(class("short_grass"), "plants");
        assert_eq!(class("andesite"), "stone");
        assert_eq!(class("red_sand"), "sand");
        assert!(LEGEND.len() <= 36, "cells are one character each");
    }
}
