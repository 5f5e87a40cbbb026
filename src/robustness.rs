//! Every parser that reads outside text — chat commands, plans, trackers, critic verdicts, curriculum proposals, code
//! and description extraction, skill files, configuration, LLM bodies, memory ratings and reflections, skill search's
//! reading of requests — fed arbitrary Unicode and a corpus of nasty replies: none may panic, and none may take long.
//! (The same parsers but skill search's have cargo-fuzz targets in `tests/fuzz`.)

use std::time::{Duration, Instant};

use proptest::prelude::*;

use crate::{
    agent::{
        extract::{Json, code_blocks, description, json_value, program},
        plan::{parse_plan, parse_proposal, parse_verdict},
        tracker::{Snapshot, Tracker},
    },
    chat::{help_text, parse_line, split_for_chat},
    config::{Config, Overrides, ServerAddress},
    llm::wire::{parse_completion, parse_wait},
    memory::answers::{parse_insights, parse_questions, parse_ratings},
    script,
    skills::{
        lexical::{self, Lexical},
        text::{indexed_description, parse_meta, rename_identifier, search_text, typed_args},
    },
};

/// A small library's words, for skill search's reading of requests.
static LEXICAL: std::sync::LazyLock<Lexical> = std::sync::LazyLock::new(|| {
    Lexical::new([
        ("craftIronHelmet", "craft iron helmet: Crafts an iron helmet."),
        ("storeItemsInChest", "store items in chest: Puts items away in a chest."),
        ("mineWoodLog", "mine wood log: Mines logs."),
    ])
});

/// Runs `text` through every parser of outside text.
fn every_parser(text: &str) {
    for prefix in ["!", "wf:"] {
        if let Some(line) = parse_line(text, prefix)
            && let Err(hint) = line.command
        {
            let _ = hint.to_string();
        }
    }
    let _ = help_text(Some(text), "!");
    let _ = crate::chat::help_in(Some(text), "!", crate::config::Lang::Zh);
    let _ = crate::chat::say_in(text, crate::config::Lang::Fr);
    let _ = crate::chat::read_language(text);
    let _ = crate::agent::translate::is_foreign(text);
    let _ = crate::agent::translate::canonical_goal(text);
    // The goal reader, in every language the vocabulary knows, and the code and trackers a reading gives.
    for lang in crate::config::Lang::ALL {
        let _ = crate::agent::vocab::words(text, lang, crate::agent::act::is_game_id);
    }
    if let Some(words) = crate::agent::vocab::foreign(text, crate::agent::act::is_game_id) {
        let _ = crate::agent::vocab::numbers(&words);
    }
    if let Ok(asked) = crate::agent::act::reading_of(text) {
        let _ = asked.to_string();
        let _ = crate::agent::deeds::code(&asked);
        let _ = crate::agent::effect::fitting(&asked);
    }
    let _ = crate::agent::act::asked_loosely(text);
    if let Ok(form) = serde_json::from_str::<crate::agent::second_reader::Form>(text)
        && let Some(words) = crate::agent::second_reader::words(&form)
    {
        let _ = crate::agent::second_reader::unfaithful(text, &words, crate::agent::act::is_game_id);
    }
    let _ = split_for_chat(text, 256);
    let _ = parse_plan(text);
    let _ = parse_verdict(text);
    let _ = parse_proposal(text, &["Mine 1 wood log".to_owned()]);
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text)
        && let Ok(tracker) = Tracker::from_json(&value)
    {
        let _ = tracker.progress(&Snapshot::default(), &Snapshot::default()).percent();
    }
    let _ = code_blocks(text);
    let _ = crate::agent::habits::mend(text);
    let _ = program(text, &crate::agent::act::known(None));
    let _ = description(text);
    let _ = json_value::<serde_json::Value>(text, Json::Object);
    let _ = script::compile(text, &["args"]);
    let _ = parse_meta(text);
    let _ = indexed_description(text);
    let _ = search_text(text, text);
    let _ = rename_identifier(text, "dig", "digV2");
    let words: Vec<String> = text.split_whitespace().take(3).map(str::to_owned).collect();
    let params: Vec<String> = ["count", "item", "x"].iter().take(words.len()).map(|p| (*p).to_owned()).collect();
    let _ = typed_args("skill", &params, &words);
    let _ = Config::from_toml(text, Overrides::default());
    let _ = ServerAddress::parse(text);
    let _ = parse_completion(text);
    let _ = parse_wait(text);
    let _ = parse_ratings(text, 3);
    let _ = parse_questions(text);
    let _ = parse_insights(text, 10);
    let _ = lexical::display_to_id(text);
    let _ = LEXICAL.asked(text);
    let _ = LEXICAL.search(text, 5);
}

/// Replies real models and real files have sent, and worse.
fn nasty() -> Vec<String> {
    let megabyte = "x".repeat(1 << 20);
    vec![
        "Explain: Mine wood → craft planks\nDescription: Holz → Bretter.".to_owned(),
        "Description:→".to_owned(),
        "ééééééééééééééé".to_owned(),
        "שלום עולם \u{202e}Description: x\u{202c} مرحبا".to_owned(),
        "描述：挖木头然后做木板。```rhai\nfn 挖() {}\n```".to_owned(),
        "\0\0\0{\"task\": \"\0\"}\0".to_owned(),
        "NUL inside code ```rhai\nfn a() {\0}\n```".to_owned(),
        format!("```rhai\nfn big() {{\n{megabyte}\n}}\n```"),
        format!("[{megabyte}"),
        format!("{{\"task\": \"{megabyte}"),
        "{".repeat(1 << 20),
        format!("{}{}", "[".repeat(1 << 16), "]".repeat(1 << 16)),
        format!("!run {megabyte}"),
        "```rhai\n```rhai\n```rhai\nfn a() {}\n```".to_owned(),
        "```\n```\n```".to_owned(),
        "```rhai\nfn unclosed() {".to_owned(),
        "Plan [draft]: [{\"task\": \"Mine 2 oak_log\"}] [Note: {logs} first]".to_owned(),
        "Here {see below}: {\"success\": true, \"critique\": \"}\"} {trailing".to_owned(),
        "[{\"task\": \"x\", \"tracker\": {\"type\": \"all\", \"of\": [{\"type\": \"all\", \"of\": [{\"type\": \"all\", \"of\": \
         [{\"type\": \"all\", \"of\": [{\"type\": \"all\", \"of\": [{\"type\": \"kill\", \"mob\": \"pig\", \"count\": 1}]}]}]}]}]}}]"
            .to_owned(),
        format!(
            "{{\"type\": \"all\", \"of\": [{}{{\"type\": \"kill\", \"mob\": \"b\", \"count\": 1}}]}}",
            "{\"type\": \"inventory\", \"item\": \"a\", \"count\": 2304},".repeat(5000)
        ),
        "{\"choices\": [{\"message\": {\"content\": null}}]}".to_owned(),
        "{\"choices\": [{\"message\": {\"content\": \"ok\"}}], \"usage\": {\"prompt_tokens\": -1}}".to_owned(),
        "server = \"\u{0}\"\nowners = [\"→\"]\n[llm]\nbase_url = \"http://\"".to_owned(),
        "eval(\"eval(\\\"1\\\")\")".to_owned(),
        String::new(),
        "\u{FEFF}!status".to_owned(),
        "Wayfarer_2: !goto ~99999999999 ~ ~".to_owned(),
        "1: 99999999999999999999999\n2. -4\n18446744073709551616) 3\n[1e308, -1e308, NaN]".to_owned(),
        "Insight (because of 99999999999999999999, 0, 1)\n(((((\n)\nx (because of ".to_owned(),
        "put put put away away to to for want to to so".to_owned(),
        format!("put {} away", "my ".repeat(1 << 16)),
        format!("{}?", "Question 1: ".repeat(10_000)),
    ]
}

#[test]
fn nasty_replies_neither_panic_nor_hang() {
    for text in nasty() {
        let started = Instant::now();
        every_parser(&text);
        let took = started.elapsed();
        let head: String = text.chars().take(60).collect();
        assert!(took < Duration::from_secs(5), "{took:?} for {head:?}…");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_unicode(text in "\\PC*") {
        every_parser(&text);
    }

    /// Text made mostly of the characters parsers look for: brackets, quotes, fences, prefixes, separators.
    #[test]
    fn arbitrary_bracket_soup(text in "([\\[\\]{}\":,`\n!~ ]|\"task\"|\"type\"|```|rhai|fn |Description:|→|é|\u{0}|[a-z0-9]){0,200}") {
        every_parser(&text);
    }
}
