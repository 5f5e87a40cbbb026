//! Owners' words in other languages, read as English: a goal becomes the English goal the planner reads (`fabrique
//! une pioche en fer` → `craft 1 iron_pickaxe`), a skill search or a question to memory becomes English words for the
//! English embedding model. One LLM call per distinct text; the answers are kept on disk, so a goal asked again (or
//! by another bot of the process) costs nothing.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use parking_lot::Mutex;
use serde::Deserialize;

use super::{
    extract::{Json, json_value},
    prompts,
    recipes::{self, Want},
};
use crate::{
    chat::read_language,
    llm::{Llm, Message, Role},
};

/// The longest text read through the LLM (a chat line is at most 256 characters).
const MAX_TEXT: usize = 256;
/// The longest English answer taken.
const MAX_ENGLISH: usize = 200;

/// What the words are: the English wanted differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An order (`!task`, `!team`): an English order with item ids.
    Goal,
    /// A search or a question (`!skills`, `!recall`): plain English words.
    Words,
}

impl Kind {
    fn tag(self) -> &'static str {
        match self {
            Kind::Goal => "goal",
            Kind::Words => "words",
        }
    }
}

/// Why words could not be read as English.
#[derive(Debug, thiserror::Error)]
pub enum TranslateError {
    #[error("no LLM is configured to read it")]
    NoLlm,
    #[error("the LLM could not be asked ({0})")]
    Llm(String),
    #[error("the LLM's answer was not usable ({0})")]
    Answer(String),
}

/// Words read as English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct English {
    pub text: String,
    /// Read from the kept answers: no LLM call was made.
    pub kept: bool,
}

/// The translations this process has made, by kind and text, kept in one JSON file.
#[derive(Debug)]
pub struct Translations {
    path: Option<PathBuf>,
    known: Mutex<BTreeMap<String, String>>,
}

#[derive(Deserialize)]
struct Answer {
    english: String,
}

/// The answer's shape, for endpoints that hold answers to a schema.
fn schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "language": { "type": "string" },
            "english": { "type": "string" }
        },
        "required": ["language", "english"]
    })
}

impl Translations {
    /// The translations kept at `path` (none yet when it does not exist; a damaged file is set aside, named in the
    /// log, and the process starts with none).
    pub fn open(path: &Path) -> Self {
        let known = match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|err| {
                let aside = path.with_extension("json.damaged");
                tracing::warn!("{} is damaged ({err}); keeping it as {} and starting afresh", path.display(), aside.display());
                let _ = std::fs::rename(path, &aside);
                BTreeMap::new()
            }),
            Err(_) => BTreeMap::new(),
        };
        Self { path: Some(path.to_owned()), known: Mutex::new(known) }
    }

    /// Translations kept in memory only.
    #[cfg(test)]
    fn in_memory() -> Self {
        Self { path: None, known: Mutex::default() }
    }

    /// The English of `text` as an earlier call read it, if one did.
    pub fn kept(&self, kind: Kind, text: &str) -> Option<String> {
        self.known.lock().get(&key(kind, text)).cloned()
    }

    /// `text` (in any language) as English of `kind`: the kept translation, else one LLM call's, kept for next time.
    pub async fn english(&self, llm: Option<&Llm>, kind: Kind, text: &str) -> Result<English, TranslateError> {
        if let Some(text) = self.kept(kind, text) {
            return Ok(English { text, kept: true });
        }
        let llm = llm.filter(|llm| llm.is_enabled()).ok_or(TranslateError::NoLlm)?;
        let bounded: String = text.chars().take(MAX_TEXT).collect();
        let system = prompts::render("translate", &[]).map_err(|e| TranslateError::Answer(e.to_string()))?;
        let asked = match kind {
            Kind::Goal => format!("A goal: {bounded}"),
            Kind::Words => format!("Words to search for: {bounded}"),
        };
        let messages = [Message::system(system), Message::user(asked)];
        let reply = llm
            .chat_json(Role::Translate, &messages, 0.0, &schema())
            .await
            .map_err(|e| TranslateError::Llm(e.to_string()))?;
        let english = read_answer(&reply.content, kind, text).map_err(TranslateError::Answer)?;
        tracing::info!("read {:?} ({}) as {english:?}", text, kind.tag());
        self.keep(kind, text, &english);
        Ok(English { text: english, kept: false })
    }

    fn keep(&self, kind: Kind, text: &str, english: &str) {
        let snapshot = {
            let mut known = self.known.lock();
            known.insert(key(kind, text), english.to_owned());
            serde_json::to_vec_pretty(&*known).expect("strings serialise")
        };
        if let Some(path) = &self.path {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            if let Err(err) = crate::files::write_atomically(path, &snapshot) {
                tracing::warn!("cannot keep the translations in {}: {err}", path.display());
            }
        }
    }
}

/// The kept translations' key: the kind and the words, in lower case with single spaces.
fn key(kind: Kind, text: &str) -> String {
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    format!("{}: {}", kind.tag(), words.join(" "))
}

/// The English in an answer: one line, not too long, not the same words in another language again. A goal the
/// game's facts read is written as the planner's canonical order (`craft 1 iron_pickaxe`).
fn read_answer(reply: &str, kind: Kind, asked: &str) -> Result<String, String> {
    let answer: Answer = json_value(reply, Json::Object)?;
    let english = answer.english.split_whitespace().collect::<Vec<_>>().join(" ");
    let english = english.trim_matches(|c: char| c == '"' || c == '\'' || c == '.' || c.is_whitespace());
    if english.is_empty() {
        return Err("it gave no English".to_owned());
    }
    if english.chars().count() > MAX_ENGLISH {
        return Err(format!("its English is longer than {MAX_ENGLISH} characters"));
    }
    if read_language(english).is_foreign() {
        return Err(format!("{english:?} is not English"));
    }
    if english.eq_ignore_ascii_case(asked.trim()) && read_language(asked).is_foreign() {
        return Err("it gave the words back unchanged".to_owned());
    }
    Ok(match kind {
        Kind::Goal => canonical_goal(english),
        Kind::Words => english.to_owned(),
    })
}

/// `english` as the planner's own words when the game's facts read it the same whatever wood is near (`get 3 iron
/// ingots` → `get 3 iron_ingot`); as it is otherwise (`build a small hut`, `get 3 logs`).
pub fn canonical_goal(english: &str) -> String {
    let Some(want) = recipes::parse_goal(english, "oak") else { return english.to_owned() };
    if recipes::parse_goal(english, "spruce").as_ref() != Some(&want) {
        return english.to_owned();
    }
    let facts = crate::primitives::facts::facts();
    let text = match &want {
        Want::Have { item, count } if facts.smelting.values().any(|out| out == item) => format!("smelt {count} {item}"),
        Want::Have { item, count } if facts.crafting.contains_key(item) => format!("craft {count} {item}"),
        Want::Have { item, count } => format!("get {count} {item}"),
        Want::Mine { block, count } => format!("mine {count} {block}"),
        Want::Kill { mob, count } => format!("kill {count} {mob}"),
        Want::Place { block } => format!("place 1 {block}"),
        Want::Give { .. } => return english.to_owned(),
    };
    // Only a form the planner reads back as the same goal.
    if recipes::parse_goal(&text, "oak").as_ref() == Some(&want) { text } else { english.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_are_written_as_the_planner_reads_them() {
        assert_eq!(canonical_goal("craft an iron pickaxe"), "craft 1 iron_pickaxe");
        assert_eq!(canonical_goal("make a crafting table"), "craft 1 crafting_table");
        assert_eq!(canonical_goal("get 3 oak logs"), "get 3 oak_log");
        assert_eq!(canonical_goal("smelt 2 iron ingots"), "smelt 2 iron_ingot");
        assert_eq!(canonical_goal("kill two pigs"), "kill 2 pig");
        assert_eq!(canonical_goal("mine 3 iron ore"), "mine 3 iron_ore");
        // What depends on the wood near the bot, and what the facts do not read, stay as written.
        assert_eq!(canonical_goal("get 3 logs"), "get 3 logs");
        assert_eq!(canonical_goal("build a small wooden house"), "build a small wooden house");
    }

    #[test]
    fn answers_are_checked_before_they_are_kept() {
        let reply = r#"```json
{"language": "French", "english": "Craft an iron pickaxe."}
```"#;
        assert_eq!(read_answer(reply, Kind::Goal, "fabrique une pioche en fer"), Ok("craft 1 iron_pickaxe".into()));
        assert_eq!(
            read_answer(r#"{"language":"German","english":"where did you see iron"}"#, Kind::Words, "wo Eisen"),
            Ok("where did you see iron".into())
        );
        let echoed = read_answer(r#"{"language":"French","english":"fabrique une pioche"}"#, Kind::Goal, "x");
        assert!(echoed.unwrap_err().contains("is not English"));
        assert!(read_answer(r#"{"language":"French","english":"  "}"#, Kind::Goal, "x").unwrap_err().contains("no English"));
        assert!(read_answer("craft 1 iron_pickaxe", Kind::Goal, "x").unwrap_err().contains("no JSON object"));
        let long = format!(r#"{{"language":"French","english":"{}"}}"#, "craft ".repeat(60));
        assert!(read_answer(&long, Kind::Goal, "x").unwrap_err().contains("longer than"));
    }

    #[test]
    fn kept_translations_survive_a_restart_and_a_damaged_file_is_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("translations.json");
        let kept = Translations::open(&path);
        kept.keep(Kind::Goal, "Baue  eine Werkbank", "craft 1 crafting_table");
        let again = Translations::open(&path);
        assert_eq!(again.kept(Kind::Goal, "baue eine werkbank"), Some("craft 1 crafting_table".into()));
        assert_eq!(again.kept(Kind::Words, "baue eine werkbank"), None);
        std::fs::write(&path, "{ not json").unwrap();
        let fresh = Translations::open(&path);
        assert!(fresh.known.lock().is_empty());
        assert!(dir.path().join("translations.json.damaged").exists());
    }

    #[tokio::test]
    async fn without_an_llm_only_kept_translations_are_read() {
        let kept = Translations::in_memory();
        let err = kept.english(None, Kind::Goal, "baue eine Werkbank").await.unwrap_err();
        assert!(matches!(err, TranslateError::NoLlm));
        kept.keep(Kind::Goal, "baue eine Werkbank", "craft 1 crafting_table");
        let read = kept.english(Some(&Llm::disabled()), Kind::Goal, "baue eine Werkbank").await.unwrap();
        assert_eq!(read, English { text: "craft 1 crafting_table".into(), kept: true });
    }
}
