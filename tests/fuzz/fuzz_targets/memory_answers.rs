#![no_main]
//! The LLM's answers for the memory stream: importance ratings, reflection's questions and insights.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::memory::answers::{parse_insights, parse_questions, parse_ratings};

fuzz_target!(|data: &[u8]| {
    let text = wayfarer_fuzz::text(data);
    for count in [1, 3, 12] {
        let _ = parse_ratings(&text, count);
    }
    let _ = parse_questions(&text);
    let _ = parse_insights(&text, 10);
});
