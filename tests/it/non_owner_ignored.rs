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
    std::thread::sleep(Duration::from_secs(2));
    // The window ends with an answer the bot must give: chat is read in order, so by the owner's answer it has read
    // Eve's lines too (a bot merely slow to answer her would be as slow here, and the test would wait for it).
    let asked = world.say("Alice", "!status");
    world.expect_chat(asked, "Wayfarer", "At ", Duration::from_secs(10));
    let said: Vec<String> = world.chat_since(from).into_iter().filter(|l| l.starts_with("<Wayfarer>")).collect();
    assert_eq!(said.len(), 1, "the bot answered a non-owner: {said:?}");
    assert!(said[0].contains("At "), "{said:?}");
    assert!(world.player("Wayfarer").distance_to(start.pos) < 0.5, "the bot moved for a non-owner");
}
