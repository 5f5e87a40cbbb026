//! Blueprints from the NBT files players already have: vanilla structure-block files (`.nbt`) and Sponge schematics
//! (`.schem`, versions 2 and 3, as WorldEdit writes them). Both are usually gzip-compressed; plain NBT reads too.

use std::{
    collections::BTreeMap,
    io::{Cursor, Read},
};

use simdnbt::owned::{NbtCompound, NbtTag};

use super::{Blueprint, BlueprintError, MAX_BLOCKS, MAX_SIDE, MAX_UNPACKED_BYTES, Part, Spec};

fn bad(problem: impl Into<String>) -> BlueprintError {
    BlueprintError::Nbt(problem.into())
}

/// The root compound of an NBT file, unpacked from gzip when it is compressed (to at most [`MAX_UNPACKED_BYTES`]).
fn root(bytes: &[u8], kind: &str) -> Result<NbtCompound, BlueprintError> {
    let unpacked;
    let data = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .take(MAX_UNPACKED_BYTES + 1)
            .read_to_end(&mut out)
            .map_err(|e| bad(format!("the {kind} file is cut off or not gzip: {e}")))?;
        if out.len() as u64 > MAX_UNPACKED_BYTES {
            return Err(bad(format!("the {kind} file unpacks to more than {} MB", MAX_UNPACKED_BYTES >> 20)));
        }
        unpacked = out;
        &unpacked[..]
    } else {
        bytes
    };
    match simdnbt::owned::read(&mut Cursor::new(data)) {
        Ok(simdnbt::owned::Nbt::Some(base)) => Ok(base.as_compound()),
        Ok(simdnbt::owned::Nbt::None) => Err(bad(format!("the {kind} file is empty"))),
        Err(e) => Err(bad(format!("the {kind} file is not valid NBT (cut off?): {e}"))),
    }
}

fn string(tag: &NbtTag) -> Option<String> {
    tag.string().map(|s| s.to_str().into_owned())
}

/// A block from a structure file's palette entry: `{Name: "minecraft:oak_stairs", Properties: {facing: "north"}}`.
fn palette_entry(entry: &NbtCompound) -> Result<Spec, BlueprintError> {
    let name = entry.get("Name").and_then(string).ok_or_else(|| bad("a palette entry has no Name"))?;
    let mut properties = BTreeMap::new();
    if let Some(props) = entry.compound("Properties") {
        for (key, value) in props.iter() {
            let value = string(value).ok_or_else(|| bad(format!("{name}'s property {key} is not text")))?;
            properties.insert(key.to_str().into_owned(), value);
        }
    }
    Spec::new(&name, properties).map_err(bad)
}

/// Reads a vanilla structure-block file (`size`, `palette` or `palettes`, `blocks` of `{pos, state}`).
pub fn structure(bytes: &[u8], name: &str) -> Result<Blueprint, BlueprintError> {
    let root = root(bytes, "structure")?;
    let size = root.list("size").and_then(|l| l.ints()).ok_or_else(|| bad("the structure file has no size"))?;
    if size.len() != 3 || size.iter().any(|s| !(1..=MAX_SIDE).contains(s)) {
        return Err(bad(format!("the structure is {size:?} blocks; each side must be 1 to {MAX_SIDE}")));
    }
    let palette = match root.list("palette").and_then(|l| l.compounds()) {
        Some(palette) => palette,
        None => root
            .list("palettes")
            .and_then(|l| l.lists())
            .and_then(|lists| lists.first())
            .and_then(|l| l.compounds())
            .ok_or_else(|| bad("the structure file has no palette"))?,
    };
    let palette: Vec<Spec> = palette.iter().map(palette_entry).collect::<Result<_, _>>()?;
    let blocks = root.list("blocks").and_then(|l| l.compounds()).ok_or_else(|| bad("the structure has no blocks"))?;
    if blocks.len() > MAX_BLOCKS {
        return Err(bad(format!("the structure sets {} positions; at most {MAX_BLOCKS} are built", blocks.len())));
    }
    let mut parts = Vec::with_capacity(blocks.len());
    for block in blocks {
        let pos = block.list("pos").and_then(|l| l.ints()).filter(|p| p.len() == 3);
        let pos = pos.ok_or_else(|| bad("a block of the structure has no pos [x, y, z]"))?;
        if pos.iter().zip(size.iter()).any(|(p, s)| !(0..*s).contains(p)) {
            return Err(bad(format!("a block at {pos:?} lies outside the structure's size {size:?}")));
        }
        let state = block.int("state").ok_or_else(|| bad("a block of the structure has no state"))?;
        let spec = usize::try_from(state)
            .ok()
            .and_then(|i| palette.get(i))
            .ok_or_else(|| bad(format!("a block's state {state} is not in the palette ({} entries)", palette.len())))?;
        if spec.name == "structure_void" {
            continue;
        }
        parts.push(Part { at: [pos[0], pos[1], pos[2]], block: spec.clone() });
    }
    Blueprint::new(name, "", parts)
}

/// Reads a Sponge schematic: version 2 (`Palette`, `BlockData` at the root) or 3 (`Blocks: {Palette, Data}` inside
/// `Schematic`).
pub fn sponge(bytes: &[u8], name: &str) -> Result<Blueprint, BlueprintError> {
    let root = root(bytes, "schematic")?;
    let schematic = root.compound("Schematic").unwrap_or(&root);
    let side = |key: &str| -> Result<i32, BlueprintError> {
        let value = schematic.short(key).map(|s| i32::from(s as u16)).or_else(|| schematic.int(key));
        match value {
            Some(v) if (1..=MAX_SIDE).contains(&v) => Ok(v),
            Some(v) => Err(bad(format!("the schematic's {key} is {v}; each side must be 1 to {MAX_SIDE}"))),
            None => Err(bad(format!("the schematic has no {key}"))),
        }
    };
    let (width, height, length) = (side("Width")?, side("Height")?, side("Length")?);
    let (palette, data) = match schematic.compound("Blocks") {
        Some(blocks) => (blocks.compound("Palette"), blocks.byte_array("Data")),
        None => (schematic.compound("Palette"), schematic.byte_array("BlockData")),
    };
    let palette = palette.ok_or_else(|| bad("the schematic has no palette"))?;
    let data = data.ok_or_else(|| bad("the schematic has no block data"))?;
    let mut by_index: BTreeMap<i32, Spec> = BTreeMap::new();
    for (key, index) in palette.iter() {
        let index = index.int().ok_or_else(|| bad(format!("the palette's entry {key} is not a number")))?;
        by_index.insert(index, Spec::parse(&key.to_str()).map_err(bad)?);
    }
    let volume = (width * height * length) as usize;
    let mut parts = Vec::new();
    let mut at = 0usize;
    let mut index = 0usize;
    while at < data.len() {
        let (value, used) = varint(&data[at..]).ok_or_else(|| bad("the schematic's block data is cut off"))?;
        at += used;
        if index >= volume {
            return Err(bad(format!("the schematic's block data holds more than its {volume} blocks")));
        }
        let spec = by_index
            .get(&value)
            .ok_or_else(|| bad(format!("block data names palette entry {value}, which the palette lacks")))?;
        let i = index as i32;
        let (x, z, y) = (i % width, (i / width) % length, i / (width * length));
        if spec.name != "structure_void" {
            parts.push(Part { at: [x, y, z], block: spec.clone() });
        }
        index += 1;
    }
    if index != volume {
        return Err(bad(format!("the schematic's block data holds {index} of its {volume} blocks (cut off?)")));
    }
    Blueprint::new(name, "", parts)
}

/// A varint from the start of `bytes`: its value and how many bytes it took.
fn varint(bytes: &[u8]) -> Option<(i32, usize)> {
    let mut value: u32 = 0;
    for (i, byte) in bytes.iter().enumerate().take(5) {
        value |= u32::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((value as i32, i + 1));
        }
    }
    None
}
