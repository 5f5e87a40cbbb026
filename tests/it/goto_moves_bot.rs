//! `!goto X Y Z` walks the bot to within one block of the target; relative coordinates work too. `goTo` a solid
//! block stands on top of it.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn goto_walks_to_within_one_block() {
    let (world, _bot) = world_with_bot("Wayfarer");
    let from = world.say("Alice", "!goto 12 64 -7");
    world.expect_chat(from, "Wayfarer", "Going to 12 64 -7", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "Arrived at 12 64 -7", Duration::from_secs(40));
    let me = world.player("Wayfarer");
    assert!(me.distance_to([12.5, 64.0, -6.5]) < 1.0, "the bot stopped at {:?}", me.pos);

    // ~ offsets are relative to where the bot stands now.
    let from = world.say("Alice", "!goto ~-5 ~ ~3");
    world.expect_chat(from, "Wayfarer", "Arrived at 7 64 -4", Duration::from_secs(40));
    let me = world.player("Wayfarer");
    assert!(me.distance_to([7.5, 64.0, -3.5]) < 1.0, "the bot stopped at {:?}", me.pos);
}

/// `goTo` a solid block with range 1 stands on top of it: a small model's `goTo(findBlock("gold_block", 32))`, for a
/// goal to stand on the gold block, had the walk dig the block out to stand where it was.
#[test]
fn go_to_a_solid_block_stands_on_top_of_it() {
    let scripts = ScriptDir::new("goto_block", &[("onto.rhai", "goTo(vec3(4, 64, 3), 1)")]);
    let (world, _bot) = world_with_scripted_bot(&scripts);
    world.cmd(json!({"cmd": "setBlock", "x": 4, "y": 64, "z": 3, "block": "gold_block"}));
    let done = run_script(&world, "onto", Duration::from_secs(40));
    assert!(done.contains("finished"), "{done}");
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": 4, "y": 64, "z": 3})), "gold_block", "the block still stands");
    let me = world.player("Wayfarer");
    assert!(me.distance_to([4.5, 65.0, 3.5]) < 0.8, "the bot stands on the block: {:?}", me.pos);
}
