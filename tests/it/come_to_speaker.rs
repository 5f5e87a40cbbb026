//! `!come`, or a goal that asks only that (`!task come over here to me`), brings the bot to the owner who said it.

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

/// A goal in words that asks only a walk to its speaker (`come over here to me`) is that walk, not a walk to "the
/// nearest block": the world shows the bot beside Alice.
#[test]
fn a_goal_to_come_to_the_speaker_is_the_walk_come_makes() {
    let (world, _bot) = world_with_bot("Wayfarer");
    world.move_player("Alice", [8.5, 64.0, -9.5]);
    std::thread::sleep(Duration::from_millis(300));
    let from = world.say("Alice", "!task come over here to me pls");
    world.expect_chat(from, "Wayfarer", "I'm here, Alice", Duration::from_secs(40));
    let me = world.player("Wayfarer");
    let alice = world.player("Alice");
    assert!(me.distance_to(alice.pos) <= 3.0, "the bot is at {:?}, Alice at {:?}", me.pos, alice.pos);
}
