//! `!goto X Y Z` walks the bot to within one block of the target; relative coordinates work too.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn goto_walks_to_within_one_block() {
    let (world, _bot) = world_with_bot("Wayfarer");
    let from = world.say("Alice", "!goto 12 64 -7");
    world.expect_chat(from, "Wayfarer", "Going to 12 64 -7", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "Arrived at 12 64 -7", Duration::from_secs(40));
    let me = world.player("Wayfarer");
    assert!(me.distance_to([12.5, 64.0, -6.5]) < 1.0, "the bot stopped at {:?}", me.pos);

    // ~ offsets are relative to where the bot stands now.
    let from = world.say("Alice", "!goto ~-5 ~ ~3");
    world.expect_chat(from, "Wayfarer", "Arrived at 7 64 -4", Duration::from_secs(40));
    let me = world.player("Wayfarer");
    assert!(me.distance_to([7.5, 64.0, -3.5]) < 1.0, "the bot stopped at {:?}", me.pos);
}
