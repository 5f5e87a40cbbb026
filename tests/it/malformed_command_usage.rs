//! A malformed or unknown command gets a one-line usage hint, and the bot keeps working.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn malformed_commands_get_usage_hints() {
    let (world, bot) = world_with_bot("Wayfarer");
    let from = world.say("Alice", "!goto 1 two 3");
    world.expect_chat(from, "Wayfarer", "Usage: !goto X Y Z (\"two\" is not a coordinate)", Duration::from_secs(10));
    let from = world.say("Alice", "!dance");
    world.expect_chat(from, "Wayfarer", "Unknown command !dance. Try !help", Duration::from_secs(10));
    let from = world.say("Alice", "!follow");
    world.expect_chat(from, "Wayfarer", "Usage: !follow PLAYER", Duration::from_secs(10));
    let from = world.say("Alice", "!help");
    let help = world.expect_chat(from, "Wayfarer", "Commands: !help, !status", Duration::from_secs(10));
    assert!(help.contains("!goto") && help.contains("!stop"), "{help}");

    // Still alive and obeying.
    let from = world.say("Alice", "!status");
    world.expect_chat(from, "Wayfarer", "At ", Duration::from_secs(10));
    assert!(!bot.log_text().contains("panicked"), "{}", bot.log_text());
}
