//! `!stop` during a long `mineBlock` ends the script and the primitive in flight within a second: the bot stops
//! walking, stops digging the block it had started on, and no further block breaks.

use crate::support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::*;

#[test]
fn stop_ends_a_long_mine_block() {
    let scripts = ScriptDir::new(
        "stop",
        &[("logs.rhai", "mineBlock(\"oak_log\", 5)"), ("planks.rhai", "mineBlock(\"oak_planks\", 1)")],
    );
    let (world, _bot) = world_with_scripted_bot(&scripts);
    // Far enough that the walk alone takes seconds.
    for z in [20, 22, 24, 26, 28] {
        world.cmd(json!({"cmd": "setBlock", "x": 20, "y": 64, "z": z, "block": "oak_log"}));
    }
    let from = world.say("Alice", "!run logs");
    world.expect_chat(from, "Wayfarer", "Running logs.", Duration::from_secs(10));
    // Stop it mid-walk: once it is on its way, well before it reaches the logs.
    let deadline = Instant::now() + Duration::from_secs(10);
    while world.player("Wayfarer").distance_to(SPAWN) < 2.0 {
        assert!(Instant::now() < deadline, "the bot did not set off for the logs");
        std::thread::sleep(Duration::from_millis(50));
    }

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

    // Now stop in the middle of digging: planks take 3 s by hand, the stop comes after ~1 s of it.
    let here = world.player("Wayfarer").pos;
    let (x, z) = (here[0].floor() as i64 + 1, here[2].floor() as i64);
    world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_planks"}));
    let from = world.say("Alice", "!run planks");
    world.expect_chat(from, "Wayfarer", "Running planks.", Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(1300));
    let stop = world.say("Alice", "!stop");
    world.expect_chat(stop, "Wayfarer", "Stopped running planks.", Duration::from_secs(1));
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(
        world.cmd(json!({"cmd": "getBlock", "x": x, "y": 64, "z": z})),
        "oak_planks",
        "the dig went on after !stop"
    );
}
