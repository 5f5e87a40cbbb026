#![no_main]
//! An LLM endpoint's response body, and its rate-limit headers.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::llm::wire::{parse_completion, parse_wait};

fuzz_target!(|data: &[u8]| {
    let text = wayfarer_fuzz::text(data);
    let _ = parse_completion(&text);
    // The same bytes as a rate-limit header (Retry-After, x-ratelimit-reset-*).
    let _ = parse_wait(&text);
});
