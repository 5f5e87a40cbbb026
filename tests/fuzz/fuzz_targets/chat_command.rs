#![no_main]
//! A chat line, with each prefix an owner might configure.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::chat::{help_text, parse_line, split_for_chat};

fuzz_target!(|data: &[u8]| {
    let line = wayfarer_fuzz::text(data);
    for prefix in ["!", "#", "wf:", "→"] {
        if let Some(addressed) = parse_line(&line, prefix) {
            let _ = addressed.is_for("Wayfarer_2");
            if let Err(hint) = addressed.command {
                let _ = hint.to_string();
            }
        }
    }
    let _ = help_text(Some(&line), "!");
    for max in [1, 17, 256] {
        for part in split_for_chat(&line, max) {
            assert!(part.chars().count() <= max);
        }
    }
});
