//! The LLM's cost in plain sight, with a scripted endpoint and the real bot: a slow answer is said in chat and shown
//! by `!status`; a spent budget pauses the task with a line naming the budget and its refill, while other commands
//! keep working; `!usage` counts calls and tokens per role and per task, with the cost from the price table; an
//! answer cut at its token limit ends in a reasoned failure instead of a wait.

use crate::support;

use std::time::Duration;

use support::fake_llm::{FakeEndpoint, Scripted};
use support::*;

const HUT_PLAN: &str = "[{\"task\": \"Build the hut walls from planks\"}]";

#[test]
fn a_slow_answer_and_a_spent_budget_are_said_and_other_commands_keep_working() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    // The plan comes after 32 s; then the budget (one call an hour) is spent before the step's code is asked for.
    endpoint.push(Scripted::Stall(Duration::from_secs(32)));
    endpoint.push_content(HUT_PLAN);
    let config = ScriptDir::new(
        "economy-config",
        &[
            ("wayfarer.toml", "[llm.prices.small]\ninput = 0.5\noutput = 1.5\n"),
            ("hello.rhai", "chat(\"hello from a script\");\n"),
        ],
    );
    let skills = ScriptDir::new("economy-skills", &[]);
    let config_file = config.0.join("wayfarer.toml");
    let (world, _bot) = world_with_skilled_bot(
        &skills,
        &[
            "--llm-url",
            &endpoint.base_url(),
            "--llm-model",
            "small",
            "--llm-budget",
            "bot_calls_per_hour=1",
            "--config",
            config_file.to_str().unwrap(),
            "--scripts",
            config.path(),
        ],
    );
    let from = world.say("Alice", "!task build a small hut");
    std::thread::sleep(Duration::from_secs(5));
    let status_from = world.say("Alice", "!status");
    let status = world.expect_chat(status_from, "Wayfarer", "At ", Duration::from_secs(10));
    assert!(
        status.contains("task build a small hut (waiting ") && status.contains("s for the LLM's curriculum answer)"),
        "{status}"
    );
    world.expect_chat(from, "Wayfarer", "Still thinking about the plan (30 s)…", Duration::from_secs(40));
    world.expect_chat(
        from,
        "Wayfarer",
        "Plan for build a small hut: Build the hut walls from planks.",
        Duration::from_secs(15),
    );
    let paused = world.expect_chat(
        from,
        "Wayfarer",
        "The LLM budget bot_calls_per_hour (1 call) is spent",
        Duration::from_secs(15),
    );
    assert!(
        paused.contains("it refills in 60 min")
            && paused.contains("I'll go on with the code for Build the hut walls from planks then"),
        "{paused}"
    );
    assert_eq!(endpoint.requests().len(), 1, "no request while the budget is spent");

    let from = world.say("Alice", "!status");
    let status = world.expect_chat(from, "Wayfarer", "At ", Duration::from_secs(10));
    assert!(status.contains("(paused: the LLM budget bot_calls_per_hour is spent, it refills in 60 min)"), "{status}");
    let from = world.say("Alice", "!usage");
    let usage = world.expect_chat(from, "Wayfarer", "LLM use by me:", Duration::from_secs(10));
    // 100 prompt and 50 completion tokens a call (the scripted endpoint's count), at 0.5 and 1.5 per million.
    assert!(
        usage.starts_with(
            "LLM use by me: 1 call, 150 tokens (100 in, 50 out), cost 0.0001. Per role: curriculum 1 call 150."
        ),
        "{usage}"
    );
    let chat = world.chat_since(from).join("\n");
    assert!(chat.contains("Per task, latest first: build a small hut: 1 call, 150 tokens"), "{chat}");

    // Other commands work: a script runs (and, as any new activity does, ends the paused task).
    let from = world.say("Alice", "!run hello");
    world.expect_chat(from, "Wayfarer", "hello from a script", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "hello finished", Duration::from_secs(10));
    assert_eq!(endpoint.requests().len(), 1);
}

#[test]
fn an_answer_cut_at_its_token_limit_fails_the_task_with_the_reason() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    // A model that rambles to its limit, twice (the plan is asked for once more with what was wrong).
    endpoint.push(Scripted::AtLimit("Sure! Let me think about huts. First, ".repeat(20)));
    endpoint.push(Scripted::AtLimit("As I said, huts are ".repeat(20)));
    let skills = ScriptDir::new("economy-cut", &[]);
    let (world, _bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url()]);
    let from = world.say("Alice", "!task build a small hut");
    let failed =
        world.expect_chat(from, "Wayfarer", "I failed task: build a small hut because", Duration::from_secs(20));
    assert!(failed.contains("cut off at its limit of 700 tokens"), "{failed}");
    let requests = endpoint.requests();
    assert_eq!(requests.len(), 2, "asked again once, with what was wrong, and not retried as a fault");
    assert_eq!(requests[0]["max_tokens"], 700);
    assert!(
        last_user_message(&requests[1]).contains("cut off at its limit of 700 tokens"),
        "{}",
        last_user_message(&requests[1])
    );
}
