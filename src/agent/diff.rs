//! The world diff of one attempt: what the bot's own actions changed, as the server reported it — blocks placed,
//! dug or turned into others, containers filled or emptied, items handed to players, where the bot went, and items
//! gained and lost. The critic reads it, the hard rules ([`super::effect`]) check steps against it, and `!status`,
//! the dashboard and the learning log show it.
//!
//! Pure data and words: the agent builds it from the bot's change log ([`crate::bot::Changed`]) and a run's report.

use super::tracker::{Point, is_air, is_open};

/// What one attempt changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorldDiff {
    /// Blocks that now stand where there was air (or grass, water…): position and kind.
    pub placed: Vec<(Point, String)>,
    /// Blocks that are gone (air now): position and the kind that was there.
    pub broken: Vec<(Point, String)>,
    /// Blocks turned into others: position, before, after.
    pub changed: Vec<(Point, String, String)>,
    /// Containers: position, item, count put in (negative: taken out).
    pub containers: Vec<(Point, String, i64)>,
    /// Items handed over: player, item, count.
    pub given: Vec<(String, String, u32)>,
    /// Where the bot stood when the attempt began, and when it ended.
    pub from: [f64; 3],
    pub to: [f64; 3],
    /// Items gained (positive) and lost, by name.
    pub items: Vec<(String, i64)>,
    /// Blocks placed where there was air that were gone again by the end: position and kind (not in `placed`).
    pub undone: Vec<(Point, String)>,
}

/// How far the bot must end from where it began for the attempt to count as having gone somewhere.
pub const MOVED: f64 = 1.5;

impl WorldDiff {
    /// Sorts block changes into placed, broken and changed.
    pub fn new(blocks: Vec<(Point, String, String)>, from: [f64; 3], to: [f64; 3]) -> WorldDiff {
        let mut diff = WorldDiff { from, to, ..WorldDiff::default() };
        for (pos, before, after) in blocks {
            if is_air(&after) || (after == "water" && !is_open(&before)) {
                // Plants dug count (clearing grass is work asked for); a fluid that drained does not.
                if !is_air(&before) && !matches!(before.as_str(), "water" | "lava") {
                    diff.broken.push((pos, before));
                }
            } else if is_open(&before) {
                diff.placed.push((pos, after));
            } else {
                diff.changed.push((pos, before, after));
            }
        }
        diff
    }

    /// How far the bot ended from where it began.
    pub fn moved(&self) -> f64 {
        (0..3).map(|i| (self.to[i] - self.from[i]).powi(2)).sum::<f64>().sqrt()
    }

    /// Whether nothing changed: no block, container, handover or item, and the bot stayed put.
    pub fn is_empty(&self) -> bool {
        self.placed.is_empty()
            && self.broken.is_empty()
            && self.changed.is_empty()
            && self.containers.is_empty()
            && self.given.is_empty()
            && self.items.is_empty()
            && self.moved() < MOVED
    }

    /// Where blocks of `block` (of any kind with `None`) now stand that did not: placed on air, or set where
    /// another block stood.
    pub fn set(&self, block: Option<&str>) -> Vec<(Point, String)> {
        let fits = |b: &String| block.is_none_or(|want| want == b);
        let placed = self.placed.iter().filter(|(_, b)| fits(b)).cloned();
        // Grass under a block placed on it turns to dirt by itself: no dirt was set there.
        let by_itself = |before: &str, after: &str| {
            after == "dirt" && ["grass_block", "mycelium", "podzol", "farmland", "dirt_path"].contains(&before)
        };
        let changed = self
            .changed
            .iter()
            .filter(|(_, before, after)| fits(after) && !by_itself(before, after))
            .map(|(p, _, after)| (*p, after.clone()));
        placed.chain(changed).collect()
    }

    /// How many blocks of `block` were dug (of any kind with `None`).
    pub fn broken_count(&self, block: Option<&str>) -> usize {
        self.broken.iter().filter(|(_, b)| block.is_none_or(|want| super::tracker::same_kind(want, b))).count()
    }

    /// How many of `item` (of anything with `None`) went into containers, less what came out.
    pub fn stored(&self, item: Option<&str>) -> i64 {
        self.containers.iter().filter(|(_, i, _)| item.is_none_or(|want| want == i)).map(|(_, _, n)| n).sum()
    }

    /// A container the change broke or turned into another block: where, and what it was.
    pub fn container_lost(&self) -> Option<(Point, &str)> {
        let is_container =
            |kind: &str| crate::primitives::observe::CONTAINERS.contains(&kind) || kind.ends_with("shulker_box");
        self.broken
            .iter()
            .map(|(at, kind)| (*at, kind.as_str()))
            .chain(self.changed.iter().map(|(at, before, _)| (*at, before.as_str())))
            .find(|(_, kind)| is_container(kind))
    }

    /// How many of `item` (of anything with `None`) were handed to `player` (to anyone with `None`).
    pub fn given_count(&self, player: Option<&str>, item: Option<&str>) -> u32 {
        self.given
            .iter()
            .filter(|(p, i, _)| {
                player.is_none_or(|want| want.eq_ignore_ascii_case(p)) && item.is_none_or(|want| want == i)
            })
            .map(|(_, _, n)| n)
            .sum()
    }
}

impl std::fmt::Display for WorldDiff {
    /// `placed 3 dirt (1 64 2, 1 65 2, 1 66 2); went 4 blocks (0 64 0 to 3 64 2); items +1 stick, -3 dirt`, or
    /// `nothing changed in the world`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        for (verb, list) in [("placed", &self.placed), ("dug", &self.broken)] {
            for (kind, at) in grouped(list.iter().map(|(p, b)| (b.as_str(), *p))) {
                parts.push(format!("{verb} {} {kind} ({})", at.len(), places(&at)));
            }
        }
        for (kind, at) in grouped(self.undone.iter().map(|(p, b)| (b.as_str(), *p))) {
            parts.push(format!("placed {} {kind} ({}) that was gone again by the end", at.len(), places(&at)));
        }
        for (pos, before, after) in self.changed.iter().take(4) {
            parts.push(format!("turned the {before} at {} into {after}", point(*pos)));
        }
        for (pos, item, n) in &self.containers {
            match n.signum() {
                1 => parts.push(format!("put {n} {item} into the container at {}", point(*pos))),
                _ => parts.push(format!("took {} {item} from the container at {}", -n, point(*pos))),
            }
        }
        for (player, item, n) in &self.given {
            parts.push(format!("gave {n} {item} to {player}"));
        }
        if self.moved() >= MOVED {
            let [a, b] = [self.from, self.to].map(|p| point(p.map(|v| v.floor() as i32)));
            parts.push(format!("went {:.0} blocks ({a} to {b})", self.moved()));
        }
        if !self.items.is_empty() {
            let items: Vec<String> = self.items.iter().map(|(name, n)| format!("{n:+} {name}")).collect();
            parts.push(format!("items {}", items.join(", ")));
        }
        if parts.is_empty() { write!(f, "nothing changed in the world") } else { write!(f, "{}", parts.join("; ")) }
    }
}

/// Positions by kind, kinds in the order first seen.
fn grouped<'a>(list: impl Iterator<Item = (&'a str, Point)>) -> Vec<(&'a str, Vec<Point>)> {
    let mut groups: Vec<(&str, Vec<Point>)> = Vec::new();
    for (kind, at) in list {
        match groups.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, all)) => all.push(at),
            None => groups.push((kind, vec![at])),
        }
    }
    groups
}

/// `1 64 2, 1 65 2 and 3 more`
fn places(at: &[Point]) -> String {
    let shown: Vec<String> = at.iter().take(4).map(|p| point(*p)).collect();
    match at.len() {
        n if n > 4 => format!("{} and {} more", shown.join(", "), n - 4),
        _ => shown.join(", "),
    }
}

fn point(p: Point) -> String {
    format!("{} {} {}", p[0], p[1], p[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_changes_are_sorted_and_told() {
        let blocks = vec![
            ([1, 64, 2], "air".to_owned(), "dirt".to_owned()),
            ([1, 65, 2], "short_grass".to_owned(), "dirt".to_owned()),
            ([5, 63, 5], "stone".to_owned(), "air".to_owned()),
            ([6, 63, 5], "grass_block".to_owned(), "dirt".to_owned()),
            ([7, 63, 5], "water".to_owned(), "air".to_owned()),
        ];
        let mut diff = WorldDiff::new(blocks, [0.5, 64.0, 0.5], [3.5, 64.0, 4.5]);
        assert_eq!((diff.set(Some("dirt")).len(), diff.set(None).len(), diff.broken_count(None)), (2, 2, 1));
        assert_eq!(diff.changed.len(), 1);
        diff.containers.push(([2, 64, 0], "oak_planks".into(), 4));
        diff.given.push(("Alice".into(), "bread".into(), 2));
        diff.items = vec![("dirt".into(), -2)];
        assert_eq!(
            diff.to_string(),
            "placed 2 dirt (1 64 2, 1 65 2); dug 1 stone (5 63 5); turned the grass_block at 6 63 5 into dirt; put 4 \
             oak_planks into the container at 2 64 0; gave 2 bread to Alice; went 5 blocks (0 64 0 to 3 64 4); items -2 dirt"
        );
        assert_eq!((diff.stored(Some("oak_planks")), diff.given_count(Some("alice"), None)), (4, 2));
        assert!(!diff.is_empty());
        let still = WorldDiff::new(Vec::new(), [0.5, 64.0, 0.5], [0.9, 64.0, 0.5]);
        assert!(still.is_empty());
        assert_eq!(still.to_string(), "nothing changed in the world");
        // A block placed and gone again is told, though the world's net change holds nothing.
        let mut undone = WorldDiff::new(Vec::new(), [0.5, 64.0, 0.5], [0.9, 64.0, 0.5]);
        undone.undone.push(([-3, 65, 2], "dirt".into()));
        assert_eq!(undone.to_string(), "placed 1 dirt (-3 65 2) that was gone again by the end");
        assert_eq!(undone.set(None).len(), 0);
    }

    #[test]
    fn grass_dug_counts_as_dug_and_water_drained_does_not() {
        let blocks = vec![
            ([2, 64, 2], "short_grass".to_owned(), "air".to_owned()),
            ([3, 64, 2], "tall_grass".to_owned(), "air".to_owned()),
            ([7, 63, 5], "water".to_owned(), "air".to_owned()),
        ];
        let diff = WorldDiff::new(blocks, [0.5, 64.0, 0.5], [0.5, 64.0, 0.5]);
        assert_eq!((diff.broken_count(Some("tall_grass")), diff.broken_count(None)), (2, 2));
    }
}
