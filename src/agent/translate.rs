//! Owners' words in other languages, read as English: a goal becomes the English goal the planner reads (`fabrique
//! une pioche en fer` → `craft 1 iron_pickaxe`), a skill search or a question to memory becomes English words for the
//! English embedding model. One LLM call per distinct text; the answers are kept on disk, so a goal asked again (or
//! by another bot of the process) costs nothing.

use std::{
    collections::{BTreeMap, HashSet},
    path::{Path, PathBuf},
    sync::LazyLock,
};

use parking_lot::Mutex;
use serde::Deserialize;

use super::{
    extract::{Json, json_value},
    prompts,
    recipes::{self, Want},
};
use crate::{
    chat::{Reading, is_english_word, language_head, read_language},
    config::Lang,
    llm::{Llm, Message, Role},
};

/// The longest text read through the LLM (a chat line is at most 256 characters).
const MAX_TEXT: usize = 256;
/// The longest English answer taken.
const MAX_ENGLISH: usize = 200;
/// Translations kept at most: past this, new ones are used but not kept (the file stays small whatever is said).
const MAX_KEPT: usize = 10_000;

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
                tracing::warn!(
                    "{} is damaged ({err}); keeping it as {} and starting afresh",
                    path.display(),
                    aside.display()
                );
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
        let mut asked = match kind {
            Kind::Goal => format!("A goal: {bounded}"),
            Kind::Words => format!("Words to search for: {bounded}"),
        };
        let lang = read_language(&bounded).answer_in();
        let words = game_words(&bounded, lang);
        // Only a line whose language is known must name every thing its glossary found.
        let required = if lang.is_some() { words.as_slice() } else { &[] };
        if !words.is_empty() {
            let named: Vec<String> = words.iter().map(|w| format!("\"{}\" is {}", w.form, w.english)).collect();
            asked.push_str(&format!("\nThe game's words in it: {}.", named.join("; ")));
        }
        let mut messages = vec![Message::system(system), Message::user(asked)];
        // An answer that is not usable is asked once more, saying why; one that leaves out a thing the glossary
        // names twice gets the thing put in.
        let mut english = Err(String::new());
        let mut short = None;
        for _ in 0..2 {
            let reply = llm
                .chat_json(Role::Translate, &messages, 0.0, &schema())
                .await
                .map_err(|e| TranslateError::Llm(e.to_string()))?;
            english = read_answer(&reply.content, kind);
            let why = match &english {
                Ok(read) => {
                    let left_out = missing(read, required);
                    let Some(first) = left_out.first() else { break };
                    let why = format!("it leaves out {} (the player wrote \"{}\")", first.englishes()[0], first.form);
                    short = Some((read.clone(), left_out));
                    why
                }
                Err(why) => why.clone(),
            };
            tracing::info!("unusable translation of {text:?} ({why}); asking again");
            messages.push(Message { role: "assistant".to_owned(), content: reply.content });
            messages.push(Message::user(format!(
                "That answer is not usable: {why}. Answer again with one JSON object whose \"english\" is in English."
            )));
        }
        let english = match (english, short) {
            (Ok(read), _) if missing(&read, required).is_empty() => read,
            (_, Some((read, left_out))) => completed(&read, &left_out, kind),
            (Ok(read), None) => read,
            (Err(why), None) => return Err(TranslateError::Answer(why)),
        };
        tracing::info!("read {:?} ({}) as {english:?}", text, kind.tag());
        self.keep(kind, text, &english);
        Ok(English { text: english, kept: false })
    }

    fn keep(&self, kind: Kind, text: &str, english: &str) {
        let snapshot = {
            let mut known = self.known.lock();
            if known.len() >= MAX_KEPT {
                tracing::info!("{MAX_KEPT} translations are kept already; not keeping {text:?}");
                return;
            }
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

/// One word of the glossary as a language writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GameWord {
    form: String,
    /// `form`'s characters, for finding it in a line.
    chars: Vec<char>,
    /// `stone`, `wooden (wood)`: the English, with other ways to say it in parentheses.
    english: String,
    /// An action, which a translation may say another way; a thing must be named.
    verb: bool,
}

impl GameWord {
    /// The English ways to say it: `["wooden", "wood"]`.
    fn englishes(&self) -> Vec<&str> {
        self.english.split(['(', ')']).map(str::trim).filter(|w| !w.is_empty()).collect()
    }
}

/// `prompts/translate_glossary.toml`: each language's words for the game's things and actions, longest first.
static GLOSSARY: LazyLock<BTreeMap<Lang, Vec<GameWord>>> = LazyLock::new(|| {
    glossary(include_str!("../../prompts/translate_glossary.toml")).expect("the glossary is checked by the unit tests")
});

fn glossary(text: &str) -> Result<BTreeMap<Lang, Vec<GameWord>>, String> {
    #[derive(Deserialize)]
    struct File {
        term: Vec<BTreeMap<String, toml::Value>>,
    }
    let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut forms: BTreeMap<Lang, Vec<GameWord>> = BTreeMap::new();
    for term in file.term {
        let english = term.get("en").and_then(|v| v.as_str()).ok_or("a term has no `en`")?.to_owned();
        let verb = term.get("verb").and_then(|v| v.as_bool()).unwrap_or(false);
        for lang in Lang::ALL.into_iter().filter(|&l| l != Lang::En) {
            let written = term
                .get(lang.code())
                .and_then(|v| v.as_array())
                .ok_or_else(|| format!("{english:?} has no `{}` list", lang.code()))?;
            for form in written {
                let form = form.as_str().ok_or_else(|| format!("{english:?}: a `{}` form is not text", lang.code()))?;
                let form = form.to_lowercase();
                let chars = form.chars().collect();
                forms.entry(lang).or_default().push(GameWord { form, chars, english: english.clone(), verb });
            }
        }
    }
    for list in forms.values_mut() {
        list.sort_by(|a, b| b.chars.len().cmp(&a.chars.len()).then(a.form.cmp(&b.form)));
        list.dedup_by(|a, b| a.form == b.form);
    }
    Ok(forms)
}

/// The game's words in `text` with their English (`("stämme", "log")`), from the glossary of `lang` (of every
/// language when it is not known): the longest form at each place, whole words only but in Chinese, and in German
/// also inside compounds (`Eichenstämme`) for forms of four letters or more.
fn game_words(text: &str, lang: Option<Lang>) -> Vec<GameWord> {
    let chars: Vec<char> = text.to_lowercase().chars().collect();
    let langs: Vec<Lang> = match lang {
        Some(lang) => vec![lang],
        None => Lang::ALL.into_iter().filter(|&l| l != Lang::En).collect(),
    };
    let edge =
        |at: usize| at == 0 || at >= chars.len() || !chars[at - 1].is_alphanumeric() || !chars[at].is_alphanumeric();
    let mut found: Vec<GameWord> = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let mut best: Option<(usize, &GameWord)> = None;
        for lang in &langs {
            for entry in GLOSSARY.get(lang).into_iter().flatten() {
                let form = &entry.chars;
                let end = at + form.len();
                if end > chars.len() || chars[at..end] != form[..] || best.is_some_and(|(len, _)| len >= form.len()) {
                    continue;
                }
                let inside_words = *lang == Lang::Zh || (*lang == Lang::De && form.len() >= 4);
                if inside_words || (edge(at) && edge(end)) {
                    best = Some((form.len(), entry));
                }
            }
        }
        match best {
            Some((len, entry)) => {
                if !found.contains(entry) {
                    found.push(entry.clone());
                }
                at += len;
            }
            None => at += 1,
        }
    }
    found
}

/// The words of the game's item, block and mob ids (`oak`, `pickaxe`, `zombie`): English a player uses.
static GAME_WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    let facts = crate::primitives::facts::facts();
    let ids = facts.crafting.keys().chain(facts.blocks.keys()).chain(facts.smelting.values());
    let mobs = recipes::MOBS.iter().map(|m| m.to_string());
    ids.cloned().chain(mobs).flat_map(|id| id.split('_').map(str::to_owned).collect::<Vec<_>>()).collect()
});

/// Whether `text` must be read as English before it is planned or searched: it is written in another language, or
/// (when its words do not say which) fewer than half of its words are English ones players use or the game's own.
/// Item ids and numbers alone are English.
pub fn is_foreign(text: &str) -> bool {
    let text = language_head(text);
    match read_language(text) {
        Reading::Known(Lang::En) => false,
        Reading::Known(_) | Reading::Other => true,
        // No list knows its words: English (`greet everyone`) unless it holds another language's word for a game
        // thing (`Weizensamen pflanzen`), or, written with letters beyond ASCII, fewer than half its words are
        // English ones or the game's.
        Reading::Unclear if text.is_ascii() => game_words(text, None)
            .iter()
            .any(|w| w.form.chars().count() > 3 && !is_english_word(&w.form) && !GAME_WORDS.contains(&w.form)),
        Reading::Unclear => {
            let words: Vec<String> = text
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .filter(|w| w.chars().count() > 1 && !w.contains('_') && !w.chars().any(|c| c.is_ascii_digit()))
                .map(str::to_lowercase)
                .collect();
            let known = |w: &String| {
                let one = w.strip_suffix('s').unwrap_or(w);
                is_english_word(w) || GAME_WORDS.contains(w.as_str()) || GAME_WORDS.contains(one)
            };
            words.iter().filter(|w| known(w)).count() * 2 < words.len()
        }
    }
}

/// The things the glossary found in the words asked that `english` does not name (`stone` for `đá`).
fn missing<'w>(english: &str, words: &'w [GameWord]) -> Vec<&'w GameWord> {
    let english = english.to_lowercase().replace('_', " ");
    words.iter().filter(|w| !w.verb && !w.englishes().iter().any(|e| english.contains(&e.replace('_', " ")))).collect()
}

/// `english` with the things it left out put in: before the thing a goal names (`craft a pickaxe` → `craft a stone
/// pickaxe`), after the words of a search.
fn completed(english: &str, left_out: &[&GameWord], kind: Kind) -> String {
    let words: Vec<&str> = left_out.iter().map(|w| w.englishes()[0]).collect();
    match (kind, english.rsplit_once(' ')) {
        (Kind::Goal, Some((head, thing))) => canonical_goal(&format!("{head} {} {thing}", words.join(" "))),
        _ => format!("{english} {}", words.join(" ")),
    }
}

/// The kept translations' key: the kind and the words, in lower case with single spaces.
fn key(kind: Kind, text: &str) -> String {
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    format!("{}: {}", kind.tag(), words.join(" "))
}

/// The English in an answer: one line, not too long, not the same words in another language again. A goal the
/// game's facts read is written as the planner's canonical order (`craft 1 iron_pickaxe`).
fn read_answer(reply: &str, kind: Kind) -> Result<String, String> {
    let answer: Answer = json_value(reply, Json::Object)?;
    let english = answer.english.split_whitespace().collect::<Vec<_>>().join(" ");
    let english = english.trim_matches(|c: char| c == '"' || c == '\'' || c == '.' || c.is_whitespace());
    if english.is_empty() {
        return Err("it gave no English".to_owned());
    }
    if english.chars().count() > MAX_ENGLISH {
        return Err(format!("its English is longer than {MAX_ENGLISH} characters"));
    }
    if is_foreign(english) {
        return Err(format!("{english:?} is not English"));
    }
    Ok(match kind {
        Kind::Goal => canonical_goal(english),
        Kind::Words => english.to_owned(),
    })
}

/// `3 ingots of iron`, `a pickaxe with stone`, `a sword made of iron`: a thing named by what it is made of.
static OF_FORM: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"^(?P<head>\w+ (?:\d+|a|an|one) )(?P<thing>\w+) (?:of|with|from|made of|made from|out of) (?P<material>\w+)$",
    )
    .expect("a valid pattern")
});

/// `english` as the planner's own words when the game's facts read it the same whatever wood is near (`get 3 iron
/// ingots` → `get 3 iron_ingot`); as it is otherwise (`build a small hut`, `get 3 logs`).
pub fn canonical_goal(english: &str) -> String {
    if english.len() > MAX_TEXT * 4 {
        return english.to_owned();
    }
    // "Build a furnace" is how a translation often says making one thing (a structure stays a build), and "3 ingots
    // of iron" how it often names one.
    let made =
        english.split_once(' ').filter(|(verb, _)| ["build", "construct"].contains(&verb.to_lowercase().as_str()));
    let made = made.map(|(_, rest)| format!("make {rest}"));
    let turned = OF_FORM.replace(made.as_deref().unwrap_or(english), "$head$material $thing").into_owned();
    let read = |wood| {
        [Some(english), made.as_deref(), Some(turned.as_str())]
            .into_iter()
            .flatten()
            .find_map(|goal| recipes::parse_goal(goal, wood))
    };
    let Some(want) = read("oak") else { return english.to_owned() };
    if read("spruce").as_ref() != Some(&want) {
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
        assert_eq!(canonical_goal("build a furnace"), "craft 1 furnace");
        assert_eq!(canonical_goal("smelt 3 ingots of iron"), "smelt 3 iron_ingot");
        assert_eq!(canonical_goal("craft a pickaxe of stone"), "craft 1 stone_pickaxe");
        assert_eq!(canonical_goal("craft a pickaxe with stone"), "craft 1 stone_pickaxe");
        assert_eq!(canonical_goal("make a sword made of iron"), "craft 1 iron_sword");
        // What depends on the wood near the bot, and what the facts do not read, stay as written.
        assert_eq!(canonical_goal("get 3 logs"), "get 3 logs");
        assert_eq!(canonical_goal("build a small wooden house"), "build a small wooden house");
    }

    #[test]
    fn words_no_list_knows_are_read_through_the_llm_and_game_words_are_english() {
        assert!(is_foreign("Weizensamen pflanzen"));
        // English no list knows stays English.
        for english in ["greet everyone", "wave at Bob", "terraform hillside", "xyzzy"] {
            assert!(!is_foreign(english), "{english}");
        }
        assert!(is_foreign("fabrique une pioche"));
        assert!(!is_foreign("get 3 oak_log"));
        assert!(!is_foreign("smelt raw iron"));
        assert!(!is_foreign("diamonds"));
        assert!(!is_foreign("12 64 -5"));
        assert!(!is_foreign(""));
    }

    #[test]
    fn the_game_words_of_a_line_are_found_in_its_language() {
        let of = |text: &str, lang| {
            game_words(text, Some(lang)).into_iter().map(|w| format!("{}={}", w.form, w.english)).collect::<Vec<_>>()
        };
        assert_eq!(of("hol 5 Eichenstämme", Lang::De), ["hol=get (collect)", "eichen=oak", "stämme=log"]);
        assert_eq!(
            of("stell eine Steinspitzhacke her", Lang::De),
            ["stell=craft (make)", "stein=stone", "spitzhacke=pickaxe", "her=craft (make)"]
        );
        assert_eq!(of("种小麦种子", Lang::Zh), ["种=plant (sow)", "小麦=wheat", "种子=seeds"]);
        assert_eq!(of("lấy 5 khúc gỗ sồi", Lang::Vi), ["lấy=get (collect)", "khúc gỗ=log", "sồi=oak"]);
        assert_eq!(
            of("fabrique une pioche en bois", Lang::Fr),
            ["fabrique=craft (make)", "pioche=pickaxe", "en bois=wooden (wood)"]
        );
        // Whole words only outside Chinese and German compounds: "pico" is not in "picotear".
        assert!(of("picotear", Lang::Es).is_empty());
        assert_eq!(of("un cubo", Lang::Es), ["cubo=bucket"]);
        assert_eq!(game_words("un cubo", None).len(), 1);
    }

    #[test]
    fn an_answer_must_name_every_thing_asked_for() {
        let words = game_words("làm cho tôi một cái cuốc đá", Some(Lang::Vi));
        let left_out = missing("craft a pickaxe", &words);
        assert_eq!(left_out.iter().map(|w| w.form.as_str()).collect::<Vec<_>>(), ["đá"]);
        assert_eq!(completed("craft a pickaxe", &left_out, Kind::Goal), "craft 1 stone_pickaxe");
        assert!(missing("craft 1 stone_pickaxe", &words).is_empty());
        // Actions may be said another way; a thing's other name counts.
        let words = game_words("chế tạo một cái cuốc gỗ", Some(Lang::Vi));
        assert!(missing("make a wooden pickaxe", &words).is_empty());
        assert!(missing("get 1 wood pickaxe", &words).is_empty());
        let words = game_words("gieo hạt lúa mì", Some(Lang::Vi));
        let left_out = missing("sow seeds", &words);
        assert_eq!(completed("sow seeds", &left_out, Kind::Words), "sow seeds wheat");
    }

    #[test]
    fn the_glossary_is_whole() {
        let forms = glossary(include_str!("../../prompts/translate_glossary.toml")).unwrap();
        for lang in Lang::ALL.into_iter().filter(|&l| l != Lang::En) {
            assert!(forms[&lang].len() >= 60, "{lang}: {}", forms[&lang].len());
        }
        assert!(glossary("[[term]]\nen = \"x\"\nvi = [\"a\"]\n").unwrap_err().contains("no `fr` list"));
    }

    #[test]
    fn answers_are_checked_before_they_are_kept() {
        let reply = r#"```json
{"language": "French", "english": "Craft an iron pickaxe."}
```"#;
        assert_eq!(read_answer(reply, Kind::Goal), Ok("craft 1 iron_pickaxe".into()));
        assert_eq!(
            read_answer(r#"{"language":"German","english":"where did you see iron"}"#, Kind::Words),
            Ok("where did you see iron".into())
        );
        let echoed = read_answer(r#"{"language":"French","english":"fabrique une pioche"}"#, Kind::Goal);
        assert!(echoed.unwrap_err().contains("is not English"));
        assert!(read_answer(r#"{"language":"French","english":"  "}"#, Kind::Goal).unwrap_err().contains("no English"));
        assert!(read_answer("craft 1 iron_pickaxe", Kind::Goal).unwrap_err().contains("no JSON object"));
        let long = format!(r#"{{"language":"French","english":"{}"}}"#, "craft ".repeat(60));
        assert!(read_answer(&long, Kind::Goal).unwrap_err().contains("longer than"));
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

/// `make bench-lang`: the request set (`tests/data/languages.json`) read through the LLM at `WAYFARER_LLM_URL` (start
/// `make llm` first). For each language: goals the planner reads as it reads their English, searches whose first
/// skill over the starter library is English's first, the LLM calls, tokens and time, and what reading a line's
/// language costs. Held-out requests are counted apart.
#[cfg(test)]
mod evaluation {
    use std::{sync::Arc, time::Instant};

    use super::*;
    use crate::{config::LlmConfig, skills::SkillLibrary};

    #[derive(Default)]
    struct Score {
        goals: (usize, usize),
        skills: (usize, usize),
        held_out: (usize, usize),
        fresh: (usize, usize),
        calls: u64,
        tokens: u64,
        millis: u64,
        misses: Vec<String>,
    }

    #[tokio::test(flavor = "current_thread")]
    #[ignore = "needs an LLM at WAYFARER_LLM_URL (make bench-lang)"]
    async fn language_evaluation() {
        let url = std::env::var("WAYFARER_LLM_URL").expect("set WAYFARER_LLM_URL (make bench-lang does)");
        let llm = Llm::new(LlmConfig { base_url: url.clone(), cache: None, ..LlmConfig::default() }).unwrap();
        let set: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(crate::crate_dir().join("tests/data/languages.json")).unwrap(),
        )
        .unwrap();
        let library_dir = crate::test_dir("languages");
        for entry in std::fs::read_dir(crate::crate_dir().join("skills")).unwrap() {
            let path = entry.unwrap().path();
            if crate::skills::skill_name(&path).is_some() {
                std::fs::copy(&path, library_dir.join(path.file_name().unwrap())).unwrap();
            }
        }
        let (library, _) = SkillLibrary::open(&*library_dir);
        let models =
            std::env::var_os("WAYFARER_MODELS").map(PathBuf::from).unwrap_or_else(crate::skills::default_models_dir);
        library.enable_search_with(Arc::new(crate::skills::Embedder::load(&models).unwrap())).unwrap();
        let first = |query: &str| library.retrieve(query, 1).unwrap().first().map(|m| m.skill.name.clone());

        let kept = Translations::open(&library_dir.join("translations.json"));
        let mut scores: BTreeMap<Lang, Score> = BTreeMap::new();
        let mut reading = Vec::new();
        let seen_only = std::env::var_os("WAYFARER_LANG_SEEN_ONLY").is_some();
        for request in set["requests"].as_array().unwrap() {
            let kind = request["kind"].as_str().unwrap();
            let held_out = request["held_out"].as_bool().unwrap_or(false);
            let fresh = request["set"] == "fresh";
            if fresh && seen_only {
                continue;
            }
            let english = request["en"].as_str().unwrap();
            for lang in Lang::ALL {
                let text = request[lang.code()].as_str().unwrap();
                let started = Instant::now();
                let foreign = is_foreign(text);
                reading.push(started.elapsed());
                let score = scores.entry(lang).or_default();
                let read = if foreign {
                    let before = llm.total_usage();
                    let kind = if kind == "goal" { Kind::Goal } else { Kind::Words };
                    let read = kept.english(Some(&llm), kind, text).await;
                    let used = llm.total_usage();
                    score.calls += used.calls - before.calls;
                    score.tokens += used.total_tokens() - before.total_tokens();
                    score.millis += used.millis - before.millis;
                    read.map(|e| e.text).unwrap_or_else(|why| format!("(unread: {why})"))
                } else {
                    text.to_owned()
                };
                let right = if kind == "goal" {
                    let want = recipes::parse_goal(&read, "oak");
                    want.is_some() && want == recipes::parse_goal(english, "oak")
                } else {
                    first(&read).is_some() && first(&read) == first(english)
                };
                let tally = match (held_out, kind) {
                    _ if fresh => &mut score.fresh,
                    (true, _) => &mut score.held_out,
                    (false, "goal") => &mut score.goals,
                    (false, _) => &mut score.skills,
                };
                tally.1 += 1;
                if right {
                    tally.0 += 1;
                } else {
                    let how = if foreign { "read as" } else { "taken as English:" };
                    score.misses.push(format!("{text:?} {how} {read:?} (English: {english:?})"));
                }
            }
        }
        let pct = |(right, all): (usize, usize)| 100.0 * right as f64 / all.max(1) as f64;
        eprintln!(
            "language | goals planned as English | skills found first as English | held out | fresh | all | LLM calls | \
             tokens/call | s/call"
        );
        let all_of = |s: &Score| {
            let parts = [s.goals, s.skills, s.held_out, s.fresh];
            (parts.iter().map(|p| p.0).sum::<usize>(), parts.iter().map(|p| p.1).sum::<usize>())
        };
        let english_all = all_of(&scores[&Lang::En]);
        for (lang, s) in &scores {
            let all = all_of(s);
            eprintln!(
                "{:<10} | {}/{} ({:.0} %) | {}/{} ({:.0} %) | {}/{} | {}/{} | {:.0} % ({:.0} % of English) | {} | {:.0} | {:.1}",
                lang.name(),
                s.goals.0,
                s.goals.1,
                pct(s.goals),
                s.skills.0,
                s.skills.1,
                pct(s.skills),
                s.held_out.0,
                s.held_out.1,
                s.fresh.0,
                s.fresh.1,
                pct(all),
                100.0 * pct(all) / pct(english_all).max(1.0),
                s.calls,
                s.tokens as f64 / s.calls.max(1) as f64,
                s.millis as f64 / 1000.0 / s.calls.max(1) as f64
            );
        }
        for (lang, s) in &scores {
            for miss in &s.misses {
                eprintln!("miss ({}): {miss}", lang.code());
            }
        }
        // A search's time without a translation call: English as it is, other languages from the kept translation.
        let (mut english_queries, mut kept_queries) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            for request in set["requests"].as_array().unwrap().iter().filter(|r| r["kind"] == "skills") {
                for lang in Lang::ALL {
                    let text = request[lang.code()].as_str().unwrap();
                    let started = Instant::now();
                    let query = if is_foreign(text) { kept.kept(Kind::Words, text) } else { Some(text.to_owned()) };
                    let Some(query) = query else { continue };
                    library.retrieve(&query, 5).unwrap();
                    let took = started.elapsed();
                    if lang == Lang::En { english_queries.push(took) } else { kept_queries.push(took) }
                }
            }
        }
        english_queries.sort();
        kept_queries.sort();
        eprintln!(
            "skill query (this test build), p50: English {:?}, another language with its kept translation {:?}",
            english_queries[english_queries.len() / 2],
            kept_queries[kept_queries.len() / 2]
        );
        reading.sort();
        eprintln!(
            "reading a line's language: p50 {:?}, max {:?} over {} lines",
            reading[reading.len() / 2],
            reading.last().unwrap(),
            reading.len()
        );
        assert_eq!(scores[&Lang::En].calls, 0, "English is read as it is");
    }
}
