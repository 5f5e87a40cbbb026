//! `killMob` hunts a pig with the best weapon and collects its drops; with no such mob it says to explore.

mod support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn kill_mob_hunts_and_collects() {
    let scripts = ScriptDir::new("kill", &[("pig.rhai", "killMob(\"pig\", 20)"), ("zombie.rhai", "killMob(\"zombie\", 60)")]);
    let (world, _bot) = world_with_scripted_bot(&scripts);
    give(&world, "Wayfarer", "stone_sword", 1);
    let pig = world.cmd(json!({"cmd": "spawnMob", "kind": "pig", "x": 6.5, "z": -4.5}));
    bot_sees(&world, "Wayfarer", "stone_sword", 1);

    let done = run_script(&world, "zombie", Duration::from_secs(20));
    assert!(done.ends_with("No zombie within 32 blocks; explore first"), "{done}");

    let from = world.cursor();
    let done = run_script(&world, "pig", Duration::from_secs(60));
    assert!(done.contains("finished"), "{done}");
    let killed = world.wait_event(from, Duration::from_secs(1), |e| e["event"] == "mobKilled" && e["entityId"] == pig);
    assert_eq!(killed.expect("the pig died")["by"], "Wayfarer");
    assert_eq!(inventory_count(&world, "Wayfarer", "porkchop"), 2);
}
