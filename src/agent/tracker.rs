//! Task trackers: machine-checkable completion conditions that come with every task, so the code (not an LLM)
//! decides whether a task is done whenever it can.
//!
//! A tracker is JSON the LLM writes when it proposes a task, validated here before use:
//!
//! ```json
//! {"type": "inventory", "item": "oak_log", "count": 10}
//! {"type": "all", "of": [{"type": "craft", "item": "stick", "count": 4}, {"type": "kill", "mob": "pig", "count": 1}]}
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The most anything can be asked for: a full inventory of one stackable item.
const MAX_COUNT: u32 = 36 * 64;
/// Composite trackers nest at most this deep.
const MAX_DEPTH: usize = 4;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Tracker {
    /// At least (or exactly) `count` of `item` carried.
    Inventory {
        item: String,
        count: u32,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        exactly: bool,
    },
    /// `count` more of `item` than when the task started (made, mined, smelted or picked up).
    Craft { item: String, count: u32 },
    /// Standing within `radius` blocks of a point.
    Location { x: f64, y: f64, z: f64, radius: f64 },
    /// The block at a position is (or, with `exists: false`, is no longer) `block`.
    Block {
        x: i32,
        y: i32,
        z: i32,
        block: String,
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        exists: bool,
    },
    /// `count` mobs of a kind killed since the task started.
    Kill { mob: String, count: u32 },
    /// Every tracker in `of`.
    All { of: Vec<Tracker> },
    /// Any tracker in `of`.
    Any { of: Vec<Tracker> },
}

fn yes() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

/// What the trackers look at: the bot's state at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    pub inventory: BTreeMap<String, i64>,
    pub position: [f64; 3],
    /// Kills so far, by mob.
    pub kills: BTreeMap<String, u32>,
    /// The blocks at the positions trackers asked about ([`Tracker::positions`]).
    pub blocks: BTreeMap<[i32; 3], String>,
}

impl Snapshot {
    fn count(&self, item: &str) -> i64 {
        self.inventory.get(item).copied().unwrap_or(0)
    }
}

/// How far a tracker is: `current` of `target`, and whether it is met.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub done: bool,
    pub current: u32,
    pub target: u32,
    /// `oak_log`, `at 10 64 -3`, `zombie kills`…
    pub what: String,
}

impl Progress {
    pub fn percent(&self) -> u32 {
        let (current, target) = (u64::from(self.current.min(self.target)), u64::from(self.target));
        (current * 100).checked_div(target).map_or(100, |p| p as u32)
    }
}

impl std::fmt::Display for Progress {
    /// `3/10 oak_log`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{} {}", self.current.min(self.target), self.target, self.what)
    }
}

impl Tracker {
    /// Parses and validates tracker JSON, saying what is wrong in words an LLM can fix.
    pub fn from_json(value: &serde_json::Value) -> Result<Tracker, String> {
        let tracker: Tracker = serde_json::from_value(value.clone()).map_err(|err| format!("invalid tracker: {err}"))?;
        tracker.validate(0)?;
        Ok(tracker)
    }

    fn validate(&self, depth: usize) -> Result<(), String> {
        let name = |kind: &str, name: &str| {
            let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if ok { Ok(()) } else { Err(format!("invalid tracker: {kind} {name:?} is not a Minecraft id like oak_log")) }
        };
        let count = |count: u32| {
            if (1..=MAX_COUNT).contains(&count) { Ok(()) } else { Err(format!("invalid tracker: count {count} is not 1 to {MAX_COUNT}")) }
        };
        match self {
            Tracker::Inventory { item, count: n, exactly } => {
                name("item", item)?;
                if !*exactly || *n > 0 { count(*n) } else { Ok(()) }
            }
            Tracker::Craft { item, count: n } => name("item", item).and(count(*n)),
            Tracker::Kill { mob, count: n } => name("mob", mob).and(count(*n)),
            Tracker::Block { block, .. } => name("block", block),
            Tracker::Location { x, y, z, radius } => {
                if ![x, y, z, radius].iter().all(|v| v.is_finite()) || *radius <= 0.0 || *radius > 64.0 {
                    return Err("invalid tracker: a location needs finite x, y, z and a radius of 0 to 64".to_owned());
                }
                Ok(())
            }
            Tracker::All { of } | Tracker::Any { of } => {
                if of.is_empty() {
                    return Err("invalid tracker: \"of\" lists no trackers".to_owned());
                }
                if depth >= MAX_DEPTH {
                    return Err(format!("invalid tracker: composites nest at most {MAX_DEPTH} deep"));
                }
                of.iter().try_for_each(|t| t.validate(depth + 1))
            }
        }
    }

    /// Block positions this tracker needs in a [`Snapshot`].
    pub fn positions(&self) -> Vec<[i32; 3]> {
        match self {
            Tracker::Block { x, y, z, .. } => vec![[*x, *y, *z]],
            Tracker::All { of } | Tracker::Any { of } => of.iter().flat_map(Tracker::positions).collect(),
            _ => Vec::new(),
        }
    }

    /// Progress from `start` (the task's beginning) to `now`.
    pub fn progress(&self, start: &Snapshot, now: &Snapshot) -> Progress {
        let clamp = |v: i64| v.clamp(0, i64::from(u32::MAX)) as u32;
        match self {
            Tracker::Inventory { item, count, exactly } => {
                let have = now.count(item);
                let done = if *exactly { have == i64::from(*count) } else { have >= i64::from(*count) };
                Progress { done, current: clamp(have), target: *count, what: item.clone() }
            }
            Tracker::Craft { item, count } => {
                let gained = now.count(item).saturating_sub(start.count(item));
                Progress { done: gained >= i64::from(*count), current: clamp(gained), target: *count, what: format!("new {item}") }
            }
            Tracker::Kill { mob, count } => {
                let killed = now.kills.get(mob).copied().unwrap_or(0).saturating_sub(start.kills.get(mob).copied().unwrap_or(0));
                Progress { done: killed >= *count, current: killed, target: *count, what: format!("{mob} killed") }
            }
            Tracker::Location { x, y, z, radius } => {
                let [px, py, pz] = now.position;
                let distance = ((px - x).powi(2) + (py - y).powi(2) + (pz - z).powi(2)).sqrt();
                let done = distance <= *radius;
                Progress { done, current: u32::from(done), target: 1, what: format!("at {x:.0} {y:.0} {z:.0} ({distance:.0} away)") }
            }
            Tracker::Block { x, y, z, block, exists } => {
                let there = now.blocks.get(&[*x, *y, *z]).is_some_and(|b| b == block);
                let done = there == *exists;
                let what = if *exists { format!("{block} at {x} {y} {z}") } else { format!("no {block} at {x} {y} {z}") };
                Progress { done, current: u32::from(done), target: 1, what }
            }
            Tracker::All { of } => {
                let parts: Vec<Progress> = of.iter().map(|t| t.progress(start, now)).collect();
                Progress {
                    done: parts.iter().all(|p| p.done),
                    current: parts.iter().map(|p| p.current.min(p.target)).fold(0, u32::saturating_add),
                    target: parts.iter().map(|p| p.target).fold(0, u32::saturating_add),
                    what: parts.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" and "),
                }
            }
            Tracker::Any { of } => {
                let parts: Vec<Progress> = of.iter().map(|t| t.progress(start, now)).collect();
                // The first of the best: the order the trackers were given in breaks ties.
                let best = parts
                    .iter()
                    .rev()
                    .max_by_key(|p| (p.done, p.percent()))
                    .cloned()
                    .expect("validated composites are not empty");
                let what = match group(of) {
                    // `1/1 wood log (oak_log)`, not every kind of log in turn.
                    Some(group) => {
                        let best_item = of.iter().zip(&parts).find(|(_, p)| **p == best).and_then(|(t, _)| t.item());
                        format!("{group} ({})", best_item.unwrap_or_default())
                    }
                    None => parts.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" or "),
                };
                Progress { what, ..best }
            }
        }
    }
}

impl Tracker {
    /// The item an inventory or craft tracker counts.
    fn item(&self) -> Option<&str> {
        match self {
            Tracker::Inventory { item, .. } | Tracker::Craft { item, .. } => Some(item),
            _ => None,
        }
    }
}

/// What the trackers in an `any` have in common, when each counts one kind of the same thing (`oak_log`,
/// `birch_log`, … → `wood log`): the last word of their items' ids.
fn group(of: &[Tracker]) -> Option<String> {
    let items: Vec<&str> = of.iter().map(Tracker::item).collect::<Option<_>>()?;
    let same_kind = of.windows(2).all(|w| std::mem::discriminant(&w[0]) == std::mem::discriminant(&w[1]));
    let last = items.first()?.rsplit('_').next()?;
    if items.len() < 2 || !same_kind || items.iter().any(|i| i.rsplit('_').next() != Some(last) || !i.contains('_')) {
        return None;
    }
    Some(if last == "log" { "wood log".to_owned() } else { last.replace('_', " ") })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn snapshot(items: &[(&str, i64)]) -> Snapshot {
        Snapshot { inventory: items.iter().map(|(n, c)| ((*n).to_owned(), *c)).collect(), ..Snapshot::default() }
    }

    #[test]
    fn inventory_and_craft_progress() {
        let tracker = Tracker::from_json(&json!({"type": "inventory", "item": "oak_log", "count": 10})).unwrap();
        let start = snapshot(&[("oak_log", 1)]);
        let progress = tracker.progress(&start, &snapshot(&[("oak_log", 3)]));
        assert_eq!((progress.to_string(), progress.done, progress.percent()), ("3/10 oak_log".into(), false, 30));
        assert!(tracker.progress(&start, &snapshot(&[("oak_log", 12)])).done);

        let crafted = Tracker::from_json(&json!({"type": "craft", "item": "stick", "count": 4})).unwrap();
        let start = snapshot(&[("stick", 2)]);
        assert!(!crafted.progress(&start, &snapshot(&[("stick", 5)])).done, "only 3 new");
        assert!(crafted.progress(&start, &snapshot(&[("stick", 6)])).done);

        let exactly = Tracker::from_json(&json!({"type": "inventory", "item": "dirt", "count": 0, "exactly": true})).unwrap();
        assert!(exactly.progress(&start, &snapshot(&[])).done);
        assert!(!exactly.progress(&start, &snapshot(&[("dirt", 1)])).done);
    }

    #[test]
    fn location_block_kill_and_composites() {
        let start = Snapshot::default();
        let mut now = Snapshot { position: [10.5, 64.0, -2.5], ..Snapshot::default() };
        now.kills.insert("zombie".into(), 2);
        now.blocks.insert([1, 64, 1], "crafting_table".into());
        let near = Tracker::from_json(&json!({"type": "location", "x": 10, "y": 64, "z": -3, "radius": 2})).unwrap();
        assert!(near.progress(&start, &now).done);
        let table = Tracker::from_json(&json!({"type": "block", "x": 1, "y": 64, "z": 1, "block": "crafting_table"})).unwrap();
        assert!(table.progress(&start, &now).done);
        let gone = Tracker::from_json(&json!({"type": "block", "x": 1, "y": 64, "z": 1, "block": "crafting_table", "exists": false})).unwrap();
        assert!(!gone.progress(&start, &now).done);
        let kills = Tracker::from_json(&json!({"type": "kill", "mob": "zombie", "count": 3})).unwrap();
        assert_eq!(kills.progress(&start, &now).to_string(), "2/3 zombie killed");

        let all = Tracker::All { of: vec![near.clone(), kills.clone()] };
        let progress = all.progress(&start, &now);
        assert_eq!((progress.done, progress.current, progress.target), (false, 3, 4));
        let any = Tracker::Any { of: vec![kills, near] };
        assert!(any.progress(&start, &now).done);
        // Kinds of one thing say what was asked for, and which kind counted.
        let logs = Tracker::Any {
            of: ["oak_log", "birch_log", "spruce_log"]
                .iter()
                .map(|log| Tracker::Inventory { item: (*log).to_owned(), count: 1, exactly: false })
                .collect(),
        };
        let mut now = snapshot(&[("birch_log", 1)]);
        now.position = [0.0; 3];
        assert_eq!(logs.progress(&start, &now).to_string(), "1/1 wood log (birch_log)");
        assert_eq!(logs.progress(&start, &snapshot(&[])).to_string(), "0/1 wood log (oak_log)");
        assert_eq!(all.positions(), Vec::<[i32; 3]>::new());
        assert_eq!(Tracker::All { of: vec![table] }.positions(), [[1, 64, 1]]);
    }

    #[test]
    fn invalid_trackers_say_what_is_wrong() {
        let err = |v: serde_json::Value| Tracker::from_json(&v).unwrap_err();
        assert!(err(json!({"type": "inventory", "item": "Oak Log", "count": 1})).contains("not a Minecraft id"));
        assert!(err(json!({"type": "inventory", "item": "oak_log", "count": 0})).contains("count 0"));
        assert!(err(json!({"type": "teleport", "x": 1})).contains("unknown variant"));
        assert!(err(json!({"type": "craft", "item": "stick"})).contains("missing field `count`"));
        assert!(err(json!({"type": "all", "of": []})).contains("lists no trackers"));
        assert!(err(json!({"type": "location", "x": 1, "y": 2, "z": 3, "radius": -1})).contains("radius"));
        assert!(err(json!({"type": "craft", "item": "stick", "count": 1, "extra": true})).contains("unknown field"));
        let deep = json!({"type": "all", "of": [{"type": "all", "of": [{"type": "all", "of": [{"type": "all", "of": [
            {"type": "all", "of": [{"type": "kill", "mob": "pig", "count": 1}]}]}]}]}]});
        assert!(err(deep).contains("nest at most"));
    }

    #[test]
    fn trackers_round_trip_as_json() {
        let tracker = Tracker::All {
            of: vec![
                Tracker::Inventory { item: "stone_pickaxe".into(), count: 1, exactly: false },
                Tracker::Block { x: 1, y: 2, z: 3, block: "furnace".into(), exists: true },
            ],
        };
        let text = serde_json::to_value(&tracker).unwrap();
        assert_eq!(text["of"][0], json!({"type": "inventory", "item": "stone_pickaxe", "count": 1}));
        assert_eq!(Tracker::from_json(&text).unwrap(), tracker);
    }
}
