//! `!stop` during a long `mineBlock` ends the script and the primitive in flight within a second: the bot stops
//! walking and digging, and no further block breaks.

mod support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::*;

#[test]
fn stop_ends_a_long_mine_block() {
    let scripts = ScriptDir::new("stop", &[("logs.rhai", "mineBlock(\"oak_log\", 5)")]);
    let (world, _bot) = world_with_scripted_bot(&scripts);
    // Far enough that the walk alone takes seconds.
    for z in [20, 22, 24, 26, 28] {
        world.cmd(json!({"cmd": "setBlock", "x": 20, "y": 64, "z": z, "block": "oak_log"}));
    }
    let from = world.say("Alice", "!run logs");
    world.expect_chat(from, "Wayfarer", "Running logs.", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(1500));

    let stop = world.say("Alice", "!stop");
    let asked = Instant::now();
    world.expect_chat(stop, "Wayfarer", "Stopped running logs.", Duration::from_secs(1));
    assert!(asked.elapsed() < Duration::from_secs(1));

    // Let anything already in the air settle, then nothing may move or break.
    std::thread::sleep(Duration::from_millis(300));
    let still = world.player("Wayfarer").pos;
    let cursor = world.cursor();
    std::thread::sleep(Duration::from_secs(3));
    assert!(world.player("Wayfarer").distance_to(still) < 0.3, "the bot kept walking after !stop");
    let broken = world.wait_event(cursor, Duration::from_millis(1), |e| e["event"] == "blockBroken");
    assert!(broken.is_none(), "a block broke after !stop: {broken:?}");
    assert!(inventory_count(&world, "Wayfarer", "oak_log") < 5);
}
