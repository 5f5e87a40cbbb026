//! Wayfarer's blueprint text format, for writing by hand:
//!
//! ```text
//! # A 3×2×3 box with a door (comments start with #)
//! description: a tiny cobblestone box with an oak door
//! palette:
//!   c = cobblestone
//!   d = oak_door[facing=south]
//! layer
//!   ccc
//!   c.c
//!   cdc
//! layer
//!   ccc
//!   c.c
//!   c c
//! ```
//!
//! Each `layer` line starts the next layer up, the bottom one first. In a layer, each row runs west to east and the
//! rows run north to south, so the last row is the front (south side) as drawn. `.` is air (kept clear) and a space
//! is nothing (left as the world has it); every other character is a palette key. Leading indentation is ignored
//! and shorter rows end early. A door written once gets its upper half above it.

use std::collections::BTreeMap;

use super::{Blueprint, BlueprintError, MAX_SIDE, Part, Spec};

/// Reads the text of a blueprint called `name` (the file's name, unless it says `name:`).
pub fn parse(text: &str, name: &str) -> Result<Blueprint, BlueprintError> {
    let error = |line: usize, problem: String| BlueprintError::Text { line, problem };
    let mut name = name.to_owned();
    let mut description = String::new();
    let mut palette: BTreeMap<char, Spec> = BTreeMap::from([('.', Spec::air())]);
    let mut in_palette = false;
    let mut layer: Option<i32> = None;
    let mut row = 0;
    let mut parts = Vec::new();
    let mut indent: Option<usize> = None;
    let mut blank = 0;
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') || (trimmed.is_empty() && layer.is_none()) {
            continue;
        }
        let keyword = trimmed.split([':', ' ']).next().unwrap_or("").to_ascii_lowercase();
        if keyword == "layer" {
            layer = Some(layer.map_or(0, |l| l + 1));
            if layer.is_some_and(|l| l >= MAX_SIDE) {
                return Err(error(number, format!("more than {MAX_SIDE} layers")));
            }
            in_palette = false;
            row = 0;
            blank = 0;
            indent = None;
            continue;
        }
        if layer.is_none() {
            if let Some(value) = trimmed.strip_prefix("name:") {
                name = value.trim().to_owned();
            } else if let Some(value) = trimmed.strip_prefix("description:") {
                description = value.trim().to_owned();
            } else if keyword == "palette" {
                in_palette = true;
            } else if in_palette {
                let (key, block) = trimmed.split_once('=').ok_or_else(|| {
                    error(
                        number,
                        format!("{trimmed:?} is not a palette entry: write KEY = BLOCK, e.g. c = cobblestone"),
                    )
                })?;
                let mut keys = key.trim().chars();
                let (Some(key), None) = (keys.next(), keys.next()) else {
                    return Err(error(number, format!("a palette key is one character, not {:?}", key.trim())));
                };
                if key == '.' || key == '#' {
                    return Err(error(
                        number,
                        format!("{key:?} cannot be a palette key: '.' is air and '#' a comment"),
                    ));
                }
                let spec = Spec::parse(block).map_err(|p| error(number, p))?;
                if palette.insert(key, spec).is_some() {
                    return Err(error(number, format!("the palette names {key:?} twice")));
                }
            } else {
                return Err(error(
                    number,
                    format!("{trimmed:?} is not part of a blueprint: expected name:, description:, palette: or layer"),
                ));
            }
            continue;
        }
        let y = layer.unwrap_or(0);
        // A blank line between a layer's rows is a row of nothing (as `write` writes one); before its first row or
        // after its last it is only spacing.
        if trimmed.is_empty() {
            if indent.is_some() {
                blank += 1;
            }
            continue;
        }
        row += std::mem::take(&mut blank);
        // The first row of a layer sets its indentation; rows keep their own spaces after it.
        let own_indent = line.len() - trimmed.len();
        let start = *indent.get_or_insert(own_indent);
        // (`get`: the indentation may be wide whitespace, and the first row's width can fall inside a character.)
        let cells = if own_indent >= start { line.get(start..).unwrap_or(trimmed) } else { trimmed };
        if row >= MAX_SIDE {
            return Err(error(number, format!("a layer has more than {MAX_SIDE} rows")));
        }
        for (x, key) in cells.chars().enumerate() {
            if x as i32 >= MAX_SIDE {
                return Err(error(number, format!("a row is longer than {MAX_SIDE} blocks")));
            }
            if key == ' ' {
                continue;
            }
            let block = palette.get(&key).ok_or_else(|| {
                let keys: String = palette.keys().collect();
                error(number, format!("{key:?} is not in the palette (keys: {keys})"))
            })?;
            parts.push(Part { at: [x as i32, y, row], block: block.clone() });
        }
        row += 1;
    }
    if layer.is_none() {
        return Err(BlueprintError::Invalid(
            "the blueprint has no layers: after the palette, write `layer` and its rows, bottom layer first".to_owned(),
        ));
    }
    Blueprint::new(&name, &description, parts)
}

/// The text of `blueprint` in this format (keys chosen from the block names).
pub fn write(blueprint: &Blueprint) -> String {
    let keys = keys(blueprint);
    let mut out = format!("name: {}\n", blueprint.name);
    if !blueprint.description.is_empty() {
        out.push_str(&format!("description: {}\n", blueprint.description));
    }
    out.push_str("palette:\n");
    for (spec, key) in &keys {
        out.push_str(&format!("  {key} = {spec}\n"));
    }
    for layer in layers(blueprint, &keys) {
        out.push_str("layer\n");
        for row in layer {
            out.push_str(&format!("  {row}\n"));
        }
    }
    out
}

/// One character for each kind of block `blueprint` places: a letter of its name where one is free.
pub fn keys(blueprint: &Blueprint) -> BTreeMap<&Spec, char> {
    let mut keys: BTreeMap<&Spec, char> = BTreeMap::new();
    let mut used: Vec<char> = vec!['.', '#', ' '];
    for part in blueprint.blocks() {
        if keys.contains_key(&part.block) {
            continue;
        }
        let candidates =
            part.block.name.chars().filter(char::is_ascii_alphabetic).flat_map(|c| [c, c.to_ascii_uppercase()]);
        let fallback = ('a'..='z').chain('A'..='Z').chain('0'..='9');
        let key = candidates.chain(fallback).find(|c| !used.contains(c)).unwrap_or('?');
        used.push(key);
        keys.insert(&part.block, key);
    }
    keys
}

/// `blueprint`'s layers, bottom up, as rows north to south of `keys`' characters west to east (`.` air, a space
/// nothing), each row without its trailing spaces.
pub fn layers(blueprint: &Blueprint, keys: &BTreeMap<&Spec, char>) -> Vec<Vec<String>> {
    let [w, h, d] = blueprint.size;
    let at: BTreeMap<[i32; 3], &Spec> = blueprint.parts.iter().map(|p| (p.at, &p.block)).collect();
    (0..h)
        .map(|y| {
            (0..d)
                .map(|z| {
                    let row: String = (0..w)
                        .map(|x| match at.get(&[x, y, z]) {
                            Some(spec) if spec.is_air() => '.',
                            Some(spec) => keys[spec],
                            None => ' ',
                        })
                        .collect();
                    row.trim_end().to_owned()
                })
                .collect()
        })
        .collect()
}
