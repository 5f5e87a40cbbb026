//! Task trackers: machine-checkable completion conditions that come with every task, so the code (not an LLM)
//! decides whether a task is done whenever it can.
//!
//! A tracker is JSON the LLM writes when it proposes a task, validated here before use:
//!
//! ```json
//! {"type": "inventory", "item": "oak_log", "count": 10}
//! {"type": "all", "of": [{"type": "craft", "item": "stick", "count": 4}, {"type": "kill", "mob": "pig", "count": 1}]}
//! {"type": "placed", "block": "dirt", "count": 3}
//! ```
//!
//! Besides what the bot carries and has killed, trackers measure the world itself: blocks placed or dug near a
//! point, a structure of blocks, where the bot stands, what a container holds, what was handed to a player. A point
//! left out (`"at"`) is where the bot stood when the step began.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::primitives::area;
pub use crate::primitives::area::{Area, Part, Point, is_air, is_open};

/// The most anything can be asked for: a full inventory of one stackable item.
const MAX_COUNT: u32 = 36 * 64;
/// Composite trackers nest at most this deep.
const MAX_DEPTH: usize = 4;
/// How far around its point a spatial tracker looks by default, and at most.
pub const NEAR: u32 = 8;
pub const MAX_RADIUS: u32 = 16;
/// The most blocks a structure tracker lists, and how far they may lie from its anchor.
pub const MAX_PARTS: usize = 512;
const MAX_OFFSET: i32 = 32;

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
    /// `count` blocks of `block` that were not there when the step began, within `radius` of `at`.
    Placed {
        block: String,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Point>,
        #[serde(default = "near")]
        radius: u32,
    },
    /// Block kinds at offsets from an anchor, done when `share` of them stand. Anchored at `at`, the world counts as
    /// it is; without `at`, the structure may stand anywhere within `radius` of where the step began, in any quarter
    /// turn, and only blocks placed since the step began count.
    Structure {
        blocks: Vec<Part>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Point>,
        #[serde(default = "whole", skip_serializing_if = "is_whole")]
        share: f64,
        #[serde(default = "near")]
        radius: u32,
    },
    /// Blocks turned to air: every one of `positions`, or else `count` blocks (of `block`, when named) within
    /// `radius` of `at` that were not air when the step began.
    Dug {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        positions: Vec<Point>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        count: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        block: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Point>,
        #[serde(default = "near")]
        radius: u32,
    },
    /// Standing on a block of `block` (the one at `at`, when given).
    StandingOn {
        block: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Point>,
    },
    /// A container (chest, barrel) within `radius` of `at` holding at least `count` of `item`.
    Container {
        item: String,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Point>,
        #[serde(default = "near")]
        radius: u32,
    },
    /// `count` of `item` handed to `player` (picked up by them, as the server says) since the step began.
    Given { player: String, item: String, count: u32 },
}

fn yes() -> bool {
    true
}

fn near() -> u32 {
    NEAR
}

fn whole() -> f64 {
    1.0
}

fn is_whole(share: &f64) -> bool {
    *share >= 1.0
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
    /// The boxes of the world trackers asked about ([`Tracker::boxes`]), block by block.
    pub areas: Vec<Area>,
    /// The block the bot stands on, and where.
    pub below: Option<(Point, String)>,
    /// The containers looked into for trackers ([`Tracker::container_boxes`]), with what each holds.
    pub containers: BTreeMap<Point, BTreeMap<String, u32>>,
    /// Everything the bot has handed over since it started: by player, then item.
    pub given: BTreeMap<String, BTreeMap<String, u32>>,
}

impl Snapshot {
    fn count(&self, item: &str) -> i64 {
        self.inventory.get(item).copied().unwrap_or(0)
    }

    /// Items of the same kind as `item` (the last part of the name: `spruce_log` for `oak_log`) that grew between
    /// `start` and this snapshot while `item` did not: what a run made instead of what was asked, in words
    /// ("the run got 3 spruce_log, not oak_log"). A small model told only "0/3 oak_log" mined spruce again and again.
    pub fn instead_of(&self, start: &Snapshot, item: &str) -> Option<String> {
        if self.count(item) > start.count(item) {
            return None;
        }
        let kind = item.rsplit('_').next()?;
        let got: Vec<String> = self
            .inventory
            .iter()
            .filter(|(name, _)| name.as_str() != item && name.rsplit('_').next() == Some(kind))
            .filter_map(|(name, &now)| {
                let more = now - start.count(name);
                (more > 0).then(|| format!("{more} {name}"))
            })
            .collect();
        (!got.is_empty()).then(|| format!("the run got {}, not {item}: the task names {item}", got.join(", ")))
    }

    /// The block position of the bot's feet.
    pub fn feet(&self) -> Point {
        self.position.map(|v| v.floor() as i32)
    }

    fn given_to(&self, player: &str, item: &str) -> u32 {
        self.given
            .iter()
            .filter(|(who, _)| who.eq_ignore_ascii_case(player))
            .map(|(_, items)| items.get(item).copied().unwrap_or(0))
            .sum()
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
        let tracker: Tracker =
            serde_json::from_value(value.clone()).map_err(|err| format!("invalid tracker: {err}"))?;
        tracker.validate(0)?;
        Ok(tracker)
    }

    pub(super) fn validate(&self, depth: usize) -> Result<(), String> {
        let name = |kind: &str, name: &str| {
            let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if ok {
                Ok(())
            } else {
                Err(format!("invalid tracker: {kind} {name:?} is not a Minecraft id like oak_log"))
            }
        };
        let count = |count: u32| {
            if (1..=MAX_COUNT).contains(&count) {
                Ok(())
            } else {
                Err(format!("invalid tracker: count {count} is not 1 to {MAX_COUNT}"))
            }
        };
        let within = |radius: u32| {
            if (1..=MAX_RADIUS).contains(&radius) {
                Ok(())
            } else {
                Err(format!("invalid tracker: radius {radius} is not 1 to {MAX_RADIUS}"))
            }
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
            Tracker::Placed { block, count: n, radius, .. } => name("block", block).and(count(*n)).and(within(*radius)),
            Tracker::Structure { blocks, share, radius, .. } => {
                if blocks.is_empty() || blocks.len() > MAX_PARTS {
                    return Err(format!(
                        "invalid tracker: a structure lists 1 to {MAX_PARTS} blocks, not {}",
                        blocks.len()
                    ));
                }
                if !(share.is_finite() && *share > 0.0 && *share <= 1.0) {
                    return Err("invalid tracker: a structure's share is more than 0 and at most 1".to_owned());
                }
                for part in blocks {
                    name("block", &part.block)?;
                    if [part.x, part.y, part.z].iter().any(|v| v.abs() > MAX_OFFSET) {
                        return Err(format!(
                            "invalid tracker: a structure's blocks lie within {MAX_OFFSET} of its anchor"
                        ));
                    }
                }
                if blocks.iter().all(|p| is_air(&p.block)) {
                    return Err("invalid tracker: a structure needs at least one block that is not air".to_owned());
                }
                within(*radius)
            }
            Tracker::Dug { positions, count: n, block, radius, .. } => {
                if let Some(block) = block {
                    name("block", block)?;
                }
                match (positions.len(), n) {
                    (0, None) => Err("invalid tracker: dug needs \"positions\" or a \"count\"".to_owned()),
                    (1..=MAX_PARTS, None) => within(*radius),
                    (0, Some(n)) => count(*n).and(within(*radius)),
                    (_, Some(_)) => Err("invalid tracker: dug takes \"positions\" or a \"count\", not both".to_owned()),
                    (many, None) => {
                        Err(format!("invalid tracker: dug lists at most {MAX_PARTS} positions, not {many}"))
                    }
                }
            }
            Tracker::StandingOn { block, .. } => name("block", block),
            Tracker::Container { item, count: n, radius, .. } => name("item", item).and(count(*n)).and(within(*radius)),
            Tracker::Given { player, item, count: n } => {
                let ok =
                    (1..=16).contains(&player.len()) && player.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !ok {
                    return Err(format!("invalid tracker: player {player:?} is not a player name"));
                }
                name("item", item).and(count(*n))
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

    /// The boxes of the world (least and greatest corner) this tracker compares between a step's start and now, for
    /// a step that began with the bot's feet at `start`.
    pub fn boxes(&self, start: Point) -> Vec<(Point, Point)> {
        let around = |at: &Option<Point>, r: u32| {
            let at = at.unwrap_or(start);
            let r = r as i32;
            ([at[0] - r, at[1] - r, at[2] - r], [at[0] + r, at[1] + r, at[2] + r])
        };
        match self {
            Tracker::Placed { at, radius, .. } | Tracker::Container { at, radius, .. } => vec![around(at, *radius)],
            Tracker::Dug { positions, at, radius, .. } if positions.is_empty() => vec![around(at, *radius)],
            Tracker::Dug { positions, .. } => vec![bounds(positions.iter().copied())],
            Tracker::Structure { blocks, at: Some(at), .. } => {
                vec![bounds(blocks.iter().map(|p| [at[0] + p.x, at[1] + p.y, at[2] + p.z]))]
            }
            Tracker::Structure { blocks, at: None, radius, .. } => {
                // The structure may stand anywhere within the radius, and reach out of it by its own size.
                let reach = blocks.iter().map(|p| p.x.abs().max(p.y.abs()).max(p.z.abs())).max().unwrap_or(0);
                vec![around(&None, *radius + reach as u32)]
            }
            Tracker::All { of } | Tracker::Any { of } => of.iter().flat_map(|t| t.boxes(start)).collect(),
            _ => Vec::new(),
        }
    }

    /// Where this tracker looks into containers: (point, radius), for a step that began with the bot at `start`.
    pub fn container_places(&self, start: Point) -> Vec<(Point, u32)> {
        match self {
            Tracker::Container { at, radius, .. } => vec![(at.unwrap_or(start), *radius)],
            Tracker::All { of } | Tracker::Any { of } => of.iter().flat_map(|t| t.container_places(start)).collect(),
            _ => Vec::new(),
        }
    }

    /// Whether the inventory alone judges the tracker, so that it can be counted cheaply while code runs (and a
    /// count reached stays reached: an exact count is left to the end).
    pub fn judged_by_inventory(&self) -> bool {
        match self {
            Tracker::Inventory { exactly, .. } => !exactly,
            Tracker::Craft { .. } => true,
            Tracker::All { of } | Tracker::Any { of } => !of.is_empty() && of.iter().all(Tracker::judged_by_inventory),
            _ => false,
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
                Progress {
                    done: gained >= i64::from(*count),
                    current: clamp(gained),
                    target: *count,
                    what: format!("new {item}"),
                }
            }
            Tracker::Kill { mob, count } => {
                let killed =
                    now.kills.get(mob).copied().unwrap_or(0).saturating_sub(start.kills.get(mob).copied().unwrap_or(0));
                Progress { done: killed >= *count, current: killed, target: *count, what: format!("{mob} killed") }
            }
            Tracker::Location { x, y, z, radius } => {
                let [px, py, pz] = now.position;
                let distance = ((px - x).powi(2) + (py - y).powi(2) + (pz - z).powi(2)).sqrt();
                let done = distance <= *radius;
                Progress {
                    done,
                    current: u32::from(done),
                    target: 1,
                    what: format!("at {x:.0} {y:.0} {z:.0} ({distance:.0} away)"),
                }
            }
            Tracker::Block { x, y, z, block, exists } => {
                let there = now.blocks.get(&[*x, *y, *z]).is_some_and(|b| b == block);
                let done = there == *exists;
                let what =
                    if *exists { format!("{block} at {x} {y} {z}") } else { format!("no {block} at {x} {y} {z}") };
                Progress { done, current: u32::from(done), target: 1, what }
            }
            Tracker::Placed { block, count, at, radius } => {
                let anchor = at.unwrap_or(start.feet());
                let placed = changed_near(start, now, anchor, *radius, |was, is| is == block && was != block);
                let what = format!("{block} placed near {}", fmt(anchor));
                Progress { done: placed >= *count, current: placed, target: *count, what }
            }
            Tracker::Structure { blocks, at, share, .. } => {
                let needed = ((blocks.len() as f64 * share).ceil() as u32).clamp(1, blocks.len() as u32);
                let (matched, place) = match at {
                    Some(at) => (area::matched_at(blocks, *at, &now.areas), format!("at {}", fmt(*at))),
                    None => {
                        let (matched, anchor, _) = area::best_new_placement(blocks, &start.areas, &now.areas);
                        let place =
                            if matched == 0 { "new".to_owned() } else { format!("new, best at {}", fmt(anchor)) };
                        (matched, place)
                    }
                };
                let what =
                    format!("blocks of the structure ({}; {place})", kinds(blocks.iter().map(|p| p.block.as_str())));
                Progress { done: matched as u32 >= needed, current: matched as u32, target: needed, what }
            }
            Tracker::Dug { positions, count, block, at, radius } if positions.is_empty() => {
                let anchor = at.unwrap_or(start.feet());
                let dug = changed_near(start, now, anchor, *radius, |was, is| {
                    is_air(is) && !is_air(was) && block.as_ref().is_none_or(|want| same_kind(want, was))
                });
                let target = count.unwrap_or(1);
                let what = format!("{} dug near {}", block.as_deref().unwrap_or("blocks"), fmt(anchor));
                Progress { done: dug >= target, current: dug, target, what }
            }
            Tracker::Dug { positions, .. } => {
                let dug =
                    positions.iter().filter(|p| area::block_in(&now.areas, **p).is_some_and(is_air)).count() as u32;
                let what = match positions.first() {
                    Some(first) if positions.len() == 1 => format!("dug at {}", fmt(*first)),
                    _ => "positions dug".to_owned(),
                };
                Progress { done: dug >= positions.len() as u32, current: dug, target: positions.len() as u32, what }
            }
            Tracker::StandingOn { block, at } => {
                let done = now.below.as_ref().is_some_and(|(p, b)| b == block && at.is_none_or(|at| at == *p));
                let what = match at {
                    Some(at) => format!("standing on the {block} at {}", fmt(*at)),
                    None => format!("standing on {block}"),
                };
                Progress { done, current: u32::from(done), target: 1, what }
            }
            Tracker::Container { item, count, at, radius } => {
                let anchor = at.unwrap_or(start.feet());
                let best = now
                    .containers
                    .iter()
                    .filter(|(p, _)| within_box(**p, anchor, *radius))
                    .map(|(_, items)| items.get(item).copied().unwrap_or(0))
                    .max()
                    .unwrap_or(0);
                let what = format!("{item} in a container near {}", fmt(anchor));
                Progress { done: best >= *count, current: best, target: *count, what }
            }
            Tracker::Given { player, item, count } => {
                let given = now.given_to(player, item).saturating_sub(start.given_to(player, item));
                Progress {
                    done: given >= *count,
                    current: given,
                    target: *count,
                    what: format!("{item} given to {player}"),
                }
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

/// `3 64 -2`
fn fmt(p: Point) -> String {
    format!("{} {} {}", p[0], p[1], p[2])
}

/// How many positions within `radius` of `anchor` changed as `changed(was, is)` says between `start` and `now`
/// (positions the start did not see do not count).
fn changed_near(
    start: &Snapshot,
    now: &Snapshot,
    anchor: Point,
    radius: u32,
    changed: impl Fn(&str, &str) -> bool,
) -> u32 {
    let positions: std::collections::BTreeSet<Point> = now
        .areas
        .iter()
        .flat_map(Area::blocks)
        .filter(|(p, is)| {
            within_box(*p, anchor, radius) && area::block_in(&start.areas, *p).is_some_and(|was| changed(was, is))
        })
        .map(|(p, _)| p)
        .collect();
    positions.len() as u32
}

/// Whether `p` lies in the box `radius` blocks around `centre`.
fn within_box(p: Point, centre: Point, radius: u32) -> bool {
    (0..3).all(|i| (i64::from(p[i]) - i64::from(centre[i])).unsigned_abs() <= u64::from(radius))
}

/// The least and greatest corners of `points`.
fn bounds(points: impl Iterator<Item = Point>) -> (Point, Point) {
    points.fold(([i32::MAX; 3], [i32::MIN; 3]), |(lo, hi), p| {
        ([0, 1, 2].map(|i| lo[i].min(p[i])), [0, 1, 2].map(|i| hi[i].max(p[i])))
    })
}

/// `dirt, cobblestone` (each kind once, air left out).
fn kinds<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for name in names.filter(|n| !is_air(n)) {
        if !seen.contains(&name) {
            seen.push(name);
        }
    }
    seen.join(", ")
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

/// Whether block `was` is of the kind `want` names to be dug: the plants players call grass (`short_grass`, the two
/// blocks high `tall_grass`) are one kind, as are ferns; anything else only itself.
pub fn same_kind(want: &str, was: &str) -> bool {
    const ALIKE: [&[&str]; 2] = [&["short_grass", "tall_grass"], &["fern", "large_fern"]];
    want == was || ALIKE.iter().any(|kinds| kinds.contains(&want) && kinds.contains(&was))
}

/// The JSON schema of the trackers of `kinds` (`"inventory"`, `"placed"`…), for answers asked in a schema: each kind
/// with the fields a plan gives it (a point left out is where the player stands), `"all"`/`"any"` one level deep
/// over the others. Every answer the schema allows is one [`Tracker::from_json`] reads (a unit test holds them to it).
pub fn schema(kinds: &[&str]) -> serde_json::Value {
    use serde_json::json;
    let (text, count, number) =
        (json!({"type": "string"}), json!({"type": "integer", "minimum": 1}), json!({"type": "number"}));
    let fields = |kind: &str| -> Option<Vec<(&str, serde_json::Value)>> {
        Some(match kind {
            "inventory" | "craft" | "container" => vec![("item", text.clone()), ("count", count.clone())],
            "kill" => vec![("mob", text.clone()), ("count", count.clone())],
            "placed" => vec![("block", text.clone()), ("count", count.clone())],
            "dug" => vec![("count", count.clone()), ("block", text.clone())],
            "standing_on" => vec![("block", text.clone())],
            "location" => vec![
                ("x", number.clone()),
                ("y", number.clone()),
                ("z", number.clone()),
                ("radius", json!({"type": "number", "minimum": 1, "maximum": 64})),
            ],
            "block" => vec![
                ("x", json!({"type": "integer"})),
                ("y", json!({"type": "integer"})),
                ("z", json!({"type": "integer"})),
                ("block", text.clone()),
            ],
            "given" => vec![("player", text.clone()), ("item", text.clone()), ("count", count.clone())],
            "structure" => vec![(
                "blocks",
                json!({"type": "array", "minItems": 1, "maxItems": 64, "items": {
                    "type": "object",
                    "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}, "z": {"type": "integer"}, "block": {"type": "string"}},
                    "required": ["x", "y", "z", "block"],
                    "additionalProperties": false,
                }}),
            )],
            _ => return None,
        })
    };
    let object = |kind: &str, fields: Vec<(&str, serde_json::Value)>| {
        let mut properties = serde_json::Map::new();
        properties.insert("type".to_owned(), json!({"const": kind}));
        let mut required = vec![json!("type")];
        for (name, shape) in fields {
            properties.insert(name.to_owned(), shape);
            required.push(json!(name));
        }
        json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
    };
    let simple: Vec<serde_json::Value> = kinds.iter().filter_map(|kind| Some(object(kind, fields(kind)?))).collect();
    let mut all = simple.clone();
    for kind in kinds.iter().filter(|k| matches!(**k, "all" | "any")) {
        all.push(object(kind, vec![("of", json!({"type": "array", "minItems": 1, "items": {"anyOf": simple}}))]));
    }
    json!({"anyOf": all})
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn snapshot(items: &[(&str, i64)]) -> Snapshot {
        Snapshot { inventory: items.iter().map(|(n, c)| ((*n).to_owned(), *c)).collect(), ..Snapshot::default() }
    }

    #[test]
    fn a_run_that_made_the_wrong_kind_says_so() {
        let start = snapshot(&[("oak_log", 1), ("dirt", 2)]);
        let now = snapshot(&[("oak_log", 1), ("spruce_log", 3), ("dirt", 5)]);
        assert_eq!(
            now.instead_of(&start, "oak_log").as_deref(),
            Some("the run got 3 spruce_log, not oak_log: the task names oak_log")
        );
        // Nothing of the kind made, or the item itself made: nothing to say.
        assert_eq!(now.instead_of(&start, "stone_pickaxe"), None);
        assert_eq!(snapshot(&[("oak_log", 2), ("spruce_log", 3)]).instead_of(&start, "oak_log"), None);
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

        let exactly =
            Tracker::from_json(&json!({"type": "inventory", "item": "dirt", "count": 0, "exactly": true})).unwrap();
        assert!(exactly.progress(&start, &snapshot(&[])).done);
        assert!(!exactly.progress(&start, &snapshot(&[("dirt", 1)])).done);
    }

    #[test]
    fn only_counts_of_what_is_carried_are_watched_while_code_runs() {
        let watched = |t: serde_json::Value| Tracker::from_json(&t).unwrap().judged_by_inventory();
        assert!(watched(json!({"type": "inventory", "item": "string", "count": 2})));
        assert!(watched(json!({"type": "craft", "item": "bone", "count": 2})));
        assert!(!watched(json!({"type": "inventory", "item": "dirt", "count": 0, "exactly": true})));
        assert!(!watched(json!({"type": "kill", "mob": "zombie", "count": 1})));
        assert!(!watched(json!({"type": "location", "x": 0, "y": 64, "z": 0, "radius": 2})));
        let all = |of: serde_json::Value| json!({"type": "all", "of": of});
        assert!(watched(all(json!([{"type": "craft", "item": "stick", "count": 4}]))));
        assert!(!watched(all(json!([
            {"type": "craft", "item": "stick", "count": 4},
            {"type": "kill", "mob": "zombie", "count": 1}
        ]))));
    }

    #[test]
    fn location_block_kill_and_composites() {
        let start = Snapshot::default();
        let mut now = Snapshot { position: [10.5, 64.0, -2.5], ..Snapshot::default() };
        now.kills.insert("zombie".into(), 2);
        now.blocks.insert([1, 64, 1], "crafting_table".into());
        let near = Tracker::from_json(&json!({"type": "location", "x": 10, "y": 64, "z": -3, "radius": 2})).unwrap();
        assert!(near.progress(&start, &now).done);
        let table =
            Tracker::from_json(&json!({"type": "block", "x": 1, "y": 64, "z": 1, "block": "crafting_table"})).unwrap();
        assert!(table.progress(&start, &now).done);
        let gone = Tracker::from_json(
            &json!({"type": "block", "x": 1, "y": 64, "z": 1, "block": "crafting_table", "exists": false}),
        )
        .unwrap();
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

    /// A flat world (dirt below y 64, air above) with `blocks` set, seen in the box 8 around the origin's column.
    fn world(blocks: &[([i32; 3], &str)]) -> Vec<Area> {
        let set: BTreeMap<[i32; 3], String> = blocks.iter().map(|(p, b)| (*p, (*b).to_owned())).collect();
        vec![Area::capture([-8, 56, -8], [8, 72, 8], |p| {
            Some(set.get(&p).cloned().unwrap_or_else(|| if p[1] < 64 { "dirt".to_owned() } else { "air".to_owned() }))
        })]
    }

    fn at(areas: Vec<Area>) -> Snapshot {
        Snapshot { position: [0.5, 64.0, 0.5], areas, ..Snapshot::default() }
    }

    #[test]
    fn the_world_judges_blocks_placed_dug_and_built() {
        let start = at(world(&[]));
        let placed = Tracker::from_json(&json!({"type": "placed", "block": "dirt", "count": 3})).unwrap();
        assert_eq!(placed.boxes(start.feet()), [([-8, 56, -8], [8, 72, 8])]);
        // Dirt underground was there already; carrying dirt places none.
        assert!(!placed.progress(&start, &start).done);
        let pillar = at(world(&[([2, 64, 0], "dirt"), ([2, 65, 0], "dirt"), ([2, 66, 0], "dirt")]));
        assert_eq!(placed.progress(&start, &pillar).to_string(), "3/3 dirt placed near 0 64 0");
        let row = at(world(&[([2, 64, 0], "dirt"), ([3, 64, 0], "dirt"), ([4, 64, 0], "dirt")]));
        // A column asked for: a row of the same blocks matches one of them.
        let column = Tracker::from_json(&json!({"type": "structure", "blocks": [
            {"x": 0, "y": 0, "z": 0, "block": "dirt"}, {"x": 0, "y": 1, "z": 0, "block": "dirt"}, {"x": 0, "y": 2, "z": 0, "block": "dirt"}]}))
        .unwrap();
        assert!(column.progress(&start, &pillar).done);
        let wrong = column.progress(&start, &row);
        assert_eq!((wrong.done, wrong.current, wrong.target), (false, 1, 3), "{wrong}");
        let anchored = Tracker::from_json(&json!({"type": "structure", "at": [2, 64, 0], "share": 0.6, "blocks": [
            {"x": 0, "y": 0, "z": 0, "block": "dirt"}, {"x": 1, "y": 0, "z": 0, "block": "dirt"}, {"x": 5, "y": 0, "z": 0, "block": "dirt"}]}))
        .unwrap();
        assert!(anchored.progress(&start, &row).done, "2 of 3 is at least 60 %");
        let dug = Tracker::from_json(&json!({"type": "dug", "count": 2})).unwrap();
        let hole = at(world(&[([1, 63, 1], "air"), ([1, 62, 1], "air")]));
        assert!(!dug.progress(&start, &start).done);
        assert_eq!(dug.progress(&start, &hole).to_string(), "2/2 blocks dug near 0 64 0");
        let there = Tracker::from_json(&json!({"type": "dug", "positions": [[1, 63, 1]]})).unwrap();
        assert!(there.progress(&start, &hole).done && !there.progress(&start, &start).done);
    }

    #[test]
    fn the_world_judges_where_the_bot_stands_what_containers_hold_and_what_was_given() {
        let mut now = Snapshot { below: Some(([3, 63, 3], "gold_block".to_owned())), ..Snapshot::default() };
        let start = Snapshot { position: [0.5, 64.0, 0.5], ..Snapshot::default() };
        let on_gold = Tracker::from_json(&json!({"type": "standing_on", "block": "gold_block"})).unwrap();
        assert!(on_gold.progress(&start, &now).done);
        let elsewhere =
            Tracker::from_json(&json!({"type": "standing_on", "block": "gold_block", "at": [9, 63, 9]})).unwrap();
        assert!(!elsewhere.progress(&start, &now).done);
        let chest = Tracker::from_json(&json!({"type": "container", "item": "oak_planks", "count": 4})).unwrap();
        assert_eq!(chest.container_places([0, 64, 0]), [([0, 64, 0], 8)]);
        now.containers.insert([2, 64, 0], BTreeMap::from([("oak_planks".to_owned(), 3)]));
        assert_eq!(chest.progress(&start, &now).to_string(), "3/4 oak_planks in a container near 0 64 0");
        now.containers.insert([20, 64, 0], BTreeMap::from([("oak_planks".to_owned(), 9)]));
        assert!(!chest.progress(&start, &now).done, "a chest out of range does not count");
        now.containers.insert([1, 64, 1], BTreeMap::from([("oak_planks".to_owned(), 4)]));
        assert!(chest.progress(&start, &now).done);
        let given =
            Tracker::from_json(&json!({"type": "given", "player": "Alice", "item": "bread", "count": 2})).unwrap();
        let before = Snapshot {
            given: BTreeMap::from([("Alice".to_owned(), BTreeMap::from([("bread".to_owned(), 5)]))]),
            ..start.clone()
        };
        now.given = BTreeMap::from([("Alice".to_owned(), BTreeMap::from([("bread".to_owned(), 6)]))]);
        assert_eq!(
            given.progress(&before, &now).to_string(),
            "1/2 bread given to Alice",
            "only what was given since the start"
        );
        now.given = BTreeMap::from([("alice".to_owned(), BTreeMap::from([("bread".to_owned(), 7)]))]);
        assert!(given.progress(&before, &now).done);
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
        assert!(err(json!({"type": "placed", "block": "dirt", "count": 1, "radius": 40})).contains("radius 40"));
        assert!(err(json!({"type": "structure", "blocks": []})).contains("1 to 512 blocks"));
        assert!(
            err(json!({"type": "structure", "blocks": [{"x": 0, "y": 0, "z": 0, "block": "air"}]})).contains("not air")
        );
        assert!(err(json!({"type": "dug"})).contains("\"positions\" or a \"count\""));
        assert!(
            err(json!({"type": "given", "player": "two words", "item": "bread", "count": 1})).contains("player name")
        );
        assert!(err(json!({"type": "placed", "block": "dirt", "count": 1, "at": [1, 2]})).contains("invalid length"));
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

    #[test]
    fn grass_asked_for_by_either_name_is_one_kind_to_dig() {
        assert!(same_kind("tall_grass", "short_grass") && same_kind("short_grass", "tall_grass"));
        assert!(same_kind("dirt", "dirt") && same_kind("fern", "large_fern"));
        assert!(!same_kind("grass_block", "short_grass") && !same_kind("dirt", "coarse_dirt"));
    }

    /// A value for every shape the schema allows (its first choice of each `anyOf`, ids like `oak_log`).
    fn instances(schema: &serde_json::Value) -> Vec<serde_json::Value> {
        use serde_json::json;
        if let Some(choices) = schema.get("anyOf").and_then(|c| c.as_array()) {
            return choices.iter().flat_map(instances).collect();
        }
        if let Some(value) = schema.get("const") {
            return vec![value.clone()];
        }
        match schema["type"].as_str() {
            Some("string") => vec![json!("oak_log")],
            Some("integer") => vec![json!(schema.get("minimum").and_then(|m| m.as_i64()).unwrap_or(1))],
            Some("number") => vec![json!(schema.get("minimum").and_then(|m| m.as_f64()).unwrap_or(2.0))],
            Some("array") => instances(&schema["items"]).into_iter().map(|item| json!([item])).collect(),
            Some("object") => {
                let mut one = serde_json::Map::new();
                for (name, shape) in schema["properties"].as_object().unwrap() {
                    one.insert(name.clone(), instances(shape).remove(0));
                }
                let mut all = vec![serde_json::Value::Object(one.clone())];
                // Each property's other choices (the trackers inside `all`/`any`).
                for (name, shape) in schema["properties"].as_object().unwrap() {
                    for other in instances(shape).into_iter().skip(1) {
                        let mut variant = one.clone();
                        variant.insert(name.clone(), other);
                        all.push(serde_json::Value::Object(variant));
                    }
                }
                all
            }
            other => panic!("a schema type the test does not know: {other:?}"),
        }
    }

    #[test]
    fn every_tracker_the_schema_allows_is_read() {
        let kinds = [
            "inventory",
            "craft",
            "kill",
            "placed",
            "structure",
            "dug",
            "standing_on",
            "location",
            "block",
            "container",
            "given",
            "all",
            "any",
        ];
        let shapes = instances(&schema(&kinds));
        assert!(shapes.len() >= kinds.len() * 2, "{}", shapes.len());
        for shape in shapes {
            Tracker::from_json(&shape).unwrap_or_else(|e| panic!("{shape}: {e}"));
        }
        assert_eq!(schema(&["inventory", "nonsense"])["anyOf"].as_array().unwrap().len(), 1);
    }
}
