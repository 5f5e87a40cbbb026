//! An owner's `!status` gets a reply that tells the bot's real position (as the world sees it) and its vitals.

mod support;

use std::time::Duration;

use support::*;

#[test]
fn status_reply_reports_the_real_position() {
    let (world, _bot) = world_with_bot("Wayfarer");
    // Move the bot away from spawn first, so a hard-coded or stale position could not pass.
    let from = world.say("Alice", "!goto 4 64 -3");
    world.expect_chat(from, "Wayfarer", "Arrived at 4 64 -3", Duration::from_secs(30));

    let from = world.say("Alice", "!status");
    let reply = world.expect_chat(from, "Wayfarer", "At ", Duration::from_secs(10));
    let reported = status_position(&reply);
    let actual = world.player("Wayfarer");
    assert!(actual.distance_to(reported) < 0.2, "status says {reported:?}, the world says {:?}", actual.pos);
    assert!(reply.contains("in overworld"), "{reply}");
    assert!(reply.contains("health 20/20, food 20/20"), "{reply}");
    assert!(reply.contains("carrying nothing"), "{reply}");
    assert!(reply.ends_with("| idle"), "{reply}");
}
