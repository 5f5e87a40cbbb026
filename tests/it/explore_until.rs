//! `exploreUntil` walks in a direction until its callback finds something, and returns what it found.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn explore_until_walks_until_the_callback_finds_something() {
    let scripts = ScriptDir::new(
        "explore",
        &[("east.rhai", "let ore = exploreUntil(vec3(1, 0, 0), 40, || findBlock(\"diamond_ore\", 12)); `${ore}`")],
    );
    let (world, _bot) = world_with_scripted_bot(&scripts);
    // Far beyond the search radius from spawn, straight east.
    world.cmd(json!({"cmd": "setBlock", "x": 45, "y": 63, "z": 0, "block": "diamond_ore"}));
    let done = run_script(&world, "east", Duration::from_secs(60));
    let me = world.player("Wayfarer");
    assert!(me.pos[0] > 30.0, "the bot did not walk east: {:?} ({done})", me.pos);
    assert!(done.contains("finished") && done.contains("vec3(45, 63, 0)"), "{done}");
}
