//! `--bots 3` runs three bots in one process; each answers, and a command addressed by name reaches only one.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn three_bots_each_answer() {
    let world = World::start();
    world.add_player("Alice", [3.5, 64.0, 3.5]);
    let bot = Bot::start(&world.address(), &["--username", "Crew", "--bots", "3", "--owner", "Alice"]);
    for name in ["Crew_1", "Crew_2", "Crew_3"] {
        bot.expect_log(&format!("{name} spawned at"), Duration::from_secs(60));
    }
    let from = world.say("Alice", "!status");
    for name in ["Crew_1", "Crew_2", "Crew_3"] {
        world.expect_chat(from, name, "At ", Duration::from_secs(10));
    }

    let from = world.say("Alice", "Crew_2 !goto 5 64 -5");
    world.expect_chat(from, "Crew_2", "Arrived at 5 64 -5", Duration::from_secs(30));
    // The window ends with answers the other two must give: by then they have read the line meant for Crew_2.
    let asked = world.say("Alice", "Crew_1 !status");
    world.expect_chat(asked, "Crew_1", "At ", Duration::from_secs(10));
    let asked = world.say("Alice", "Crew_3 !status");
    world.expect_chat(asked, "Crew_3", "At ", Duration::from_secs(10));
    let others: Vec<String> = world
        .chat_since(from)
        .into_iter()
        .filter(|l| (l.starts_with("<Crew_1>") || l.starts_with("<Crew_3>")) && !l.contains("> At "))
        .collect();
    assert!(others.is_empty(), "bots answered a command addressed to Crew_2: {others:?}");
    assert!(world.player("Crew_2").distance_to([5.5, 64.0, -4.5]) < 1.0);
    assert!(world.player("Crew_1").distance_to([5.5, 64.0, -4.5]) > 3.0, "Crew_1 moved too");
}
