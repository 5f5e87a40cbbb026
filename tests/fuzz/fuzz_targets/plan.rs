#![no_main]
//! A `!task` plan as the LLM might answer it.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::agent::plan::{MAX_STEPS, parse_plan};

fuzz_target!(|data: &[u8]| {
    if let Ok(plan) = parse_plan(&wayfarer_fuzz::text(data)) {
        assert!((1..=MAX_STEPS).contains(&plan.len()));
        assert!(plan.iter().all(|step| !step.task.is_empty()));
    }
});
