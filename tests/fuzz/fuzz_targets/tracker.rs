#![no_main]
//! A tracker as JSON, checked and then measured against arbitrary snapshots.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::agent::tracker::{Snapshot, Tracker};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    if let Ok(tracker) = Tracker::from_json(&value) {
        let mut now = Snapshot::default();
        now.inventory.insert("oak_log".into(), i64::MAX);
        now.position = [f64::MAX, f64::NAN, -0.0];
        let progress = tracker.progress(&Snapshot::default(), &now);
        assert!(progress.percent() <= 100);
        let _ = (progress.to_string(), tracker.positions());
    }
});
