//! Blueprints from words: the LLM answers a blueprint as JSON (a palette and layers of rows), which is read through
//! the text format's own checks, held to a smaller size than files, and refused when a material is one the game's
//! facts cannot get. A design that does not hold is asked for once more with what was wrong.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{
    extract::{self, Json},
    prompts,
    recipes::{self, NoSteps, Setting, Want},
};
use crate::{
    blueprint::{
        Blueprint, Part, Spec,
        compose::{self, Kind, Opening, OpeningKind, Piece, Side},
    },
    llm::{Llm, Message, Role},
};

/// The largest side and the most blocks a designed blueprint may have.
pub const MAX_SIDE: i32 = 12;
pub const MAX_BLOCKS: usize = 600;

/// How a design is answered: a shape with its sizes and the block of each of its parts (what a small model gets
/// right), or, for what no shape fits, a palette and layers of rows.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Design {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    palette: BTreeMap<String, String>,
    #[serde(default)]
    layers: Vec<Vec<String>>,
    shape: Option<String>,
    width: Option<i32>,
    depth: Option<i32>,
    height: Option<i32>,
    storeys: Option<i32>,
    block: Option<String>,
    roof: Option<String>,
    door: Option<String>,
    windows: Option<String>,
    top: Option<String>,
    corners: Option<String>,
    upper: Option<String>,
    inside: Option<String>,
    base: Option<String>,
    border: Option<String>,
    middle: Option<String>,
    steps: Option<String>,
    /// Parts composed over the shape (or alone, with no shape): the part language of [`compose`].
    #[serde(default)]
    parts: Vec<Piece>,
    /// The words say there is no roof (`no roof`, `open to the sky`): a box is drawn without one.
    #[serde(skip)]
    open_top: bool,
}

/// The shapes a design may name.
const SHAPES: [&str; 6] = ["box", "wall", "pillar", "floor", "bridge", "stairs"];

/// The parts of a shape a design may give a block, each with its palette key.
const PARTS: [(&str, char); 11] = [
    ("corners", 'c'),
    ("roof", 'r'),
    ("door", 'd'),
    ("windows", 'g'),
    ("upper", 'u'),
    ("inside", 'i'),
    ("top", 't'),
    ("base", 'a'),
    ("border", 'e'),
    ("middle", 'm'),
    ("steps", 's'),
];

impl Design {
    /// The block the answer gives part `part` (one of [`PARTS`]).
    fn part(&self, part: &str) -> Option<&String> {
        match part {
            "roof" => self.roof.as_ref(),
            "door" => self.door.as_ref(),
            "windows" => self.windows.as_ref(),
            "top" => self.top.as_ref(),
            "corners" => self.corners.as_ref(),
            "upper" => self.upper.as_ref(),
            "inside" => self.inside.as_ref(),
            "base" => self.base.as_ref(),
            "border" => self.border.as_ref(),
            "middle" => self.middle.as_ref(),
            "steps" => self.steps.as_ref(),
            _ => None,
        }
    }
}

/// A design's palette (character → block) and layers of rows, as the answer's free form gives them.
type Drawn = (BTreeMap<String, String>, Vec<Vec<String>>);

/// Words that say what is built rather than what of: `cobblestone wall` is a wall, not the block of that name.
const BUILT: [&str; 11] =
    ["wall", "pillar", "floor", "bridge", "staircase", "house", "hut", "tower", "shelter", "post", "plot"];

/// The runs of `words` (content words) that name a block: the block, where the run starts and how many words it
/// takes. The longest run that names a block wins (`oak fence gate` is the gate, not a fence), `wooden` is oak
/// planks, and no run holding a word for what is built counts.
fn block_runs(words: &[String]) -> Vec<(String, usize, usize)> {
    let mut runs = Vec::new();
    let mut at = 0;
    'words: while at < words.len() {
        for len in (1..=3).rev().filter(|len| at + len <= words.len()) {
            let run = &words[at..at + len];
            if run.iter().any(|w| BUILT.contains(&w.as_str())) {
                continue;
            }
            // A wood's name alone is its planks (`a spruce hut`).
            const WOODS: [&str; 9] =
                ["oak", "spruce", "birch", "jungle", "acacia", "mangrove", "cherry", "bamboo", "crimson"];
            // A kind of block named alone after one of its kind was (`a spruce log armrest, a lantern on each log`)
            // is that one again, not the kind's usual block.
            // `fence rails`, `rails on both sides`: a railing, not a minecart's track (unless the words say so).
            if run.len() == 1
                && run[0] == "rail"
                && !words.iter().any(|w| matches!(w.as_str(), "minecart" | "track" | "railway"))
            {
                at += 1;
                continue 'words;
            }
            let named_before = |w: &str| {
                runs.iter().any(|(b, ..): &(String, usize, usize)| {
                    b.ends_with(&format!("_{w}")) || b.ends_with(&format!("_{w}s"))
                })
            };
            let block = if len == 1 && matches!(run[0].as_str(), "wooden" | "wood") {
                Some("oak_planks".to_owned())
            } else if len == 1 && WOODS.contains(&run[0].as_str()) {
                // `spruce stairs`: the wood's stairs (a plural's s is dropped from the words).
                match words.get(at + 1).map(String::as_str) {
                    Some("stair") => Some(format!("{}_stairs", run[0])),
                    _ => Some(format!("{}_planks", run[0])),
                }
            } else if len == 1 && named_before(&run[0]) {
                None
            } else {
                let id = run.join("_");
                let plural = (run.last().map(String::as_str) == Some("stair")).then(|| format!("{id}s"));
                plural
                    .iter()
                    .chain([&id])
                    .find_map(|id| spec_near(id).ok().filter(|s| s.item().is_some()).map(|s| s.name.clone()))
            };
            if len == 1 && named_before(&run[0]) && block.is_none() {
                at += 1;
                continue 'words;
            }
            // `no water`, `without a roof`: a block the words say is not there is not asked for.
            if block.is_some() && at > 0 && matches!(words[at - 1].as_str(), "no" | "without" | "not") {
                at += len;
                continue 'words;
            }
            if let Some(block) = block {
                // `spruce stairs` took the next word too.
                let len = if block.ends_with("_stairs") && run.len() == 1 { 2 } else { len };
                runs.push((block, at, len));
                at += len;
                continue 'words;
            }
        }
        at += 1;
    }
    runs
}

/// The blocks `words` name, in order, each once (see [`block_runs`]).
pub fn named_blocks(words: &str) -> Vec<String> {
    let mut named: Vec<String> = Vec::new();
    for (block, ..) in block_runs(&crate::blueprint::content_words(words)) {
        if !named.contains(&block) {
            named.push(block);
        }
    }
    named
}

/// The words that say which part a block beside them is (`plank roof`, `log corners`, `a torch on top`).
const CUES: [(&str, &[&str]); 11] = [
    ("corners", &["corner"]),
    ("roof", &["roof"]),
    ("door", &["door", "doorway", "gate", "entrance"]),
    ("windows", &["window"]),
    ("upper", &["upper", "second"]),
    ("inside", &["inside", "interior"]),
    ("top", &["top", "platform", "railing", "rail", "lamp", "cap"]),
    ("base", &["foot", "base", "plinth", "beam"]),
    ("border", &["border", "edge", "rim", "frame"]),
    ("middle", &["middle", "channel", "centre", "center"]),
    ("steps", &["step", "tread"]),
];

/// The part a block is for by its kind, when no word beside it says: a ladder climbs inside, a door or gate is the
/// door, glass the windows, stairs the steps, a light or a fence goes on top.
fn part_of_kind(block: &str) -> Option<&'static str> {
    match block {
        "ladder" => Some("inside"),
        b if b.ends_with("_door") || b.ends_with("_fence_gate") => Some("door"),
        b if b.contains("glass") => Some("windows"),
        b if b.ends_with("_stairs") => Some("steps"),
        "torch" | "lantern" | "glowstone" | "sea_lantern" => Some("top"),
        b if b.ends_with("_fence") => Some("top"),
        _ => None,
    }
}

/// The usual width, depth and storey height of what words name, for the sizes they do not give.
const USUAL: [(&[&str], [Option<i32>; 3]); 3] = [
    (&["hut", "house", "cabin", "cottage", "home"], [Some(5), Some(5), Some(3)]),
    (&["tower", "watchtower", "lookout"], [Some(3), Some(3), None]),
    (&["shelter"], [Some(3), Some(3), Some(2)]),
];

/// Whether an answer's block for a part says there is none (`"windows": "none"`).
fn says_none(block: &str) -> bool {
    matches!(block.trim().to_lowercase().as_str(), "" | "none" | "null" | "no" | "air")
}

/// Numbers the words give, as words or digits.
fn number(word: &str) -> Option<i32> {
    const WORDS: [&str; 12] =
        ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    word.parse().ok().or_else(|| WORDS.iter().position(|w| *w == word).map(|i| i as i32 + 1))
}

/// The sizes words give what they describe: the first width, depth and height said, in digits or number words
/// (`7 by 5`, `3x3`, `five across`, `ten long and seven wide`, `3 wide and 4 deep`, `six blocks tall`, `two
/// thick`). Width is the longer way when both a length and a width are said; a lone width is a bridge's depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    pub width: Option<i32>,
    pub depth: Option<i32>,
    pub height: Option<i32>,
}

/// The sizes `words` (content words, as [`crate::blueprint::content_words`] gives them) say; see [`Sizes`]. The
/// first of each wins: `a wall 12 long and 3 high with a 3x3 tower at each end` is 12 long and 3 high.
pub fn sizes_in(words: &[String], bridge: bool) -> Sizes {
    let num =
        |w: &str| super::vocab::number(w).and_then(|n| i32::try_from(n).ok()).filter(|n| (1..=MAX_SIDE).contains(n));
    let mut sizes = Sizes::default();
    let footprint = |sizes: &mut Sizes, a: i32, b: i32| {
        if sizes.width.is_none() && sizes.depth.is_none() {
            (sizes.width, sizes.depth) = (Some(a), Some(b));
        }
    };
    // A length or width said goes to the width first, then to the depth; a bridge's lone width is its depth.
    let along = |sizes: &mut Sizes, n: i32| {
        if sizes.width.is_none() {
            sizes.width = Some(n);
        } else if sizes.depth.is_none() {
            sizes.depth = Some(n);
        }
    };
    let long_said = words.iter().any(|w| matches!(w.as_str(), "long" | "length"));
    let mut i = 0;
    while i < words.len() {
        let word = words[i].as_str();
        // `3x3`, written as one word.
        if let Some((a, b)) = word.split_once('x').and_then(|(a, b)| Some((num(a)?, num(b)?))) {
            footprint(&mut sizes, a, b);
            i += 1;
            continue;
        }
        let Some(n) = num(word) else {
            i += 1;
            continue;
        };
        if let (Some("by" | "x"), Some(m)) =
            (words.get(i + 1).map(String::as_str), words.get(i + 2).and_then(|w| num(w)))
        {
            footprint(&mut sizes, n, m);
            i += 3;
            continue;
        }
        match words.iter().skip(i + 1).take(2).find(|w| *w != "block").map(String::as_str) {
            Some("long" | "length") => along(&mut sizes, n),
            Some("wide" | "width") if bridge && sizes.depth.is_none() && (long_said || sizes.width.is_none()) => {
                sizes.depth = Some(n)
            }
            Some("wide" | "width") => along(&mut sizes, n),
            Some("deep" | "depth" | "thick") => _ = sizes.depth.get_or_insert(n),
            // `across` is `acros` once a plural's s is dropped.
            Some("across" | "acros" | "square") => footprint(&mut sizes, n, n),
            Some("high" | "tall" | "height") => _ = sizes.height.get_or_insert(n),
            _ => {}
        }
        i += 1;
    }
    sizes
}

/// Whether `words` (content words) say there is no roof: `no roof`, `without a roof`, `roofless`, `open top`,
/// `open to the sky`.
pub fn says_no_roof(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        let next = words.get(i + 1).map(String::as_str);
        matches!(w.as_str(), "roofless" | "roofles")
            || (matches!(w.as_str(), "no" | "without") && next == Some("roof"))
            || (w == "open" && matches!(next, Some("top" | "sky" | "air")))
    })
}

impl Design {
    /// The part `part`'s slot (one of [`PARTS`]).
    fn part_mut(&mut self, part: &str) -> Option<&mut Option<String>> {
        Some(match part {
            "roof" => &mut self.roof,
            "door" => &mut self.door,
            "windows" => &mut self.windows,
            "top" => &mut self.top,
            "corners" => &mut self.corners,
            "upper" => &mut self.upper,
            "inside" => &mut self.inside,
            "base" => &mut self.base,
            "border" => &mut self.border,
            "middle" => &mut self.middle,
            "steps" => &mut self.steps,
            _ => return None,
        })
    }

    /// What the words themselves say of a shape: the sizes they give (`seven blocks long`, `four steps`,
    /// `two-storey`) and the block of each part they name (`a plank roof`, `log corners`, `a ladder inside`), over
    /// what the answer says; a block they name that no part holds goes where its kind goes. A small model leaves
    /// such parts out or mixes them up; the owner's words are the last word on them.
    fn heed(&mut self, shape: &str, words: &str) {
        let words = crate::blueprint::content_words(words);
        // Which of width, depth and height the words give.
        let mut given = [false; 3];
        let said = sizes_in(&words, shape == "bridge");
        for ((slot, size), given) in [&mut self.width, &mut self.depth, &mut self.height]
            .into_iter()
            .zip([said.width, said.depth, said.height])
            .zip(&mut given)
        {
            if let Some(size) = size {
                *slot = Some(size);
                *given = true;
            }
        }
        for (i, word) in words.iter().enumerate() {
            let Some(n) = number(word).filter(|n| (1..=MAX_SIDE).contains(n)) else { continue };
            match words.iter().skip(i + 1).take(2).find(|w| *w != "block").map(String::as_str) {
                Some("step") if shape == "stairs" => {
                    self.height = Some(n);
                    given[2] = true;
                }
                Some("storey" | "story" | "floor") if shape == "box" => self.storeys = Some(n.min(3)),
                _ => {}
            }
        }
        if says_no_roof(&words) {
            self.open_top = true;
            self.roof = None;
        }
        // Sizes the words do not give: the usual ones of what they name (as the prompt says), and what the parts
        // need (railings on both sides of a walkway, a field on either side of a channel, a door under a window).
        let usual = USUAL.iter().find(|(names, _)| words.iter().any(|w| names.contains(&w.as_str())));
        if let (Some((_, sizes)), "box") = (usual, shape) {
            for ((slot, size), given) in
                [&mut self.width, &mut self.depth, &mut self.height].into_iter().zip(sizes).zip(given)
            {
                if let (Some(size), false) = (size, given) {
                    *slot = Some(*size);
                }
            }
        }
        let usable =
            |block: &str| Spec::parse(block).ok().and_then(|s| s.item()).is_some_and(|i| obtainable(&i, 1).is_ok());
        let runs: Vec<(String, usize, usize)> = block_runs(&words).into_iter().filter(|(b, ..)| usable(b)).collect();
        let as_part = |part: &str, block: &str| {
            if part == "windows" && block == "glass" { "glass_pane".to_owned() } else { block.to_owned() }
        };
        for (part, cues) in CUES {
            // The nearest run ending at most one word before a cue word, or holding it (`plank roof`, `ladder
            // inside`, `water channel in the middle`, `oak door`); what follows a cue is another thing as often as
            // not (`windows and a ladder`).
            let near = words
                .iter()
                .enumerate()
                .filter(|(_, w)| cues.contains(&w.as_str()))
                .flat_map(|(i, _)| {
                    runs.iter().filter_map(move |(block, start, len)| {
                        let gap = i.checked_sub(*start)?.saturating_sub(*len);
                        (gap <= 1).then_some((gap, block))
                    })
                })
                .min();
            if let (Some((_, block)), Some(slot)) = (near, self.part_mut(part)) {
                *slot = Some(as_part(part, block));
            }
        }
        let none = |b: &Option<String>| b.as_deref().is_none_or(says_none);
        for (block, ..) in &runs {
            let used = self.block.as_deref() == Some(block.as_str())
                || PARTS.iter().any(|(part, _)| self.part(part).is_some_and(|b| holds(std::slice::from_ref(b), block)));
            if used {
                continue;
            }
            if let Some(slot) = part_of_kind(block).and_then(|part| self.part_mut(part)).filter(|slot| none(slot)) {
                *slot = Some(block.clone());
            }
        }
        if let Some(slot) = self.windows.as_mut().filter(|b| b.as_str() == "glass") {
            *slot = "glass_pane".to_owned();
        }
        let some = |part: &Option<String>| part.as_deref().is_some_and(|b| !says_none(b));
        if shape == "bridge" && !given[1] && some(&self.top) {
            self.depth = Some(self.depth.unwrap_or(1).max(3));
        }
    }
}

/// Whether a design holding `blocks` has the block `named` the words asked for, or one of its kind: glass panes
/// for glass, a spruce log for a log, a fence gate for a fence.
fn holds(blocks: &[String], named: &str) -> bool {
    let kind = named.strip_prefix("oak_").unwrap_or(named);
    blocks.iter().any(|b| b.starts_with(named) || b.ends_with(&format!("_{kind}")) || b.contains(&format!("_{kind}_")))
}

/// A shape's palette and layers (bottom up, rows north to south, west to east), from its sizes and blocks.
fn shaped(design: &Design, shape: &str, words: &str) -> Result<Drawn, String> {
    let side = |v: Option<i32>, default: i32| v.unwrap_or(default).clamp(1, MAX_SIDE) as usize;
    // Left out, the block is the first one the words name (`a cobblestone wall`, `a wooden bridge`).
    // So is a block that is no block (a small model writes `"block": "watchtower"`).
    let block = design
        .block
        .clone()
        .filter(|b| spec_near(b).is_ok())
        .or_else(|| named_blocks(words).into_iter().next())
        .or_else(|| design.block.clone().filter(|b| !b.trim().is_empty()))
        .ok_or("\"block\" must say what it is built of")?;
    // Doors, gates and steps face the front (south), ladders away from the wall north of them, unless the answer
    // says otherwise.
    let facing = |b: &String| {
        let turns = b.ends_with("_door") || b.ends_with("_fence_gate") || b.ends_with("_stairs") || b == "ladder";
        if turns && !b.contains('[') { format!("{b}[facing=south]") } else { b.clone() }
    };
    let mut palette = BTreeMap::from([("b".to_owned(), block)]);
    for (part, key) in PARTS {
        // `"windows": "none"` is no windows.
        let none = |b: &&String| says_none(b);
        // A part that names no block (`"top": "platform"`) is left out: the rest of the design still holds.
        if let Some(block) = design.part(part).filter(|b| !none(b)) {
            if spec_near(block).is_err() {
                tracing::info!("design part {part} names no block: {block:?}");
                continue;
            }
            palette.insert(key.to_string(), facing(block));
        }
    }
    // Stairs climb on stairs blocks unless the answer names its own: the block's own stairs.
    if shape == "stairs"
        && !palette.contains_key("s")
        && let Some(steps) = compose::variant(&palette["b"], "stairs")
    {
        palette.insert("s".to_owned(), facing(&steps));
    }
    let has = |key: char| palette.contains_key(&key.to_string());
    let or = |key: char, other: char| if has(key) { key } else { other };
    let (mut w, mut h, mut d) = (side(design.width, 5), side(design.height, 3), side(design.depth, 5));
    let mut storeys = 1;
    match shape {
        "pillar" => (w, d) = (1, 1),
        "wall" => d = 1,
        "floor" | "bridge" => h = 1,
        "stairs" => d = h,
        // A room needs walls round at least one free block and two to stand in.
        _ => {
            (w, d, h) = (w.max(3), d.max(3), h.max(2));
            storeys = design.storeys.unwrap_or(1).clamp(1, 3) as usize;
        }
    }
    // Every layer of the shape, bottom up: parts under and over the body take a layer each.
    let tall = match shape {
        "box" => storeys * h + usize::from(!design.open_top) + usize::from(has('t')),
        "pillar" => h + usize::from(has('a')) + usize::from(has('t')),
        "wall" => h + usize::from(has('t')),
        "bridge" => 1 + usize::from(has('a')) + usize::from(has('t')),
        _ => h,
    };
    let mut grid = vec![vec![vec![' '; w]; d]; tall.min(MAX_SIDE as usize)];
    let (mid_x, mid_z) = (w / 2, d / 2);
    for (y, layer) in grid.iter_mut().enumerate() {
        for (z, row) in layer.iter_mut().enumerate() {
            for (x, cell) in row.iter_mut().enumerate() {
                let edge = x == 0 || z == 0 || x == w - 1 || z == d - 1;
                let corner = (x == 0 || x == w - 1) && (z == 0 || z == d - 1);
                *cell = match shape {
                    "box" => {
                        // Storey k's walls stand on its floor: the ground, or a floor of the storey's block.
                        let (storey, within) = (y / h, y % h);
                        let walls = if storey == 0 { 'b' } else { or('u', 'b') };
                        if y == storeys * h && !design.open_top {
                            or('r', walls)
                        } else if y >= storeys * h {
                            if edge { 't' } else { '.' }
                        } else if storey > 0 && within == 0 {
                            walls
                        } else if corner {
                            or('c', walls)
                        } else if edge {
                            walls
                        } else {
                            '.'
                        }
                    }
                    "pillar" if has('a') && y == 0 => 'a',
                    "pillar" if y == tall - 1 && has('t') => 't',
                    "wall" if y == h => 't',
                    "floor" if edge && has('e') => 'e',
                    "floor" if x == mid_x && has('m') => 'm',
                    "bridge" if has('a') && y == 0 => {
                        if z == 0 || z == d - 1 {
                            'a'
                        } else {
                            ' '
                        }
                    }
                    "bridge" if y == tall - 1 && has('t') => {
                        if z == 0 || z == d - 1 {
                            't'
                        } else {
                            ' '
                        }
                    }
                    "stairs" if y == z => or('s', 'b'),
                    "stairs" if y < z => 'b',
                    "stairs" => ' ',
                    _ => 'b',
                };
            }
        }
    }
    let door_is_tall = design.door.as_deref().is_some_and(|b| b.contains("_door"));
    if has('d') && shape == "box" {
        grid[0][d - 1][mid_x] = 'd';
        if h > 1 && door_is_tall {
            grid[1][d - 1][mid_x] = '.';
        }
    }
    if has('d') && shape == "wall" {
        // A way through the wall: the door or gate, and nothing above it under the top.
        grid[0][0][mid_x] = 'd';
        for layer in grid.iter_mut().take(h).skip(1) {
            layer[0][mid_x] = '.';
        }
    }
    if shape == "box" && has('g') && h >= 3 {
        for storey in 0..storeys {
            let y = storey * h + 1;
            for (x, z) in [(0, mid_z), (w - 1, mid_z), (mid_x, 0)] {
                if y < grid.len() && grid[y][z][x] != 'c' {
                    grid[y][z][x] = 'g';
                }
            }
        }
    }
    if shape == "box" && has('i') {
        // A ladder (or whatever climbs) inside the north-west corner, from the ground through every floor, and
        // through the roof too when there is a railing up there to stand within.
        let last = if has('t') { storeys * h } else { (storeys - 1) * h };
        for layer in grid.iter_mut().take(last + 1) {
            layer[1][1] = 'i';
        }
    }
    let layers =
        grid.into_iter().map(|layer| layer.into_iter().map(|row| row.into_iter().collect()).collect()).collect();
    Ok((palette, layers))
}

/// The block a design's palette names, or the one it plainly means: a small model writes `plank` for `oak_planks`,
/// `stone brick` for `stone_bricks`, `log` for `oak_log`. Only a name that is no block is read this way.
fn spec_near(text: &str) -> Result<Spec, String> {
    let exact = Spec::parse(text);
    let Err(why) = &exact else { return exact };
    let (name, rest) = text.trim().split_at(text.trim().find('[').unwrap_or(text.trim().len()));
    let name = name.trim().to_lowercase().replace([' ', '-'], "_");
    let name = name.strip_prefix("minecraft:").unwrap_or(&name).to_owned();
    // `wood` is what players build with: planks, not the bark block.
    let name = if matches!(name.as_str(), "wood" | "wooden") { "oak_planks".to_owned() } else { name };
    let bare = name.strip_suffix('s').unwrap_or(&name).to_owned();
    // `fenced` is fence.
    let past = name.strip_suffix("ed").map(|stem| format!("{stem}e")).unwrap_or_else(|| name.clone());
    let near = [
        name.clone(),
        past.clone(),
        format!("{name}s"),
        bare.clone(),
        format!("oak_{name}"),
        format!("oak_{name}s"),
        format!("oak_{bare}"),
        format!("oak_{past}"),
    ];
    near.iter().find_map(|n| Spec::parse(&format!("{n}{rest}")).ok()).ok_or_else(|| why.clone())
}

/// The shape of a design answer, for endpoints that hold answers to a JSON schema. Every part is asked for, in the
/// order a design is thought out (a small model leaves out what it may, and the words' door or ladder with it);
/// `"none"` is a part there is none of.
fn schema() -> serde_json::Value {
    let side = MAX_SIDE;
    let mut properties = serde_json::json!({
        "name": { "type": "string", "maxLength": 40 },
        "description": { "type": "string", "maxLength": 200 },
        "shape": { "type": "string", "enum": SHAPES.iter().chain(&["none"]).collect::<Vec<_>>() },
        "width": { "type": "integer", "minimum": 1, "maximum": side },
        "depth": { "type": "integer", "minimum": 1, "maximum": side },
        "height": { "type": "integer", "minimum": 1, "maximum": side },
        "storeys": { "type": "integer", "minimum": 1, "maximum": 3 },
        "block": { "type": "string", "maxLength": 60 },
    });
    let mut required: Vec<&str> = properties.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap();
    required.extend(PARTS.iter().map(|(part, _)| *part));
    let mut required: Vec<String> = required.into_iter().map(str::to_owned).collect();
    let fields = properties.as_object_mut().unwrap();
    for (part, _) in PARTS {
        fields.insert(part.to_owned(), serde_json::json!({ "type": "string", "maxLength": 60 }));
    }
    fields.insert(
        "parts".to_owned(),
        serde_json::json!({ "type": "array", "maxItems": 12, "items": compose::piece_schema(side) }),
    );
    required.push("parts".to_owned());
    fields.insert(
        "palette".to_owned(),
        serde_json::json!({ "type": "object", "additionalProperties": { "type": "string" }, "maxProperties": 16 }),
    );
    fields.insert(
        "layers".to_owned(),
        serde_json::json!({
            "type": "array",
            "minItems": 1,
            "maxItems": side,
            "items": {
                "type": "array",
                "minItems": 1,
                "maxItems": side,
                "items": { "type": "string", "maxLength": side },
            },
        }),
    );
    serde_json::json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// A design drawn for words: the checked blueprint and what it is made of, in a few words for the owner.
#[derive(Clone, Debug)]
pub struct Designed {
    pub blueprint: Blueprint,
    /// Its parts: `box 5×3×5 of cobblestone (roof oak_planks, door oak_door); lantern at each corner`.
    pub parts: String,
    /// What was mended in reading it that the model should hear (a part cut at the largest side).
    notes: Vec<String>,
}

/// Reads an answer into a checked blueprint, or says what is wrong with it in words the model can act on.
#[cfg(test)]
fn read(answer: &str, words: &str) -> Result<Blueprint, String> {
    read_design(answer, words).map(|d| d.blueprint)
}

/// [`read`], with the design's parts said.
fn read_design(answer: &str, words: &str) -> Result<Designed, String> {
    let mut design: Design = extract::json_first::<Design, Design, String>(answer, Json::Object, Ok)?;
    let said = crate::blueprint::content_words(words);
    design.open_top = says_no_roof(&said);
    let mut shape = design.shape.as_deref().map(|s| s.trim().to_lowercase()).filter(|s| !s.is_empty() && s != "none");
    // A room for what lies flat (a flower bed, a pier, a garden) is a floor: a small model reaches for a box.
    if shape.as_deref() == Some("box") && lies_flat(&said) {
        shape = Some("floor".to_owned());
    }
    // No shape, no parts and no layers, but a block: the shape the words name (a box unless they name another).
    if shape.is_none() && design.parts.is_empty() && design.layers.is_empty() && design.block.is_some() {
        shape = Some(shape_named(words).to_owned());
    }
    // Parts over a shape that only say again what the shape has (its block, its corners, its ladder) are left
    // out: a small model restates the shape's parts as parts, stacked where they do not go.
    if shape.is_some() {
        let mut has: Vec<String> = design.block.iter().cloned().collect();
        has.extend(PARTS.iter().filter_map(|(part, _)| design.part(part).filter(|b| !says_none(b)).cloned()));
        let has: Vec<String> = has.iter().map(|b| spec_near(b).map_or_else(|_| b.clone(), |s| s.name)).collect();
        design.parts.retain(|p| {
            let name = spec_near(&p.block).map_or_else(|_| p.block.clone(), |s| s.name);
            !has.iter().any(|b| *b == name || holds(std::slice::from_ref(b), &name))
        });
    }
    drop_loops(&mut design.parts, &said);
    // A railing a small model writes as `rail` (a minecart's track) is the fence the words name, or oak fence.
    let railing =
        named_blocks(words).into_iter().find(|b| b.ends_with("_fence")).unwrap_or_else(|| "oak_fence".to_owned());
    let minecart = said.iter().any(|w| matches!(w.as_str(), "minecart" | "track" | "railway"));
    for piece in
        design.parts.iter_mut().filter(|p| !minecart && matches!(p.block.as_str(), "rail" | "rails" | "railing"))
    {
        piece.block = railing.clone();
    }
    mend_unobtainable(&mut design);
    if let Some(shape) = &shape {
        if !SHAPES.contains(&shape.as_str()) {
            return Err(format!(
                "\"shape\" {shape:?} is not one of {}; or give \"parts\", or palette and layers",
                SHAPES.join(", ")
            ));
        }
        design.heed(shape, words);
        (design.palette, design.layers) = shaped(&design, shape, words)?;
    }
    if design.open_top {
        design.parts.retain(|p| p.kind != Kind::Roof);
    }
    if shape.is_none() {
        mend_forms(&mut design.parts, &named_blocks(words));
        fields_as_parts(&mut design);
        heed_parts(&mut design.parts, &said);
        heed_cues(&mut design.parts, &said);
    }
    let name: String = design
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
        .take(40)
        .collect();
    let name = name.trim_matches('_').to_owned();
    if name.is_empty() {
        return Err("\"name\" must be a short snake_case name".to_owned());
    }
    if design.layers.is_empty() && design.parts.is_empty() {
        return Err(
            "give \"parts\", or a \"shape\" with its sizes and \"block\", or a \"palette\" and \"layers\" of rows"
                .to_owned(),
        );
    }
    let mut palette: BTreeMap<char, Spec> = BTreeMap::from([('.', Spec::air())]);
    for (key, block) in &design.palette {
        let mut chars = key.chars();
        let (Some(key), None) = (chars.next(), chars.next()) else {
            return Err(format!("palette key {key:?} must be one character"));
        };
        palette.insert(key, spec_near(block).map_err(|e| format!("palette {key:?}: {e}"))?);
    }
    let mut parts = Vec::new();
    for (y, layer) in design.layers.iter().enumerate() {
        for (z, row) in layer.iter().enumerate() {
            for (x, key) in row.chars().enumerate() {
                if key == ' ' {
                    continue;
                }
                let block = palette.get(&key).ok_or_else(|| format!("{key:?} in layer {y} is not in the palette"))?;
                if x.max(y).max(z) >= MAX_SIDE as usize {
                    return Err(format!("keep it within {MAX_SIDE} a side"));
                }
                parts.push(Part { at: [x as i32, y as i32, z as i32], block: block.clone() });
            }
        }
    }
    // Blocks a small model writes loosely (`plank`, `Stone Brick`) are read as the blocks they plainly mean.
    for piece in &mut design.parts {
        if let Ok(spec) = spec_near(&piece.block) {
            piece.block = spec.to_string();
        }
        for opening in &mut piece.openings {
            if let Some(block) = opening.block.as_mut() {
                *block = spec_near(block).map_or_else(|_| block.clone(), |s| s.to_string());
            }
        }
    }
    let description = if design.description.trim().is_empty() { words.to_owned() } else { design.description.clone() };
    let mut blueprint = compose::compose(&name, &description, parts, &design.parts)
        .map_err(|e| format!("the blueprint does not read: {e}"))?;
    let mut notes = Vec::new();
    let [w, h, d] = blueprint.size;
    if w.max(h).max(d) > MAX_SIDE {
        // Parts that run over the largest side are cut at it (and the model told): the rest of the design stands.
        let inside = blueprint.parts.iter().filter(|p| p.at.iter().all(|a| *a < MAX_SIDE)).cloned().collect();
        if let Ok(cut) = Blueprint::new(&blueprint.name, &blueprint.description, inside) {
            notes.push(format!("it was {w}×{h}×{d}, more than {MAX_SIDE} a side, and was cut; keep it smaller"));
            blueprint = cut;
        }
    }
    let [w, h, d] = blueprint.size;
    if w.max(h).max(d) > MAX_SIDE || blueprint.blocks().count() > MAX_BLOCKS {
        return Err(format!(
            "it is {w}×{h}×{d} with {} blocks; keep it within {MAX_SIDE} a side and {MAX_BLOCKS} blocks",
            blueprint.blocks().count()
        ));
    }
    for (item, count) in blueprint.materials() {
        obtainable(&item, count)
            .map_err(|why| format!("it needs {item}, which a player cannot get here ({why}); use another block"))?;
    }
    let mut said: Vec<String> = Vec::new();
    if let Some(shape) = &shape {
        let given: Vec<String> = PARTS
            .iter()
            .filter_map(|(part, _)| design.part(part).filter(|b| !says_none(b)).map(|b| format!("{part} {b}")))
            .collect();
        let block = design.block.clone().unwrap_or_default();
        let with = if given.is_empty() { String::new() } else { format!(" ({})", given.join(", ")) };
        said.push(format!("{shape} of {block}{with}"));
    } else if !design.layers.is_empty() {
        said.push("drawn layers".to_owned());
    }
    said.extend(design.parts.iter().map(compose::describe));
    Ok(Designed { blueprint, parts: said.join("; "), notes })
}

/// The shape the words (content words) name: a wall, a pillar (a post, a column), a floor (what lies flat), a
/// bridge, stairs, or else a box.
fn shape_named(words: &str) -> &'static str {
    // What is built is named first (`cobblestone well, …, fence posts at the corners` is no post): the words up to
    // the first comma, colon or `with`.
    let head = words.split([',', ':', ';']).next().unwrap_or(words);
    let head = crate::blueprint::content_words(head.split(" with ").next().unwrap_or(head));
    let words = crate::blueprint::content_words(words);
    let names = |list: &[&str]| head.iter().any(|w| list.iter().any(|n| w.contains(n)));
    if names(&["bridge"]) {
        "bridge"
    } else if names(&["stair", "step"]) {
        "stairs"
    } else if names(&["pillar", "post", "column", "pole"]) {
        "pillar"
    } else if names(&["wall", "fence"]) && !names(&["house", "hut", "room", "tower"]) {
        "wall"
    } else if lies_flat(&words) || names(&["floor", "platform"]) {
        "floor"
    } else {
        "box"
    }
}

/// Whether the thing `words` (content words) describe lies flat on the ground: a bed, patch, garden, plot, field,
/// pier, dock, deck or path, with no word for something with walls (a house, room, tower, stall, watchtower…).
fn lies_flat(words: &[String]) -> bool {
    const FLAT: [&str; 14] = [
        "bed", "patch", "garden", "plot", "field", "farm", "pier", "dock", "jetty", "deck", "path", "walkway", "yard",
        "lawn",
    ];
    const WALLED: [&str; 16] = [
        "house",
        "hut",
        "room",
        "tower",
        "shed",
        "cabin",
        "stall",
        "shelter",
        "wall",
        "greenhouse",
        "gazebo",
        "well",
        "windmill",
        "lighthouse",
        "kitchen",
        "study",
    ];
    words.iter().any(|w| FLAT.contains(&w.as_str()))
        && !words.iter().any(|w| WALLED.iter().any(|walled| w.contains(walled)))
}

/// Whether `block` is a plant that grows on the ground (a flower, a sapling, grass, a bush).
fn is_plant(block: &str) -> bool {
    const PLANTS: [&str; 16] = [
        "poppy",
        "dandelion",
        "allium",
        "azure_bluet",
        "cornflower",
        "oxeye_daisy",
        "lily_of_the_valley",
        "blue_orchid",
        "short_grass",
        "fern",
        "sweet_berry_bush",
        "torchflower",
        "pink_petals",
        "wither_rose",
        "sunflower",
        "peony",
    ];
    let name = block.split('[').next().unwrap_or(block);
    PLANTS.contains(&name) || name.ends_with("_tulip") || name.ends_with("_sapling")
}

/// Parts of a block a player cannot get here are mended rather than the design lost: a light (glowstone, a sea
/// lantern) becomes a lantern, anything else in a shape's part is left out, and a part of the language with such a
/// block is dropped. The design's main block is not mended: a design of it is refused with the reason.
fn mend_unobtainable(design: &mut Design) {
    let gettable =
        |block: &str| spec_near(block).ok().and_then(|s| s.item()).is_none_or(|item| obtainable(&item, 1).is_ok());
    let light = |block: &str| {
        ["glowstone", "sea_lantern", "shroomlight", "froglight", "end_rod", "redstone_lamp"]
            .iter()
            .any(|l| block.contains(l))
    };
    let instead = |block: &str| if light(block) { Some("lantern".to_owned()) } else { None };
    for (part, _) in PARTS {
        if let Some(slot) = design.part_mut(part)
            && let Some(block) = slot.clone().filter(|b| !says_none(b) && !gettable(b))
        {
            tracing::info!("design part {part}: {block} cannot be got here");
            *slot = instead(&block);
        }
    }
    design.parts.retain_mut(|piece| {
        if gettable(&piece.block) {
            return true;
        }
        match instead(&piece.block) {
            Some(other) => {
                piece.block = other;
                true
            }
            None => false,
        }
    });
}

/// The kinds of part that make a design's body (what its sizes are the sizes of).
const BODIES: [Kind; 5] = [Kind::Box, Kind::HollowBox, Kind::Ring, Kind::Area, Kind::Wall];

/// Which part is a design's body: its largest box, ring, area or wall (the first of equals).
fn body_of(parts: &[Piece]) -> Option<usize> {
    parts
        .iter()
        .enumerate()
        .filter(|(_, p)| BODIES.contains(&p.kind))
        .max_by_key(|(i, p)| {
            let [w, _, d] = p.size();
            (w * d, usize::MAX - i)
        })
        .map(|(i, _)| i)
}

/// Parts of planks the words do not name, of the wood of a block they name that no part holds (`spruce planks`
/// for `four spruce stairs`): a small model writes the wood and not its form; the named block it is.
fn mend_forms(parts: &mut [Piece], named: &[String]) {
    let base = |b: &str| b.split('[').next().unwrap_or(b).to_owned();
    let material = |b: &str| b.split('_').next().unwrap_or(b).to_owned();
    for i in 0..parts.len() {
        let block = base(&parts[i].block);
        if named.contains(&block) || !block.ends_with("_planks") {
            continue;
        }
        let unheld = named
            .iter()
            .find(|n| material(n) == material(&block) && **n != block && !parts.iter().any(|p| base(&p.block) == **n));
        if let Some(named) = unheld {
            let same = block.clone();
            for part in parts.iter_mut().filter(|p| base(&p.block) == same) {
                part.block = named.clone();
            }
        }
    }
}

/// A design of parts whose answer also fills a shape's fields (`"corners": "oak_log"`, `"roof": "oak_slab"`) with
/// blocks no part holds: a small model says there what its parts leave out. Corners become a column of that block
/// at each corner of the parts, as high as the design; a roof, a roof over them (unless the words say none).
fn fields_as_parts(design: &mut Design) {
    let holds_block = |parts: &[Piece], block: &str| parts.iter().any(|p| p.block.split('[').next() == Some(block));
    let usable = |block: &Option<String>| {
        let block = block.as_deref().filter(|b| !says_none(b))?;
        spec_near(block).ok().filter(|s| s.item().is_some()).map(|s| s.name)
    };
    if design.parts.is_empty() {
        return;
    }
    if let Some(block) = usable(&design.corners).filter(|b| !holds_block(&design.parts, b)) {
        let mut posts = Piece::new(Kind::Column, &block);
        posts.height = design.height.filter(|h| (1..=MAX_SIDE).contains(h));
        posts.y = Some(0);
        posts.repeat = Some(compose::Repeat::Corners);
        design.parts.push(posts);
    }
    let roofed = design.parts.iter().any(|p| p.kind == Kind::Roof);
    if let Some(block) = usable(&design.roof).filter(|b| !roofed && !design.open_top && !holds_block(&design.parts, b))
    {
        design.parts.push(Piece::new(Kind::Roof, &block));
    }
}

/// A small model caught in a loop writes a part again and again, or stacks the same part up and down (a 5×3 box at
/// y 0, 3, 6, 9, 12…): a part written twice is kept once, and of the copies of one part that differ only in how
/// high they stand, the lowest stands, and the others only where they neither overlap a copy kept nor go below the
/// ground or past the height the words give (stripes of a tower stay; with no height said, two at most).
fn drop_loops(parts: &mut Vec<Piece>, words: &[String]) {
    let height = sizes_in(words, false).height;
    let level = |p: &Piece| Piece { y: None, ..p.clone() };
    let mut keep = vec![true; parts.len()];
    for (i, piece) in parts.iter().enumerate() {
        if parts[..i].contains(piece) {
            keep[i] = false;
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in (0..parts.len()).filter(|i| keep[*i]) {
        match groups.iter_mut().find(|g| level(&parts[g[0]]) == level(&parts[i])) {
            Some(group) => group.push(i),
            None => groups.push(vec![i]),
        }
    }
    for mut group in groups.into_iter().filter(|g| g.len() > 1) {
        // The lowest on or above the ground first.
        group.sort_by_key(|i| {
            let y = parts[*i].y.unwrap_or(0);
            (y < 0, y)
        });
        let tall = parts[group[0]].size()[1];
        let mut kept: Vec<i32> = Vec::new();
        for i in group {
            let y = parts[i].y.unwrap_or(0);
            let overlaps = kept.iter().any(|k| y < k + tall && *k < y + tall);
            let fits = match height {
                Some(height) => y >= 0 && y + tall <= height,
                None => y >= 0 && kept.len() < 2,
            };
            if kept.is_empty() || (!overlaps && fits) {
                kept.push(y);
            } else {
                keep[i] = false;
            }
        }
    }
    let mut at = 0;
    parts.retain(|_| {
        at += 1;
        keep[at - 1]
    });
}

/// What the words say of a design of parts, over what the answer says: the body (its largest box, ring, area or
/// wall) takes the sizes the words give.
fn heed_parts(parts: &mut [Piece], words: &[String]) {
    let said = sizes_in(words, words.iter().any(|w| w.contains("bridge")));
    let Some(body) = body_of(parts).map(|i| &mut parts[i]) else { return };
    match body.kind {
        Kind::Wall => {
            if let Some(length) = said.width.max(said.depth) {
                body.width = Some(length);
            }
        }
        _ => {
            if let Some(width) = said.width {
                body.width = Some(width);
            }
            if let Some(depth) = said.depth {
                body.depth = Some(depth);
            }
        }
    }
    if let (Some(height), false) = (said.height, body.kind == Kind::Area) {
        body.height = Some(height);
    }
    // Openings the words ask for and no part has: in the body's front (windows in its sides), of the block the
    // words name for them.
    if !matches!(body.kind, Kind::Ring | Kind::HollowBox | Kind::Wall) {
        return;
    }
    let asks = |word: &str| words.iter().any(|w| w == word);
    let named = named_blocks(&words.join(" "));
    let of = |suffix: &str| named.iter().find(|b| b.ends_with(suffix)).cloned();
    let has = |kind: OpeningKind| body.openings.iter().any(|o| o.kind == kind);
    let opening = |kind, side, block| Opening { kind, side: Some(side), at: None, width: None, height: None, block };
    let mut wanted = Vec::new();
    if asks("door") && !has(OpeningKind::Door) {
        wanted.push(opening(OpeningKind::Door, Side::South, of("_door")));
    } else if asks("doorway") && !has(OpeningKind::Doorway) {
        wanted.push(opening(OpeningKind::Doorway, Side::South, None));
    }
    if asks("gate") && !has(OpeningKind::Gate) {
        wanted.push(opening(OpeningKind::Gate, Side::South, of("_fence_gate")));
    }
    if asks("arch") && !has(OpeningKind::Arch) && body.kind == Kind::Wall {
        wanted.push(opening(OpeningKind::Arch, Side::South, None));
    }
    if asks("window") && !has(OpeningKind::Window) && body.kind != Kind::Wall && body.size()[1] >= 3 {
        let pane = of("glass_pane").or_else(|| of("glass").map(|_| "glass_pane".to_owned()));
        for side in [Side::East, Side::West] {
            wanted.push(opening(OpeningKind::Window, side, pane.clone()));
        }
    }
    body.openings.extend(wanted);
}

/// The block the words name beside a cue word (`a cobblestone border`, `a lantern on
/// top`, `gravel inside`), if any: the nearest named block ending at most `reach` words before a cue word (`a
/// lantern at each corner`: two).
fn cued(words: &[String], runs: &[(String, usize, usize)], cues: &[&str], reach: usize) -> Option<String> {
    words
        .iter()
        .enumerate()
        .filter(|(_, w)| cues.contains(&w.as_str()))
        .flat_map(|(i, _)| {
            runs.iter().filter_map(move |(block, start, len)| {
                // Only before it: what follows a cue is another thing as often as not (`a rim, a cobblestone column`).
                let before = i.checked_sub(start + len).filter(|gap| *gap <= reach);
                before.map(|gap| (gap, block.clone()))
            })
        })
        .min()
        .map(|(_, block)| block)
}

/// Where the words put the parts of a design of parts, over where the answer puts them (a small model stacks them
/// all at one corner): a border or rim of a block is a ring one high round the body, a block inside fills the body
/// within its border, one in the middle stands at the body's centre, one on top stands on the part before it, and
/// one at each corner or on both sides is repeated so. Only parts of a block the words name beside such a word move.
fn heed_cues(parts: &mut Vec<Piece>, words: &[String]) {
    let Some(mut body) = body_of(parts) else { return };
    // The body is one: a small model repeats it at the corners as it repeats what stands there.
    parts[body].repeat = None;
    let runs = block_runs(words);
    let (bx, by, bz) = (parts[body].x.unwrap_or(0), parts[body].y.unwrap_or(0), parts[body].z.unwrap_or(0));
    let [bw, _, bd] = parts[body].size();
    let of = |parts: &[Piece], block: &str| parts.iter().position(|p| p.block.split('[').next() == Some(block));
    // A border round the body: the part of that block (or a new one) is a ring one high, after the body.
    if let Some(block) = cued(words, &runs, &["border", "rim", "edge", "edging", "kerb", "curb"], 1) {
        let mut ring = match of(parts, &block) {
            Some(i) if i != body => {
                body -= usize::from(i < body);
                parts.remove(i)
            }
            _ => Piece::new(Kind::Ring, &block),
        };
        ring.kind = Kind::Ring;
        (ring.x, ring.y, ring.z) = (Some(bx), Some(by), Some(bz));
        (ring.width, ring.depth, ring.height) = (Some(bw), Some(bd), Some(1));
        ring.repeat = None;
        parts.push(ring);
    }
    let body_block = parts.iter().find(|p| p.kind == Kind::Ring).map(|p| p.block.clone());
    // What fills the body within its border.
    if let Some(block) = cued(words, &runs, &["inside", "within", "filled", "fill", "interior"], 1)
        && let Some(i) = of(parts, &block)
        && body_block.as_deref() != Some(block.as_str())
        && bw > 2
        && bd > 2
    {
        let part = &mut parts[i];
        // A block or a line of it said to be inside fills the inside too (`gravel inside`).
        if matches!(part.kind, Kind::Area | Kind::Box | Kind::HollowBox | Kind::Ring | Kind::Block | Kind::Line) {
            part.kind = Kind::Area;
            part.repeat = None;
            (part.x, part.y, part.z) = (Some(bx + 1), Some(by), Some(bz + 1));
            (part.width, part.depth) = (Some(bw - 2), Some(bd - 2));
        }
    }
    // What stands in the middle of the body.
    if let Some(block) = cued(words, &runs, &["middle", "centre", "center"], 2)
        && let Some(i) = of(parts, &block).filter(|i| *i != body)
    {
        let [w, _, d] = parts[i].size();
        let part = &mut parts[i];
        (part.x, part.z) = (Some(bx + (bw - w) / 2), Some(bz + (bd - d) / 2));
        part.y.get_or_insert(by);
        part.repeat = None;
    }
    // What stands on top of the part before it.
    if let Some(block) = cued(words, &runs, &["top"], 2)
        && let Some(i) = of(parts, &block).filter(|i| *i > 0 && *i != body)
        && matches!(parts[i].kind, Kind::Block | Kind::Column)
    {
        let under = &parts[i - 1];
        let [w, h, d] = under.size();
        let (ux, uy, uz) = (under.x.unwrap_or(bx), under.y.unwrap_or(by), under.z.unwrap_or(bz));
        let repeat = under.repeat;
        let part = &mut parts[i];
        (part.x, part.y, part.z) = (Some(ux + (w - 1) / 2), Some(uy + h), Some(uz + (d - 1) / 2));
        if repeat.is_some() {
            part.repeat = repeat;
            (part.x, part.z) = (None, None);
        }
    }
    // Plants drawn as boxes or areas are planted: in rows on the ground within the border (the body's top when
    // it has none), each kind of plant every other row.
    let plants: Vec<usize> = (0..parts.len())
        .filter(|i| *i != body && is_plant(&parts[*i].block) && parts[*i].kind != Kind::Block)
        .collect();
    if !plants.is_empty() {
        let bordered = parts.iter().any(|p| p.kind == Kind::Ring && p.height == Some(1));
        let (x0, z0, w, d) =
            if bordered && bw > 2 && bd > 2 { (bx + 1, bz + 1, bw - 2, bd - 2) } else { (bx, bz, bw, bd) };
        let y = by + 1;
        let mut rows = Vec::new();
        for row in 0..d {
            let plant = &parts[plants[row as usize % plants.len()]];
            let mut line = Piece::new(Kind::Line, &plant.block);
            (line.x, line.y, line.z, line.width) = (Some(x0), Some(y), Some(z0 + row), Some(w));
            rows.push(line);
        }
        for i in plants.into_iter().rev() {
            parts.remove(i);
        }
        parts.extend(rows);
    }
    // Repeated at each corner, or on both sides (`north and south`, `east and west` are both sides too).
    let opposite = |a: &str, b: &str| words.iter().any(|w| w == a) && words.iter().any(|w| w == b);
    let sides: &[&str] = if opposite("north", "south") || opposite("east", "west") {
        &["side", "both", "sides", "north", "south", "east", "west"]
    } else {
        &["side", "both", "sides"]
    };
    for (cues, repeat) in [(&["corner"][..], compose::Repeat::Corners), (sides, compose::Repeat::BothSides)] {
        if let Some(block) = cued(words, &runs, cues, 3)
            && let Some(i) = of(parts, &block).filter(|i| *i != body)
        {
            parts[i].repeat = Some(repeat);
            // The copies a small model placed by hand (a post at each corner it worked out, some off the body) go:
            // the one part, repeated, stands at each corner of the body.
            let shape = Piece { x: None, y: None, z: None, repeat: None, ..parts[i].clone() };
            if repeat == compose::Repeat::Corners {
                (parts[i].x, parts[i].z) = (None, None);
            }
            let mut at = 0;
            parts.retain(|p| {
                let copy = at > i && Piece { x: None, y: None, z: None, repeat: None, ..p.clone() } == shape;
                at += 1;
                !copy
            });
        }
    }
}

/// What a design misses of what the words say: a size it falls short of, a roof where they say none, a door, gate
/// or window they ask for and it lacks; each in words the designer can act on.
fn missed(blueprint: &Blueprint, words: &str) -> Vec<String> {
    let said_words = crate::blueprint::content_words(words);
    let said = sizes_in(&said_words, said_words.iter().any(|w| w.contains("bridge")));
    let [w, h, d] = blueprint.size;
    let mut missed = Vec::new();
    match (said.width, said.depth) {
        (Some(a), Some(b)) if !((w >= a && d >= b) || (w >= b && d >= a)) => {
            missed.push(format!("the words say {a} by {b}, but it is {w} by {d}"))
        }
        (Some(a), None) | (None, Some(a)) if w.max(d) < a => {
            missed.push(format!("the words say {a} long, but it is {w} by {d}"))
        }
        _ => {}
    }
    if let Some(height) = said.height.filter(|said| h < *said) {
        missed.push(format!("the words say {height} high, but it is {h} high"));
    }
    let blocks: Vec<&str> = blueprint.blocks().map(|p| p.block.name.as_str()).collect();
    if says_no_roof(&said_words) {
        let top = blueprint.blocks().filter(|p| p.at[1] == h - 1).count() as i32;
        if h > 1 && top * 5 >= w * d * 4 {
            missed.push("the words say no roof, but its top is covered".to_owned());
        }
    }
    let asks = |word: &str| said_words.iter().any(|w| w == word);
    let has = |suffix: &str| blocks.iter().any(|b| b.ends_with(suffix));
    if asks("door") && !has("_door") {
        missed.push("the words ask for a door and it has none (an opening of kind door)".to_owned());
    }
    if asks("gate") && !has("_fence_gate") {
        missed.push("the words ask for a gate and it has none (an opening of kind gate)".to_owned());
    }
    if asks("window") && !blocks.iter().any(|b| b.contains("glass")) {
        missed.push("the words ask for windows and it has none (openings of kind window)".to_owned());
    }
    missed
}

/// Whether a kept blueprint fits `words` well enough to be built for them: every size the words give is its own
/// (either way round; a height with a roof or a cap of up to two more), and it holds every block they name (or one
/// of its kind). Otherwise, what differs.
pub fn fits(blueprint: &Blueprint, words: &str) -> Result<(), String> {
    let said_words = crate::blueprint::content_words(words);
    let said = sizes_in(&said_words, said_words.iter().any(|w| w.contains("bridge")));
    let [w, h, d] = blueprint.size;
    let mut differs = Vec::new();
    let footprint_fits = match (said.width, said.depth) {
        (Some(a), Some(b)) => (w, d) == (a, b) || (w, d) == (b, a),
        (Some(a), None) | (None, Some(a)) => w == a || d == a,
        (None, None) => true,
    };
    if !footprint_fits {
        let asked = [said.width, said.depth].into_iter().flatten().map(|n| n.to_string()).collect::<Vec<_>>();
        differs.push(format!("it is {w} by {d}, the words say {}", asked.join(" by ")));
    }
    if let Some(height) = said.height.filter(|said| !(*said..=*said + 2).contains(&h)) {
        differs.push(format!("it is {h} high, the words say {height}"));
    }
    let blocks: Vec<String> = blueprint.blocks().map(|p| p.block.name.clone()).collect();
    let missing: Vec<String> = named_blocks(words).into_iter().filter(|n| !holds(&blocks, n)).collect();
    if !missing.is_empty() {
        differs.push(format!("it has no {}", missing.join(" and no ")));
    }
    if differs.is_empty() { Ok(()) } else { Err(differs.join("; ")) }
}

/// Whether the game's facts say how to get `count` of `item`, or why not.
fn obtainable(item: &str, count: u32) -> Result<(), NoSteps> {
    match recipes::plan(&Want::Have { item: item.to_owned(), count }, &Setting::default()) {
        Ok(_) | Err(NoSteps::Carried { .. }) => Ok(()),
        Err(why) => Err(why),
    }
}

/// What a design lacks of the blocks the words name (each one, or one of its kind), if anything.
fn lacking(blueprint: &Blueprint, named: &[String]) -> Option<String> {
    let blocks: Vec<String> = blueprint.blocks().map(|p| p.block.name.clone()).collect();
    let missing: Vec<&str> = named.iter().filter(|n| !holds(&blocks, n)).map(String::as_str).collect();
    (!missing.is_empty()).then(|| {
        let parts: Vec<&str> = PARTS.iter().map(|(part, _)| *part).collect();
        format!(
            "the words name {}, but it has no {}; give each of them its part ({})",
            named.join(", "),
            missing.join(" and no "),
            parts.join(", ")
        )
    })
}

/// Asks `llm` for a blueprint of what `words` describe. An answer that does not hold is asked again with what was
/// wrong (twice at most); one that holds but leaves out a block the words name is asked again once, and kept if the
/// second answer is no better.
pub async fn design(llm: &Llm, words: &str) -> Result<Designed, String> {
    // A named block the game's facts cannot get (water, as yet) is not asked for: the design would be refused.
    let named: Vec<String> = named_blocks(words)
        .into_iter()
        .filter(|b| Spec::parse(b).ok().and_then(|s| s.item()).is_some_and(|item| obtainable(&item, 1).is_ok()))
        .collect();
    let blocks = if named.is_empty() {
        String::new()
    } else {
        format!("The words name these blocks; use every one of them: {}.", named.join(", "))
    };
    let prompt = prompts::render(
        "blueprint",
        &[
            ("words", words),
            ("named", &blocks),
            ("max_side", &MAX_SIDE.to_string()),
            ("max_blocks", &MAX_BLOCKS.to_string()),
        ],
    )
    .map_err(|e| e.to_string())?;
    let mut messages = vec![Message::user(prompt)];
    let mut last = String::new();
    let mut kept: Option<Designed> = None;
    for _ in 0..3 {
        // An answer cut off at the token limit is a design too big to write out: asked again, smaller.
        let (content, usable) = match llm.chat_json(Role::Curriculum, &messages, 0.0, &schema()).await {
            Ok(reply) => {
                tracing::debug!("design answer for {words:?}: {}", reply.content);
                let usable = read_design(&reply.content, words);
                (reply.content, usable)
            }
            Err(crate::llm::LlmError::CutOff { content, max_tokens, .. }) => {
                (content, Err(format!("it is too big to write out in {max_tokens} tokens; draw it smaller")))
            }
            Err(e) => return Err(format!("the LLM failed: {e}")),
        };
        let why = match usable {
            Ok(designed) => {
                // What it misses of the words: the blocks they name, their sizes, openings and roof.
                let misses = |d: &Designed| {
                    let mut all: Vec<String> = d.notes.clone();
                    all.extend(lacking(&d.blueprint, &named));
                    all.extend(missed(&d.blueprint, words));
                    all
                };
                let why = misses(&designed);
                match (why.is_empty(), &kept) {
                    (true, _) => return Ok(designed),
                    // Asked once for what it missed: the better of the two answers is kept.
                    (false, Some(first)) => {
                        let better = why.len() < misses(first).len();
                        return Ok(if better { designed } else { kept.take().unwrap() });
                    }
                    (false, None) => {
                        let why = why.join("; ");
                        tracing::info!("blueprint for {words:?} misses what the words say: {why}");
                        kept = Some(designed);
                        why
                    }
                }
            }
            Err(why) => {
                tracing::info!("unusable blueprint for {words:?}: {why}");
                why
            }
        };
        messages.push(Message { role: "assistant".to_owned(), content });
        messages.push(Message::user(format!("That blueprint will not do: {why}. Answer the whole JSON again.")));
        last = why;
    }
    kept.ok_or(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_reads_into_a_checked_blueprint() {
        let answer = r#"Here it is: {"name": "Dirt Tower", "description": "a tiny dirt tower",
            "palette": {"d": "dirt", "t": "torch"}, "layers": [["d"], ["d"], ["t"]]}"#;
        let tower = read(answer, "a tower").unwrap();
        assert_eq!(tower.name, "dirt_tower");
        assert_eq!(tower.size, [1, 3, 1]);
        assert_eq!(tower.materials(), vec![("dirt".to_owned(), 2), ("torch".to_owned(), 1)]);
        // Leading spaces in a row leave the ground as it is.
        let arch =
            read(r#"{"name": "a", "palette": {"c": "cobblestone"}, "layers": [["c c"], [" c "]]}"#, "x").unwrap();
        assert_eq!(arch.blocks().count(), 3);
        assert!(arch.parts.iter().any(|p| p.at == [1, 1, 0]));

        let err = |answer: &str| read(answer, "x").unwrap_err();
        assert!(
            err(r#"{"name": "a", "palette": {"c": "castle"}, "layers": [["c"]]}"#).contains("no block called castle")
        );
        assert!(err(r#"{"name": "a", "palette": {"c": "dirt"}, "layers": [["c"]], "floors": 2}"#).contains("floors"));
        let wide = format!(r#"{{"name": "a", "palette": {{"c": "dirt"}}, "layers": [["{}"]]}}"#, "c".repeat(20));
        assert!(err(&wide).contains("within 12 a side"));
        assert!(err(r#"{"name": "a", "palette": {"c": "bedrock"}, "layers": [["c"]]}"#).contains("cannot get"));
        assert!(err("no JSON here").contains("JSON"), "{}", err("no JSON here"));
        // Names a small model writes for plain blocks are read as those blocks.
        let near = read(
            r#"{"name": "a", "palette": {"p": "plank", "b": "Stone Brick", "l": "log[axis=y]"}, "layers": [["pbl"]]}"#,
            "x",
        )
        .unwrap();
        let names: Vec<&str> = near.blocks().map(|p| p.block.name.as_str()).collect();
        assert_eq!(names, ["oak_planks", "stone_bricks", "oak_log"]);
    }

    #[test]
    fn a_part_written_again_and_again_is_kept_once() {
        let words = "market stall 5 wide 3 deep, oak log corner posts three tall";
        let mut answer = String::from(r#"{"name": "stall", "parts": ["#);
        for y in [0, 3, 6, 9, 12, 10, 11, 12, 9] {
            answer.push_str(&format!(r#"{{"kind": "box", "block": "oak_planks", "width": 5, "depth": 3, "y": {y}}},"#));
        }
        answer.push_str(r#"{"kind": "column", "block": "oak_log", "height": 3, "repeat": "corners"}]}"#);
        let stall = read(&answer, words).unwrap();
        assert_eq!(stall.size[1], 3, "the boxes stacked past the words' height are left out: {:?}", stall.size);
        // Copies at other places are parts of their own (four sails, two benches), and with no height said the
        // first two of a stack stand.
        let sails = r#"{"name": "mill", "parts": [
            {"kind": "line", "block": "white_wool", "width": 2, "x": 0, "y": 4},
            {"kind": "line", "block": "white_wool", "width": 2, "x": 4, "y": 4},
            {"kind": "line", "block": "white_wool", "width": 2, "x": 0, "y": 6},
            {"kind": "line", "block": "white_wool", "width": 2, "x": 0, "y": 8}]}"#;
        let mill = read(sails, "a mill with white wool sails").unwrap();
        assert_eq!(mill.blocks().count(), 6, "{:?}", mill.parts);
        // Walls stacked down into the ground as well as up.
        let mut study = String::from(r#"{"name": "study", "parts": ["#);
        let walls: Vec<String> = (-7..=4)
            .rev()
            .map(|y| format!(r#"{{"kind": "hollow_box", "block": "stone_bricks", "width": 7, "depth": 5, "y": {y}}}"#))
            .collect();
        study.push_str(&walls.join(","));
        study.push_str("]}");
        let study = read(&study, "stone brick study 7 wide 5 deep, walls four high, no roof").unwrap();
        assert_eq!(study.size, [7, 4, 5]);
    }

    #[test]
    fn a_wood_written_without_its_form_takes_the_form_the_words_name() {
        let answer = r#"{"name": "bench", "parts": [
            {"kind": "line", "block": "spruce_planks", "width": 4},
            {"kind": "block", "block": "spruce_log", "x": 0, "y": 1}]}"#;
        let bench = read(answer, "bench of four spruce stairs, a spruce log armrest at each end").unwrap();
        let names: Vec<&str> = bench.blocks().map(|p| p.block.name.as_str()).collect();
        assert_eq!(names.iter().filter(|n| **n == "spruce_stairs").count(), 4, "{names:?}");
        assert!(names.contains(&"spruce_log"), "{names:?}");
    }

    #[test]
    fn a_shapes_fields_beside_parts_are_parts_too() {
        let answer = r#"{"name": "stall", "shape": "none", "width": 5, "depth": 3, "height": 3,
            "corners": "oak_log", "roof": "oak_slab", "door": "none",
            "parts": [{"kind": "area", "block": "oak_planks", "width": 5, "depth": 3}]}"#;
        let stall = read(answer, "a market stall").unwrap();
        let count = |name: &str| stall.blocks().filter(|p| p.block.name == name).count();
        assert_eq!(count("oak_log"), 12, "a post three high at each corner: {:?}", stall.parts);
        assert!(count("oak_slab") >= 15, "a slab roof over it all: {:?}", stall.materials());
        // With no roof in the words, none is added.
        let open = read(answer, "a market stall with no roof").unwrap();
        assert!(open.blocks().all(|p| p.block.name != "oak_slab"));
    }

    #[test]
    fn railings_and_corner_posts_are_what_the_words_mean() {
        let words = "oak plank pier 3 wide and 9 long on spruce log legs at the corners, fence rails both sides";
        assert_eq!(named_blocks(words), ["oak_planks", "spruce_log", "oak_fence"]);
        let answer = r#"{"name": "pier", "parts": [
            {"kind": "box", "block": "oak_planks", "width": 3, "depth": 9, "y": 0},
            {"kind": "column", "block": "spruce_log", "x": 0, "y": 0, "z": 0},
            {"kind": "column", "block": "spruce_log", "x": 0, "y": 0, "z": 9},
            {"kind": "column", "block": "spruce_log", "x": 9, "y": 0, "z": 0},
            {"kind": "column", "block": "spruce_log", "x": 9, "y": 0, "z": 9},
            {"kind": "line", "block": "rail", "x": 0, "y": 1, "z": 0, "along": "z", "width": 9}]}"#;
        let pier = read(answer, words).unwrap();
        assert_eq!([pier.size[0], pier.size[2]], [3, 9], "the posts stand at the deck's corners: {:?}", pier.size);
        let names: Vec<&str> = pier.blocks().map(|p| p.block.name.as_str()).collect();
        assert!(names.contains(&"oak_fence") && !names.contains(&"rail"), "{names:?}");
        assert_eq!(names.iter().filter(|n| **n == "spruce_log").count() % 4, 0, "{names:?}");
    }

    #[test]
    fn a_shape_with_sizes_becomes_its_blueprint() {
        let shape = |fields: &str| read(&format!(r#"{{"name": "x", "description": "y", {fields}}}"#), "x");
        let pillar = shape(r#""shape": "pillar", "height": 4, "block": "cobblestone", "top": "torch""#).unwrap();
        assert_eq!(pillar.size, [1, 5, 1]);
        assert_eq!(pillar.materials(), [("cobblestone".to_owned(), 4), ("torch".to_owned(), 1)]);
        let wall =
            shape(r#""shape": "wall", "width": 7, "height": 2, "block": "cobblestone", "door": "oak_fence_gate""#)
                .unwrap();
        assert_eq!(wall.size, [7, 2, 1]);
        assert_eq!(
            wall.materials(),
            [("cobblestone".to_owned(), 12), ("oak_fence_gate".to_owned(), 1)],
            "a way through: nothing over the gate"
        );
        assert!(wall.parts.iter().any(|p| p.at == [3, 0, 0] && p.block.to_string() == "oak_fence_gate[facing=south]"));
        let hut = shape(
            r#""shape": "box", "width": 5, "depth": 5, "height": 3, "block": "cobblestone", "roof": "oak_planks",
               "door": "oak_door", "windows": "glass_pane""#,
        )
        .unwrap();
        assert_eq!(hut.size, [5, 4, 5]);
        let items: BTreeMap<String, u32> = hut.materials().into_iter().collect();
        assert_eq!(items["oak_planks"], 25);
        assert_eq!(items["oak_door"], 1);
        assert_eq!(items["glass_pane"], 3);
        assert_eq!(items["cobblestone"], 16 * 3 - 1 - 1 - 3, "walls less the door's two blocks and three windows");
        let stairs = shape(r#""shape": "stairs", "width": 2, "height": 4, "block": "cobblestone""#).unwrap();
        assert_eq!((stairs.size, stairs.blocks().count()), ([2, 4, 4], 2 * (1 + 2 + 3 + 4)));
        let bridge =
            shape(r#""shape": "bridge", "width": 8, "depth": 3, "block": "oak_planks", "top": "oak_fence""#).unwrap();
        assert_eq!(bridge.materials(), [("oak_planks".to_owned(), 24), ("oak_fence".to_owned(), 16)]);
        assert!(shape(r#""shape": "castle", "block": "stone""#).unwrap_err().contains("not one of"));
        assert!(shape(r#""shape": "wall", "width": 3"#).unwrap_err().contains("built of"));
        // Left out, the block is the one the words name.
        let named = |words: &str| read(r#"{"name": "w", "shape": "wall", "width": 3}"#, words).map(|b| b.materials());
        assert_eq!(named("a cobblestone wall"), Ok(vec![("cobblestone".to_owned(), 9)]));
        assert_eq!(named("a stone brick wall"), Ok(vec![("stone_bricks".to_owned(), 9)]));
        assert_eq!(named("a wooden wall"), Ok(vec![("oak_planks".to_owned(), 9)]));
        // So is a block that is no block; a part that is none is left out.
        let odd = r#"{"name": "w", "shape": "wall", "width": 3, "block": "watchtower", "top": "platform"}"#;
        assert_eq!(read(odd, "a log watchtower").map(|b| b.materials()), Ok(vec![("oak_log".to_owned(), 9)]));
        let plain =
            r#"{"name": "s", "shape": "box", "width": 3, "depth": 3, "height": 2, "block": "dirt", "windows": "none"}"#;
        assert_eq!(read(plain, "a dirt shelter").unwrap().materials(), [("dirt".to_owned(), 8 + 8 + 9)]);
        assert!(shape(r#""width": 3"#).unwrap_err().contains("shape"));
    }

    #[test]
    fn a_shapes_parts_take_the_blocks_given_them() {
        let shape = |fields: &str| read(&format!(r#"{{"name": "x", "description": "y", {fields}}}"#), "x").unwrap();
        let items = |b: &Blueprint| -> BTreeMap<String, u32> { b.materials().into_iter().collect() };
        // Two storeys: stone walls, a plank floor and plank walls over them, log corners, a ladder through the floor.
        let house = shape(
            r#""shape": "box", "width": 5, "depth": 5, "height": 3, "storeys": 2, "block": "stone_bricks",
               "upper": "oak_planks", "corners": "oak_log", "roof": "oak_slab", "door": "oak_door",
               "windows": "glass_pane", "inside": "ladder""#,
        );
        assert_eq!(house.size, [5, 7, 5]);
        let got = items(&house);
        assert_eq!(got["oak_log"], 4 * 5, "corners on every wall layer of both storeys");
        assert_eq!(got["oak_slab"], 25);
        assert_eq!(got["ladder"], 4, "from the ground through the upper floor");
        assert_eq!(got["glass_pane"], 6);
        assert!(house.parts.iter().any(|p| p.at == [1, 3, 1] && p.block.to_string() == "ladder[facing=south]"));
        assert!(house.parts.iter().any(|p| p.at == [2, 3, 2] && p.block.name == "oak_planks"), "the upper floor");
        // A tower with a railing round its roof, the ladder reaching up through the roof.
        let tower = shape(
            r#""shape": "box", "width": 3, "depth": 3, "height": 4, "block": "spruce_planks", "corners": "spruce_log",
               "inside": "ladder", "top": "oak_fence""#,
        );
        assert_eq!(tower.size, [3, 6, 3]);
        let got = items(&tower);
        assert_eq!((got["spruce_log"], got["oak_fence"], got["ladder"]), (16, 8, 5));
        // A lamp post: a foot, a fence column, a lamp on top.
        let lamp =
            shape(r#""shape": "pillar", "height": 2, "block": "oak_fence", "base": "stone_bricks", "top": "lantern""#);
        let column: Vec<String> = lamp.blocks().map(|p| p.block.name.clone()).collect();
        assert_eq!(column, ["stone_bricks", "oak_fence", "oak_fence", "lantern"]);
        // A field with a log border and a water channel down the middle.
        let farm = shape(
            r#""shape": "floor", "width": 7, "depth": 5, "block": "dirt", "border": "oak_log", "middle": "gravel""#,
        );
        let got = items(&farm);
        assert_eq!((got["oak_log"], got["gravel"], got["dirt"]), (20, 3, 12));
        // A bridge on beams with railings; stairs with a step block on each step.
        let bridge = shape(
            r#""shape": "bridge", "width": 8, "depth": 3, "block": "oak_planks", "top": "oak_fence", "base": "oak_log""#,
        );
        assert_eq!(bridge.size, [8, 3, 3]);
        assert_eq!(items(&bridge)["oak_log"], 16);
        let stairs = shape(
            r#""shape": "stairs", "width": 2, "height": 4, "block": "cobblestone", "steps": "cobblestone_stairs""#,
        );
        let got = items(&stairs);
        assert_eq!((got["cobblestone"], got["cobblestone_stairs"]), (12, 8));
        // A wall with a cap; a room too small to stand in is drawn the least that holds one.
        let wall =
            shape(r#""shape": "wall", "width": 7, "height": 2, "block": "cobblestone", "top": "stone_brick_slab""#);
        assert_eq!((wall.size, items(&wall)["stone_brick_slab"]), ([7, 3, 1], 7));
        let shelter = shape(r#""shape": "box", "width": 1, "depth": 1, "height": 1, "block": "dirt", "roof": "dirt""#);
        assert_eq!(shelter.size, [3, 3, 3]);
    }

    #[test]
    fn the_words_have_the_last_word_on_sizes_and_parts() {
        let heeded = |answer: &str, words: &str| {
            let blueprint = read(answer, words).unwrap();
            let items: BTreeMap<String, u32> = blueprint.materials().into_iter().collect();
            (blueprint.size, items)
        };
        // The model left out the roof and the ladder, and mixed up the upper storey; the words say them.
        let (size, items) = heeded(
            r#"{"name": "h", "shape": "box", "width": 5, "depth": 5, "height": 3, "block": "stone_bricks",
                "upper": "stone_brick_slab", "roof": "none", "windows": "glass_pane"}"#,
            "a two-storey house with a stone brick ground floor, an oak door, a plank upper floor, windows and a ladder",
        );
        assert_eq!(size, [5, 7, 5], "two storeys");
        assert!(items.contains_key("oak_door") && items.contains_key("ladder"), "{items:?}");
        assert!(!items.contains_key("stone_brick_slab"), "the upper floor is planks: {items:?}");
        assert_eq!(items["glass_pane"], 6, "windows stay the model's, not the ladder after them");
        let (size, items) = heeded(
            r#"{"name": "t", "shape": "box", "width": 3, "depth": 3, "height": 4, "block": "spruce_planks"}"#,
            "a watchtower with log corners, a ladder inside and a fenced platform on top",
        );
        assert_eq!(size, [3, 6, 3]);
        assert_eq!((items["oak_log"], items["ladder"], items["oak_fence"]), (16, 5, 8));
        // Sizes in words win; glass windows are panes.
        let (size, _) = heeded(
            r#"{"name": "w", "shape": "wall", "width": 5, "height": 2, "block": "cobblestone"}"#,
            "a cobblestone wall seven blocks long with an oak fence gate in the middle",
        );
        assert_eq!(size, [7, 2, 1]);
        let (_, items) = heeded(
            r#"{"name": "p", "shape": "pillar", "height": 3, "block": "oak_fence"}"#,
            "a lamp post of fence with a lantern on a stone brick foot",
        );
        assert_eq!((items["stone_bricks"], items["lantern"]), (1, 1));
        let (size, items) = heeded(
            r#"{"name": "b", "shape": "bridge", "width": 5, "depth": 1, "block": "oak_planks"}"#,
            "a wooden footbridge eight blocks long with fences along both sides",
        );
        assert_eq!((size, items["oak_fence"]), ([8, 2, 3], 16), "fences on both sides of a walk: three wide");
        // A hut's usual size where the words give none; a number the words give wins over it.
        let (size, items) = heeded(
            r#"{"name": "c", "shape": "box", "width": 4, "depth": 3, "height": 3, "block": "cobblestone"}"#,
            "a small cobblestone hut with an oak door, glass windows and a plank roof",
        );
        assert_eq!(size, [5, 4, 5]);
        assert_eq!((items["oak_door"], items["glass_pane"], items["oak_planks"]), (1, 3, 25));
        let (size, _) = heeded(
            r#"{"name": "c", "shape": "box", "width": 4, "depth": 3, "height": 3, "block": "cobblestone"}"#,
            "a cobblestone hut seven blocks wide",
        );
        assert_eq!(size, [7, 4, 5]);
        // Railings on both sides of a walkway need it three wide.
        let (size, _) = heeded(
            r#"{"name": "b", "shape": "bridge", "width": 8, "depth": 1, "block": "oak_planks", "top": "oak_fence"}"#,
            "a footbridge",
        );
        assert_eq!(size, [8, 2, 3]);
    }

    #[test]
    fn the_blocks_words_name_are_found_and_asked_for() {
        assert_eq!(
            named_blocks("a watchtower with log corners, a ladder inside and a fenced platform"),
            ["oak_log", "ladder", "oak_fence"]
        );
        assert_eq!(
            named_blocks("a cobblestone wall seven blocks long with an oak fence gate in the middle"),
            ["cobblestone", "oak_fence_gate"]
        );
        assert_eq!(
            named_blocks("a two-storey house with a stone brick ground floor, an oak door, a plank upper floor"),
            ["stone_bricks", "oak_door", "oak_planks"]
        );
        assert_eq!(named_blocks("a wooden footbridge with fences along both sides"), ["oak_planks", "oak_fence"]);
        assert_eq!(named_blocks("a farm plot with a water channel and a log border"), ["water", "oak_log"]);
        assert!(named_blocks("a place to sleep").is_empty());
        // A wood's stairs are its stairs; a kind named again alone is the one named before.
        assert_eq!(
            named_blocks("bench of four spruce stairs, a spruce log armrest at each end, lantern on each log"),
            ["spruce_stairs", "spruce_log", "lantern"]
        );
        assert_eq!(named_blocks("a stone brick stairs seat"), ["stone_brick_stairs"]);
        assert_eq!(named_blocks("a cobblestone staircase climbing four steps"), ["cobblestone"]);
        let well = "cobblestone well, no water, fence posts at the corners and an oak slab roof";
        assert_eq!(named_blocks(well), ["cobblestone", "oak_fence", "oak_slab"], "no water is asked for");
        let answer = r#"{"name": "well", "shape": "none", "width": 4, "depth": 4, "height": 1, "block": "cobblestone",
            "corners": "fence_post", "roof": "oak_slab", "parts": []}"#;
        let drawn = read(answer, well).unwrap();
        assert_eq!([drawn.size[0], drawn.size[2]], [4, 4], "a well, not a post: {:?}", drawn.size);

        let tower =
            read(r#"{"name": "t", "shape": "box", "width": 3, "depth": 3, "block": "spruce_planks"}"#, "x").unwrap();
        let named = named_blocks("a tower with log corners and a ladder inside");
        let why = lacking(&tower, &named).unwrap();
        assert!(why.contains("no oak_log and no ladder") && why.contains("corners"), "{why}");
        // One of the kind will do: spruce logs for logs, panes for glass.
        let done = read(
            r#"{"name": "t", "shape": "box", "width": 3, "depth": 3, "block": "spruce_planks", "corners": "spruce_log",
                "inside": "ladder", "windows": "glass_pane"}"#,
            "x",
        )
        .unwrap();
        assert_eq!(lacking(&done, &named_blocks("log corners, a ladder and glass windows")), None);
    }

    #[test]
    fn sizes_are_read_however_the_words_give_them() {
        let sizes = |words: &str| {
            let s = sizes_in(&crate::blueprint::content_words(words), words.contains("bridge"));
            (s.width, s.depth, s.height)
        };
        assert_eq!(sizes("a 7 by 5 flower bed"), (Some(7), Some(5), None));
        assert_eq!(sizes("a 3x3 cobblestone tower six blocks tall"), (Some(3), Some(3), Some(6)));
        assert_eq!(sizes("a patch ten long and seven wide"), (Some(10), Some(7), None));
        assert_eq!(sizes("a stall 5 wide 3 deep, posts three tall"), (Some(5), Some(3), Some(3)));
        assert_eq!(sizes("a ring five across"), (Some(5), Some(5), None));
        assert_eq!(sizes("an archway five wide, five tall and two thick"), (Some(5), Some(2), Some(5)));
        assert_eq!(
            sizes("a wall 12 long and 3 high with a 3x3 tower at each end, the towers five tall"),
            (Some(12), None, Some(3))
        );
        assert_eq!(sizes("a bridge two wide"), (None, Some(2), None));
        assert_eq!(sizes("a footbridge two wide and eight long"), (Some(8), Some(2), None));
        assert_eq!(sizes("a nice garden"), (None, None, None));
        let words = |text: &str| says_no_roof(&crate::blueprint::content_words(text));
        assert!(words("walls four high, no roof") && words("a pen without a roof") && words("a roofless hut"));
        assert!(!words("a hut with a plank roof and no windows"));
    }

    #[test]
    fn a_design_of_parts_is_read_and_held_to_the_words() {
        let answer = r#"{"name": "Pier", "description": "a pier", "shape": "none", "parts": [
            {"kind": "area", "block": "plank", "width": 3, "depth": 5},
            {"kind": "column", "block": "spruce_log", "y": -1, "height": 1, "repeat": "corners"},
            {"kind": "line", "block": "oak_fence", "width": 5, "along": "z", "y": 1, "repeat": "both_sides"}]}"#;
        // The words give the deck 3 by 9: the body takes their sizes over the answer's.
        let pier = read(answer, "a pier 3 by 9 of oak planks on spruce log legs").unwrap();
        let items: BTreeMap<String, u32> = pier.materials().into_iter().collect();
        assert_eq!((items["oak_planks"], items["spruce_log"], items["oak_fence"]), (27, 4, 10));
        assert_eq!(pier.size, [3, 3, 9]);
        // A shape with parts over it: a hut with a lantern at each corner of its roof.
        let hut = read(
            r#"{"name": "h", "shape": "box", "width": 5, "depth": 5, "height": 3, "block": "cobblestone",
                "roof": "oak_planks", "parts": [{"kind": "block", "block": "lantern", "y": 4, "repeat": "corners"}]}"#,
            "a hut",
        )
        .unwrap();
        assert_eq!(hut.materials().into_iter().find(|(i, _)| i == "lantern"), Some(("lantern".to_owned(), 4)));
        // Openings the words ask for and no part has are cut in the body; no roof where the words say none.
        let study = read(
            r#"{"name": "s", "shape": "none", "parts": [{"kind": "ring", "block": "stone_bricks", "width": 5,
                "depth": 5, "height": 3}, {"kind": "roof", "block": "stone_brick_slab"}]}"#,
            "a stone brick study 7 wide 5 deep, walls four high, no roof, a spruce door and glass windows",
        )
        .unwrap();
        let items: BTreeMap<String, u32> = study.materials().into_iter().collect();
        assert_eq!(study.size, [7, 4, 5]);
        assert!(!items.contains_key("stone_brick_slab"), "no roof: {items:?}");
        assert_eq!((items.get("spruce_door"), items.get("glass_pane")), (Some(&1), Some(&2)));
        assert!(missed(&study, "a stone brick study 7 wide 5 deep, walls four high, no roof").is_empty());
        // What a design misses of the words is said in words the designer can act on.
        let small = read(r#"{"name": "b", "parts": [{"kind": "box", "block": "dirt"}]}"#, "x").unwrap();
        let why = missed(&small, "a dirt room 7 by 5, six high, with a door and windows");
        assert_eq!(why.len(), 4, "{why:?}");
        assert!(why[0].contains("7 by 5, but it is 3 by 3") && why[1].contains("6 high"), "{why:?}");
        let bad = read(r#"{"name": "b", "parts": [{"kind": "dome", "block": "dirt"}]}"#, "x").unwrap_err();
        assert!(bad.contains("dome"), "{bad}");
        let bad = read(r#"{"name": "b", "parts": [{"kind": "box", "block": "castle"}]}"#, "x").unwrap_err();
        assert!(bad.contains("part 1 (box): there is no block called castle"), "{bad}");
    }

    #[test]
    fn the_words_place_the_parts_a_small_model_stacks_at_one_corner() {
        // All four parts at the design's corner, the flowers as boxes: the words put a border round the body, the
        // dirt inside it, and the flowers in rows on the dirt.
        let bed = read(
            r#"{"name": "bed", "shape": "none", "parts": [
                {"kind": "area", "block": "cobblestone", "width": 7, "depth": 5},
                {"kind": "area", "block": "dirt", "width": 7, "depth": 5},
                {"kind": "hollow_box", "block": "poppy", "width": 7, "depth": 5},
                {"kind": "hollow_box", "block": "dandelion", "width": 7, "depth": 5}]}"#,
            "a 7 by 5 flower bed with a cobblestone border, dirt inside, and poppies and dandelions planted in it",
        )
        .unwrap();
        let items: BTreeMap<String, u32> = bed.materials().into_iter().collect();
        assert_eq!(bed.size, [7, 2, 5]);
        assert_eq!((items["cobblestone"], items["dirt"]), (20, 15));
        assert_eq!(items["poppy"] + items["dandelion"], 15, "{items:?}");
        assert!(bed.parts.iter().any(|p| p.at == [1, 1, 1] && p.block.name == "poppy"));
        assert!(bed.parts.iter().any(|p| p.at == [1, 1, 2] && p.block.name == "dandelion"));
        // A lantern on top stands on the part before it; a post at each corner is repeated there.
        let fountain = read(
            r#"{"name": "f", "shape": "none", "parts": [
                {"kind": "box", "block": "stone_bricks", "width": 5, "depth": 5},
                {"kind": "column", "block": "cobblestone", "height": 3, "x": 2, "z": 2},
                {"kind": "block", "block": "lantern", "x": 2, "y": 1, "z": 2},
                {"kind": "column", "block": "oak_fence", "height": 2, "y": 1}]}"#,
            "a stone brick basin with a cobblestone column and a lantern on top, and an oak fence at each corner",
        )
        .unwrap();
        assert!(fountain.parts.iter().any(|p| p.at == [2, 3, 2] && p.block.name == "lantern"), "on the column's top");
        let items: BTreeMap<String, u32> = fountain.materials().into_iter().collect();
        assert_eq!(items["oak_fence"], 8, "two high at each of four corners");
    }

    #[test]
    fn a_shape_keeps_its_parts_and_a_bare_answer_takes_the_shape_its_words_name() {
        // The shape's own blocks restated as parts (a log box at each corner, a ladder, a fence) are left out.
        let tower = read(
            r#"{"name": "t", "shape": "box", "width": 3, "depth": 3, "height": 4, "block": "spruce_planks",
                "corners": "log", "inside": "ladder", "top": "fence", "parts": [
                {"kind": "box", "block": "log", "width": 6, "depth": 4, "y": 2, "repeat": "corners"},
                {"kind": "block", "block": "ladder", "x": 1, "y": 2, "z": 1},
                {"kind": "block", "block": "lantern", "x": 1, "y": 6, "z": 1}]}"#,
            "a watchtower with log corners, a ladder inside and a fenced platform on top",
        )
        .unwrap();
        let items: BTreeMap<String, u32> = tower.materials().into_iter().collect();
        assert_eq!((tower.size, items["oak_log"], items["ladder"]), ([3, 7, 3], 16, 5), "{items:?}");
        assert_eq!(items["lantern"], 1, "a part the shape does not have stays");
        // No shape, no parts: the shape the words name.
        let bare = |words: &str| {
            read(
                r#"{"name": "s", "shape": "none", "width": 3, "depth": 3, "height": 2, "block": "dirt", "parts": []}"#,
                words,
            )
            .map(|b| b.size)
        };
        assert_eq!(bare("a one-person dirt shelter for the night"), Ok([3, 3, 3]));
        assert_eq!(bare("a dirt wall"), Ok([3, 2, 1]));
        assert_eq!(bare("a dirt post"), Ok([1, 2, 1]));
    }

    #[test]
    fn blocks_that_cannot_be_got_or_are_no_block_are_mended_where_the_rule_is_clear() {
        let items = |answer: &str, words: &str| -> BTreeMap<String, u32> {
            read(answer, words).unwrap().materials().into_iter().collect()
        };
        // A glowstone lamp (only found in the Nether) is a lantern.
        let lamp = items(
            r#"{"name": "l", "shape": "pillar", "height": 2, "block": "oak_fence", "top": "glowstone",
                "base": "stone_bricks"}"#,
            "a lamp post",
        );
        assert_eq!((lamp.get("lantern"), lamp.get("glowstone")), (Some(&1), None));
        // Stairs whose steps name no block climb on the block's own stairs; `wood` is planks.
        let stairs = items(
            r#"{"name": "s", "shape": "stairs", "width": 2, "height": 4, "block": "cobblestone", "steps": "four"}"#,
            "x",
        );
        assert_eq!((stairs["cobblestone_stairs"], stairs["cobblestone"]), (8, 12));
        let bridge = items(r#"{"name": "b", "shape": "bridge", "width": 8, "depth": 3, "block": "wood"}"#, "x");
        assert_eq!(bridge.get("oak_planks"), Some(&24));
    }
}
