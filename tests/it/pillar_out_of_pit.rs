//! A bot at the bottom of a deep hole in a natural world, with no pickaxe and a stack of dirt, gets out to its owner
//! standing by the hole: it builds a pillar under itself (digging stairs through stone by hand would take minutes).

use crate::support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::*;

/// Natural-world seeds the scenario runs on (the bench and the referee use others too).
const SEED: u64 = 1009;
const DEPTH: i64 = 8;

#[test]
fn pillars_out_of_a_deep_hole_to_its_owner() {
    let world = World::start_natural(SEED, &["--mobs", "off"]);
    let (sx, sz) = world.spawn_column();

    // A 2×2 hole dug DEPTH blocks into whatever the ground 5 blocks east of spawn is made of.
    let (hx, hz) = (sx + 5, sz);
    let top = world.cmd(json!({ "cmd": "surface", "x": hx, "z": hz }))["y"].as_i64().unwrap();
    let floor = top - DEPTH;
    world.cmd(json!({ "cmd": "fill", "from": [hx, floor + 1, hz], "to": [hx + 1, top + 3, hz + 1], "block": "air" }));
    let owner_y = world.cmd(json!({ "cmd": "surface", "x": sx, "z": sz }))["y"].as_i64().unwrap() + 1;
    world.add_player("Alice", [sx as f64 + 0.5, owner_y as f64, sz as f64 + 0.5]);

    let bot = Bot::start(&world.address(), &["--username", "Wayfarer", "--owner", "Alice"]);
    bot.expect_log("Wayfarer spawned at", Duration::from_secs(60));
    world.cmd(json!({ "cmd": "teleport", "name": "Wayfarer", "x": hx as f64 + 1.0, "y": (floor + 1) as f64, "z": hz as f64 + 1.0 }));
    give(&world, "Wayfarer", "dirt", 24);
    bot_sees(&world, "Wayfarer", "dirt", 24);
    std::thread::sleep(Duration::from_secs(1));
    let start = world.player("Wayfarer");
    assert!(start.pos[1] < (top - 5) as f64, "the bot is not down the hole: {:?} (ground at {top})", start.pos);

    let from = world.say("Alice", "!come");
    let deadline = Instant::now() + Duration::from_secs(90);
    let alice = [sx as f64 + 0.5, owner_y as f64, sz as f64 + 0.5];
    loop {
        let me = world.player("Wayfarer");
        if me.pos[1] > top as f64 && me.distance_to(alice) < 4.0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the bot did not get out of the hole to Alice within 90 s: it is at {:?}; it said {:?}",
            me.pos,
            world.chat_since(from)
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    let placed = world
        .events_since(0)
        .iter()
        .filter(|e| e["event"] == "blockPlaced" && e["name"] == "Wayfarer" && e["block"] == "dirt")
        .count();
    assert!(placed >= 3, "the bot got out but placed only {placed} dirt: it did not pillar");
    assert!(inventory_count(&world, "Wayfarer", "dirt") < 24);
}
