//! What a step asks of the world, read from its verb, and the rules that hold a step to it: a tracker that measures
//! that effect ([`fitting`]), and no success without the world showing the change ([`unshown`]).
//!
//! `Place 3 dirt` asks for blocks placed, `Dig 2 stone` for blocks turned to air, `Go stand on the gold_block` for
//! where the bot stands, `Store 4 oak_planks in the chest` for a container's contents, `Give 2 bread to Alice` for a
//! handover. Steps that gather or make things (mine, craft, smelt, kill) are the item trackers' business and read as
//! none of these.

use super::{
    diff::{MOVED, WorldDiff},
    tracker::{Part, Point, Tracker},
};
use crate::primitives::area;

/// A change in the world a step's verb asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Blocks placed: place, build, put (down), lay, set, stack, light.
    Place,
    /// Blocks turned to air: dig, clear, remove, break, excavate.
    Dig,
    /// The bot somewhere: go, walk, stand, come, return, climb.
    Go,
    /// Items in a container: store, deposit, stash, put … in(to).
    Store,
    /// Items handed to a player: give, hand, deliver, bring … to.
    Give,
}

/// What a step asks, as far as its words tell: the effect, how many, of what, for whom.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    pub effect: Effect,
    pub count: Option<u32>,
    /// The block or item named, as a Minecraft id.
    pub thing: Option<String>,
    /// The player named after `to`, for a handover.
    pub player: Option<String>,
    /// A position written as three whole numbers (`Go stand on -7 64 -7`, `Place dirt at 1 64 2`).
    pub at: Option<[i32; 3]>,
    /// The shape the placed blocks are to stand in, when the words name one (`in a line`, `a pillar of 3`).
    pub shape: Option<Shape>,
    /// A block the placed ones are to touch, when the words name one (`next to the stone block`).
    pub beside: Option<Beside>,
}

impl Asked {
    /// The kind of block these words want all of dug near where they begin (`break the cobblestone wall next to
    /// you`, `clear the tall grass around you`): words that dig a kind with no count and no spot.
    pub fn dug_all(&self) -> Option<&str> {
        match (self.effect, self.count, self.at, self.thing.as_deref()) {
            (Effect::Dig, None, None, Some(block)) => Some(block),
            _ => None,
        }
    }
}

/// Where placed blocks stand against another block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beside {
    pub side: Side,
    /// The block's kind, as a Minecraft id.
    pub block: String,
}

/// A side of a block: `next to` (on its level, one of four faces), `on top of`, `under`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    NextTo,
    OnTop,
    Under,
}

impl Side {
    /// Offsets from a placed block to where the other block stands.
    fn offsets(self) -> &'static [Point] {
        match self {
            Side::NextTo => &[[1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]],
            Side::OnTop => &[[0, -1, 0]],
            Side::Under => &[[0, 1, 0]],
        }
    }
}

impl std::fmt::Display for Beside {
    /// `next to a stone`, `on top of a gold_block`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = match self.side {
            Side::NextTo => "next to",
            Side::OnTop => "on top of",
            Side::Under => "under",
        };
        write!(f, "{side} a {}", self.block)
    }
}

/// Words that name a side, as runs of words, with the side.
const SIDES: &[(&[&str], Side)] = &[
    (&["next", "to"], Side::NextTo),
    (&["beside"], Side::NextTo),
    (&["adjacent", "to"], Side::NextTo),
    (&["on", "top", "of"], Side::OnTop),
    (&["onto"], Side::OnTop),
    (&["on"], Side::OnTop),
    (&["above"], Side::OnTop),
    (&["under"], Side::Under),
    (&["below"], Side::Under),
    (&["beneath"], Side::Under),
];

/// A shape named in words, of whole blocks: the world must show the placed blocks standing so, in any quarter turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `n` blocks in a row on one level: `in a line`, `a row of 4`.
    Line(u32),
    /// `n` blocks one on another: `a pillar of 3`, `a tower 5 high`.
    Column(u32),
    /// Upright, `long` along and `high` up: `a wall 3 long and 2 high`.
    Wall { long: u32, high: u32 },
    /// Flat, `long` by `wide`: `a 2 by 2 floor`.
    Floor { long: u32, wide: u32 },
}

/// The most blocks a shape read from words may have.
const MAX_SHAPE: u32 = 64;

impl Shape {
    /// Offsets of the shape's blocks from its first one.
    pub fn offsets(self) -> Vec<Point> {
        let grid = |a: u32, b: u32, at: fn(i32, i32) -> Point| {
            (0..a as i32).flat_map(move |i| (0..b as i32).map(move |j| at(i, j))).collect::<Vec<_>>()
        };
        match self {
            Shape::Line(n) => grid(n, 1, |i, _| [i, 0, 0]),
            Shape::Column(n) => grid(n, 1, |i, _| [0, i, 0]),
            Shape::Wall { long, high } => grid(long, high, |i, j| [i, j, 0]),
            Shape::Floor { long, wide } => grid(long, wide, |i, j| [i, 0, j]),
        }
    }

    /// How many blocks the shape has.
    pub fn size(self) -> u32 {
        self.offsets().len() as u32
    }

    /// The shape's parts, all of `block`.
    pub fn parts(self, block: &str) -> Vec<Part> {
        self.offsets().into_iter().map(|[x, y, z]| Part { x, y, z, block: block.to_owned() }).collect()
    }
}

impl std::fmt::Display for Shape {
    /// `a line of 4`, `a pillar of 3`, `a wall 3 long and 2 high`, `a floor 2 by 2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shape::Line(n) => write!(f, "a line of {n}"),
            Shape::Column(n) => write!(f, "a pillar of {n}"),
            Shape::Wall { long, high } => write!(f, "a wall {long} long and {high} high"),
            Shape::Floor { long, wide } => write!(f, "a floor {long} by {wide}"),
        }
    }
}

const PLACE: &[&str] =
    &["place", "build", "put", "lay", "set", "stack", "pillar", "construct", "erect", "light", "fill"];
/// Verbs that place blocks only when a shape is named (`make a 2 by 2 floor`; `make a stick` is crafting).
const MAKE: &[&str] = &["make", "create"];
const DIG: &[&str] = &["dig", "clear", "remove", "break", "excavate", "tunnel", "flatten", "destroy", "hollow"];
const GO: &[&str] = &["go", "walk", "move", "stand", "come", "return", "travel", "climb", "head", "step", "run"];
const STORE: &[&str] = &["store", "deposit", "stash", "stow"];
const GIVE: &[&str] = &["give", "hand", "deliver", "bring", "pass", "throw", "toss"];
/// Words after which a `put` or `place` puts things into a container rather than on the ground.
const INTO: &[&str] = &["in", "into", "inside"];
const CONTAINERS: &[&str] = &["chest", "barrel", "container", "storage", "box"];
const NUMBERS: &[(&str, u32)] = &[
    ("a", 1),
    ("an", 1),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("twelve", 12),
    ("sixteen", 16),
];

/// What `task` asks of the world, when its first word is a verb that changes it. `is_id` says whether a word is a
/// block or item id the game has.
pub fn asked(task: &str, is_id: impl Fn(&str) -> bool) -> Option<Asked> {
    let words: Vec<String> = task
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_')).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    let verb = words.first()?.as_str();
    let container = |w: &str| CONTAINERS.iter().any(|c| w.trim_end_matches('s') == *c);
    // `in a chest`, `into the barrel`: a container within two words after `in`.
    let into_container = words
        .iter()
        .enumerate()
        .any(|(i, w)| INTO.contains(&w.as_str()) && words.iter().skip(i + 1).take(2).any(|w| container(w)));
    let effect = if STORE.contains(&verb) || ((verb == "put" || verb == "place" || verb == "fill") && into_container) {
        Effect::Store
    } else if PLACE.contains(&verb) || MAKE.contains(&verb) {
        Effect::Place
    } else if DIG.contains(&verb) {
        Effect::Dig
    } else if GIVE.contains(&verb) && words.iter().any(|w| w == "to") || matches!(verb, "give" | "hand") {
        Effect::Give
    } else if GO.contains(&verb) || (verb == "get" && words.get(1).is_some_and(|w| w == "to")) {
        Effect::Go
    } else {
        return None;
    };
    let (at, first_count) = position_and_count(task);
    // The thing named: an id as written, two words joined (`oak planks`), or a plural made singular.
    let named = (1..words.len()).find_map(|i| {
        // What is stored is not the chest it goes into.
        forms(&words, i)
            .find(|c| c.len() > 2 && is_id(c) && !(effect == Effect::Store && container(c)) && !built_of(c, &is_id))
            .map(|c| (i, c))
    });
    let thing = named.as_ref().map(|(_, c)| c.clone());
    // How many: the sizes given (`3 blocks long and 2 high`, `2 by 2`) multiplied; else the number just before the
    // thing (`pillar of 3 dirt`); else, with no thing named, the first number.
    let number = |w: &str| w.parse::<u32>().ok().or_else(|| NUMBERS.iter().find(|(n, _)| *n == w).map(|(_, v)| *v));
    let count = sizes(&words).or_else(|| match &named {
        Some((i, _)) => words[..*i].iter().rev().take(2).find_map(|w| number(w)),
        None => first_count,
    });
    let player = match effect {
        Effect::Give => words
            .iter()
            .position(|w| w == "to")
            .and_then(|i| task.split_whitespace().filter(|w| !w.is_empty()).nth(i + 1))
            .map(|w| w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_')).to_owned())
            .filter(|w| {
                (1..=16).contains(&w.len()) && !is_id(&w.to_lowercase()) && !["me", "the", "a"].contains(&w.as_str())
            }),
        _ => None,
    };
    let shape = match effect {
        Effect::Place => shape(&words, count),
        _ => None,
    };
    if MAKE.contains(&verb) && shape.is_none() {
        // `make 4 sticks` is crafting; only `make a 2 by 2 floor` places.
        return None;
    }
    // A shape's size is the count, whatever number stood nearer the thing.
    let count = shape.map(Shape::size).or(count);
    let beside = match (effect, &named) {
        (Effect::Place, Some((i, _))) => beside(&words, *i + 1, &is_id),
        _ => None,
    };
    Some(Asked { effect, count, thing, player, at, shape, beside })
}

/// Whether `id` is two words naming something built of a block rather than a block of its own: `the cobblestone
/// wall` a player speaks of is cobblestone standing as a wall, though the game has a `cobblestone_wall` block too.
fn built_of(id: &str, is_id: &impl Fn(&str) -> bool) -> bool {
    const BUILT: [&str; 8] = ["wall", "floor", "pillar", "column", "tower", "line", "row", "platform"];
    id.rsplit_once('_').is_some_and(|(stem, shape)| BUILT.contains(&shape) && !stem.contains('_') && is_id(stem))
}

/// The block a side is named of after word `from` (`next to the stone block`, `on top of the gold block`): the
/// first side's words followed within three words by a block id.
fn beside(words: &[String], from: usize, is_id: &impl Fn(&str) -> bool) -> Option<Beside> {
    for i in from..words.len() {
        let Some((run, side)) = SIDES.iter().find(|(run, _)| words.get(i..i + run.len()).is_some_and(|w| w == *run))
        else {
            continue;
        };
        let after = i + run.len();
        // `on the ground`, `next to you`: a side of nothing the game names; a later one may name a block.
        if let Some(block) = (after..words.len().min(after + 3)).find_map(|j| id_at(words, j, is_id)) {
            return Some(Beside { side: *side, block });
        }
    }
    None
}

/// The ids word `i` may start, in the order tried: joined with the next word (`oak planks` → `oak_planks`), that
/// made singular, the word as written, and the word made singular (`planks`, `torches`).
fn forms(words: &[String], i: usize) -> impl Iterator<Item = String> {
    let joined = words.get(i + 1).map(|next| format!("{}_{next}", words[i]));
    let singular = joined.as_ref().and_then(|j| j.strip_suffix('s').map(str::to_owned));
    [
        joined,
        singular,
        Some(words[i].clone()),
        words[i].strip_suffix('s').map(str::to_owned),
        words[i].strip_suffix("es").map(str::to_owned),
    ]
    .into_iter()
    .flatten()
}

/// The id word `i` starts (see [`forms`]).
fn id_at(words: &[String], i: usize, is_id: &impl Fn(&str) -> bool) -> Option<String> {
    forms(words, i).find(|c| c.len() > 2 && is_id(c))
}

/// Why the blocks placed (in `diff`) do not stand where `asked` says, beside another block, when they do not:
/// `no crafting_table was placed next to a stone (placed at -2 64 0)`. `block_at` reads the world as it is now.
pub fn unplaced_beside(asked: &Asked, diff: &WorldDiff, block_at: impl Fn(Point) -> Option<String>) -> Option<String> {
    let beside = asked.beside.as_ref()?;
    let thing = asked.thing.as_deref();
    let placed: Vec<Point> =
        diff.placed.iter().filter(|(_, b)| thing.is_none_or(|want| want == b)).map(|(p, _)| *p).collect();
    let touching = placed.iter().any(|p| {
        beside
            .side
            .offsets()
            .iter()
            .any(|o| block_at([p[0] + o[0], p[1] + o[1], p[2] + o[2]]).as_deref() == Some(&beside.block))
    });
    if touching {
        return None;
    }
    let what = thing.unwrap_or("block");
    let at = if placed.is_empty() {
        String::new()
    } else {
        let shown: Vec<String> = placed.iter().take(3).map(|p| format!("{} {} {}", p[0], p[1], p[2])).collect();
        format!(" (placed at {})", shown.join(", "))
    };
    Some(format!("no {what} was placed {beside}{at}"))
}

/// The shape `words` name, with `count` the number of blocks they ask for: `in a line` / `a row` → a line of
/// `count`; `pillar`, `column`, `tower` → a column (`count` high, or as high as given); `wall` → `long` by `high`;
/// `floor`, `platform`, `square` → `a by b`. None when the words name no shape or not its size, or the shape would
/// have more than [`MAX_SHAPE`] blocks.
fn shape(words: &[String], count: Option<u32>) -> Option<Shape> {
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.trim_end_matches('s')));
    let dims = dimensions(words);
    let dim = |names: &[&str]| dims.iter().find(|(_, d)| d.is_some_and(|d| names.contains(&d))).map(|(n, _)| *n);
    let by: Vec<u32> = dims.iter().filter(|(_, d)| d.is_none()).map(|(n, _)| *n).collect();
    let shape = if has(&["wall", "fence"]) {
        match (dim(&["long", "wide", "across"]), dim(&["high", "tall"]), by.as_slice()) {
            (Some(long), Some(high), _) => Shape::Wall { long, high },
            (_, _, [long, high, ..]) => Shape::Wall { long: *long, high: *high },
            (Some(long), None, _) => Shape::Line(long),
            _ => return None,
        }
    } else if has(&["floor", "platform", "square", "pad", "patio", "roof"]) {
        match (dim(&["long"]), dim(&["wide", "across"]), by.as_slice()) {
            (_, _, [long, wide, ..]) => Shape::Floor { long: *long, wide: *wide },
            (Some(long), Some(wide), _) => Shape::Floor { long, wide },
            _ => return None,
        }
    } else if has(&["pillar", "column", "tower", "pole"]) {
        Shape::Column(dim(&["high", "tall"]).or(count)?)
    } else if has(&["line", "row"]) {
        Shape::Line(dim(&["long"]).or(count)?)
    } else {
        return None;
    };
    (2..=MAX_SHAPE).contains(&shape.size()).then_some(shape)
}

/// Sizes written in `words`: `3 blocks long` → (3, long), `2 by 2` or `2x2` → (2, none) twice.
fn dimensions(words: &[String]) -> Vec<(u32, Option<&'static str>)> {
    const DIMENSIONS: &[&str] = &["long", "wide", "high", "tall", "deep", "across"];
    let mut found = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if let Some((a, b)) = w.split_once('x')
            && let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>())
        {
            found.extend([(a, None), (b, None)]);
        } else if let Ok(n) = w.parse::<u32>() {
            let by = words.get(i + 1).is_some_and(|next| next == "by" || next == "x")
                || (i > 0 && (words[i - 1] == "by" || words[i - 1] == "x"));
            let named = words
                .iter()
                .skip(i + 1)
                .take(2)
                .find_map(|next| DIMENSIONS.iter().find(|d| **d == next.as_str()).copied());
            if let Some(named) = named {
                found.push((n, Some(named)));
            } else if by {
                found.push((n, None));
            }
        }
    }
    found
}

/// How many of `shape`'s blocks stand among `placed` at its best spot and quarter turn: blocks of `block` (of any
/// kind with `None`), all placed in the span the diff covers.
pub fn standing(shape: Shape, block: Option<&str>, placed: &[(Point, String)]) -> usize {
    let kind_fits = |b: &String| block.is_none_or(|want| want == b);
    let cells: std::collections::HashSet<Point> =
        placed.iter().filter(|(_, b)| kind_fits(b)).map(|(p, _)| *p).collect();
    let offsets = shape.offsets();
    let mut best = 0;
    for p in &cells {
        for first in &offsets {
            for turns in 0..4u8 {
                let [dx, dy, dz] = area::turn(*first, turns);
                let anchor = [p[0] - dx, p[1] - dy, p[2] - dz];
                let matched = offsets
                    .iter()
                    .filter(|o| {
                        let [x, y, z] = area::turn(**o, turns);
                        cells.contains(&[anchor[0] + x, anchor[1] + y, anchor[2] + z])
                    })
                    .count();
                best = best.max(matched);
            }
        }
    }
    best
}

/// The sizes a task gives, multiplied: `3 blocks long and 2 blocks high` → 6, `a 2 by 2 floor` → 4, `2x3` → 6,
/// `a hole 2 blocks deep` → 2.
fn sizes(words: &[String]) -> Option<u32> {
    let found = dimensions(words);
    (!found.is_empty()).then(|| found.iter().fold(1u32, |a, (n, _)| a.saturating_mul(*n)))
}

/// The first three whole numbers in a row in `task` (`-7 64 -7`, `(1, 64, 2)`), as a position, and the first
/// other number after the verb (`3`, `three`), as a count.
fn position_and_count(task: &str) -> (Option<[i32; 3]>, Option<u32>) {
    let words: Vec<&str> = task.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    let numbers: Vec<Option<i32>> =
        words.iter().map(|w| w.trim_matches(|c: char| !(c.is_ascii_digit() || c == '-')).parse::<i32>().ok()).collect();
    let window = numbers.windows(3).position(|w| w.iter().all(Option::is_some));
    let at = window.and_then(|i| Some([numbers[i]?, numbers[i + 1]?, numbers[i + 2]?]));
    let count =
        words.iter().enumerate().skip(1).filter(|(i, _)| window.is_none_or(|w| !(w..w + 3).contains(i))).find_map(
            |(_, w)| {
                let w = w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
                w.parse::<u32>().ok().or_else(|| NUMBERS.iter().find(|(n, _)| *n == w).map(|(_, v)| *v))
            },
        );
    (at, count)
}

/// Whether `tracker` measures `effect` (a composite when one of its parts does; an `any` when all do).
pub fn measures(tracker: &Tracker, effect: Effect) -> bool {
    match tracker {
        Tracker::All { of } => of.iter().any(|t| measures(t, effect)),
        Tracker::Any { of } => of.iter().all(|t| measures(t, effect)),
        Tracker::Placed { .. } | Tracker::Structure { .. } | Tracker::Block { exists: true, .. } => {
            effect == Effect::Place
        }
        Tracker::Dug { .. } | Tracker::Block { exists: false, .. } => effect == Effect::Dig,
        Tracker::Location { .. } | Tracker::StandingOn { .. } => effect == Effect::Go,
        Tracker::Container { .. } => effect == Effect::Store,
        Tracker::Given { .. } => effect == Effect::Give,
        Tracker::Inventory { .. } | Tracker::Craft { .. } | Tracker::Kill { .. } => false,
    }
}

/// Whether `tracker` measures what `asked` asks: its effect, and its shape when one is named (only a structure
/// tracker sees a shape; counting placed blocks does not).
pub fn measures_asked(tracker: &Tracker, asked: &Asked) -> bool {
    fn has_structure(tracker: &Tracker) -> bool {
        match tracker {
            Tracker::Structure { .. } => true,
            Tracker::All { of } => of.iter().any(has_structure),
            Tracker::Any { of } => of.iter().all(has_structure),
            _ => false,
        }
    }
    measures(tracker, asked.effect) && (asked.shape.is_none() || has_structure(tracker))
}

/// A tracker that measures what `asked` asks, when its words say enough: `Place 3 dirt` → 3 dirt placed near where
/// the step begins.
pub fn fitting(asked: &Asked) -> Option<Tracker> {
    let count = asked.count.unwrap_or(1);
    let thing = asked.thing.clone();
    if let Some([x, y, z]) = asked.at {
        // A position written out: that block, that spot.
        return match asked.effect {
            Effect::Place => Some(Tracker::Block { x, y, z, block: thing?, exists: true }),
            Effect::Dig => Some(Tracker::Dug {
                positions: vec![[x, y, z]],
                count: None,
                block: None,
                at: None,
                radius: super::tracker::NEAR,
            }),
            Effect::Go => {
                Some(Tracker::Location { x: f64::from(x) + 0.5, y: f64::from(y), z: f64::from(z) + 0.5, radius: 2.0 })
            }
            Effect::Store => Some(Tracker::Container { item: thing?, count, at: Some([x, y, z]), radius: 2 }),
            Effect::Give => None,
        };
    }
    match asked.effect {
        Effect::Place => match asked.shape {
            Some(shape) => Some(Tracker::Structure {
                blocks: shape.parts(&thing?),
                at: None,
                share: 1.0,
                radius: super::tracker::NEAR,
            }),
            None => Some(Tracker::Placed { block: thing?, count, at: None, radius: super::tracker::NEAR }),
        },
        Effect::Dig => Some(Tracker::Dug {
            positions: Vec::new(),
            count: Some(count),
            block: thing,
            at: None,
            radius: super::tracker::NEAR,
        }),
        Effect::Go => Some(Tracker::StandingOn { block: thing?, at: None }),
        Effect::Store => Some(Tracker::Container { item: thing?, count, at: None, radius: super::tracker::NEAR }),
        Effect::Give => Some(Tracker::Given { player: asked.player.clone()?, item: thing?, count }),
    }
}

/// Why the world does not show what `asked` asks, when it does not: `no dirt was placed; 3 were asked`. A step whose
/// verb changes the world fails on this, whatever a critic says.
pub fn unshown(asked: &Asked, diff: &WorldDiff) -> Option<String> {
    let thing = asked.thing.as_deref();
    let want = asked.count.unwrap_or(1);
    let named = |fallback: &str| thing.unwrap_or(fallback).to_owned();
    let short = |got: u64, what: String, verb: &str| -> Option<String> {
        match got {
            0 => Some(format!("no {what} was {verb}; {want} {} asked", if want == 1 { "was" } else { "were" })),
            n if n < u64::from(want) => {
                Some(format!("only {n} {what} {} {verb}; {want} were asked", if n == 1 { "was" } else { "were" }))
            }
            _ => None,
        }
    };
    match asked.effect {
        Effect::Place => short(diff.placed_count(thing) as u64, named("block"), "placed").or_else(|| {
            let shape = asked.shape?;
            let stands = standing(shape, thing, &diff.placed);
            let size = shape.size() as usize;
            (stands < size).then(|| {
                format!("the {} placed do not stand as {shape}: at most {stands} of {size} do", named("block"))
            })
        }),
        Effect::Dig => short(diff.broken_count(thing) as u64, named("block"), "dug"),
        Effect::Store => short(diff.stored(thing).max(0) as u64, named("item"), "put into a container"),
        Effect::Give => {
            let given = diff.given_count(asked.player.as_deref(), thing);
            let to = asked.player.as_deref().map(|p| format!(" to {p}")).unwrap_or_default();
            short(u64::from(given), named("item"), &format!("handed over{to}"))
        }
        Effect::Go => (diff.moved() < MOVED).then(|| "I did not move from where I stood".to_owned()),
    }
}

/// Whether `diff` shows a change that fits a step asking `asked` (any change at all for a step that asks none of
/// the world's effects: items made, gathered, moved).
pub fn fits(asked: Option<&Asked>, diff: &WorldDiff) -> bool {
    match asked {
        Some(asked) => unshown(asked, diff).is_none(),
        None => !diff.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_id(word: &str) -> bool {
        ["dirt", "cobblestone", "oak_planks", "chest", "gold_block", "bread", "stone", "torch"].contains(&word)
    }

    fn read(task: &str) -> Option<Asked> {
        asked(task, is_id)
    }

    #[test]
    fn verbs_say_what_the_world_should_show() {
        let place = read("Place 3 dirt").unwrap();
        assert_eq!((place.effect, place.count, place.thing.as_deref()), (Effect::Place, Some(3), Some("dirt")));
        assert_eq!(read("Lay four cobblestone in a line").unwrap().count, Some(4));
        assert_eq!(read("Put the chest down").unwrap().effect, Effect::Place);
        let store = read("Put 4 oak planks into the chest").unwrap();
        assert_eq!((store.effect, store.thing.as_deref()), (Effect::Store, Some("oak_planks")));
        assert_eq!(read("Store planks in a chest").unwrap().effect, Effect::Store);
        assert_eq!(read("Place a chest and put planks on it").unwrap().thing.as_deref(), Some("chest"));
        assert_eq!(read("Dig 2 stone").unwrap().effect, Effect::Dig);
        let go = read("Go stand on the gold_block").unwrap();
        assert_eq!((go.effect, go.thing.as_deref()), (Effect::Go, Some("gold_block")));
        let give = read("Give 2 bread to Alice.").unwrap();
        assert_eq!((give.effect, give.player.as_deref(), give.count), (Effect::Give, Some("Alice"), Some(2)));
        assert_eq!(read("Light the area with torches").unwrap().thing.as_deref(), Some("torch"));
        let there = read("Go stand on -7 64 -7").unwrap();
        assert_eq!((there.at, there.count), (Some([-7, 64, -7]), None));
        let wall = read("build a wall of cobblestone 3 blocks long and 2 blocks high").unwrap();
        assert_eq!((wall.effect, wall.count, wall.thing.as_deref()), (Effect::Place, Some(6), Some("cobblestone")));
        assert_eq!(read("build a 2 by 2 floor of dirt").unwrap().count, Some(4));
        assert_eq!(read("dig a hole 2 blocks deep").unwrap().count, Some(2));
        assert_eq!(read("build a pillar of 3 dirt blocks next to you").unwrap().count, Some(3));
        let compound = read("place a chest and store 6 cobblestone in it").unwrap();
        assert_eq!(
            (compound.count, compound.thing.as_deref()),
            (Some(1), Some("chest")),
            "the count goes with its thing"
        );
        let placed = read("Place 2 dirt at (1, 64, 2)").unwrap();
        assert_eq!((placed.at, placed.count), (Some([1, 64, 2]), Some(2)));
        for gather in
            ["Mine 3 dirt", "Craft 4 stick", "make 4 sticks", "Kill 1 pig", "Smelt 2 raw_iron", "Say hello", ""]
        {
            assert_eq!(read(gather), None, "{gather}");
        }
    }

    #[test]
    fn trackers_fit_their_verbs() {
        let place = read("Place 3 dirt").unwrap();
        let inventory = Tracker::Inventory { item: "dirt".into(), count: 3, exactly: false };
        assert!(!measures(&inventory, Effect::Place), "carrying dirt is not placing it");
        let fitted = fitting(&place).unwrap();
        assert_eq!(fitted, Tracker::Placed { block: "dirt".into(), count: 3, at: None, radius: 8 });
        assert!(measures(&fitted, Effect::Place));
        assert!(measures(&Tracker::All { of: vec![inventory.clone(), fitted] }, Effect::Place));
        assert_eq!(fitting(&read("Build a small hut").unwrap()), None, "nothing named to count");
        assert!(matches!(fitting(&read("Give 2 bread to Alice").unwrap()), Some(Tracker::Given { count: 2, .. })));
        assert!(matches!(fitting(&read("Go stand on the gold_block").unwrap()), Some(Tracker::StandingOn { .. })));
        assert_eq!(
            fitting(&read("Go stand on -7 64 -7").unwrap()),
            Some(Tracker::Location { x: -6.5, y: 64.0, z: -6.5, radius: 2.0 })
        );
        assert_eq!(
            fitting(&read("Place dirt at 1 64 2").unwrap()),
            Some(Tracker::Block { x: 1, y: 64, z: 2, block: "dirt".into(), exists: true })
        );
    }

    #[test]
    fn shapes_are_read_from_words() {
        let shape = |task: &str| read(task).and_then(|a| a.shape);
        assert_eq!(shape("lay 4 cobblestone in a line on the ground"), Some(Shape::Line(4)));
        assert_eq!(shape("Place a row of four torches"), Some(Shape::Line(4)));
        assert_eq!(shape("build a pillar of 3 dirt blocks next to you"), Some(Shape::Column(3)));
        assert_eq!(shape("build a dirt tower 5 blocks high"), Some(Shape::Column(5)));
        assert_eq!(
            shape("build a wall of cobblestone 3 blocks long and 2 blocks high"),
            Some(Shape::Wall { long: 3, high: 2 })
        );
        assert_eq!(shape("make a 2 by 2 floor of oak planks"), Some(Shape::Floor { long: 2, wide: 2 }));
        assert_eq!(shape("build a 3x2 platform of stone"), Some(Shape::Floor { long: 3, wide: 2 }));
        for none in [
            "Place 3 dirt",
            "build a pillar of dirt",
            "build a wall",
            "Place 1 torch in a line",
            "Dig a line of 3 dirt",
        ] {
            assert_eq!(shape(none), None, "{none}");
        }
        assert_eq!(shape("build a wall 100 long and 100 high of dirt"), None, "too big to read as a shape");
        let wall = read("build a wall of cobblestone 3 blocks long and 2 blocks high").unwrap();
        assert_eq!(wall.count, Some(6));
        let line = read("Place 4 cobblestone in a line").unwrap();
        let Some(Tracker::Structure { blocks, at: None, .. }) = fitting(&line) else {
            panic!("a line gets a structure tracker")
        };
        assert_eq!(blocks.len(), 4);
        assert!(!measures_asked(
            &Tracker::Placed { block: "cobblestone".into(), count: 4, at: None, radius: 8 },
            &line
        ));
        assert!(measures_asked(&fitting(&line).unwrap(), &line));
    }

    #[test]
    fn a_block_beside_another_is_read_and_checked() {
        let beside = |task: &str| read(task).and_then(|a| a.beside);
        assert_eq!(
            beside("place a dirt block on top of the gold block"),
            Some(Beside { side: Side::OnTop, block: "gold_block".into() })
        );
        assert_eq!(
            beside("put a torch next to the stone block"),
            Some(Beside { side: Side::NextTo, block: "stone".into() })
        );
        assert_eq!(
            beside("place a torch on the ground next to the gold block"),
            Some(Beside { side: Side::NextTo, block: "gold_block".into() })
        );
        for none in ["place a torch on the ground next to you", "Place 3 dirt", "Go stand on the gold_block"] {
            assert_eq!(beside(none), None, "{none}");
        }
        let asked = read("place a torch next to the stone block").unwrap();
        let diff = WorldDiff { placed: vec![([-2, 64, 0], "torch".into())], ..WorldDiff::default() };
        let world = |stone: Point| move |p: Point| Some(if p == stone { "stone" } else { "air" }.to_owned());
        assert_eq!(
            unplaced_beside(&asked, &diff, world([4, 64, -1])).as_deref(),
            Some("no torch was placed next to a stone (placed at -2 64 0)")
        );
        assert_eq!(unplaced_beside(&asked, &diff, world([-2, 64, 1])), None);
        assert!(unplaced_beside(&asked, &diff, world([-2, 63, 0])).is_some(), "under it is not next to it");
        let on_top = read("place a torch on top of the stone").unwrap();
        assert_eq!(unplaced_beside(&on_top, &diff, world([-2, 63, 0])), None);
    }

    #[test]
    fn a_shape_must_stand_in_the_world() {
        let placed = |cells: &[Point]| WorldDiff {
            placed: cells.iter().map(|p| (*p, "cobblestone".to_owned())).collect(),
            ..WorldDiff::default()
        };
        let line = read("Place 4 cobblestone in a line").unwrap();
        // Four placed, three in a line and one beside: counted, but not the shape.
        let bent = placed(&[[0, 64, 0], [1, 64, 0], [2, 64, 0], [2, 64, 1]]);
        assert_eq!(
            unshown(&line, &bent).as_deref(),
            Some("the cobblestone placed do not stand as a line of 4: at most 3 of 4 do")
        );
        // Along z is a line too (a quarter turn), and extra blocks do no harm.
        assert_eq!(unshown(&line, &placed(&[[5, 64, 0], [5, 64, 1], [5, 64, 2], [5, 64, 3], [0, 64, 0]])), None);
        // A column is not a line.
        assert!(unshown(&line, &placed(&[[0, 64, 0], [0, 65, 0], [0, 66, 0], [0, 67, 0]])).is_some());
        let pillar = read("build a pillar of 3 cobblestone").unwrap();
        assert_eq!(unshown(&pillar, &placed(&[[0, 64, 0], [0, 65, 0], [0, 66, 0]])), None);
        assert_eq!(
            standing(
                Shape::Wall { long: 3, high: 2 },
                None,
                &placed(&[[0, 64, 0], [0, 64, 1], [0, 64, 2], [0, 65, 1]]).placed
            ),
            4
        );
    }

    #[test]
    fn the_world_must_show_the_change() {
        let place = read("Place 3 dirt").unwrap();
        let nothing = WorldDiff::default();
        assert_eq!(unshown(&place, &nothing).as_deref(), Some("no dirt was placed; 3 were asked"));
        let one = WorldDiff::new(vec![([0, 64, 0], "air".into(), "dirt".into())], [0.0; 3], [0.0; 3]);
        assert_eq!(unshown(&place, &one).as_deref(), Some("only 1 dirt was placed; 3 were asked"));
        let three =
            WorldDiff::new((0..3).map(|y| ([0, 64 + y, 0], "air".into(), "dirt".into())).collect(), [0.0; 3], [0.0; 3]);
        assert_eq!(unshown(&place, &three), None);
        assert_eq!(
            unshown(&read("Go to the tree").unwrap(), &nothing).as_deref(),
            Some("I did not move from where I stood")
        );
        assert!(unshown(&read("Give 2 bread to Alice").unwrap(), &nothing).unwrap().contains("handed over to Alice"));
        assert!(!fits(None, &nothing), "a step that changed nothing does not fit");
        assert!(fits(None, &WorldDiff { items: vec![("stick".into(), 4)], ..WorldDiff::default() }));
    }
}
