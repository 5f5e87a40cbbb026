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
