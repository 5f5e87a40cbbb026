//! Replies in an owner's language: the bots write every reply in English, and [`say_in`] turns the ones
//! `phrases.toml` knows into the owner's language just before they go out, keeping what changes (goals, item ids,
//! numbers, reasons) as it is.
//!
//! Translating at the edge keeps one source of every message (the code that knows what happened writes it once) and
//! leaves the lines bots read from each other alone: a bot is answered in English, whatever its owners speak.

use std::{collections::BTreeMap, sync::LazyLock};

use regex::Regex;
use serde::Deserialize;

use super::command::{COMMANDS, ParseError, usage};
use crate::config::Lang;

/// `phrases.toml` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    phrase: Vec<BTreeMap<String, String>>,
    label: BTreeMap<String, BTreeMap<String, String>>,
    summary: BTreeMap<String, BTreeMap<String, String>>,
}

/// One reply, recognised by its English form.
#[derive(Debug)]
struct Phrase {
    /// The English form with each `{}` as a capture, anchored at both ends.
    pattern: Regex,
    /// The English form itself: a hole's text equal to it is said in the owner's language too.
    english: String,
    /// Each language's form, split at its `{}`s.
    forms: BTreeMap<Lang, Vec<String>>,
}

#[derive(Debug)]
struct Book {
    phrases: Vec<Phrase>,
    labels: BTreeMap<(String, Lang), String>,
    summaries: BTreeMap<(String, Lang), String>,
}

const TEXT: &str = include_str!("phrases.toml");

static BOOK: LazyLock<Book> = LazyLock::new(|| load(TEXT).expect("phrases.toml is checked by the unit tests"));

fn load(text: &str) -> Result<Book, String> {
    let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut phrases = Vec::new();
    for entry in file.phrase {
        let english = entry.get("en").ok_or("a phrase has no `en`")?.clone();
        let holes = english.matches("{}").count();
        let parts: Vec<String> = english.split("{}").map(regex::escape).collect();
        let pattern = Regex::new(&format!("(?s)^{}$", parts.join("(.*?)"))).map_err(|e| e.to_string())?;
        let mut forms = BTreeMap::new();
        for lang in Lang::ALL.into_iter().filter(|&l| l != Lang::En) {
            let form = entry.get(lang.code()).ok_or_else(|| format!("{english:?} has no `{}`", lang.code()))?;
            if form.matches("{}").count() != holes {
                return Err(format!("{english:?}: its `{}` form has another number of {{}}", lang.code()));
            }
            forms.insert(lang, form.split("{}").map(str::to_owned).collect());
        }
        if let Some(unknown) = entry.keys().find(|k| k.parse::<Lang>().is_err()) {
            return Err(format!("{english:?}: `{unknown}` is not a language the bots answer in"));
        }
        phrases.push(Phrase { pattern, english, forms });
    }
    let by_language = |table: BTreeMap<String, BTreeMap<String, String>>| {
        let mut out = BTreeMap::new();
        for (key, by_lang) in table {
            for lang in Lang::ALL.into_iter().filter(|&l| l != Lang::En) {
                let text = by_lang.get(lang.code()).ok_or_else(|| format!("{key:?} has no `{}`", lang.code()))?;
                out.insert((key.clone(), lang), text.clone());
            }
        }
        Ok::<_, String>(out)
    };
    Ok(Book { phrases, labels: by_language(file.label)?, summaries: by_language(file.summary)? })
}

/// `text`, a reply written in English, as it is said to someone who reads `lang`: the form of the first phrase it
/// matches, with the parts that change kept (and said in `lang` too when one is itself a whole phrase); unchanged when
/// `lang` is English or no phrase matches.
pub fn say_in(text: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return text.to_owned();
    }
    translate(&BOOK, text, lang, true).unwrap_or_else(|| text.to_owned())
}

fn translate(book: &Book, text: &str, lang: Lang, nested: bool) -> Option<String> {
    let phrase = book.phrases.iter().find(|p| p.pattern.is_match(text))?;
    let form = &phrase.forms[&lang];
    let captures = phrase.pattern.captures(text)?;
    let mut out = form[0].clone();
    for (i, part) in form[1..].iter().enumerate() {
        let hole = captures.get(i + 1).map_or("", |m| m.as_str());
        // A hole that is itself a whole phrase without holes ("what should I do?" in a usage hint).
        let said = nested
            .then(|| book.phrases.iter().find(|p| p.english == hole && !p.english.contains("{}")))
            .flatten()
            .map(|p| p.forms[&lang].concat());
        out.push_str(said.as_deref().unwrap_or(hole));
        out.push_str(part);
    }
    Some(out)
}

/// A word of `!status`'s line (`health`, `carrying nothing`) in `lang`; the English as it is when the book has none.
pub fn label(english: &str, lang: Lang) -> String {
    BOOK.labels.get(&(english.to_owned(), lang)).cloned().unwrap_or_else(|| english.to_owned())
}

/// The `!help` text in `lang`: every command, or one command's usage and what it does.
pub fn help_in(topic: Option<&str>, prefix: &str, lang: Lang) -> String {
    let english = super::help_text(topic, prefix);
    let Some(topic) = topic else { return say_in(&english, lang) };
    match COMMANDS.iter().find(|s| s.name.eq_ignore_ascii_case(topic)) {
        Some(spec) if lang != Lang::En => match BOOK.summaries.get(&(spec.name.to_owned(), lang)) {
            Some(summary) => format!("{}: {summary}", usage(spec, prefix)),
            None => english,
        },
        Some(_) => english,
        None => say_in(&ParseError::Unknown { name: topic.to_owned(), prefix: prefix.to_owned() }.to_string(), lang),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phrase_book_is_whole() {
        let book = load(TEXT).unwrap();
        assert!(book.phrases.len() >= 40);
        // Every command is explained in every language.
        for spec in COMMANDS {
            for lang in Lang::ALL.into_iter().filter(|&l| l != Lang::En) {
                assert!(book.summaries.contains_key(&(spec.name.to_owned(), lang)), "{} in {lang}", spec.name);
            }
        }
        // No English form twice, and none that an earlier one already matches (it would never be said).
        for (i, phrase) in book.phrases.iter().enumerate() {
            let sample = phrase.english.replace("{}", "X");
            let first = book.phrases.iter().position(|p| p.pattern.is_match(&sample)).unwrap();
            assert_eq!(first, i, "{:?} is hidden by {:?}", phrase.english, book.phrases[first].english);
        }
    }

    #[test]
    fn a_damaged_book_is_refused_with_the_phrase_named() {
        let missing = "[[phrase]]\nen = \"Hi {}\"\nfr = \"Salut {}\"\n[label]\n[summary]\n";
        assert!(load(missing).unwrap_err().contains("\"Hi {}\" has no `vi`"));
        let holes = "[[phrase]]\nen = \"Hi {}\"\nfr = \"Salut\"\nvi = \"a {}\"\nzh = \"b {}\"\nde = \"c {}\"\nes = \"d {}\"\n[label]\n[summary]\n";
        assert!(load(holes).unwrap_err().contains("`fr` form has another number"));
    }

    #[test]
    fn replies_are_said_in_the_owners_language_with_what_changes_kept() {
        assert_eq!(say_in("Understood: craft 1 wooden_pickaxe", Lang::Fr), "Compris : craft 1 wooden_pickaxe");
        assert_eq!(say_in("Understood: craft 1 wooden_pickaxe", Lang::Zh), "明白了：craft 1 wooden_pickaxe");
        assert_eq!(
            say_in("I failed task: craft 1 iron_pickaxe because I found no iron_ore within 64 blocks", Lang::De),
            "Aufgabe gescheitert: craft 1 iron_pickaxe, weil I found no iron_ore within 64 blocks"
        );
        assert_eq!(
            say_in("I succeeded in task: craft 1 crafting_table (I already had it)", Lang::Es),
            "Tarea cumplida: craft 1 crafting_table (ya lo tenía)"
        );
        // A usage hint's problem is a phrase too.
        assert_eq!(
            say_in("Usage: !task GOAL... (what should I do?)", Lang::Vi),
            "Cách dùng: !task GOAL... (tôi nên làm gì?)"
        );
        // English, and what the book does not know, go out as written.
        assert_eq!(say_in("Understood: x", Lang::En), "Understood: x");
        assert_eq!(say_in("At 0.5 64 0.5 in overworld | idle", Lang::Fr), "At 0.5 64 0.5 in overworld | idle");
    }

    #[test]
    fn help_is_in_the_owners_language() {
        let all = help_in(None, "!", Lang::Fr);
        assert!(all.starts_with("Commandes : !help, !status"), "{all}");
        assert_eq!(
            help_in(Some("task"), "!", Lang::De),
            "!task GOAL...: plant ein Ziel und erledigt es, in jeder Sprache (z. B. !task baue eine Steinspitzhacke)"
        );
        assert_eq!(help_in(Some("nope"), "!", Lang::Es), "Comando desconocido !nope. Prueba !help");
        assert_eq!(help_in(Some("come"), "!", Lang::En), "!come: walk to you");
    }

    #[test]
    fn status_words_are_in_the_owners_language() {
        assert_eq!(label("health", Lang::De), "Leben");
        assert_eq!(label("carrying nothing", Lang::Es), "no llevo nada");
        assert_eq!(label("health", Lang::En), "health");
        assert_eq!(label("no such word", Lang::Fr), "no such word");
        let book = load(TEXT).unwrap();
        assert!(book.labels.len() >= 5 * 10);
        let half = "[[phrase]]\nen = \"x\"\nvi = \"x\"\nfr = \"x\"\nzh = \"x\"\nde = \"x\"\nes = \"x\"\n[label]\n\"At\".fr = \"À\"\n[summary]\n";
        assert!(load(half).unwrap_err().contains("\"At\" has no `vi`"));
    }
}
