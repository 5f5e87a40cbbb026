//! Designs composed from parts: a small typed language a designer (the LLM, through a JSON schema, or the rules that
//! read a player's words) fills in, turned into a [`Blueprint`].
//!
//! A design is a list of [`Piece`]s, each a kind of part with its block, its size, where it stands from the design's
//! origin (x east, y up, z south) and how it repeats. The blueprint is their union, later pieces over earlier ones
//! (a window piece after a wall replaces the wall's block where it stands). A piece that gives no position fits the
//! ones before it: a roof covers them and sits on top, a piece repeated at the corners stands at their corners.
//!
//! ```json
//! [{"kind": "ring", "block": "cobblestone", "width": 5, "depth": 5, "height": 3,
//!   "openings": [{"kind": "door", "side": "south"}, {"kind": "window", "side": "east"}]},
//!  {"kind": "roof", "block": "oak_planks", "style": "stairs"},
//!  {"kind": "column", "block": "oak_log", "height": 3, "repeat": "corners"}]
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Blueprint, Part, Spec};

/// The longest side a piece may have and the most cells a design may set before it is checked as a blueprint.
pub const MAX_PIECE_SIDE: i32 = 24;
const MAX_CELLS: usize = 20_000;

/// What a piece is.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A solid box `width` × `height` × `depth`.
    Box,
    /// A closed shell: walls, floor and ceiling of a `width` × `height` × `depth` box, air inside.
    HollowBox,
    /// Walls round a `width` × `depth` rectangle, `height` high, with no floor, ceiling or inside.
    Ring,
    /// A straight wall `width` long (along x, or z), `height` high, one block thick.
    Wall,
    /// A column `height` high.
    Column,
    /// A row of blocks `width` long, along x, z or y.
    Line,
    /// A flat `width` × `depth` area one block high (a floor, a platform, a field).
    Area,
    /// A roof over a `width` × `depth` rectangle (or over the pieces before it): flat, of slabs, or of stairs
    /// rising from the long sides to a ridge.
    Roof,
    /// One block.
    Block,
}

/// The kinds' names, as the schema lists them.
pub const KINDS: [&str; 9] = ["box", "hollow_box", "ring", "wall", "column", "line", "area", "roof", "block"];

/// Which way a wall or line runs.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Axis {
    #[default]
    X,
    Z,
    Y,
}

/// How a piece repeats.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Repeat {
    #[default]
    Once,
    /// At each corner of the footprint of the pieces before it (or its own `x`, `z` when the first).
    Corners,
    /// On both sides of the pieces before it: the piece as given and its mirror across their middle, east to west
    /// for a piece longer north to south (or a single block), north to south otherwise.
    BothSides,
}

/// A roof's form.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RoofStyle {
    #[default]
    Flat,
    Slab,
    Stairs,
}

/// What an opening in a wall, ring or hollow box is.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum OpeningKind {
    /// A door (oak unless `block` says), two high.
    Door,
    /// A gap two high, no door in it.
    Doorway,
    /// A fence gate (oak unless `block` says), air over it up to two high.
    Gate,
    /// A window (glass panes unless `block` says) one block up.
    Window,
    /// A gap as high as the wall less its top row, three wide unless `width` says.
    Arch,
}

/// Which wall of a ring or box an opening is in.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    #[serde(alias = "front")]
    South,
    #[serde(alias = "back")]
    North,
    #[serde(alias = "right")]
    East,
    #[serde(alias = "left")]
    West,
}

impl Side {
    fn facing(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
            Side::East => "east",
            Side::West => "west",
        }
    }
}

/// An opening in a wall: what, in which wall (a ring's or box's; the front unless said), how far along it from its
/// west or north end (the middle unless said), and its size and block where they are not the kind's own.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Opening {
    pub kind: OpeningKind,
    pub side: Option<Side>,
    pub at: Option<i32>,
    pub width: Option<i32>,
    pub height: Option<i32>,
    pub block: Option<String>,
}

/// One part of a design. Sizes left out are the kind's usual ones (a roof's, those of the pieces before it).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    pub kind: Kind,
    pub block: String,
    pub x: Option<i32>,
    pub y: Option<i32>,
    pub z: Option<i32>,
    pub width: Option<i32>,
    pub height: Option<i32>,
    pub depth: Option<i32>,
    pub along: Option<Axis>,
    pub style: Option<RoofStyle>,
    pub repeat: Option<Repeat>,
    /// Copies every this many blocks along the longer side of the pieces before it (a torch every 3 blocks).
    pub every: Option<i32>,
    #[serde(default)]
    pub openings: Vec<Opening>,
}

impl Piece {
    /// A piece of `kind` and `block` with every other field left to its usual value.
    pub fn new(kind: Kind, block: &str) -> Piece {
        Piece {
            kind,
            block: block.to_owned(),
            x: None,
            y: None,
            z: None,
            width: None,
            height: None,
            depth: None,
            along: None,
            style: None,
            repeat: None,
            every: None,
            openings: Vec::new(),
        }
    }

    /// Its width, height and depth as built: what it gives, else the kind's usual size.
    pub fn size(&self) -> [i32; 3] {
        let usual = match self.kind {
            Kind::Box | Kind::HollowBox => [3, 3, 3],
            Kind::Ring => [5, 3, 5],
            Kind::Wall => [5, 3, 1],
            Kind::Column => [1, 3, 1],
            Kind::Line => [5, 1, 1],
            Kind::Area | Kind::Roof => [5, 1, 5],
            Kind::Block => [1, 1, 1],
        };
        let side = |v: Option<i32>, usual: i32| v.unwrap_or(usual).clamp(1, MAX_PIECE_SIDE);
        let [w, h, d] = [side(self.width, usual[0]), side(self.height, usual[1]), side(self.depth, usual[2])];
        match (self.kind, self.along.unwrap_or_default()) {
            (Kind::Column, _) => [1, h, 1],
            (Kind::Block, _) => [1, 1, 1],
            (Kind::Area, _) => [w, 1, d],
            (Kind::Wall, Axis::Z) => [1, h, w.max(d)],
            (Kind::Wall, _) => [w, h, 1],
            (Kind::Line, Axis::Z) => [1, 1, w.max(d)],
            (Kind::Line, Axis::Y) => [1, w.max(h), 1],
            (Kind::Line, Axis::X) => [w, 1, 1],
            _ => [w, h, d],
        }
    }
}

/// Why a design could not be composed, in words a designer can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ComposeError {
    #[error("part {index} ({kind}): {problem}")]
    Piece { index: usize, kind: &'static str, problem: String },
    #[error("a design needs at least one part")]
    Empty,
    #[error("the parts set more than {MAX_CELLS} positions")]
    TooMany,
    #[error("{0}")]
    Blueprint(String),
}

impl Kind {
    pub fn name(self) -> &'static str {
        KINDS[self as usize]
    }
}

/// The bounds of the cells set so far: least and most x, y and z.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    low: [i32; 3],
    high: [i32; 3],
}

/// The cells a design sets, later over earlier.
#[derive(Default)]
struct Cells {
    map: BTreeMap<[i32; 3], Spec>,
}

impl Cells {
    fn set(&mut self, at: [i32; 3], block: &Spec) -> Result<(), ComposeError> {
        self.map.insert(at, block.clone());
        if self.map.len() > MAX_CELLS { Err(ComposeError::TooMany) } else { Ok(()) }
    }

    /// The bounds of the blocks set (not air), if any.
    fn bounds(&self) -> Option<Bounds> {
        let mut blocks = self.map.iter().filter(|(_, b)| !b.is_air()).map(|(at, _)| *at);
        let first = blocks.next()?;
        let (mut low, mut high) = (first, first);
        for at in blocks {
            for i in 0..3 {
                low[i] = low[i].min(at[i]);
                high[i] = high[i].max(at[i]);
            }
        }
        Some(Bounds { low, high })
    }
}

/// The slab or stairs of a block (`oak_planks` → `oak_slab`, `stone_bricks` → `stone_brick_stairs`), when the
/// game has one; a block that is already one is itself.
pub fn variant(block: &str, form: &str) -> Option<String> {
    let name = block.split('[').next().unwrap_or(block).trim();
    if name.ends_with(&format!("_{form}")) {
        return Some(name.to_owned());
    }
    let base = name.strip_suffix("_planks").or_else(|| name.strip_suffix("_log")).unwrap_or(name);
    let singular = base.strip_suffix("bricks").map(|b| format!("{b}brick")).unwrap_or_else(|| base.to_owned());
    [format!("{base}_{form}"), format!("{singular}_{form}")].into_iter().find(|n| Spec::parse(n).is_ok())
}

/// The full block a slab or stairs block is cut from (`oak_stairs` → `oak_planks`), for a roof's ridge.
fn full_block(block: &str) -> Option<String> {
    let name = block.split('[').next().unwrap_or(block);
    let base = name.strip_suffix("_stairs").or_else(|| name.strip_suffix("_slab"))?;
    [format!("{base}_planks"), format!("{base}s"), base.to_owned()].into_iter().find(|n| Spec::parse(n).is_ok())
}

/// A block that turns (a door, gate, stairs or ladder) facing `facing` unless its text says otherwise.
fn facing(block: &Spec, facing: &str) -> Spec {
    let turns = ["_door", "_fence_gate", "_stairs"].iter().any(|s| block.name.ends_with(s)) || block.name == "ladder";
    let mut block = block.clone();
    if turns && !block.properties.contains_key("facing") {
        block.properties.insert("facing".to_owned(), facing.to_owned());
    }
    block
}

fn parse_block(text: &str) -> Result<Spec, String> {
    let spec = Spec::parse(text)?;
    if spec.is_air() {
        Ok(spec)
    } else {
        spec.item().map(|_| spec.clone()).ok_or_else(|| format!("{text} cannot be placed"))
    }
}

/// The blueprint a design's pieces compose to, over `base` (the cells a shape or drawn layers set first; empty for
/// none).
pub fn compose(name: &str, description: &str, base: Vec<Part>, pieces: &[Piece]) -> Result<Blueprint, ComposeError> {
    if pieces.is_empty() && base.is_empty() {
        return Err(ComposeError::Empty);
    }
    let mut cells = Cells::default();
    for part in base {
        cells.set(part.at, &part.block)?;
    }
    for (index, piece) in pieces.iter().enumerate() {
        let error = |problem: String| ComposeError::Piece { index: index + 1, kind: piece.kind.name(), problem };
        let block = parse_block(&piece.block).map_err(error)?;
        let before = cells.bounds();
        for origin in origins(piece, before) {
            draw(&mut cells, piece, &block, origin, before).map_err(|e| match e {
                ComposeError::Blueprint(problem) => error(problem),
                other => other,
            })?;
        }
    }
    let parts = cells.map.into_iter().map(|(at, block)| Part { at, block }).collect();
    Blueprint::new(name, description, parts).map_err(|e| ComposeError::Blueprint(e.to_string()))
}

/// Where each copy of `piece` has its north-west bottom corner, given the bounds of the pieces before it.
fn origins(piece: &Piece, before: Option<Bounds>) -> Vec<[i32; 3]> {
    let [w, _, d] = piece.size();
    let at = |value: Option<i32>, fallback: i32| value.unwrap_or(fallback);
    // A roof with no place of its own sits on what stands before it, over all of it.
    let on_top = before.map_or(0, |b| b.high[1] + 1);
    let corner = before.map_or([0, 0, 0], |b| b.low);
    let y = at(piece.y, if piece.kind == Kind::Roof { on_top } else { corner[1] });
    let first = [at(piece.x, corner[0]), y, at(piece.z, corner[2])];
    let repeat = piece.repeat.unwrap_or_default();
    let mut origins = match (repeat, before) {
        (Repeat::Corners, Some(b)) => {
            let (x0, x1, z0, z1) = (b.low[0], b.high[0] - w + 1, b.low[2], b.high[2] - d + 1);
            vec![[x0, y, z0], [x1, y, z0], [x0, y, z1], [x1, y, z1]]
        }
        (Repeat::BothSides, Some(b)) => {
            // Mirrored across the middle of what stands before it: west to east for a piece running north to
            // south (or a single block), north to south for one running west to east.
            let mirror_x = d >= w;
            let mut other = first;
            if mirror_x {
                other[0] = b.low[0] + b.high[0] - (first[0] + w - 1);
            } else {
                other[2] = b.low[2] + b.high[2] - (first[2] + d - 1);
            }
            vec![first, other]
        }
        _ => vec![first],
    };
    if let Some(every) = piece.every.filter(|e| *e >= 1) {
        // Copies along the longer side of what stands before it (the piece's own row when the first).
        let (low, high) = before.map_or(([0, 0, 0], [w - 1, 0, d - 1]), |b| (b.low, b.high));
        let axis = if high[2] - low[2] > high[0] - low[0] { 2 } else { 0 };
        let mut copies = Vec::new();
        for origin in &origins {
            let mut at = *origin;
            while at[axis] <= high[axis] && copies.len() < 256 {
                copies.push(at);
                at[axis] += every;
            }
        }
        origins = copies;
    }
    origins.sort();
    origins.dedup();
    origins
}

/// Sets the cells of one copy of `piece` with its north-west bottom corner at `origin`.
fn draw(
    cells: &mut Cells,
    piece: &Piece,
    block: &Spec,
    origin: [i32; 3],
    before: Option<Bounds>,
) -> Result<(), ComposeError> {
    let [ox, oy, oz] = origin;
    let [mut w, h, mut d] = piece.size();
    if piece.kind == Kind::Roof
        && piece.width.is_none()
        && piece.depth.is_none()
        && let Some(b) = before
    {
        (w, d) = (b.high[0] - b.low[0] + 1, b.high[2] - b.low[2] + 1);
    }
    let air = Spec::air();
    match piece.kind {
        Kind::Box | Kind::Column | Kind::Line | Kind::Area | Kind::Block | Kind::Wall => {
            for y in 0..h {
                for z in 0..d {
                    for x in 0..w {
                        cells.set([ox + x, oy + y, oz + z], block)?;
                    }
                }
            }
        }
        Kind::HollowBox | Kind::Ring => {
            for y in 0..h {
                for z in 0..d {
                    for x in 0..w {
                        let edge = x == 0 || z == 0 || x == w - 1 || z == d - 1;
                        let shell = piece.kind == Kind::HollowBox && (y == 0 || y == h - 1);
                        // A ring's inside is the world's (nothing); a hollow box's is kept clear.
                        if edge || shell {
                            cells.set([ox + x, oy + y, oz + z], block)?;
                        } else if piece.kind == Kind::HollowBox {
                            cells.set([ox + x, oy + y, oz + z], &air)?;
                        }
                    }
                }
            }
        }
        Kind::Roof => roof(cells, piece, block, [ox, oy, oz], w, d)?,
    }
    let floor = if piece.kind == Kind::HollowBox { 1 } else { 0 };
    for opening in &piece.openings {
        open(cells, piece, opening, [ox, oy + floor, oz], [w, h - floor, d])?;
    }
    Ok(())
}

/// A roof over `w` × `d` at `origin`: one layer (flat or slabs), or stairs facing out from the two long sides,
/// a row higher each step in, with a ridge of the full block where they meet.
fn roof(cells: &mut Cells, piece: &Piece, block: &Spec, origin: [i32; 3], w: i32, d: i32) -> Result<(), ComposeError> {
    let [ox, oy, oz] = origin;
    let style = piece.style.unwrap_or_default();
    let named = |form: &str| variant(&block.to_string(), form).and_then(|n| Spec::parse(&n).ok());
    match style {
        RoofStyle::Flat | RoofStyle::Slab => {
            let block =
                if style == RoofStyle::Slab { named("slab").unwrap_or_else(|| block.clone()) } else { block.clone() };
            for z in 0..d {
                for x in 0..w {
                    cells.set([ox + x, oy, oz + z], &block)?;
                }
            }
        }
        RoofStyle::Stairs => {
            let stairs = named("stairs").ok_or_else(|| {
                ComposeError::Blueprint(format!("{} has no stairs for a stairs roof; name a stairs block", block.name))
            })?;
            let ridge = full_block(&stairs.name).and_then(|n| Spec::parse(&n).ok()).unwrap_or_else(|| block.clone());
            // The long sides slope: along x when the roof is wider than deep, so the stairs face north and south.
            let along_x = w >= d;
            let across = if along_x { d } else { w };
            let length = if along_x { w } else { d };
            for step in 0..(across + 1) / 2 {
                let (near, far) = (step, across - 1 - step);
                for i in 0..length {
                    let at = |k: i32| if along_x { [ox + i, oy + step, oz + k] } else { [ox + k, oy + step, oz + i] };
                    if near == far {
                        cells.set(at(near), &ridge)?;
                    } else {
                        let (out_near, out_far) = if along_x { ("south", "north") } else { ("east", "west") };
                        // Stairs face up the slope: a north-side step rises to the south.
                        cells.set(at(near), &facing(&stairs, out_near))?;
                        cells.set(at(far), &facing(&stairs, out_far))?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Cuts `opening` into the walls of a piece standing at `origin` with size `[w, h, d]` (above its floor).
fn open(
    cells: &mut Cells,
    piece: &Piece,
    opening: &Opening,
    origin: [i32; 3],
    [w, h, d]: [i32; 3],
) -> Result<(), ComposeError> {
    let [ox, oy, oz] = origin;
    // Which wall, and the cell `i` blocks along it.
    let side = opening.side.unwrap_or(Side::South);
    // The wall's west or north end at the piece's ground, which way along it is, and how long it is.
    let (length, end, step) = match (piece.kind, side) {
        (Kind::Wall, _) if w >= d => (w, [ox, oy, oz], [1, 0]),
        (Kind::Wall, _) => (d, [ox, oy, oz], [0, 1]),
        (_, Side::South) => (w, [ox, oy, oz + d - 1], [1, 0]),
        (_, Side::North) => (w, [ox, oy, oz], [1, 0]),
        (_, Side::East) => (d, [ox + w - 1, oy, oz], [0, 1]),
        (_, Side::West) => (d, [ox, oy, oz], [0, 1]),
    };
    let cell = |i: i32, y: i32| [end[0] + i * step[0], end[1] + y, end[2] + i * step[1]];
    let outward = match piece.kind {
        Kind::Wall => "south",
        _ => side.facing(),
    };
    let block = |fallback: &str| -> Result<Spec, ComposeError> {
        let text = opening.block.as_deref().unwrap_or(fallback);
        parse_block(text).map_err(ComposeError::Blueprint)
    };
    let (width, height, fill) = match opening.kind {
        OpeningKind::Door => (1, 2, Some(facing(&block("oak_door")?, outward))),
        OpeningKind::Gate => (1, 2, Some(facing(&block("oak_fence_gate")?, outward))),
        OpeningKind::Doorway => (1, 2, None),
        OpeningKind::Window => (1, 1, Some(block("glass_pane")?)),
        OpeningKind::Arch => (3, (h - 1).max(1), None),
    };
    let width = opening.width.unwrap_or(width).clamp(1, length);
    let height = opening.height.unwrap_or(height).clamp(1, h.max(1));
    let start = opening.at.unwrap_or((length - width) / 2).clamp(0, (length - width).max(0));
    // Windows sit a block up (on the ground in a wall one high); the rest stand on the ground.
    let bottom = if opening.kind == OpeningKind::Window && h > 1 { 1 } else { 0 };
    let air = Spec::air();
    for i in start..start + width {
        for y in bottom..(bottom + height).min(h.max(bottom + 1)) {
            let first = y == bottom;
            let put = match (&fill, opening.kind) {
                (Some(door), OpeningKind::Door) if first => door.clone(),
                (Some(gate), OpeningKind::Gate) if first => gate.clone(),
                (Some(pane), OpeningKind::Window) => pane.clone(),
                _ => air.clone(),
            };
            cells.set(cell(i, y), &put)?;
        }
    }
    Ok(())
}

/// What a piece is, in a few words for a summary: `ring 5×3×5 of cobblestone with a door and 2 windows`,
/// `roof (stairs) of spruce_planks`, `column 1×3×1 of oak_log at each corner`.
pub fn describe(piece: &Piece) -> String {
    let [w, h, d] = piece.size();
    let mut text = match (piece.kind, piece.style) {
        (Kind::Roof, style) => format!(
            "roof ({}) of {}",
            match style.unwrap_or_default() {
                RoofStyle::Flat => "flat",
                RoofStyle::Slab => "slab",
                RoofStyle::Stairs => "stairs",
            },
            piece.block
        ),
        (Kind::Block, _) => piece.block.clone(),
        (kind, _) => format!("{} {w}×{h}×{d} of {}", kind.name().replace('_', " "), piece.block),
    };
    let mut openings: BTreeMap<&str, usize> = BTreeMap::new();
    for opening in &piece.openings {
        let name = match opening.kind {
            OpeningKind::Door => "door",
            OpeningKind::Doorway => "doorway",
            OpeningKind::Gate => "gate",
            OpeningKind::Window => "window",
            OpeningKind::Arch => "arch",
        };
        *openings.entry(name).or_default() += 1;
    }
    let openings: Vec<String> = openings
        .into_iter()
        .map(|(name, n)| if n == 1 { format!("a {name}") } else { format!("{n} {name}s") })
        .collect();
    if !openings.is_empty() {
        text.push_str(&format!(" with {}", openings.join(" and ")));
    }
    match piece.repeat.unwrap_or_default() {
        Repeat::Corners => text.push_str(" at each corner"),
        Repeat::BothSides => text.push_str(" on both sides"),
        Repeat::Once => {}
    }
    if let Some(every) = piece.every {
        text.push_str(&format!(" every {every} blocks"));
    }
    text
}

/// The JSON schema of a piece, for endpoints that hold answers to one.
pub fn piece_schema(max_side: i32) -> serde_json::Value {
    let side = serde_json::json!({ "type": "integer", "minimum": 1, "maximum": max_side });
    let place = serde_json::json!({ "type": "integer", "minimum": -max_side, "maximum": max_side });
    serde_json::json!({
        "type": "object",
        "properties": {
            "kind": { "type": "string", "enum": KINDS },
            "block": { "type": "string", "maxLength": 60 },
            "width": side, "height": side, "depth": side,
            "x": place, "y": place, "z": place,
            "along": { "type": "string", "enum": ["x", "z", "y"] },
            "style": { "type": "string", "enum": ["flat", "slab", "stairs"] },
            "repeat": { "type": "string", "enum": ["once", "corners", "both_sides"] },
            "every": { "type": "integer", "minimum": 1, "maximum": max_side },
            "openings": {
                "type": "array",
                "maxItems": 8,
                "items": {
                    "type": "object",
                    "properties": {
                        "kind": { "type": "string", "enum": ["door", "doorway", "gate", "window", "arch"] },
                        "side": { "type": "string", "enum": ["south", "north", "east", "west"] },
                        "at": { "type": "integer", "minimum": 0, "maximum": max_side },
                        "width": side,
                        "height": side,
                        "block": { "type": "string", "maxLength": 60 },
                    },
                    "required": ["kind", "side"],
                    "additionalProperties": false,
                },
            },
        },
        "required": ["kind", "block"],
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(json: &str) -> Piece {
        serde_json::from_str(json).unwrap()
    }

    fn build(json: &str) -> Blueprint {
        let pieces: Vec<Piece> = serde_json::from_str(json).unwrap();
        compose("t", "t", Vec::new(), &pieces).unwrap()
    }

    fn items(b: &Blueprint) -> BTreeMap<String, u32> {
        b.materials().into_iter().collect()
    }

    fn at(b: &Blueprint, at: [i32; 3]) -> String {
        b.parts.iter().find(|p| p.at == at).map_or_else(|| "nothing".to_owned(), |p| p.block.to_string())
    }

    #[test]
    fn each_kind_of_piece_sets_its_cells() {
        let one = |json: &str| build(&format!("[{json}]"));
        let solid = one(r#"{"kind": "box", "block": "stone", "width": 2, "height": 3, "depth": 4}"#);
        assert_eq!((solid.size, solid.blocks().count()), ([2, 3, 4], 24));
        let shell = one(r#"{"kind": "hollow_box", "block": "stone", "width": 4, "height": 4, "depth": 4}"#);
        assert_eq!(shell.blocks().count(), 64 - 8, "all but the 2×2×2 inside");
        assert_eq!(at(&shell, [1, 1, 1]), "air", "the inside is kept clear");
        let ring = one(r#"{"kind": "ring", "block": "oak_log", "width": 5, "height": 2, "depth": 4}"#);
        assert_eq!((ring.size, ring.blocks().count()), ([5, 2, 4], 2 * 14));
        assert_eq!(at(&ring, [2, 0, 2]), "nothing", "a ring's inside is the world's");
        let wall = one(r#"{"kind": "wall", "block": "cobblestone", "width": 6, "height": 2, "along": "z"}"#);
        assert_eq!(wall.size, [1, 2, 6]);
        let column = one(r#"{"kind": "column", "block": "oak_log", "height": 4, "width": 9}"#);
        assert_eq!(column.size, [1, 4, 1], "a column is one wide whatever else it says");
        let line = one(r#"{"kind": "line", "block": "oak_fence", "width": 7}"#);
        assert_eq!(line.size, [7, 1, 1]);
        let up = one(r#"{"kind": "line", "block": "ladder", "width": 3, "along": "y"}"#);
        assert_eq!(up.size, [1, 3, 1]);
        let area = one(r#"{"kind": "area", "block": "dirt", "width": 4, "depth": 6, "height": 5}"#);
        assert_eq!((area.size, area.blocks().count()), ([4, 1, 6], 24));
        let single = one(r#"{"kind": "block", "block": "lantern"}"#);
        assert_eq!(items(&single)["lantern"], 1);
        // Usual sizes where none are given.
        assert_eq!(piece(r#"{"kind": "ring", "block": "dirt"}"#).size(), [5, 3, 5]);
        assert_eq!(piece(r#"{"kind": "wall", "block": "dirt", "width": 99}"#).size(), [MAX_PIECE_SIDE, 3, 1]);
    }

    #[test]
    fn roofs_are_flat_of_slabs_or_of_stairs_to_a_ridge() {
        let flat = build(
            r#"[{"kind": "ring", "block": "cobblestone", "width": 5, "depth": 4, "height": 3},
                {"kind": "roof", "block": "oak_planks"}]"#,
        );
        assert_eq!(flat.size, [5, 4, 4], "the roof covers the ring and sits on it");
        assert_eq!(items(&flat)["oak_planks"], 20);
        let slabs = build(
            r#"[{"kind": "ring", "block": "cobblestone", "width": 3, "depth": 3, "height": 2},
                {"kind": "roof", "block": "oak_planks", "style": "slab"}]"#,
        );
        assert_eq!(items(&slabs)["oak_slab"], 9, "a slab roof of planks is of their slabs");
        let pitched = build(
            r#"[{"kind": "ring", "block": "cobblestone", "width": 5, "depth": 5, "height": 3},
                {"kind": "roof", "block": "spruce_planks", "style": "stairs"}]"#,
        );
        // Five deep: two steps in from each side, then the ridge.
        assert_eq!(pitched.size, [5, 6, 5]);
        let got = items(&pitched);
        assert_eq!((got["spruce_stairs"], got["spruce_planks"]), (20, 5));
        assert_eq!(at(&pitched, [0, 3, 0]), "spruce_stairs[facing=south]", "the north slope rises southward");
        assert_eq!(at(&pitched, [0, 3, 4]), "spruce_stairs[facing=north]");
        assert_eq!(at(&pitched, [2, 5, 2]), "spruce_planks", "the ridge");
        let err = compose(
            "t",
            "t",
            Vec::new(),
            &[Piece { style: Some(RoofStyle::Stairs), ..Piece::new(Kind::Roof, "dirt") }],
        );
        assert!(err.unwrap_err().to_string().contains("no stairs"));
        assert_eq!(variant("stone_bricks", "slab").as_deref(), Some("stone_brick_slab"));
        assert_eq!(variant("cobblestone", "stairs").as_deref(), Some("cobblestone_stairs"));
        assert_eq!(variant("oak_log", "stairs").as_deref(), Some("oak_stairs"));
    }

    #[test]
    fn openings_are_cut_where_they_are_asked() {
        let hut = build(
            r#"[{"kind": "ring", "block": "cobblestone", "width": 5, "depth": 5, "height": 3,
                 "openings": [{"kind": "door", "side": "south"}, {"kind": "window", "side": "east"},
                              {"kind": "window", "side": "west"}, {"kind": "window", "side": "north", "at": 1}]}]"#,
        );
        assert_eq!(at(&hut, [2, 0, 4]), "oak_door[facing=south,half=lower]");
        assert_eq!(at(&hut, [2, 1, 4]), "oak_door[facing=south,half=upper]");
        assert_eq!(at(&hut, [4, 1, 2]), "glass_pane");
        assert_eq!(at(&hut, [0, 1, 2]), "glass_pane");
        assert_eq!(at(&hut, [1, 1, 0]), "glass_pane", "a window `at` 1 from the west end");
        let got = items(&hut);
        assert_eq!((got["cobblestone"], got["glass_pane"], got["oak_door"]), (16 * 3 - 2 - 3, 3, 1));
        let wall = build(
            r#"[{"kind": "wall", "block": "stone_bricks", "width": 9, "height": 4,
                 "openings": [{"kind": "arch", "side": "south"}, {"kind": "gate", "side": "south", "at": 0,
                 "block": "spruce_fence_gate"}]}]"#,
        );
        // The arch: three wide in the middle, as high as the wall less its top row.
        for x in 3..6 {
            for y in 0..3 {
                assert_eq!(at(&wall, [x, y, 0]), "air");
            }
            assert_eq!(at(&wall, [x, 3, 0]), "stone_bricks");
        }
        assert_eq!(at(&wall, [0, 0, 0]), "spruce_fence_gate[facing=south]");
        assert_eq!(at(&wall, [0, 1, 0]), "air");
        let shed = build(
            r#"[{"kind": "hollow_box", "block": "oak_planks", "width": 4, "height": 4, "depth": 3,
                 "openings": [{"kind": "doorway", "side": "west"}]}]"#,
        );
        assert_eq!((at(&shed, [0, 1, 1]), at(&shed, [0, 2, 1])), ("air".to_owned(), "air".to_owned()));
        assert_eq!(at(&shed, [0, 0, 1]), "oak_planks", "a doorway stands on the box's floor");
        let bad = r#"[{"kind": "wall", "block": "dirt", "openings": [{"kind": "door", "side": "south", "block": "castle"}]}]"#;
        let err = compose("t", "t", Vec::new(), &serde_json::from_str::<Vec<Piece>>(bad).unwrap()).unwrap_err();
        assert!(err.to_string().starts_with("part 1 (wall): there is no block called castle"), "{err}");
    }

    #[test]
    fn repeated_pieces_stand_at_corners_on_both_sides_and_every_few_blocks() {
        let posts = build(
            r#"[{"kind": "area", "block": "oak_planks", "width": 6, "depth": 4},
                {"kind": "column", "block": "oak_log", "y": 1, "height": 2, "repeat": "corners"},
                {"kind": "block", "block": "lantern", "y": 3, "repeat": "corners"}]"#,
        );
        let got = items(&posts);
        assert_eq!((got["oak_log"], got["lantern"]), (8, 4));
        for [x, z] in [[0, 0], [5, 0], [0, 3], [5, 3]] {
            assert_eq!(at(&posts, [x, 3, z]), "lantern");
        }
        // Railings on both sides of a deck running west to east: north and south.
        let bridge = build(
            r#"[{"kind": "area", "block": "oak_planks", "width": 8, "depth": 3},
                {"kind": "line", "block": "oak_fence", "width": 8, "y": 1, "repeat": "both_sides"}]"#,
        );
        assert_eq!(items(&bridge)["oak_fence"], 16);
        assert_eq!((at(&bridge, [4, 1, 0]), at(&bridge, [4, 1, 2])), ("oak_fence".to_owned(), "oak_fence".to_owned()));
        // A pier running north to south: posts on its west and east sides.
        let pier = build(
            r#"[{"kind": "area", "block": "spruce_planks", "width": 3, "depth": 9},
                {"kind": "column", "block": "spruce_log", "y": 1, "height": 1, "repeat": "both_sides", "every": 4}]"#,
        );
        assert_eq!(items(&pier)["spruce_log"], 6, "three along each side, every four blocks");
        for z in [0, 4, 8] {
            assert_eq!(
                (at(&pier, [0, 1, z]), at(&pier, [2, 1, z])),
                ("spruce_log".to_owned(), "spruce_log".to_owned())
            );
        }
        // Later pieces over earlier ones.
        let over = build(
            r#"[{"kind": "wall", "block": "cobblestone", "width": 5, "height": 2},
                {"kind": "block", "block": "glass", "x": 2, "y": 1, "z": 0}]"#,
        );
        assert_eq!((at(&over, [2, 1, 0]), items(&over)["cobblestone"]), ("glass".to_owned(), 9));
    }

    #[test]
    fn a_composed_design_turns_with_the_facing_asked() {
        let hut = build(
            r#"[{"kind": "ring", "block": "cobblestone", "width": 5, "depth": 3, "height": 2,
                 "openings": [{"kind": "door", "side": "south"}]}]"#,
        );
        let east = hut.facing(crate::blueprint::Facing::East);
        assert_eq!(east.size, [3, 2, 5], "turned a quarter: width and depth swap");
        let door = east.blocks().find(|p| p.block.name == "oak_door").unwrap();
        assert_eq!(door.block.properties["facing"], "east");
    }

    #[test]
    fn pieces_that_cannot_be_composed_say_which_and_why() {
        let err = |json: &str| {
            let pieces: Vec<Piece> = serde_json::from_str(json).unwrap();
            compose("t", "t", Vec::new(), &pieces).unwrap_err().to_string()
        };
        assert!(
            err(r#"[{"kind": "box", "block": "stone"}, {"kind": "block", "block": "unobtanium"}]"#)
                .starts_with("part 2 (block): there is no block called unobtanium")
        );
        assert_eq!(err("[]"), "a design needs at least one part");
        assert!(serde_json::from_str::<Piece>(r#"{"kind": "dome", "block": "stone"}"#).is_err());
        assert!(serde_json::from_str::<Piece>(r#"{"kind": "box", "block": "stone", "colour": 1}"#).is_err());
    }
}
