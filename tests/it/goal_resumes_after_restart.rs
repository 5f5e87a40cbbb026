//! Goals persist: `!task` writes its goal, plan and every task's status to the bot's book as they change; a bot cut
//! off mid-goal (here: its process killed) goes on from the next task when it is back, without planning again; a goal
//! an owner stopped is not resumed; `!goals` lists them and `!goal drop` abandons one.

use crate::support;

use std::time::Duration;

use serde_json::Value;
use support::*;

fn book(checkpoint: &ScriptDir) -> Value {
    let text =
        std::fs::read_to_string(checkpoint.0.join("Wayfarer").join("goals.json")).expect("the goal book is written");
    serde_json::from_str(&text).expect("the goal book is JSON")
}

#[test]
fn a_goal_cut_off_by_a_restart_goes_on_from_its_next_task() {
    let checkpoint = ScriptDir::new("goal-resume", &[]);
    let args = ["--checkpoint", checkpoint.path()];
    let (world, bot, _) = natural_world_with_bot(1009, &["--mobs", "off"], &args);

    let from = world.say("Alice", "!task craft a wooden pickaxe");
    let plan = world.expect_chat(from, "Wayfarer", "Plan for craft a wooden pickaxe:", Duration::from_secs(20));
    let steps = plan.matches("; ").count() + 1;
    world.expect_chat(from, "Wayfarer", "I succeeded in task: Mine 3 ", Duration::from_secs(120));
    drop(bot);
    let saved = book(&checkpoint);
    let goal = &saved["goals"][0];
    assert_eq!(
        (goal["text"].as_str(), goal["status"].as_str()),
        (Some("craft a wooden pickaxe"), Some("active")),
        "{saved}"
    );
    let tasks = goal["plans"][0]["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), steps);
    assert_eq!(tasks[0]["status"], "completed", "{saved}");
    let done_before = tasks.iter().filter(|t| t["status"] == "completed").count();

    let back = world.cursor();
    let mut bot_args = vec!["--username", "Wayfarer", "--owner", "Alice"];
    bot_args.extend_from_slice(&args);
    let bot = Bot::start(&world.address(), &bot_args);
    let going_on =
        world.expect_chat(back, "Wayfarer", "Going on with craft a wooden pickaxe:", Duration::from_secs(60));
    assert_eq!(going_on, format!("Going on with craft a wooden pickaxe: {done_before} of {steps} tasks were done."));
    world.expect_chat(back, "Wayfarer", "I succeeded in task: craft a wooden pickaxe", Duration::from_secs(180));
    let chat = world.chat_since(back).join("\n");
    assert!(!chat.contains("Plan for"), "the goal was planned again: {chat}");
    assert!(!chat.contains("I will start task: Mine 3 "), "a done task was done again: {chat}");
    assert_eq!(inventory_count(&world, "Wayfarer", "wooden_pickaxe"), 1);
    let from = world.say("Alice", "!goals");
    world.expect_chat(
        from,
        "Wayfarer",
        &format!("Goals, newest first: #1 craft a wooden pickaxe: completed, {steps}/{steps} tasks"),
        Duration::from_secs(5),
    );

    // A goal an owner stops stays stopped through a restart, and can be dropped.
    let from = world.say("Alice", "!task get 40 logs");
    world.expect_chat(from, "Wayfarer", "I will start task:", Duration::from_secs(20));
    let stop = world.say("Alice", "!stop");
    world.expect_chat(stop, "Wayfarer", "Stopped ", Duration::from_secs(5));
    drop(bot);
    let back = world.cursor();
    let _bot = Bot::start(&world.address(), &bot_args);
    world.expect_join(back, "Wayfarer", Duration::from_secs(60));
    let from = world.say("Alice", "!goals");
    world.expect_chat(
        from,
        "Wayfarer",
        "Goals, newest first: #2 get 40 logs: stopped (stopped by Alice); #1 craft a wooden pickaxe: completed",
        Duration::from_secs(10),
    );
    assert!(!world.chat_since(back).join("\n").contains("Going on with"), "a stopped goal was resumed");
    let from = world.say("Alice", "!goal drop");
    world.expect_chat(from, "Wayfarer", "Dropped goal #2: get 40 logs.", Duration::from_secs(5));
    let from = world.say("Alice", "!goal drop 7");
    world.expect_chat(from, "Wayfarer", "There is no goal #7 (!goals lists them).", Duration::from_secs(5));
    assert_eq!(book(&checkpoint)["goals"][1]["status"], "dropped");
}
