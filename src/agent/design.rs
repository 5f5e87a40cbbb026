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
    blueprint::{Blueprint, Part, Spec},
    llm::{Llm, Message, Role},
};

/// The largest side and the most blocks a designed blueprint may have.
pub const MAX_SIDE: i32 = 12;
pub const MAX_BLOCKS: usize = 600;

/// How a design is answered: a shape with its sizes and blocks (what a small model gets right), or, for what no
/// shape fits, a palette and layers of rows.
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
    block: Option<String>,
    roof: Option<String>,
    door: Option<String>,
    windows: Option<String>,
    top: Option<String>,
}

/// The shapes a design may name.
const SHAPES: [&str; 6] = ["box", "wall", "pillar", "floor", "bridge", "stairs"];

/// A design's palette (character → block) and layers of rows, as the answer's free form gives them.
type Drawn = (BTreeMap<String, String>, Vec<Vec<String>>);

/// A shape's palette and layers (bottom up, rows north to south, west to east), from its sizes and blocks.
fn shaped(design: &Design, shape: &str, words: &str) -> Result<Drawn, String> {
    let side = |v: Option<i32>, default: i32| v.unwrap_or(default).clamp(1, MAX_SIDE) as usize;
    // Left out, the block is the first one the words name (`a cobblestone wall`, `a wooden bridge`).
    let named = || {
        let words: Vec<String> = crate::blueprint::content_words(words);
        // Two words name a block (`stone brick`), unless one is what is built (`cobblestone wall` is the wall).
        const BUILT: [&str; 12] = [
            "wall",
            "pillar",
            "floor",
            "bridge",
            "stair",
            "staircase",
            "house",
            "hut",
            "tower",
            "shelter",
            "post",
            "plot",
        ];
        let pairs = words
            .windows(2)
            .filter(|w| !w.iter().any(|w| BUILT.contains(&w.as_str())))
            .map(|w| format!("{}_{}", w[0], w[1]));
        let wooden = words.iter().any(|w| w == "wooden" || w == "wood").then(|| "oak_planks".to_owned());
        pairs.chain(words.iter().cloned()).find(|w| spec_near(w).is_ok_and(|s| s.item().is_some())).or(wooden)
    };
    let block = design
        .block
        .clone()
        .filter(|b| !b.trim().is_empty())
        .or_else(named)
        .ok_or("\"block\" must say what it is built of")?;
    // Doors and gates face the front (south) unless the answer says otherwise.
    let facing = |b: &String| {
        let turns = b.ends_with("_door") || b.ends_with("_fence_gate") || b.ends_with("_stairs");
        if turns && !b.contains('[') { format!("{b}[facing=south]") } else { b.clone() }
    };
    let mut palette = BTreeMap::from([("b".to_owned(), block)]);
    for (key, block) in [("r", &design.roof), ("d", &design.door), ("g", &design.windows), ("t", &design.top)] {
        // `"windows": "none"` is no windows.
        let none = |b: &&String| matches!(b.trim().to_lowercase().as_str(), "" | "none" | "null" | "no" | "air");
        if let Some(block) = block.as_ref().filter(|b| !none(b)) {
            palette.insert(key.to_owned(), facing(block));
        }
    }
    let has = |key: &str| palette.contains_key(key);
    let (mut w, mut h, mut d) = (side(design.width, 5), side(design.height, 3), side(design.depth, 5));
    match shape {
        "pillar" => (w, d) = (1, 1),
        "wall" => d = 1,
        "floor" | "bridge" => h = 1,
        "stairs" => d = h,
        _ => {}
    }
    let extra = usize::from(matches!(shape, "box" | "pillar") || (shape == "bridge" && has("t")));
    let mut grid = vec![vec![vec![' '; w]; d]; (h + extra).min(MAX_SIDE as usize)];
    for (y, layer) in grid.iter_mut().enumerate() {
        for (z, row) in layer.iter_mut().enumerate() {
            for (x, cell) in row.iter_mut().enumerate() {
                let edge = x == 0 || z == 0 || x == w - 1 || z == d - 1;
                *cell = match shape {
                    "box" if y == h => {
                        if has("r") {
                            'r'
                        } else {
                            'b'
                        }
                    }
                    "box" if edge => 'b',
                    "box" => '.',
                    "pillar" if y == h => {
                        if has("t") {
                            't'
                        } else {
                            ' '
                        }
                    }
                    "bridge" if y == 1 => {
                        if z == 0 || z == d - 1 {
                            't'
                        } else {
                            ' '
                        }
                    }
                    "stairs" if y <= z => 'b',
                    "stairs" => ' ',
                    _ => 'b',
                };
            }
        }
    }
    let (mid_x, mid_z) = (w / 2, d / 2);
    if has("d") && matches!(shape, "box" | "wall") {
        grid[0][d - 1][mid_x] = 'd';
        if h > 1 && design.door.as_deref().is_some_and(|b| b.contains("_door")) {
            grid[1][d - 1][mid_x] = '.';
        }
    }
    if has("g") && shape == "box" && h >= 3 && w >= 3 && d >= 3 {
        for (x, z) in [(0, mid_z), (w - 1, mid_z), (mid_x, 0)] {
            grid[1][z][x] = 'g';
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
    let bare = name.strip_suffix('s').unwrap_or(&name).to_owned();
    let near = [
        name.clone(),
        format!("{name}s"),
        bare.clone(),
        format!("oak_{name}"),
        format!("oak_{name}s"),
        format!("oak_{bare}"),
    ];
    near.iter().find_map(|n| Spec::parse(&format!("{n}{rest}")).ok()).ok_or_else(|| why.clone())
}

/// The shape of a design answer, for endpoints that hold answers to a JSON schema.
fn schema() -> serde_json::Value {
    let side = MAX_SIDE;
    serde_json::json!({
        "type": "object",
        "properties": {
            "name": { "type": "string", "maxLength": 40 },
            "description": { "type": "string", "maxLength": 200 },
            "shape": { "type": "string", "enum": SHAPES },
            "width": { "type": "integer", "minimum": 1, "maximum": side },
            "depth": { "type": "integer", "minimum": 1, "maximum": side },
            "height": { "type": "integer", "minimum": 1, "maximum": side },
            "block": { "type": "string" },
            "roof": { "type": "string" },
            "door": { "type": "string" },
            "windows": { "type": "string" },
            "top": { "type": "string" },
            "palette": {
                "type": "object",
                "additionalProperties": { "type": "string" },
                "maxProperties": 16,
            },
            "layers": {
                "type": "array",
                "minItems": 1,
                "maxItems": side,
                "items": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": side,
                    "items": { "type": "string", "maxLength": side },
                },
            },
        },
        "required": ["name", "description", "shape", "width", "depth", "height", "block"],
        "additionalProperties": false,
    })
}

/// Reads an answer into a checked blueprint, or says what is wrong with it in words the model can act on.
pub fn read(answer: &str, words: &str) -> Result<Blueprint, String> {
    let mut design: Design = extract::json_first::<Design, Design, String>(answer, Json::Object, Ok)?;
    if let Some(shape) = design.shape.clone().filter(|s| !s.trim().is_empty()) {
        let shape = shape.trim().to_lowercase();
        if !SHAPES.contains(&shape.as_str()) {
            return Err(format!("\"shape\" {shape:?} is not one of {}; or give palette and layers", SHAPES.join(", ")));
        }
        (design.palette, design.layers) = shaped(&design, &shape, words)?;
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
    if design.layers.is_empty() {
        return Err("give a \"shape\" with its sizes and \"block\", or a \"palette\" and \"layers\" of rows".to_owned());
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
    let description = if design.description.trim().is_empty() { words.to_owned() } else { design.description };
    let blueprint =
        Blueprint::new(&name, &description, parts).map_err(|e| format!("the blueprint does not read: {e}"))?;
    let [w, h, d] = blueprint.size;
    if w.max(h).max(d) > MAX_SIDE || blueprint.blocks().count() > MAX_BLOCKS {
        return Err(format!(
            "it is {w}×{h}×{d} with {} blocks; keep it within {MAX_SIDE} a side and {MAX_BLOCKS} blocks",
            blueprint.blocks().count()
        ));
    }
    for (item, count) in blueprint.materials() {
        match recipes::plan(&Want::Have { item: item.clone(), count }, &Setting::default()) {
            Ok(_) | Err(NoSteps::Carried { .. }) => {}
            Err(why) => {
                return Err(format!("it needs {item}, which a player cannot get here ({why}); use another block"));
            }
        }
    }
    Ok(blueprint)
}

/// Asks `llm` for a blueprint of what `words` describe (twice at most).
pub async fn design(llm: &Llm, words: &str) -> Result<Blueprint, String> {
    let prompt = prompts::render(
        "blueprint",
        &[("words", words), ("max_side", &MAX_SIDE.to_string()), ("max_blocks", &MAX_BLOCKS.to_string())],
    )
    .map_err(|e| e.to_string())?;
    let mut messages = vec![Message::user(prompt)];
    let mut last = String::new();
    for _ in 0..2 {
        // An answer cut off at the token limit is a design too big to write out: asked again, smaller.
        let (content, usable) = match llm.chat_json(Role::Curriculum, &messages, 0.0, &schema()).await {
            Ok(reply) => {
                let usable = read(&reply.content, words);
                (reply.content, usable)
            }
            Err(crate::llm::LlmError::CutOff { content, max_tokens, .. }) => {
                (content, Err(format!("it is too big to write out in {max_tokens} tokens; draw it smaller")))
            }
            Err(e) => return Err(format!("the LLM failed: {e}")),
        };
        match usable {
            Ok(blueprint) => return Ok(blueprint),
            Err(why) => {
                tracing::info!("unusable blueprint for {words:?}: {why}");
                messages.push(Message { role: "assistant".to_owned(), content });
                messages.push(Message::user(format!(
                    "That blueprint cannot be built: {why}. Answer the whole JSON again."
                )));
                last = why;
            }
        }
    }
    Err(last)
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
    fn a_shape_with_sizes_becomes_its_blueprint() {
        let shape = |fields: &str| read(&format!(r#"{{"name": "x", "description": "y", {fields}}}"#), "x");
        let pillar = shape(r#""shape": "pillar", "height": 4, "block": "cobblestone", "top": "torch""#).unwrap();
        assert_eq!(pillar.size, [1, 5, 1]);
        assert_eq!(pillar.materials(), [("cobblestone".to_owned(), 4), ("torch".to_owned(), 1)]);
        let wall =
            shape(r#""shape": "wall", "width": 7, "height": 2, "block": "cobblestone", "door": "oak_fence_gate""#)
                .unwrap();
        assert_eq!(wall.size, [7, 2, 1]);
        assert_eq!(wall.materials(), [("cobblestone".to_owned(), 13), ("oak_fence_gate".to_owned(), 1)]);
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
        let plain =
            r#"{"name": "s", "shape": "box", "width": 3, "depth": 3, "height": 2, "block": "dirt", "windows": "none"}"#;
        assert_eq!(read(plain, "a dirt shelter").unwrap().materials(), [("dirt".to_owned(), 8 + 8 + 9)]);
        assert!(shape(r#""width": 3"#).unwrap_err().contains("shape"));
    }
}
