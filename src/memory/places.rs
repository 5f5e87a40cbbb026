//! Places, as a tree grown from what the bot saw: the world → regions (the biome and the direction from spawn:
//! "the birch forest north of spawn") → areas (16-block cells: "the cave at 40 30 -12") → objects (blocks of one kind
//! seen there, with how many and when). Derived from the located memories each time it is asked for; nothing of it
//! is stored. Pure.

use std::collections::BTreeMap;

use super::{Memory, Subject};

/// Blocks per side of an area.
pub const AREA: i32 = 16;
/// Within this many blocks of spawn, a place is "near spawn" whatever its direction.
const NEAR_SPAWN: f64 = 48.0;
/// Below this height an area is taken to be underground (sea level is 63).
const UNDERGROUND_BELOW: i32 = 56;

/// Something seen at a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    pub what: String,
    pub count: u32,
    pub pos: [i32; 3],
    /// When it was seen (game ticks).
    pub at: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Area {
    pub name: String,
    pub objects: Vec<Object>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub name: String,
    pub areas: Vec<Area>,
}

/// The area cell a position falls in.
pub fn cell(pos: [i32; 3]) -> [i32; 3] {
    pos.map(|c| c.div_euclid(AREA))
}

/// The region a position belongs to: its biome (as the game names it, `minecraft:birch_forest`) and where it lies
/// from spawn.
pub fn region_name(pos: [i32; 3], spawn: [i32; 3], biome: Option<&str>) -> String {
    let biome = biome.map(|b| b.trim_start_matches("minecraft:").replace('_', " ")).filter(|b| !b.is_empty());
    let land = biome.as_deref().unwrap_or("land");
    let (dx, dz) = (f64::from(pos[0] - spawn[0]), f64::from(pos[2] - spawn[2]));
    if dx.hypot(dz) < NEAR_SPAWN {
        return format!("the {land} near spawn");
    }
    // Minecraft's north is -z, east +x.
    const DIRECTIONS: [&str; 8] =
        ["east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east"];
    let octant = ((dz.atan2(dx).to_degrees() + 360.0 + 22.5) / 45.0) as usize % 8;
    format!("the {land} {} of spawn", DIRECTIONS[octant])
}

/// The name of the area around `pos`: underground areas are caves.
pub fn area_name(pos: [i32; 3]) -> String {
    let centre = cell(pos).map(|c| c * AREA + AREA / 2);
    if pos[1] < UNDERGROUND_BELOW {
        format!("the cave at {} {} {}", centre[0], pos[1], centre[2])
    } else {
        format!("the area around {} {} {}", centre[0], pos[1], centre[2])
    }
}

/// The tree of places from `memories` (only those with a position and something seen there count), regions and
/// areas in the order first seen.
pub fn tree<'a>(memories: impl IntoIterator<Item = &'a Memory>, spawn: [i32; 3]) -> Vec<Region> {
    let mut regions: Vec<Region> = Vec::new();
    let mut area_of: BTreeMap<[i32; 3], (usize, usize)> = BTreeMap::new();
    let mut located: Vec<&Memory> = memories.into_iter().filter(|m| m.pos.is_some()).collect();
    located.sort_by_key(|m| (m.at, m.id));
    for memory in located {
        let Some(pos) = memory.pos else { continue };
        let objects: Vec<(String, u32)> = match &memory.subject {
            Subject::Seen { block, count } => vec![(block.clone(), *count)],
            Subject::Chest { items } => std::iter::once(("chest".to_owned(), 1))
                .chain(items.iter().map(|(item, n)| (format!("{item} in the chest"), *n)))
                .collect(),
            _ => continue,
        };
        let (r, a) = *area_of.entry(cell(pos)).or_insert_with(|| {
            let name = region_name(pos, spawn, memory.biome.as_deref());
            let r = regions.iter().position(|r| r.name == name).unwrap_or_else(|| {
                regions.push(Region { name, areas: Vec::new() });
                regions.len() - 1
            });
            regions[r].areas.push(Area { name: area_name(pos), objects: Vec::new() });
            (r, regions[r].areas.len() - 1)
        });
        let area = &mut regions[r].areas[a];
        for (what, count) in objects {
            // The latest sighting of a kind at a position stands for it.
            area.objects.retain(|o| !(o.what == what && o.pos == pos));
            area.objects.push(Object { what, count, pos, at: memory.at });
        }
    }
    regions
}

/// Where things whose name holds one of `words` were seen: `(path, object)` pairs, nearest to `from` first. The path
/// reads world → region → area.
pub fn find<'a>(regions: &'a [Region], words: &[String], from: [i32; 3]) -> Vec<(String, &'a Object)> {
    // Words a "where" question carries that name nothing.
    const EMPTY: &[&str] =
        &["the", "are", "any", "some", "there", "did", "you", "see", "saw", "can", "find", "get", "was", "were"];
    let words: Vec<String> = words
        .iter()
        .map(|w| w.to_lowercase().replace('_', " ").trim_matches(|c: char| !c.is_alphanumeric()).to_owned())
        .filter(|w| w.chars().count() > 2 && !EMPTY.contains(&w.as_str()))
        .collect();
    let matches = |what: &str| {
        let what = what.to_lowercase().replace('_', " ");
        words.iter().any(|w| what.contains(w.trim_end_matches('s')))
    };
    let mut found: Vec<(String, &Object)> = regions
        .iter()
        .flat_map(|r| r.areas.iter().map(move |a| (r, a)))
        .flat_map(|(r, a)| {
            a.objects.iter().filter(|o| matches(&o.what)).map(move |o| (format!("{} → {}", r.name, a.name), o))
        })
        .collect();
    let distance = |p: [i32; 3]| (0..3).map(|i| (i64::from(p[i]) - i64::from(from[i])).pow(2)).sum::<i64>();
    found.sort_by_key(|(_, o)| distance(o.pos));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(id: u64, block: &str, pos: [i32; 3], biome: &str, at: u64) -> Memory {
        let mut m = Memory::new(id, format!("saw {block}"), Subject::Seen { block: block.into(), count: 2 }, at, 3);
        m.pos = Some(pos);
        m.biome = Some(biome.into());
        m
    }

    #[test]
    fn regions_read_as_biome_and_direction_from_spawn() {
        assert_eq!(
            region_name([0, 70, -200], [0, 64, 0], Some("minecraft:birch_forest")),
            "the birch forest north of spawn"
        );
        assert_eq!(region_name([150, 70, 150], [0, 64, 0], None), "the land south-east of spawn");
        assert_eq!(region_name([10, 12, -5], [0, 64, 0], Some("minecraft:plains")), "the plains near spawn");
        assert_eq!(area_name([40, 30, -12]), "the cave at 40 30 -8");
        assert_eq!(area_name([3, 70, 3]), "the area around 8 70 8");
    }

    #[test]
    fn the_tree_groups_sightings_and_finds_them_nearest_first() {
        let memories = [
            seen(1, "iron_ore", [120, 12, -40], "minecraft:forest", 10),
            seen(2, "coal_ore", [122, 14, -42], "minecraft:forest", 11),
            seen(3, "iron_ore", [-300, 20, 5], "minecraft:desert", 12),
            seen(4, "iron_ore", [120, 12, -40], "minecraft:forest", 40),
        ];
        let tree = tree(&memories, [0, 64, 0]);
        assert_eq!(tree.len(), 2);
        assert_eq!(tree[0].name, "the forest east of spawn");
        assert_eq!(tree[0].areas.len(), 1);
        assert_eq!(tree[0].areas[0].objects.len(), 2, "the later sighting replaced the earlier one");
        assert_eq!(tree[0].areas[0].objects.iter().find(|o| o.what == "iron_ore").unwrap().at, 40);

        let found = find(&tree, &["where".into(), "iron".into()], [-290, 60, 0]);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].1.pos, [-300, 20, 5]);
        assert_eq!(found[0].0, "the desert west of spawn → the cave at -296 20 8");
        assert!(find(&tree, &["diamonds".into()], [0, 0, 0]).is_empty());
        assert!(
            find(&tree, &["is".into(), "the".into(), "any?".into()], [0, 0, 0]).is_empty(),
            "words that name nothing"
        );
        assert_eq!(find(&tree, &["coal?".into()], [0, 0, 0]).len(), 1);
    }
}
