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
    blueprint::{Blueprint, Folder, Part, Spec},
    llm::{Llm, Message, Role},
};

/// The largest side and the most blocks a designed blueprint may have.
pub const MAX_SIDE: i32 = 12;
pub const MAX_BLOCKS: usize = 600;

/// How a design is answered.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Design {
    name: String,
    #[serde(default)]
    description: String,
    palette: BTreeMap<String, String>,
    layers: Vec<Vec<String>>,
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
        "required": ["name", "description", "palette", "layers"],
        "additionalProperties": false,
    })
}

/// Reads an answer into a checked blueprint, or says what is wrong with it in words the model can act on.
pub fn read(answer: &str, words: &str) -> Result<Blueprint, String> {
    let design: Design = extract::json_first::<Design, Design, String>(answer, Json::Object, Ok)?;
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
        return Err("\"layers\" is empty: give at least one layer of rows".to_owned());
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

/// The most example blueprints a design prompt shows, and the most blocks one may have.
const EXAMPLES: usize = 2;
const EXAMPLE_BLOCKS: usize = 100;

/// A blueprint written as a design answer, for a prompt's examples: `{"name": …, "palette": …, "layers": …}`.
pub fn answer_form(blueprint: &Blueprint) -> String {
    // A door is written once, in its bottom layer, as the prompt asks.
    let mut shown = blueprint.clone();
    for part in shown.parts.iter_mut().filter(|p| p.block.name.ends_with("_door")) {
        if part.block.properties.remove("half").is_some_and(|h| h == "upper") {
            part.block = Spec::air();
        }
    }
    let keys = crate::blueprint::text::keys(&shown);
    let palette: BTreeMap<String, String> =
        keys.iter().map(|(spec, key)| (key.to_string(), spec.to_string())).collect();
    serde_json::json!({
        "name": shown.name,
        "description": shown.description,
        "palette": palette,
        "layers": crate::blueprint::text::layers(&shown, &keys),
    })
    .to_string()
}

/// Asks `llm` for a blueprint of what `words` describe (twice at most). `folder`'s blueprints nearest the words
/// (small ones) are shown as examples of the form: a small model copies a worked example far better than it follows
/// a description of the format.
pub async fn design(llm: &Llm, words: &str, folder: &Folder) -> Result<Blueprint, String> {
    let examples: Vec<String> = folder
        .ranked(words)
        .0
        .into_iter()
        .filter(|(_, b)| b.blocks().count() <= EXAMPLE_BLOCKS)
        .take(EXAMPLES)
        .map(|(_, b)| answer_form(&b))
        .collect();
    let examples = if examples.is_empty() { "(none yet)".to_owned() } else { examples.join("\n") };
    let prompt = prompts::render(
        "blueprint",
        &[
            ("words", words),
            ("max_side", &MAX_SIDE.to_string()),
            ("max_blocks", &MAX_BLOCKS.to_string()),
            ("examples", &examples),
        ],
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
    fn a_kept_blueprint_shown_as_an_example_reads_back_as_itself() {
        let folder = Folder::new(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("skills/blueprints"));
        for name in ["hut", "pillar", "wall_with_gate", "two_storey_house"] {
            let kept = Blueprint::load(&folder.path_of(name).unwrap()).unwrap();
            let example = answer_form(&kept);
            assert!(!example.contains("half=upper"), "a door is written once: {example}");
            let read = read(&example, "x").unwrap();
            assert_eq!(read.size, kept.size, "{name}");
            assert_eq!(read.materials(), kept.materials(), "{name}");
            assert_eq!(read.parts, kept.parts, "{name}");
        }
        let (ranked, words) = folder.ranked("a stone brick pillar with a lamp");
        assert_eq!(words, 4);
        assert_eq!(ranked[0].1.name, "lamp_post", "{:?}", ranked.iter().map(|(n, b)| (n, &b.name)).collect::<Vec<_>>());
    }
}
