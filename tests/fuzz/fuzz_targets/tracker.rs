#![no_main]
//! A tracker as JSON, checked and then measured against arbitrary snapshots.
use libfuzzer_sys::fuzz_target;
use wayfarer_fuzz::agent::tracker::{Area, Snapshot, Tracker};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    if let Ok(tracker) = Tracker::from_json(&value) {
        let mut now = Snapshot::default();
        now.inventory.insert("oak_log".into(), i64::MAX);
        now.position = [f64::MAX, f64::NAN, -0.0];
        let progress = tracker.progress(&Snapshot::default(), &now);
        assert!(progress.percent() <= 100);
        let _ = (progress.to_string(), tracker.positions());
        // The spatial trackers over a small world before and after: a dirt floor, then a block placed on it.
        let flat = |placed: bool| {
            Area::capture([-3, 62, -3], [3, 66, 3], move |p| {
                Some(if p[1] < 64 { "dirt" } else if placed && p == [1, 64, 1] { "dirt" } else { "air" }.to_owned())
            })
        };
        let start = Snapshot { position: [0.5, 64.0, 0.5], areas: vec![flat(false)], ..Snapshot::default() };
        let after = Snapshot { areas: vec![flat(true)], ..start.clone() };
        let progress = tracker.progress(&start, &after);
        assert!(progress.percent() <= 100);
        let _ = (tracker.boxes([0, 64, 0]), tracker.container_places([0, 64, 0]));
    }
});
