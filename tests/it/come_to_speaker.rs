//! `!come` brings the bot to the owner who said it.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn come_walks_to_the_speaker() {
    let (world, _bot) = world_with_bot("Wayfarer");
    world.move_player("Alice", [-9.5, 64.0, 8.5]);
    std::thread::sleep(Duration::from_millis(300));
    let from = world.say("Alice", "!come");
    world.expect_chat(from, "Wayfarer", "I'm here, Alice", Duration::from_secs(40));
    let me = world.player("Wayfarer");
    let alice = world.player("Alice");
    assert!(me.distance_to(alice.pos) <= 3.0, "the bot is at {:?}, Alice at {:?}", me.pos, alice.pos);
}
