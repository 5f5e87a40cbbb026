//! A bot whose inventory is full still mines: it throws away junk by the rule (gravel before spare dirt), never its
//! tools or food, and keeps enough dirt to build with.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn a_full_inventory_throws_junk_not_tools() {
    let scripts = ScriptDir::new("full", &[("log.rhai", "mineBlock(\"oak_log\", 1)")]);
    let (world, _bot) = world_with_scripted_bot(&scripts);
    world.cmd(json!({"cmd": "setBlock", "x": 5, "y": 64, "z": -3, "block": "oak_log"}));
    give(&world, "Wayfarer", "iron_pickaxe", 1);
    give(&world, "Wayfarer", "bread", 5);
    give(&world, "Wayfarer", "gravel", 10);
    for _ in 0..33 {
        give(&world, "Wayfarer", "dirt", 64);
    }
    bot_sees(&world, "Wayfarer", "dirt", 64 * 33);

    let done = run_script(&world, "log", Duration::from_secs(60));
    assert!(done.contains("log finished"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_log"), 1);
    assert_eq!(inventory_count(&world, "Wayfarer", "gravel"), 0, "the gravel was the junk to throw");
    assert_eq!(inventory_count(&world, "Wayfarer", "iron_pickaxe"), 1);
    assert_eq!(inventory_count(&world, "Wayfarer", "bread"), 5);
    assert_eq!(inventory_count(&world, "Wayfarer", "dirt"), 64 * 33, "no dirt had to go");
    let thrown = world.wait_event(0, Duration::from_secs(1), |e| e["event"] == "thrown" && e["name"] == "Wayfarer");
    assert_eq!(thrown.expect("the bot threw something")["item"], "gravel");
}
