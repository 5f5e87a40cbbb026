//! `wayfarer learn` goes on learning after its bot is kicked and reconnects, and ends — with its summary — on every
//! path, an owner's `!stop` included. (Learning used to start on the first spawn only, so after a reconnect the
//! process neither learned nor exited.)

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::{
    fake_llm::{FakeEndpoint, Scripted},
    *,
};

fn code(description: &str, body: &str) -> String {
    format!("Description: {description}\n```rhai\n{body}\n```")
}

/// A proposal whose tracker counts what the task gains (the test world, unlike vanilla, starts a rejoining player
/// with an empty inventory).
fn proposal(task: &str, item: &str, count: u32) -> String {
    format!(
        "{{\"reasoning\": \"r\", \"task\": \"{task}\", \"context\": \"\", \
         \"tracker\": {{\"type\": \"craft\", \"item\": \"{item}\", \"count\": {count}}}}}"
    )
}

#[test]
fn learning_resumes_after_a_kick_and_the_run_ends_with_its_summary() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.push_content(code("Mines one oak log.", "fn mineOneLog() {\n  mineBlock(\"oak_log\", 1)\n}"));
    // The curriculum's next answer is slow: the kick lands while the bot waits for it, and that answer is lost.
    endpoint.push(Scripted::Stall(Duration::from_secs(8)));
    endpoint.push_content(proposal("Mine 9 oak_log", "oak_log", 9));
    endpoint.push_content(proposal("Mine 1 more oak_log", "oak_log", 1));
    // Code of its own: the same code as mineOneLog would reuse that skill instead of adding one.
    endpoint.push_content(code(
        "Mines one more oak log and says so.",
        "fn mineAnotherLog() {\n  let got = mineBlock(\"oak_log\", 1);\n  chat(`one more log: ${got}`);\n  got\n}",
    ));

    let world = World::start();
    for (x, z) in [(4, -3), (5, -5), (7, -4)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    let dir = ScriptDir::new("learn-reconnect", &[]);
    let skills = dir.0.join("skills");
    let args = [
        "--username",
        "Learner",
        "--max-iterations",
        "2",
        "--llm-url",
        &endpoint.base_url(),
        "--checkpoint",
        dir.path(),
    ];
    let skills_flag = ["--skills", skills.to_str().unwrap()];
    let mut bot = Bot::start_subcommand("learn", &world.address(), &[&args[..], &skills_flag[..]].concat());
    world.expect_chat(0, "Learner", "I succeeded in task: Mine 1 wood log", Duration::from_secs(90));
    // Wait until the curriculum's (stalled) request is out, then kick the bot.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while endpoint.requests().len() < 2 {
        assert!(std::time::Instant::now() < deadline, "no curriculum request; log:\n{}", bot.log_text());
        std::thread::sleep(Duration::from_millis(50));
    }
    world.cmd(json!({"cmd": "kick", "name": "Learner"}));
    bot.expect_log("Learner disconnected", Duration::from_secs(15));
    bot.expect_log("Learner spawned again", Duration::from_secs(60));
    world.expect_chat(0, "Learner", "Learning again after the reconnect: 1 more tasks to go.", Duration::from_secs(10));

    let status = bot
        .wait_exit(Duration::from_secs(90))
        .unwrap_or_else(|| panic!("learn did not exit; log:\n{}", bot.log_text()));
    let log = bot.log_text();
    assert!(status.success(), "{log}");
    assert!(log.contains("2 tasks done, 0 failed; learned 2 skills (mineOneLog, mineAnotherLog)"), "{log}");
    assert!(!log.contains("Mine 9 oak_log"), "the answer cut off by the kick was used:\n{log}");
    let broken: Vec<_> =
        world.events_since(0).into_iter().filter(|e| e["event"] == "blockBroken" && e["name"] == "Learner").collect();
    assert_eq!(broken.len(), 2, "one log before the kick, one after: {broken:?}");
    // The checkpoint is the bot's own, and holds both tasks.
    let tasks = std::fs::read_to_string(dir.0.join("Learner").join("tasks.json")).unwrap();
    assert!(tasks.contains("Mine 1 wood log") && tasks.contains("Mine 1 more oak_log"), "{tasks}");
}

#[test]
fn an_owners_stop_ends_wayfarer_learn_with_what_was_learned() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.push_content(code("Mines one oak log.", "fn mineOneLog() {\n  mineBlock(\"oak_log\", 1)\n}"));
    endpoint.push(Scripted::Stall(Duration::from_secs(30)));
    endpoint.push_content(proposal("Mine 1 more oak_log", "oak_log", 1));

    let world = World::start();
    world.add_player("Alice", [3.5, 64.0, 3.5]);
    world.cmd(json!({"cmd": "setBlock", "x": 4, "y": 64, "z": -3, "block": "oak_log"}));
    let dir = ScriptDir::new("learn-stop", &[]);
    let skills = dir.0.join("skills");
    let mut bot = Bot::start_subcommand(
        "learn",
        &world.address(),
        &[
            "--username",
            "Learner",
            "--owner",
            "Alice",
            "--llm-url",
            &endpoint.base_url(),
            "--checkpoint",
            dir.path(),
            "--skills",
            skills.to_str().unwrap(),
        ],
    );
    world.expect_chat(0, "Learner", "I succeeded in task: Mine 1 wood log", Duration::from_secs(90));
    let from = world.say("Alice", "!stop");
    world.expect_chat(from, "Learner", "Stopped learning", Duration::from_secs(10));
    let status = bot
        .wait_exit(Duration::from_secs(20))
        .unwrap_or_else(|| panic!("learn did not exit; log:\n{}", bot.log_text()));
    let log = bot.log_text();
    assert!(status.success(), "{log}");
    assert!(
        log.contains("Learning ended early (stopped by Alice): 1 tasks done, 0 failed; learned 1 skills (mineOneLog)"),
        "{log}"
    );
}
