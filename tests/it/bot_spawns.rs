//! The bot joins the test world and stands on the ground at spawn.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn bot_joins_and_stands_on_the_ground() {
    let world = World::start();
    let from = world.cursor();
    let bot = Bot::start(&world.address(), &["--username", "Wayfarer"]);
    world.expect_join(from, "Wayfarer", Duration::from_secs(60));
    bot.expect_log("Wayfarer spawned at", Duration::from_secs(60));
    // Physics runs: after a moment the bot rests on the grass at y = 64, where the world put it.
    std::thread::sleep(Duration::from_secs(1));
    let me = world.player("Wayfarer");
    assert!(!me.virtual_player);
    assert!(me.distance_to(SPAWN) < 0.5, "the bot is at {:?}, not at spawn {SPAWN:?}", me.pos);
    assert!((me.pos[1] - 64.0).abs() < 0.01, "the bot is not standing on the ground: {:?}", me.pos);
}
