//! `!follow PLAYER` keeps the bot near a moving player; `!stop` ends it and the bot stays put.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn follow_keeps_up_and_stop_ends_it() {
    let (world, _bot) = world_with_bot("Wayfarer");
    let from = world.say("Alice", "!follow Alice");
    world.expect_chat(from, "Wayfarer", "Following Alice", Duration::from_secs(10));

    world.move_player("Alice", [12.5, 64.0, 2.5]);
    wait_until(Duration::from_secs(20), || world.player("Wayfarer").distance_to([12.5, 64.0, 2.5]) <= 3.5)
        .unwrap_or_else(|| panic!("the bot did not follow Alice: it is at {:?}", world.player("Wayfarer").pos));

    let from = world.say("Alice", "!status");
    world.expect_chat(from, "Wayfarer", "| following Alice", Duration::from_secs(10));

    let from = world.say("Alice", "!stop");
    world.expect_chat(from, "Wayfarer", "Stopped following Alice.", Duration::from_secs(10));
    let stopped_at = world.player("Wayfarer").pos;
    world.move_player("Alice", [-8.5, 64.0, 2.5]);
    std::thread::sleep(Duration::from_secs(3));
    // The window ends with an answer the bot must give, and that says the follow is over.
    let from = world.say("Alice", "!stop");
    world.expect_chat(from, "Wayfarer", "I wasn't doing anything.", Duration::from_secs(10));
    let me = world.player("Wayfarer");
    assert!(me.distance_to(stopped_at) < 1.0, "the bot kept moving after !stop: {stopped_at:?} -> {:?}", me.pos);
}

/// Polls `check` every 200 ms until it holds or `timeout` passes.
fn wait_until(timeout: Duration, mut check: impl FnMut() -> bool) -> Option<()> {
    let deadline = std::time::Instant::now() + timeout;
    while std::time::Instant::now() < deadline {
        if check() {
            return Some(());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    None
}
