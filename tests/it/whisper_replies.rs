//! With `--reply whisper`, a bot answers by `/msg` to the player who asked, and obeys whispered commands too.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn replies_go_by_msg_to_the_asker() {
    let world = World::start();
    world.add_player("Alice", [3.5, 64.0, 3.5]);
    let bot = Bot::start(&world.address(), &["--username", "Wayfarer", "--owner", "Alice", "--reply", "whisper"]);
    bot.expect_log("Wayfarer spawned at", Duration::from_secs(60));

    let from = world.say("Alice", "!status");
    let whisper = world
        .wait_event(from, Duration::from_secs(10), |e| {
            e["event"] == "whisper" && e["from"] == "Wayfarer" && e["to"] == "Alice"
        })
        .unwrap_or_else(|| panic!("no whisper to Alice; chat: {:?}", world.chat_since(from)));
    assert!(whisper["text"].as_str().unwrap().starts_with("At "), "{whisper}");
    assert!(world.chat_since(from).iter().all(|l| !l.starts_with("<Wayfarer>")), "the reply was public");

    // A command whispered to the bot is obeyed as well.
    let from = world.cursor();
    world.cmd(json!({"cmd": "whisper", "from": "Alice", "to": "Wayfarer", "text": "!inventory"}));
    let answer =
        world.wait_event(from, Duration::from_secs(10), |e| e["event"] == "whisper" && e["from"] == "Wayfarer");
    assert_eq!(answer.expect("an answer to the whispered command")["text"], "Inventory: empty");
}
