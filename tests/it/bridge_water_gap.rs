//! A river between the bot and its owner in a natural world: the bot, carrying cobblestone, bridges it (placing
//! blocks ahead of itself on the water) rather than walking far round or swimming.

use crate::support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::*;

const SEED: u64 = 77777;

#[test]
fn bridges_a_river_to_its_owner() {
    let world = World::start_natural(SEED, &["--mobs", "off"]);
    let (sx, sz) = world.spawn_column();
    let surface = |x: i64, z: i64| world.cmd(json!({ "cmd": "surface", "x": x, "z": z }))["y"].as_i64().unwrap();

    // A river 7 wide (too wide to jump) and 3 deep, 61 long, 3 blocks east of spawn, cut level with the ground at spawn.
    let level = surface(sx, sz);
    let (rx, length) = (sx + 3, 30);
    world.cmd(json!({ "cmd": "fill", "from": [rx, level + 1, sz - length], "to": [rx + 6, level + 8, sz + length], "block": "air" }));
    world.cmd(json!({ "cmd": "fill", "from": [rx, level - 2, sz - length], "to": [rx + 6, level, sz + length], "block": "water" }));
    // The far bank, level with the near one where Alice waits.
    let (ax, az) = (rx + 9, sz);
    world.cmd(
        json!({ "cmd": "fill", "from": [rx + 7, level - 3, az - 2], "to": [ax + 1, level, az + 2], "block": "dirt" }),
    );
    world.cmd(json!({ "cmd": "fill", "from": [rx + 7, level + 1, az - 2], "to": [ax + 1, level + 4, az + 2], "block": "air" }));
    let alice = [ax as f64 + 0.5, (level + 1) as f64, az as f64 + 0.5];
    world.add_player("Alice", alice);

    let bot = Bot::start(&world.address(), &["--username", "Wayfarer", "--owner", "Alice"]);
    bot.expect_log("Wayfarer spawned at", Duration::from_secs(60));
    give(&world, "Wayfarer", "cobblestone", 16);
    bot_sees(&world, "Wayfarer", "cobblestone", 16);

    let from = world.say("Alice", "!come");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let me = world.player("Wayfarer");
        if me.distance_to(alice) < 3.5 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the bot did not cross the river to Alice within 60 s: it is at {:?}; it said {:?}",
            me.pos,
            world.chat_since(from)
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    let on_the_river: Vec<serde_json::Value> = world
        .events_since(0)
        .into_iter()
        .filter(|e| e["event"] == "blockPlaced" && e["name"] == "Wayfarer" && e["block"] == "cobblestone")
        .filter(|e| (rx..=rx + 6).contains(&e["x"].as_i64().unwrap()) && e["y"].as_i64() == Some(level))
        .collect();
    assert!(
        on_the_river.len() >= 3,
        "the bot crossed but did not bridge the river at x {rx}..={}, y {level}: it placed {:?}",
        rx + 6,
        world.events_since(0).iter().filter(|e| e["event"] == "blockPlaced").collect::<Vec<_>>()
    );
}
