//! The second reader of a goal: when the words are not read whole by the reader (`reading`), the LLM fills the
//! reader's own form through a JSON schema (so a small model cannot answer outside it), the form is written as the
//! reader's words (`build a pillar of 5 cobblestone`), and those words must read whole and hold to the owner's:
//! every number and every game thing the owner named is in them, and none the owner did not name. A form that does
//! not hold is no reading, and the owner is asked instead. Nothing here plans or acts.

use std::collections::BTreeSet;

use serde::Deserialize;

use super::{
    prompts,
    reading::{Asked, Effect, Shape, Side},
    vocab,
};
use crate::{
    config::Lang,
    llm::{Llm, Message, Role},
};

/// The form the LLM fills: the reader's kinds, as words.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct Form {
    pub effect: String,
    pub block: Option<String>,
    pub count: Option<u32>,
    pub shape: Option<String>,
    pub long: Option<u32>,
    pub wide: Option<u32>,
    pub high: Option<u32>,
    pub deep: Option<u32>,
    pub side: Option<String>,
    pub beside: Option<String>,
    pub player: Option<String>,
}

/// The form's JSON schema, kept beside [`Form`]: a test holds the two to the same fields.
pub fn schema() -> serde_json::Value {
    let number = serde_json::json!({ "type": "integer", "minimum": 1, "maximum": 64 });
    let text = serde_json::json!({ "type": "string" });
    serde_json::json!({
        "type": "object",
        "properties": {
            "effect": { "type": "string", "enum": ["place", "dig", "go", "store", "give"] },
            "block": text,
            "count": number,
            "shape": { "type": "string", "enum": ["line", "column", "wall", "floor", "ring", "solid", "hole", "around"] },
            "long": number,
            "wide": number,
            "high": number,
            "deep": number,
            "side": { "type": "string", "enum": ["next_to", "on_top", "under", "north", "south", "east", "west"] },
            "beside": text,
            "player": text
        },
        "required": ["effect"]
    })
}

impl Form {
    /// The form a reading fills: written with [`words`], it reads as `asked` again (a position is not in the form:
    /// `None` for a reading with one).
    pub fn of(asked: &Asked) -> Option<Form> {
        if asked.at.is_some() {
            return None;
        }
        let effect = match asked.effect {
            Effect::Place => "place",
            Effect::Dig => "dig",
            Effect::Go => "go",
            Effect::Store => "store",
            Effect::Give => "give",
        };
        let mut form = Form {
            effect: effect.to_owned(),
            block: asked.thing.clone(),
            count: asked.count,
            player: asked.player.clone(),
            ..Form::default()
        };
        if let Some(beside) = &asked.beside {
            form.side = Some(beside.side.key().to_owned());
            form.beside = beside.block.clone();
        }
        let (shape, long, wide, high, deep) = match asked.shape {
            None => return Some(form),
            Some(Shape::Line(n)) => ("line", Some(n), None, None, None),
            Some(Shape::Column(n)) => ("column", None, None, Some(n), None),
            Some(Shape::Wall { long, high }) => ("wall", Some(long), None, Some(high), None),
            Some(Shape::Floor { long, wide }) => ("floor", Some(long), Some(wide), None, None),
            Some(Shape::Ring { long, wide }) => ("ring", Some(long), Some(wide), None, None),
            Some(Shape::Block { long, wide, high }) => ("solid", Some(long), Some(wide), Some(high), None),
            Some(Shape::Hole(n)) => ("hole", None, None, None, Some(n)),
            Some(Shape::Pit { long, wide, deep }) => ("hole", Some(long), Some(wide), None, Some(deep)),
            Some(Shape::Around) => ("around", None, None, None, None),
        };
        Some(Form { shape: Some(shape.to_owned()), long, wide, high, deep, count: None, ..form })
    }
}

/// The reader's words for `form` (`place a 3 by 3 floor of dirt`), when it says enough to be written so.
pub fn words(form: &Form) -> Option<String> {
    let id = |name: &Option<String>| {
        name.as_deref()
            .map(|n| n.trim().to_lowercase().replace(' ', "_"))
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
    };
    let block = id(&form.block);
    let many = |n: Option<u32>| n.map_or("a".to_owned(), |n| n.to_string());
    let side = form.side.as_deref().and_then(Side::from_key).map_or("", Side::words);
    let beside = id(&form.beside).filter(|_| !side.is_empty()).map(|b| format!(" {side} the {b}"));
    Some(match form.effect.as_str() {
        "place" => {
            let block = block?;
            match form.shape.as_deref() {
                Some("line") => format!("place {} {block} in a line", form.long.or(form.count)?),
                Some("column") => format!("build a pillar of {} {block}", form.high.or(form.count)?),
                Some("wall") => format!("build a wall of {block} {} long and {} high", form.long?, form.high?),
                Some("floor") => format!("place a {} by {} floor of {block}", form.long?, form.wide.or(form.long)?),
                Some("ring") => format!("place a ring of {block} {} by {}", form.long?, form.wide.or(form.long)?),
                Some("around") => format!("surround yourself with {block}"),
                Some("solid") => {
                    format!("build a {}x{} tower of {block} {} high", form.long?, form.wide.or(form.long)?, form.high?)
                }
                Some(_) => return None,
                None => format!("place {} {block}{}", many(form.count), beside.unwrap_or_default()),
            }
        }
        "dig" => match (form.shape.as_deref(), block) {
            (Some("hole"), _) => match (form.long, form.wide) {
                (Some(long), Some(wide)) if long * wide > 1 => {
                    format!("dig a {long} by {wide} hole {} deep", form.deep.or(form.count)?)
                }
                _ => format!("dig a hole {} deep", form.deep.or(form.count)?),
            },
            (Some(_), _) => return None,
            (None, Some(block)) => match form.count {
                Some(n) => format!("dig {n} {block}"),
                None => format!("dig the {block} near you"),
            },
            (None, None) => return None,
        },
        "go" => format!("go stand on the {}", block?),
        "store" => format!("store {} {} in the chest{}", many(form.count), block?, beside.unwrap_or_default()),
        "give" => {
            let player =
                form.player.as_deref().map(str::trim).filter(|p| {
                    (1..=16).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                })?;
            format!("give {} {} to {player}", many(form.count), block?)
        }
        _ => return None,
    })
}

/// The numbers and the game's things `text` names, read through the vocabulary (`three` is 3, `cobble` is
/// cobblestone).
fn named(text: &str, is_id: impl Fn(&str) -> bool) -> (Vec<u32>, BTreeSet<String>, usize) {
    let words = vocab::words(text, Lang::En, &is_id);
    let mut numbers = vocab::numbers(&words);
    numbers.sort_unstable();
    let lower: Vec<String> = words.words.iter().map(|w| w.to_lowercase()).collect();
    let things = lower.iter().filter(|w| is_id(w)).cloned().collect();
    // Where: each side named (`next to`, `on top of`), `where` (`right where you stand`), which ones by what someone
    // did to them (`the dirt i put down`) or by what they are not (`the chest that is not next to the pumpkin`, `the
    // other chest`), which no form can say.
    let mut places = 0;
    let mut i = 0;
    while i < lower.len() {
        match vocab::run_at(&lower, i, vocab::Kind::Side) {
            Some((n, _)) => {
                places += 1;
                i += n;
            }
            None => {
                let which = ["where", "not", "other"].contains(&lower[i].as_str());
                places += usize::from(which || (i > 0 && super::reading::chooses(&lower, i)));
                i += 1;
            }
        }
    }
    (numbers, things, places)
}

/// Why `read` (the reader's words for a form) does not hold to the owner's `goal`, if it does not: a number or a
/// thing the owner named is not in it, or it names one the owner did not.
pub fn unfaithful(goal: &str, read: &str, is_id: impl Fn(&str) -> bool) -> Option<String> {
    let (asked, asked_things, asked_places) = named(goal, &is_id);
    let (said, said_things, said_places) = named(read, &is_id);
    if said_places < asked_places {
        return Some("it drops where the words put it (a side, or where)".to_owned());
    }
    // A chest the words store into is the reader's own word for where items go.
    let said_things: BTreeSet<String> =
        said_things.into_iter().filter(|t| t != "chest" || asked_things.contains(t)).collect();
    if asked != said {
        return Some(format!("its numbers {said:?} are not the ones asked {asked:?}"));
    }
    if asked_things != said_things {
        return Some(format!("it names {said_things:?}, the words {asked_things:?}"));
    }
    None
}

/// The reader's words for `goal` as the LLM fills the form, read whole and held to the owner's words; why not,
/// otherwise.
pub async fn read(llm: &Llm, goal: &str, is_id: impl Fn(&str) -> bool) -> Result<String, String> {
    let system = prompts::render("read_goal", &[]).map_err(|e| e.to_string())?;
    let bounded: String = goal.chars().take(300).collect();
    let messages = vec![Message::system(system), Message::user(format!("The player wrote: {bounded}"))];
    let reply = llm.chat_json(Role::Translate, &messages, 0.0, &schema()).await.map_err(|e| e.to_string())?;
    let form: Form = super::extract::json_value(&reply.content, super::extract::Json::Object)?;
    let read = words(&form).ok_or_else(|| format!("its form says too little to act on: {form:?}"))?;
    if let Err(unread) = super::reading::read(&read, &is_id) {
        return Err(format!("its words \"{read}\" do not read whole ({:?} left)", unread.words));
    }
    match unfaithful(goal, &read, &is_id) {
        Some(why) => Err(format!("\"{read}\": {why}")),
        None => Ok(read),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::act::is_game_id;

    fn form(json: &str) -> Form {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_schema_names_every_field_of_the_form() {
        let schema = schema();
        let fields: BTreeSet<&str> = schema["properties"].as_object().unwrap().keys().map(String::as_str).collect();
        let every = form(r#"{"effect": "place"}"#);
        let shown = format!("{every:?}");
        for field in &fields {
            assert!(shown.contains(&format!("{field}:")), "{field} is not a field of Form: {shown}");
        }
        assert_eq!(fields.len(), 11);
    }

    #[test]
    fn forms_are_written_as_words_the_reader_reads_whole() {
        for (json, words) in [
            (
                r#"{"effect": "place", "block": "dirt", "shape": "floor", "long": 3, "wide": 3}"#,
                "place a 3 by 3 floor of dirt",
            ),
            (
                r#"{"effect": "place", "block": "cobblestone", "shape": "column", "high": 5}"#,
                "build a pillar of 5 cobblestone",
            ),
            (r#"{"effect": "dig", "shape": "hole", "deep": 4}"#, "dig a hole 4 deep"),
            (
                r#"{"effect": "store", "block": "oak_planks", "count": 6, "side": "next_to", "beside": "furnace"}"#,
                "store 6 oak_planks in the chest next to the furnace",
            ),
            (r#"{"effect": "give", "block": "bread", "count": 2, "player": "Bob"}"#, "give 2 bread to Bob"),
            (
                r#"{"effect": "place", "block": "torch", "side": "on_top", "beside": "gold_block"}"#,
                "place a torch on top of the gold_block",
            ),
        ] {
            assert_eq!(super::words(&form(json)).as_deref(), Some(words), "{json}");
            assert!(crate::agent::reading::read(words, is_game_id).is_ok(), "{words:?} reads whole");
        }
        // Too little to act on: no block to place, a shape with no size, a player's name that is no name.
        for json in [
            r#"{"effect": "place", "shape": "floor", "long": 3}"#,
            r#"{"effect": "place", "block": "dirt", "shape": "column"}"#,
            r#"{"effect": "give", "block": "bread", "player": "Bob; drop table"}"#,
            r#"{"effect": "fly"}"#,
        ] {
            assert_eq!(words(&form(json)), None, "{json}");
        }
    }

    #[test]
    fn a_reading_written_as_words_reads_the_same() {
        let read = |words: &str| crate::agent::reading::read(words, is_game_id);
        for goal in [
            "place a 3 by 3 floor of dirt",
            "build a wall of cobblestone 4 long and 2 high",
            "put 5 dirt in a row",
            "build a pillar of 3 dirt",
            "place a ring of stone 4 by 4",
            "dig a hole 3 deep",
            "surround yourself with dirt",
            "place a torch on top of the gold_block",
            "put 2 dirt",
            "store 6 oak_planks in the chest next to the crafting_table",
            "give 2 bread to Bob",
            "dig 3 dirt",
            "go stand on the gold_block",
        ] {
            let asked = read(goal).unwrap_or_else(|why| panic!("{goal:?} reads whole: {why:?}"));
            let words = Form::of(&asked).as_ref().and_then(super::words);
            let again = words.as_deref().map(read);
            assert_eq!(again, Some(Ok(asked)), "{goal:?} written as {words:?}");
        }
    }

    #[test]
    fn a_form_holds_to_the_owner_s_numbers_and_things_sides_in_2x2_too() {
        // A pillar 2x2 across is not a pillar of one: the form's lone height drops the owner's two sides.
        let goal = "make a 2x2 pillar 3 blocks tall out of cobblestone";
        assert!(unfaithful(goal, "build a pillar of 3 cobblestone", crate::agent::act::is_game_id).is_some());
        // Next to the owner is not anywhere near the bot.
        let goal = "put a cobblestone block next to me";
        assert!(unfaithful(goal, "place a cobblestone", crate::agent::act::is_game_id).is_some());
    }

    #[test]
    fn a_form_holds_to_the_owner_s_numbers_and_things() {
        let goal = "i need a lil cobble tower, five tall";
        assert_eq!(unfaithful(goal, "build a pillar of 5 cobblestone", is_game_id), None);
        // A size made up, a size dropped, a block made up.
        assert!(unfaithful(goal, "build a pillar of 4 cobblestone", is_game_id).is_some());
        assert!(unfaithful("a lil cobble tower", "build a pillar of 3 cobblestone", is_game_id).is_some());
        assert!(unfaithful(goal, "build a pillar of 5 dirt", is_game_id).is_some());
        assert_eq!(unfaithful("shove 6 planks in the chest", "store 6 oak_planks in the chest", is_game_id), None);
        // Which dirt, by who put it there, is dropped by every form.
        assert!(unfaithful("dig up the 4 dirt blocks i put down", "dig 4 dirt", is_game_id).is_some());
        // Which chest, by what it is not beside: the tenth set's translation stored into the one it named.
        let goal = "get 5 oak planks into the chest that is not next to the pumpkin";
        assert!(unfaithful(goal, "store 5 oak_planks in the chest next to the pumpkin", is_game_id).is_some());
        let goal = "put 5 oak planks in the other chest";
        assert!(unfaithful(goal, "store 5 oak_planks in the chest", is_game_id).is_some());
    }
}
