//! Blueprints: what to build, block by block, read from the files players write or already have.
//!
//! Three formats, told apart by their extension:
//! - `.txt`, Wayfarer's text format for writing by hand ([`text`]): a palette of one-character keys, then layers of
//!   rows, bottom layer first, each row from west to east and the rows from north to south.
//! - `.nbt`, the vanilla structure block's files ([`nbt`]): gzip NBT with a size, a palette and positioned blocks.
//! - `.schem`, Sponge schematics as WorldEdit writes them (versions 2 and 3): gzip NBT with a palette and a
//!   varint-packed block array.
//!
//! Every format reads to the same [`Blueprint`]: positions from its north-west bottom corner and the block each one
//! must hold (air where the builder must clear). Block names and properties are checked against the game's
//! registry, so a blueprint that reads is one the builder can aim at.

pub mod compose;
mod facing;
pub mod nbt;
mod share;
pub mod text;

pub use facing::Facing;
pub use share::{MAX_SHARES, Share};

use std::{
    collections::BTreeMap,
    fmt,
    path::{Path, PathBuf},
    str::FromStr,
};

use azalea::{
    block::{BlockState, BlockTrait},
    registry::builtin::{BlockKind, ItemKind},
};

/// The most blocks a blueprint may hold (air included), and the longest side it may have.
pub const MAX_BLOCKS: usize = 8192;
pub const MAX_SIDE: i32 = 48;
/// The largest blueprint file read, and the most its gzip may unpack to.
pub const MAX_FILE_BYTES: u64 = 4 << 20;
pub const MAX_UNPACKED_BYTES: u64 = 32 << 20;

/// The extensions a blueprint file may have, in the order a name is looked up.
pub const EXTENSIONS: [&str; 3] = ["txt", "nbt", "schem"];

/// Block properties the builder sets and the score's second figure checks: which way a block faces, which half of
/// the space it takes, along which axis it lies. The rest (stairs' shape, fences' connections, whether a door is
/// open) follow from the neighbours or from use, not from how the block was placed.
pub const PLACED_PROPERTIES: [&str; 7] = ["facing", "half", "type", "axis", "rotation", "face", "hanging"];

/// A block a blueprint asks for: its name (without `minecraft:`) and the properties it sets.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Spec {
    pub name: String,
    pub properties: BTreeMap<String, String>,
}

impl Spec {
    /// Reads `oak_stairs[facing=north,half=bottom]` (with or without `minecraft:`), checked against the registry.
    pub fn parse(text: &str) -> Result<Spec, String> {
        let text = text.trim();
        let (name, rest) = match text.find('[') {
            Some(at) => (&text[..at], Some(&text[at + 1..])),
            None => (text, None),
        };
        let mut properties = BTreeMap::new();
        if let Some(rest) = rest {
            let inside = rest.strip_suffix(']').ok_or_else(|| format!("{text:?} opens [ without closing it"))?;
            for pair in inside.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                let (key, value) = pair
                    .split_once('=')
                    .ok_or_else(|| format!("{pair:?} in {text:?} is not PROPERTY=VALUE (e.g. facing=north)"))?;
                properties.insert(key.trim().to_owned(), value.trim().to_owned());
            }
        }
        Spec::new(name, properties)
    }

    /// A spec from a name and properties, checked against the registry.
    pub fn new(name: &str, properties: BTreeMap<String, String>) -> Result<Spec, String> {
        let name = name.trim();
        let name = name.strip_prefix("minecraft:").unwrap_or(name).to_owned();
        let spec = Spec { name, properties };
        spec.state()?;
        Ok(spec)
    }

    /// Air, which a blueprint uses for space the builder keeps clear.
    pub fn air() -> Spec {
        Spec { name: "air".to_owned(), properties: BTreeMap::new() }
    }

    pub fn is_air(&self) -> bool {
        matches!(self.name.as_str(), "air" | "cave_air" | "void_air")
    }

    /// The block state this spec names: the block's default state with the spec's properties set.
    pub fn state(&self) -> Result<BlockState, String> {
        let kind = BlockKind::from_str(&self.name).map_err(|()| format!("there is no block called {}", self.name))?;
        let mut block: Box<dyn BlockTrait> = Box::from(kind);
        for (key, value) in &self.properties {
            if block.set_property(key, value).is_err() {
                let mut known: Vec<String> =
                    block.property_map().into_iter().map(|(k, v)| format!("{k} (e.g. {v})")).collect();
                known.sort();
                let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
                return Err(format!("{} has no property {key}={value}; its properties: {known}", self.name));
            }
        }
        Ok(block.as_block_state())
    }

    /// The item a player places to get this block (`torch` for a wall torch), or `None` for blocks that come with
    /// another (a door's upper half, a bed's head) or from no item.
    pub fn item(&self) -> Option<String> {
        let name = self.name.as_str();
        if self.is_air() || self.properties.get("half").is_some_and(|h| h == "upper") && name.ends_with("_door") {
            return None;
        }
        if name.ends_with("_bed") && self.properties.get("part").is_some_and(|p| p == "head") {
            return None;
        }
        let item = match name {
            "wall_torch" => "torch".to_owned(),
            "soul_wall_torch" => "soul_torch".to_owned(),
            "redstone_wall_torch" => "redstone_torch".to_owned(),
            "redstone_wire" => "redstone".to_owned(),
            "water" => "water_bucket".to_owned(),
            "lava" => "lava_bucket".to_owned(),
            "tripwire" => "string".to_owned(),
            _ if name.ends_with("_wall_sign") => name.replace("_wall_sign", "_sign"),
            _ if name.ends_with("_wall_hanging_sign") => name.replace("_wall_hanging_sign", "_hanging_sign"),
            _ if name.ends_with("_wall_banner") => name.replace("_wall_banner", "_banner"),
            _ => name.to_owned(),
        };
        ItemKind::from_str(&item).is_ok().then_some(item)
    }

    /// How many of [`Self::item`] the block takes: a double slab two.
    pub fn item_count(&self) -> u32 {
        if self.name.ends_with("_slab") && self.properties.get("type").is_some_and(|t| t == "double") { 2 } else { 1 }
    }

    /// Whether a world block (by name and its properties) is this one as placed: the same block, with the same
    /// value of every [`PLACED_PROPERTIES`] entry the spec sets.
    pub fn placed_as(&self, name: &str, properties: &BTreeMap<String, String>) -> bool {
        name == self.name
            && self
                .properties
                .iter()
                .filter(|(k, _)| PLACED_PROPERTIES.contains(&k.as_str()))
                .all(|(k, v)| properties.get(k) == Some(v))
    }

    /// This spec turned `turns` quarter turns clockwise (seen from above).
    fn turned(&self, turns: u8) -> Spec {
        let mut spec = self.clone();
        let turns = turns % 4;
        if turns == 0 {
            return spec;
        }
        const ROUND: [&str; 4] = ["north", "east", "south", "west"];
        let turn = |side: &str| ROUND.iter().position(|s| *s == side).map(|i| ROUND[(i + turns as usize) % 4]);
        if let Some(facing) = spec.properties.get("facing").and_then(|f| turn(f)) {
            spec.properties.insert("facing".to_owned(), facing.to_owned());
        }
        if turns % 2 == 1
            && let Some(axis) = spec.properties.get_mut("axis")
        {
            *axis = match axis.as_str() {
                "x" => "z".to_owned(),
                "z" => "x".to_owned(),
                other => other.to_owned(),
            };
        }
        if let Some(rotation) = spec.properties.get_mut("rotation")
            && let Ok(r) = rotation.parse::<u8>()
        {
            *rotation = ((r + 4 * turns) % 16).to_string();
        }
        // Connections to the sides (fences, walls, panes) turn with the block.
        let sides: Vec<(String, String)> =
            ROUND.iter().filter_map(|s| spec.properties.remove(*s).map(|v| (turn(s).unwrap().to_owned(), v))).collect();
        spec.properties.extend(sides);
        spec
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.properties.is_empty() {
            let pairs: Vec<String> = self.properties.iter().map(|(k, v)| format!("{k}={v}")).collect();
            write!(f, "[{}]", pairs.join(","))?;
        }
        Ok(())
    }
}

/// One position of a blueprint and the block it must hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// From the blueprint's north-west bottom corner: x east, y up, z south.
    pub at: [i32; 3],
    pub block: Spec,
}

/// What to build: a name, what it is, its size, and every position it sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blueprint {
    pub name: String,
    pub description: String,
    /// Width (x), height (y) and depth (z).
    pub size: [i32; 3],
    /// Every position the blueprint sets (air ones too), bottom layer first.
    pub parts: Vec<Part>,
}

/// Why a blueprint could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BlueprintError {
    #[error("cannot read {}: {cause}", .path.display())]
    Read { path: PathBuf, cause: std::io::Error },
    #[error("{} is {size} bytes; a blueprint file may be at most {} MB", .path.display(), MAX_FILE_BYTES >> 20)]
    TooBigFile { path: PathBuf, size: u64 },
    #[error("{} has no blueprint extension: use .txt, .nbt or .schem", .path.display())]
    Extension { path: PathBuf },
    #[error("line {line}: {problem}")]
    Text { line: usize, problem: String },
    #[error("{0}")]
    Nbt(String),
    #[error("{0}")]
    Invalid(String),
}

impl Blueprint {
    /// A blueprint from its parts, with its size measured, doors made whole and the limits checked.
    pub fn new(name: &str, description: &str, parts: Vec<Part>) -> Result<Blueprint, BlueprintError> {
        let mut parts = parts;
        complete_doors(&mut parts);
        if parts.iter().all(|p| p.block.is_air()) {
            return Err(BlueprintError::Invalid("the blueprint has no blocks, only air".to_owned()));
        }
        if parts.len() > MAX_BLOCKS {
            return Err(BlueprintError::Invalid(format!(
                "the blueprint sets {} positions; at most {MAX_BLOCKS} are built",
                parts.len()
            )));
        }
        let least = |i: usize| parts.iter().map(|p| p.at[i]).min().unwrap_or(0);
        let most = |i: usize| parts.iter().map(|p| p.at[i]).max().unwrap_or(0);
        let (low, high) = ([least(0), least(1), least(2)], [most(0), most(1), most(2)]);
        for part in &mut parts {
            for (at, low) in part.at.iter_mut().zip(low) {
                *at -= low;
            }
        }
        let size = [high[0] - low[0] + 1, high[1] - low[1] + 1, high[2] - low[2] + 1];
        if size.iter().any(|s| *s > MAX_SIDE) {
            return Err(BlueprintError::Invalid(format!(
                "the blueprint is {}×{}×{} blocks; each side may be at most {MAX_SIDE}",
                size[0], size[1], size[2]
            )));
        }
        for part in &parts {
            if !part.block.is_air() && part.block.item().is_none() && !comes_with_another(&part.block) {
                return Err(BlueprintError::Invalid(format!(
                    "{} cannot be placed: no item places it",
                    part.block.name
                )));
            }
        }
        parts.sort_by_key(|p| (p.at[1], p.at[2], p.at[0]));
        parts.dedup_by(|later, earlier| later.at == earlier.at);
        Ok(Blueprint { name: name.to_owned(), description: description.trim().to_owned(), size, parts })
    }

    /// Reads a blueprint file, by its extension.
    pub fn load(path: &Path) -> Result<Blueprint, BlueprintError> {
        let read_error = |cause| BlueprintError::Read { path: path.to_owned(), cause };
        let size = std::fs::metadata(path).map_err(read_error)?.len();
        if size > MAX_FILE_BYTES {
            return Err(BlueprintError::TooBigFile { path: path.to_owned(), size });
        }
        let name = path.file_stem().map_or_else(|| "blueprint".to_owned(), |s| s.to_string_lossy().into_owned());
        let extension = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("txt") => {
                let bytes = std::fs::read(path).map_err(read_error)?;
                let text = String::from_utf8_lossy(&bytes);
                text::parse(&text, &name)
            }
            Some("nbt") => nbt::structure(&std::fs::read(path).map_err(read_error)?, &name),
            Some("schem") => nbt::sponge(&std::fs::read(path).map_err(read_error)?, &name),
            _ => Err(BlueprintError::Extension { path: path.to_owned() }),
        }
    }

    /// The blocks to place (not air), bottom layer first.
    pub fn blocks(&self) -> impl Iterator<Item = &Part> {
        self.parts.iter().filter(|p| !p.block.is_air())
    }

    /// The blueprint turned so its front faces `facing`; its corner stays the north-west bottom one.
    pub fn facing(&self, facing: Facing) -> Blueprint {
        let turns = facing.turns();
        let mut turned = self.clone();
        for _ in 0..turns {
            let depth = turned.size[2];
            for part in &mut turned.parts {
                let [x, y, z] = part.at;
                part.at = [depth - 1 - z, y, x];
            }
            turned.size = [turned.size[2], turned.size[1], turned.size[0]];
        }
        for part in &mut turned.parts {
            part.block = part.block.turned(turns);
        }
        turned.parts.sort_by_key(|p| (p.at[1], p.at[2], p.at[0]));
        turned
    }

    /// `share` of the blueprint, for one member of a team: the footprint's columns are taken west to east (north to
    /// south on a blueprint deeper than wide) and cut into strips of about as many blocks each, so every member
    /// works its own side and the strips meet. A share keeps the whole blueprint's size, so its positions are the
    /// whole's; it holds only its own columns (air among them, to clear).
    pub fn share(&self, share: Share) -> Blueprint {
        let [w, _, d] = self.size;
        let column = |at: [i32; 3]| if w >= d { (at[0], at[2]) } else { (at[2], at[0]) };
        let mut counts: BTreeMap<(i32, i32), usize> = BTreeMap::new();
        for part in &self.parts {
            *counts.entry(column(part.at)).or_default() += usize::from(!part.block.is_air());
        }
        let total = counts.values().sum::<usize>().max(1);
        let of = usize::from(share.of);
        let mut before = 0;
        let mut strip: BTreeMap<(i32, i32), usize> = BTreeMap::new();
        for (key, count) in counts {
            // A column goes to the strip its middle block falls in.
            strip.insert(key, ((2 * before + count) * of / (2 * total)).min(of - 1));
            before += count;
        }
        let mine = usize::from(share.index) - 1;
        Blueprint {
            name: format!("{} part {share}", self.name),
            description: self.description.clone(),
            size: self.size,
            parts: self.parts.iter().filter(|p| strip.get(&column(p.at)) == Some(&mine)).cloned().collect(),
        }
    }

    /// The items the blueprint takes, by item, most first.
    pub fn materials(&self) -> Vec<(String, u32)> {
        let mut counts: BTreeMap<String, u32> = BTreeMap::new();
        for part in self.blocks() {
            if let Some(item) = part.block.item() {
                *counts.entry(item).or_default() += part.block.item_count();
            }
        }
        let mut list: Vec<(String, u32)> = counts.into_iter().collect();
        list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        list
    }

    /// One line for chat: `hut (5×4×5, 62 blocks: 40 cobblestone, 16 oak_planks, 4 glass_pane, 1 oak_door)`.
    pub fn summary(&self) -> String {
        let [w, h, d] = self.size;
        let blocks = self.blocks().count();
        let materials: Vec<String> = self.materials().iter().map(|(item, n)| format!("{n} {item}")).collect();
        format!("{} ({w}×{h}×{d}, {blocks} blocks: {})", self.name, materials.join(", "))
    }
}

/// Blocks that come with the one beside them (a door's upper half, a bed's head), so they need no item of their own.
fn comes_with_another(spec: &Spec) -> bool {
    (spec.name.ends_with("_door") && spec.properties.get("half").is_some_and(|h| h == "upper"))
        || (spec.name.ends_with("_bed") && spec.properties.get("part").is_some_and(|p| p == "head"))
}

/// Doors written as one block (a hand-written blueprint's `d`) get their halves: the lowest of a column of the same
/// door is its lower half and the one above it the upper half, added when the blueprint leaves that space open.
fn complete_doors(parts: &mut Vec<Part>) {
    let door_at: BTreeMap<[i32; 3], usize> =
        parts.iter().enumerate().filter(|(_, p)| p.block.name.ends_with("_door")).map(|(i, p)| (p.at, i)).collect();
    let mut added = Vec::new();
    for (&[x, y, z], &i) in &door_at {
        if parts[i].block.properties.contains_key("half") {
            continue;
        }
        let below = door_at.get(&[x, y - 1, z]).is_some_and(|&j| parts[j].block.name == parts[i].block.name);
        let half = if below { "upper" } else { "lower" };
        parts[i].block.properties.insert("half".to_owned(), half.to_owned());
        let above = [x, y + 1, z];
        if !below && !door_at.contains_key(&above) {
            let mut upper = parts[i].block.clone();
            upper.properties.insert("half".to_owned(), "upper".to_owned());
            match parts.iter().position(|p| p.at == above) {
                Some(j) if parts[j].block.is_air() => parts[j].block = upper,
                Some(_) => {}
                None => added.push(Part { at: above, block: upper }),
            }
        }
    }
    parts.extend(added);
}

/// The blueprints in a folder, found by name.
#[derive(Clone, Debug)]
pub struct Folder {
    dir: PathBuf,
}

impl Folder {
    pub fn new(dir: impl Into<PathBuf>) -> Folder {
        Folder { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The blueprints' names (file stems of every file with a blueprint extension), sorted.
    pub fn names(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| EXTENSIONS.iter().any(|x| e.eq_ignore_ascii_case(x))))
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The file for `name`: a blueprint in the folder by name (any extension), or a path to a blueprint file.
    pub fn path_of(&self, name: &str) -> Option<PathBuf> {
        let given = Path::new(name);
        if given.extension().is_some_and(|e| EXTENSIONS.iter().any(|x| e.eq_ignore_ascii_case(x))) {
            let path = if given.is_absolute() || given.exists() { given.to_owned() } else { self.dir.join(given) };
            return path.exists().then_some(path);
        }
        if name.contains(['/', '\\']) {
            return None;
        }
        EXTENSIONS.iter().map(|e| self.dir.join(format!("{name}.{e}"))).find(|p| p.exists())
    }

    /// Every blueprint that reads, with its description, for finding one that fits words.
    pub fn all(&self) -> Vec<Blueprint> {
        self.names().iter().filter_map(|n| self.path_of(n)).filter_map(|p| Blueprint::load(&p).ok()).collect()
    }

    /// The folder blueprint `words` describe: one whose name the words name (`hut`; `footbridge` names `bridge`)
    /// and that shares at least half the words that say what the thing is with its name and description (`a tiny
    /// dirt tower` is not the dirt shelter; `a cobblestone hut with an oak door` is not the house with an oak door).
    pub fn fitting(&self, words: &str) -> Option<Blueprint> {
        let (ranked, count) = self.ranked(words);
        let wanted = content_words(words);
        let named =
            |b: &Blueprint| b.name.split('_').filter(|n| n.len() >= 3).any(|n| wanted.iter().any(|w| w.contains(n)));
        ranked.into_iter().find(|(shared, b)| count > 1 && shared * 2 >= count && named(b)).map(|(_, b)| b)
    }

    /// The folder's blueprints by how many of the words that say what `words` describe their names and descriptions
    /// share ([`content_words`]), most first (ties by name); with the number of `words`' content words.
    pub fn ranked(&self, words: &str) -> (Vec<(usize, Blueprint)>, usize) {
        let wanted = content_words(words);
        let mut ranked: Vec<(usize, Blueprint)> = self
            .all()
            .into_iter()
            .map(|b| {
                let own = content_words(&format!("{} {}", b.name.replace('_', " "), b.description));
                (wanted.iter().filter(|w| own.contains(w)).count(), b)
            })
            .collect();
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.name.cmp(&b.1.name)));
        (ranked, wanted.len())
    }
}

/// The words that say what a thing is (not "a", "with", "the"), lower case, a plural's `s` dropped.
pub fn content_words(text: &str) -> Vec<String> {
    const FILLER: [&str; 14] =
        ["a", "an", "the", "with", "and", "of", "in", "on", "to", "me", "some", "small", "little", "build"];
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| !w.is_empty() && !FILLER.contains(&w.as_str()))
        .map(|w| w.strip_suffix('s').filter(|s| s.len() > 2).map_or(w.clone(), str::to_owned))
        .collect()
}

#[cfg(test)]
mod tests;
