//! From a natural world's surface the bot digs stairs down to y 16 and walks back up them: no shaft, no fall of
//! more than 3 blocks (its health stays full), and it arrives both ways.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

const SEED: u64 = 3;

#[test]
fn digs_stairs_down_to_y16_and_climbs_back() {
    let world = World::start_natural(SEED, &["--mobs", "off"]);
    let (sx, sz) = world.spawn_column();
    let top = world.cmd(json!({ "cmd": "surface", "x": sx + 2, "z": sz + 2 }))["y"].as_i64().unwrap();
    world.add_player("Alice", [sx as f64 + 2.5, (top + 1) as f64, sz as f64 + 2.5]);
    let bot = Bot::start(&world.address(), &["--username", "Wayfarer", "--owner", "Alice"]);
    bot.expect_log("Wayfarer spawned at", Duration::from_secs(60));
    give(&world, "Wayfarer", "iron_pickaxe", 1);
    give(&world, "Wayfarer", "iron_shovel", 1);
    bot_sees(&world, "Wayfarer", "iron_pickaxe", 1);

    let (gx, gz) = (sx + 8, sz);
    let from = world.say("Alice", &format!("!goto {gx} 16 {gz}"));
    world.expect_chat(from, "Wayfarer", &format!("Arrived at {gx} 16 {gz}"), Duration::from_secs(300));
    let down = world.player("Wayfarer");
    assert!((down.pos[1] - 16.0).abs() < 0.6, "the bot is at {:?}", down.pos);
    let dug =
        world.events_since(from).iter().filter(|e| e["event"] == "blockBroken" && e["name"] == "Wayfarer").count();
    assert!(dug > 0, "the bot reached y 16 without digging");

    let from = world.say("Alice", "!come");
    world.expect_chat(from, "Wayfarer", "I'm here, Alice.", Duration::from_secs(240));
    let up = world.player("Wayfarer");
    assert!(up.pos[1] > top as f64, "the bot did not climb out: {:?}", up.pos);
    let health = world.cmd(json!({ "cmd": "health", "name": "Wayfarer" }));
    assert_eq!(health["health"].as_f64(), Some(20.0), "the bot was hurt on the way (a fall?): {health}");
}

#[test]
fn a_journey_underground_digs_its_own_stairs_rather_than_walking_a_cave() {
    let world = World::start_natural(SEED, &["--mobs", "off"]);
    let (sx, sz) = world.spawn_column();

    // A cave beside the bot: a passage 2 wide and 3 high, going down a block a step, 20 steps, from the surface.
    let (cx, floor) = (sx + 4, world.ground_y(sx + 4, sz));
    let step = |i: i64| (cx + i, floor - i);
    for i in 0..=20 {
        let (x, y) = step(i);
        world.cmd(json!({"cmd": "fill", "from": [x, y, sz], "to": [x, y + 2, sz + 1], "block": "air"}));
    }
    // Its part under at least 4 blocks of ground, short of the bottom where the journey ends.
    let covered: Vec<bool> = (0..=20)
        .map(|i| {
            let (x, y) = step(i);
            i <= 17 && world.cmd(json!({"cmd": "surface", "x": x, "z": sz}))["y"].as_i64().unwrap() >= y + 4
        })
        .collect();
    assert!(covered.iter().filter(|c| **c).count() >= 8, "the cave is mostly open to the sky: {covered:?}");
    let in_cave = |p: [f64; 3]| {
        let (x, y, z) = (p[0].floor() as i64, p[1].floor() as i64, p[2].floor() as i64);
        let i = x - cx;
        (0..=20).contains(&i)
            && covered[i as usize]
            && (sz..=sz + 1).contains(&z)
            && (step(i).1..=step(i).1 + 2).contains(&y)
    };

    // A script's way down to the cave's bottom: the cave is open; the bot digs a way of its own beside it.
    let (gx, gy) = step(20);
    let down = format!("goTo(vec3({gx}, {gy}, {sz}), 2)");
    let scripts = ScriptDir::new("journey-scripts", &[("down.rhai", &down)]);
    world.add_player("Alice", [sx as f64 + 2.5, world.ground_y(sx + 2, sz + 2) as f64, sz as f64 + 2.5]);
    let args = ["--username", "Wayfarer", "--owner", "Alice", "--scripts", scripts.path()];
    let bot = Bot::start(&world.address(), &args);
    bot.expect_log("Wayfarer spawned at", Duration::from_secs(60));
    give(&world, "Wayfarer", "iron_pickaxe", 1);
    bot_sees(&world, "Wayfarer", "iron_pickaxe", 1);
    let from = world.say("Alice", "!run down");
    let deadline = std::time::Instant::now() + Duration::from_secs(180);
    let mut in_it = 0;
    let ended = |e: &serde_json::Value| {
        e["event"] == "chat"
            && e["from"] == "Wayfarer"
            && e["text"].as_str().is_some_and(|t| t.starts_with("down finished") || t.starts_with("down failed"))
    };
    let done = loop {
        if let Some(event) = world.wait_event(from, Duration::ZERO, ended) {
            break event["text"].as_str().unwrap_or_default().to_owned();
        }
        assert!(std::time::Instant::now() < deadline, "the bot did not arrive; chat: {:?}", world.chat_since(from));
        let at = world.player("Wayfarer").pos;
        if in_cave(at) {
            in_it += 1;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(done.starts_with("down finished"), "{done}");
    assert!(world.player("Wayfarer").distance_to([gx as f64 + 0.5, gy as f64, sz as f64 + 0.5]) < 3.5);
    let dug =
        world.events_since(from).iter().filter(|e| e["event"] == "blockBroken" && e["name"] == "Wayfarer").count();
    assert!(dug >= 20, "the bot dug {dug} blocks: it walked the cave (seen in it {in_it} times)");
    assert!(in_it <= 3, "the bot was seen in the cave {in_it} times on its way down");
}
