#![no_main]
//! An LLM endpoint's response body.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::llm::wire::parse_completion;

fuzz_target!(|data: &[u8]| {
    let _ = parse_completion(&wayfarer_fuzz::text(data));
});
