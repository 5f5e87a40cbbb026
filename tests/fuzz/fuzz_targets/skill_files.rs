#![no_main]
//! A skill's metadata file, its description, its code renamed for a new version, and an owner's `!run` words.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::skills::text::{
    MAX_DESCRIPTION, indexed_description, parse_meta, rename_identifier, search_text, typed_args,
};

fuzz_target!(|data: &[u8]| {
    let text = wayfarer_fuzz::text(data);
    if let Ok(meta) = parse_meta(&text) {
        let (indexed, _) = indexed_description(&meta.description);
        assert!(indexed.chars().count() <= MAX_DESCRIPTION);
    }
    let _ = indexed_description(&text);
    let _ = search_text(&text, &text);
    let _ = rename_identifier(&text, "dig", "digV2");
    let words: Vec<String> = text.split_whitespace().take(4).map(str::to_owned).collect();
    let params: Vec<String> = ["count", "item", "x", "anything"].iter().take(words.len()).map(|p| (*p).to_owned()).collect();
    let _ = typed_args("skill", &params, &words);
});
