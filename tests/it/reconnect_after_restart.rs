//! When the world goes away and comes back on the same address, the bot reconnects by itself and obeys again.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn bot_reconnects_after_the_world_restarts() {
    let (world, mut bot) = world_with_bot("Wayfarer");
    let port = world.port;
    world.kill();
    bot.expect_log("Wayfarer disconnected", Duration::from_secs(15));
    // Keep the world down long enough for at least one reconnect attempt to fail.
    std::thread::sleep(Duration::from_secs(3));
    assert!(bot.is_running(), "the bot exited when the world went away:\n{}", bot.log_text());

    let world = World::start_on(port);
    let from = world.cursor();
    world.add_player("Alice", [3.5, 64.0, 3.5]);
    world.expect_join(from, "Wayfarer", Duration::from_secs(40));
    bot.expect_log("Wayfarer spawned again", Duration::from_secs(30));
    let from = world.say("Alice", "!status");
    world.expect_chat(from, "Wayfarer", "At ", Duration::from_secs(10));
}
