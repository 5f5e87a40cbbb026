//! A box of the world copied out block by block, so trackers can compare how it was when a step began with how it
//! is now, and what the spatial trackers count in it: blocks placed, blocks dug, and structures (block kinds at
//! offsets from an anchor) wherever they stand.
//!
//! Pure data: [`super::observe::area`] fills an [`Area`] from the bot's view of the world; nothing here touches
//! azalea.

use std::collections::HashMap;

/// A block position.
pub type Point = [i32; 3];

/// The most blocks one area may hold (a box 33 blocks a side is 35 937).
pub const MAX_CELLS: usize = 70_000;

/// The blocks of a box, `min` to `max` inclusive, as names (`dirt`, `air`); `None` where the world was not loaded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Area {
    pub min: Point,
    pub max: Point,
    palette: Vec<String>,
    /// Index into `palette` plus one; 0 is not loaded.
    cells: Vec<u16>,
}

impl Area {
    /// Copies the box from `min` to `max` with `block_at` (a name, or `None` if not loaded). A box larger than
    /// [`MAX_CELLS`] is cut down around its middle.
    pub fn capture(min: Point, max: Point, mut block_at: impl FnMut(Point) -> Option<String>) -> Area {
        let (min, max) = shrink(min, max);
        let mut area = Area { min, max, palette: Vec::new(), cells: Vec::new() };
        let mut index: HashMap<String, u16> = HashMap::new();
        for x in min[0]..=max[0] {
            for y in min[1]..=max[1] {
                for z in min[2]..=max[2] {
                    let cell = match block_at([x, y, z]) {
                        None => 0,
                        Some(name) => *index.entry(name).or_insert_with_key(|name| {
                            area.palette.push(name.clone());
                            area.palette.len().min(usize::from(u16::MAX)) as u16
                        }),
                    };
                    area.cells.push(cell);
                }
            }
        }
        area
    }

    /// Whether `p` is inside the box.
    pub fn contains(&self, p: Point) -> bool {
        (0..3).all(|i| self.min[i] <= p[i] && p[i] <= self.max[i])
    }

    /// The block at `p`, if the box holds it and it was loaded.
    pub fn get(&self, p: Point) -> Option<&str> {
        if !self.contains(p) {
            return None;
        }
        let size = self.size();
        let [x, y, z] = [p[0] - self.min[0], p[1] - self.min[1], p[2] - self.min[2]];
        let i = (x as usize * size[1] + y as usize) * size[2] + z as usize;
        match self.cells.get(i) {
            Some(0) | None => None,
            Some(&n) => self.palette.get(usize::from(n) - 1).map(String::as_str),
        }
    }

    /// Every loaded position in the box with its block.
    pub fn blocks(&self) -> impl Iterator<Item = (Point, &str)> + '_ {
        let size = self.size();
        self.cells.iter().enumerate().filter(|(_, c)| **c != 0).filter_map(move |(i, &c)| {
            let z = (i % size[2]) as i32;
            let y = ((i / size[2]) % size[1]) as i32;
            let x = (i / (size[2] * size[1])) as i32;
            let name = self.palette.get(usize::from(c) - 1)?;
            Some(([self.min[0] + x, self.min[1] + y, self.min[2] + z], name.as_str()))
        })
    }

    fn size(&self) -> [usize; 3] {
        [0, 1, 2].map(|i| (self.max[i] - self.min[i] + 1).max(0) as usize)
    }
}

/// The box cut down around its middle to at most [`MAX_CELLS`] blocks.
fn shrink(min: Point, max: Point) -> (Point, Point) {
    let (mut min, mut max) = ([0, 1, 2].map(|i| min[i].min(max[i])), [0, 1, 2].map(|i| min[i].max(max[i])));
    loop {
        let size: [i64; 3] = [0, 1, 2].map(|i| i64::from(max[i]) - i64::from(min[i]) + 1);
        if size.iter().product::<i64>() <= MAX_CELLS as i64 {
            return (min, max);
        }
        // Trim the longest side by one block at each end.
        let longest = (0..3).max_by_key(|i| size[*i]).unwrap_or(0);
        min[longest] += 1;
        max[longest] -= 1;
    }
}

/// Whether a block counts as empty: air of any kind.
pub fn is_air(name: &str) -> bool {
    matches!(name, "air" | "cave_air" | "void_air")
}

/// Whether a placed block may stand where this one is (air, grass, flowers, water…): a spot that holds one of these
/// is empty for building.
pub fn is_open(name: &str) -> bool {
    is_air(name)
        || matches!(
            name,
            "short_grass" | "tall_grass" | "fern" | "large_fern" | "dead_bush" | "snow" | "water" | "lava" | "seagrass"
        )
}

/// The block at `p` in whichever of `areas` holds it.
pub fn block_in(areas: &[Area], p: Point) -> Option<&str> {
    areas.iter().find_map(|a| a.get(p))
}

/// One block of a structure: a kind at an offset from the structure's anchor.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    pub x: i32,
    pub y: i32,
    pub z: i32,
    pub block: String,
}

/// How many of a structure's parts anchors are guessed from.
const GUIDES: usize = 8;

/// `offset` turned `turns` quarter turns about the vertical axis.
pub fn turn(offset: Point, turns: u8) -> Point {
    let [x, y, z] = offset;
    match turns % 4 {
        0 => [x, y, z],
        1 => [-z, y, x],
        2 => [-x, y, -z],
        _ => [z, y, -x],
    }
}

fn add(a: Point, b: Point) -> Point {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: Point, b: Point) -> Point {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// How many of `parts` stand at `anchor` as the world is `now`.
pub fn matched_at(parts: &[Part], anchor: Point, now: &[Area]) -> usize {
    parts.iter().filter(|part| fits(&part.block, block_in(now, add(anchor, [part.x, part.y, part.z])))).count()
}

/// Whether the block there is the one a structure asks for (`air` asks for any air).
fn fits(wanted: &str, there: Option<&str>) -> bool {
    there.is_some_and(|there| if is_air(wanted) { is_air(there) } else { there == wanted })
}

/// The best placement of `parts` whose blocks were placed between `start` and `now`, anywhere the areas reach and in
/// any quarter turn: (parts matched, anchor, turns). Only blocks that were not there at the start count, so terrain
/// that happens to have the shape (a column of dirt underground) is not taken for the bot's work; air parts count
/// wherever there is air now.
pub fn best_new_placement(parts: &[Part], start: &[Area], now: &[Area]) -> (usize, Point, u8) {
    let new_at = |p: Point, block: &str| {
        now.iter().any(|a| a.get(p) == Some(block)) && block_in(start, p).is_some_and(|was| was != block)
    };
    let mut best = (0, [0; 3], 0);
    let mut tried = std::collections::HashSet::new();
    // Anchors are guessed from a few parts spread over the structure (every part for a small one), so a large
    // structure costs a bounded search: a placement that holds any of them is found.
    let solid: Vec<usize> = (0..parts.len()).filter(|i| !is_air(&parts[*i].block)).collect();
    let step = solid.len().div_ceil(GUIDES).max(1);
    let guides: Vec<usize> = solid.iter().copied().step_by(step).collect();
    for area in now {
        for (p, name) in area.blocks() {
            if is_air(name) {
                continue;
            }
            for (i, part) in guides.iter().map(|i| (*i, &parts[*i])) {
                if part.block != name || !new_at(p, name) {
                    continue;
                }
                for turns in 0..4u8 {
                    let anchor = sub(p, turn([part.x, part.y, part.z], turns));
                    if !tried.insert((anchor, turns)) {
                        continue;
                    }
                    let matched = parts
                        .iter()
                        .enumerate()
                        .filter(|(j, q)| {
                            let at = add(anchor, turn([q.x, q.y, q.z], turns));
                            if is_air(&q.block) {
                                fits("air", block_in(now, at))
                            } else {
                                *j == i || new_at(at, &q.block)
                            }
                        })
                        .count();
                    if matched > best.0 {
                        best = (matched, anchor, turns);
                    }
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(blocks: &[(Point, &str)]) -> impl Fn(Point) -> Option<String> {
        let blocks: HashMap<Point, String> = blocks.iter().map(|(p, b)| (*p, (*b).to_owned())).collect();
        move |p| {
            Some(
                blocks.get(&p).cloned().unwrap_or_else(|| if p[1] < 64 { "dirt".to_owned() } else { "air".to_owned() }),
            )
        }
    }

    #[test]
    fn an_area_holds_what_it_copied() {
        let area = Area::capture([0, 63, 0], [2, 65, 2], flat(&[([1, 64, 1], "cobblestone")]));
        assert_eq!(area.get([1, 64, 1]), Some("cobblestone"));
        assert_eq!(area.get([0, 63, 2]), Some("dirt"));
        assert_eq!(area.get([2, 65, 2]), Some("air"));
        assert_eq!(area.get([3, 64, 1]), None, "outside");
        assert_eq!(area.blocks().count(), 27);
        assert_eq!(area.blocks().find(|(_, b)| *b == "cobblestone").map(|(p, _)| p), Some([1, 64, 1]));
        let unloaded = Area::capture([0, 0, 0], [1, 1, 1], |p| (p[0] == 0).then(|| "stone".to_owned()));
        assert_eq!((unloaded.get([0, 1, 1]), unloaded.get([1, 1, 1])), (Some("stone"), None));
        let huge = Area::capture([-100, -100, -100], [100, 100, 100], |_| Some("air".to_owned()));
        assert!(huge.blocks().count() <= MAX_CELLS);
    }

    #[test]
    fn a_new_structure_is_found_in_any_turn_and_old_terrain_is_not() {
        let column: Vec<Part> = (0..3).map(|y| Part { x: 0, y, z: 0, block: "dirt".into() }).collect();
        let start = [Area::capture([-4, 60, -4], [4, 68, 4], flat(&[]))];
        // Underground dirt is a column of dirt too, but it was there at the start.
        assert_eq!(best_new_placement(&column, &start, &start).0, 0);
        let pillar = [Area::capture(
            [-4, 60, -4],
            [4, 68, 4],
            flat(&[([1, 64, 1], "dirt"), ([1, 65, 1], "dirt"), ([1, 66, 1], "dirt")]),
        )];
        let (matched, anchor, _) = best_new_placement(&column, &start, &pillar);
        assert_eq!((matched, anchor), (3, [1, 64, 1]));
        // Blocks in a row along z match a row along x turned a quarter, but only one block of a column.
        let row_x: Vec<Part> = (0..3).map(|x| Part { x, y: 0, z: 0, block: "dirt".into() }).collect();
        let row_z = [Area::capture(
            [-4, 60, -4],
            [4, 68, 4],
            flat(&[([0, 64, 0], "dirt"), ([0, 64, 1], "dirt"), ([0, 64, 2], "dirt")]),
        )];
        assert_eq!(best_new_placement(&row_x, &start, &row_z).0, 3);
        assert_eq!(best_new_placement(&column, &start, &row_z).0, 1);
        assert_eq!(matched_at(&column, [1, 64, 1], &pillar), 3);
        assert_eq!(matched_at(&column, [0, 64, 0], &pillar), 0);
        assert_eq!(turn([1, 0, 2], 1), [-2, 0, 1]);
        assert_eq!(turn(turn(turn(turn([1, 5, 2], 1), 1), 1), 1), [1, 5, 2]);
    }
}
