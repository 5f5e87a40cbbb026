//! Commands from players who are not owners are ignored: no reply, no movement.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn non_owner_commands_are_ignored() {
    let (world, _bot) = world_with_bot("Wayfarer");
    world.add_player("Eve", [-3.5, 64.0, -3.5]);
    let start = world.player("Wayfarer");

    let from = world.say("Eve", "!goto 10 64 10");
    world.say("Eve", "!status");
    world.say("Eve", "!dance");
    world.say("Eve", "Wayfarer !come");
    std::thread::sleep(Duration::from_secs(4));
    let said: Vec<String> = world.chat_since(from).into_iter().filter(|l| l.starts_with("<Wayfarer>")).collect();
    assert!(said.is_empty(), "the bot answered a non-owner: {said:?}");
    assert!(world.player("Wayfarer").distance_to(start.pos) < 0.5, "the bot moved for a non-owner");

    // The bot was listening all along: the owner gets an answer.
    let from = world.say("Alice", "!status");
    world.expect_chat(from, "Wayfarer", "At ", Duration::from_secs(10));
}
