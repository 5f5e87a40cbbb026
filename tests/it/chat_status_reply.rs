//! An owner's `!status` gets a reply that tells the bot's real position (as the world sees it) and its vitals.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn status_reply_reports_the_real_position() {
    let (world, _bot) = world_with_bot("Wayfarer");
    // Move the bot away from spawn first, so a hard-coded or stale position could not pass.
    let from = world.say("Alice", "!goto 4 64 -3");
    world.expect_chat(from, "Wayfarer", "Arrived at 4 64 -3", Duration::from_secs(30));

    let from = world.say("Alice", "!status");
    let reply = world.expect_chat(from, "Wayfarer", "At ", Duration::from_secs(10));
    let reported = status_position(&reply);
    let actual = world.player("Wayfarer");
    assert!(actual.distance_to(reported) < 0.2, "status says {reported:?}, the world says {:?}", actual.pos);
    assert!(reply.contains("in overworld"), "{reply}");
    assert!(reply.contains("health 20/20, food 20/20"), "{reply}");
    assert!(reply.contains("carrying nothing"), "{reply}");
    assert!(reply.ends_with("| idle"), "{reply}");
}

#[test]
fn status_tells_the_time_the_air_and_the_monsters_near() {
    let (world, _bot) = world_with_bot("Wayfarer");
    let from = world.say("Alice", "!status");
    let reply = world.expect_chat(from, "Wayfarer", "At ", Duration::from_secs(10));
    // The world starts at tick 1000 of day 0 (07:00) and runs 20 ticks a second.
    assert!(reply.contains("in overworld, day 0 07:"), "{reply}");
    assert!(!reply.contains("night") && !reply.contains("hostile") && !reply.contains("air"), "{reply}");

    world.cmd(serde_json::json!({ "cmd": "setTime", "time": 18000 }));
    let zombie = world.player("Wayfarer").pos;
    world.cmd(serde_json::json!({ "cmd": "spawnMob", "kind": "zombie", "x": zombie[0] + 6.0, "z": zombie[2] }));
    std::thread::sleep(Duration::from_millis(1500)); // the next time update
    let from = world.say("Alice", "!status");
    let reply = world.expect_chat(from, "Wayfarer", "At ", Duration::from_secs(10));
    assert!(reply.contains("day 0 00:") && reply.contains(" night |"), "{reply}");
    assert!(reply.contains("| hostile: zombie "), "{reply}");

    // Held under water behind a lid, away from the zombie: the breath runs out and `!status` says so.
    world.cmd(serde_json::json!({ "cmd": "fill", "from": [59, 58, 59], "to": [61, 63, 61], "block": "stone" }));
    world.cmd(serde_json::json!({ "cmd": "fill", "from": [60, 59, 60], "to": [60, 62, 60], "block": "water" }));
    world.cmd(serde_json::json!({ "cmd": "teleport", "name": "Wayfarer", "x": 60.5, "y": 59.0, "z": 60.5 }));
    std::thread::sleep(Duration::from_secs(4));
    let from = world.say("Alice", "!status");
    let reply = world.expect_chat(from, "Wayfarer", "At ", Duration::from_secs(10));
    let air: i32 = reply
        .split(", air ")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no air in {reply}"));
    assert!(air < 300 - 40, "{reply}");
}
