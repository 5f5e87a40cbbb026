#![no_main]
//! The critic's verdict and the curriculum's proposal.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::agent::plan::{parse_proposal, parse_verdict};

fuzz_target!(|data: &[u8]| {
    let reply = wayfarer_fuzz::text(data);
    let _ = parse_verdict(&reply);
    let completed = ["Mine 1 wood log".to_owned()];
    if let Ok((spec, _)) = parse_proposal(&reply, &completed) {
        assert!(!spec.task.eq_ignore_ascii_case("Mine 1 wood log"));
    }
});
