//! `!task GOAL` with a scripted OpenAI-compatible endpoint: the goal is planned into tracked steps, each step's code
//! is written, run and judged by its tracker (no critic calls), bad replies become specific feedback for the next
//! attempt, successful code enters the skill library and is retrieved into later prompts, and progress is said with
//! the fixed phrases teams monitor. Without an LLM, `!task` says how to configure one.

use crate::support;

use std::time::Duration;

use serde_json::{Value, json};
use support::fake_llm::{FakeEndpoint, Scripted};
use support::*;

#[test]
fn a_goal_is_planned_done_step_by_step_and_learned() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.push_content(
        "[{\"task\": \"Mine 2 oak_log\", \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 2}},\n \
         {\"task\": \"Craft 4 oak_planks\", \"tracker\": {\"type\": \"craft\", \"item\": \"oak_planks\", \"count\": 4}}]",
    );
    // Step 1: three bad answers, then a good one.
    endpoint.push_content("I would walk to the tree and mine two logs.");
    endpoint.push_content("```rhai\nfn mineTwoLogs() {\n  let = 2;\n}\n```");
    endpoint.push_content("```rhai\nfn mineTwoLogs() {\n  loop { }\n}\n```");
    endpoint.push_content(
        "Plan: mine them.\nDescription: Mines two oak logs from the nearest trees and returns how many it mined.\n\
         ```rhai\nfn mineTwoLogs() {\n  mineBlock(\"oak_log\", 2)\n}\n```",
    );
    // Step 2: a main function that wants an argument, then right, with no description line: the description role
    // is asked.
    endpoint.push_content("```rhai\nfn craftPlanks(n) {\n  craftItem(\"oak_planks\", n)\n}\n```");
    endpoint.push_content("```rhai\nfn craftFourPlanks() {\n  craftItem(\"oak_planks\", 4)\n}\n```");
    endpoint.push_content("Crafts four oak planks from one oak log in the inventory grid.");

    let skills = ScriptDir::new("task-skills", &[]);
    let (world, _bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url()]);
    for (x, z) in [(5, -3), (5, -5), (7, -4)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    let from = world.say("Alice", "!task prepare some wood planks");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("Plan for prepare some wood planks: Mine 2 oak_log; Craft 4 oak_planks.", 10);
    expect("I will start task: Mine 2 oak_log", 5);
    expect("I succeeded in task: Mine 2 oak_log", 90);
    expect("I will start task: Craft 4 oak_planks", 5);
    expect("I succeeded in task: Craft 4 oak_planks", 30);
    expect("I succeeded in task: prepare some wood planks (new skills: mineTwoLogs, craftFourPlanks)", 10);
    let chat = world.chat_since(from).join("\n");
    assert!(chat.contains("2/2 oak_log (100%)"), "tracker progress is said: {chat}");
    assert!(!chat.contains("I failed task"), "{chat}");

    assert_eq!(inventory_count(&world, "Wayfarer", "oak_log"), 1);
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_planks"), 4);
    assert_eq!(endpoint.pending(), 0, "every scripted reply was used");

    let requests = endpoint.requests();
    assert_eq!(requests.len(), 8, "plan + 4 attempts + 2 attempts + 1 description; no critic calls");
    assert!(
        requests.iter().all(|r| !system_message(r).starts_with("You judge")),
        "the trackers judged, not the critic"
    );
    // Each bad answer became specific feedback in the next attempt's prompt.
    assert!(
        last_user_message(&requests[2]).contains("Your reply had no code block"),
        "{}",
        last_user_message(&requests[2])
    );
    assert!(
        last_user_message(&requests[3]).contains("The code does not compile: line 2"),
        "{}",
        last_user_message(&requests[3])
    );
    let after_loop = last_user_message(&requests[4]);
    assert!(after_loop.contains("endless loop") || after_loop.contains("time limit"), "{after_loop}");
    assert!(after_loop.contains("fn mineTwoLogs() {\n  loop { }"), "the last code is shown: {after_loop}");
    // What the bot sees goes with the task.
    let seen = last_user_message(&requests[1]);
    assert!(seen.contains("Task: Mine 2 oak_log") && seen.contains("in the overworld (plains biome)"), "{seen}");
    assert!(
        seen.contains("Equipment: nothing") && seen.contains("Nearby blocks: grass_block, dirt, stone, oak_log"),
        "{seen}"
    );
    // The action agent is shown the primitives, and the skill learned in step 1 when it writes step 2.
    assert!(system_message(&requests[1]).contains("mineBlock(name, count)"));
    assert!(
        system_message(&requests[5]).contains("// mineTwoLogs(): Mines two oak logs from the nearest trees"),
        "learned skill not retrieved into the next prompt"
    );
    assert!(
        last_user_message(&requests[6]).contains("The last function, craftPlanks, takes 1 parameter"),
        "{}",
        last_user_message(&requests[6])
    );
    assert!(system_message(&requests[7]).starts_with("You describe a Minecraft skill"));

    // The skills are in the library, with the LLM's descriptions and their tasks.
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(skills.0.join("mineTwoLogs.json")).unwrap()).unwrap();
    assert_eq!(meta["description"], "Mines two oak logs from the nearest trees and returns how many it mined.");
    assert_eq!(meta["task"], "Mine 2 oak_log");
    assert!(skills.0.join("craftFourPlanks.rhai").is_file());
}

#[test]
fn bad_plans_failed_steps_and_no_llm_are_answered_plainly() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    // The endpoint errors once (retried), then plans badly twice: the goal fails with the reason.
    endpoint.push(Scripted::Status { status: 500, body: "overloaded".into(), retry_after: Some(0) });
    endpoint.push_content("Sure, first mine logs, then craft.");
    endpoint.push_content("[{\"task\": \"Mine 1 oak_log\", \"tracker\": {\"type\": \"teleport\"}}]");
    // A step without a tracker is judged by the LLM critic; an unreadable verdict is asked for again.
    endpoint.push_content("[{\"task\": \"Say hello\"}]");
    endpoint.push_content("```rhai\nfn sayHello() {\n  chat(\"hello there\")\n}\n```");
    endpoint.push_content("It worked, I think.");
    endpoint.push_content("{\"reasoning\": \"it said hello\", \"success\": true, \"critique\": \"\"}");

    let skills = ScriptDir::new("task-bad", &[]);
    let (world, _bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url()]);
    let from = world.say("Alice", "!task make a tool");
    let failed = world.expect_chat(
        from,
        "Wayfarer",
        "I failed task: make a tool because I could not plan it",
        Duration::from_secs(20),
    );
    assert!(failed.contains("invalid tracker"), "{failed}");

    let from = world.say("Alice", "!task greet everyone");
    world.expect_chat(from, "Wayfarer", "I will start task: Say hello", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "hello there", Duration::from_secs(10));
    // A step that only talks is the critic's to judge; it changed nothing in the world, so nothing is learned.
    let done =
        world.expect_chat(from, "Wayfarer", "I did every step of my plan for greet everyone", Duration::from_secs(20));
    assert!(!done.contains("new skills"), "{done}");
    assert!(!skills.0.join("sayHello.rhai").exists(), "a function that changed nothing was learned");
    let requests = endpoint.requests();
    let critic: Vec<&Value> = requests.iter().filter(|r| system_message(r).starts_with("You judge")).collect();
    assert_eq!(critic.len(), 2, "one verdict, unreadable, then asked for again");
    assert_eq!(
        critic[0]["response_format"]["json_schema"]["schema"]["required"],
        json!(["reasoning", "success", "critique"]),
        "the verdict is asked in its schema"
    );
    assert!(last_user_message(critic[0]).starts_with("Task: Say hello"), "{}", last_user_message(critic[0]));
    assert!(
        last_user_message(critic[1]).starts_with("That was not the JSON object asked for"),
        "{}",
        last_user_message(critic[1])
    );
    assert_eq!(endpoint.pending(), 0);

    // Without an LLM configured, the bot says how to configure one.
    let plain = Bot::start(&world.address(), &["--username", "Plain", "--owner", "Alice"]);
    plain.expect_log("Plain spawned at", Duration::from_secs(60));
    let from = world.say("Alice", "Plain !task build a house");
    let reply = world.expect_chat(from, "Plain", "I failed task: build a house", Duration::from_secs(10));
    assert!(reply.contains("facts do not cover it") && reply.contains("WAYFARER_LLM_URL"), "{reply}");
    // A goal the game's facts plan needs no LLM.
    world.cmd(json!({"cmd": "setBlock", "x": 6, "y": 64, "z": 2, "block": "oak_log"}));
    let from = world.say("Alice", "Plain !task get 1 oak log");
    let done = world.expect_chat(from, "Plain", "task: get 1 oak log", Duration::from_secs(60));
    assert!(done.starts_with("I succeeded in task: get 1 oak log"), "{done}");
    give(&world, "Plain", "crafting_table", 1);
    bot_sees(&world, "Plain", "crafting_table", 1);
    let from = world.say("Alice", "Plain !task place a crafting table next to you");
    let done = world.expect_chat(from, "Plain", "task: place a crafting table", Duration::from_secs(30));
    assert!(done.starts_with("I succeeded in task: place a crafting table next to you"), "{done}");
    assert_eq!(inventory_count(&world, "Plain", "crafting_table"), 0, "it was placed");
    let from = world.say("Alice", "Plain !learn start 1");
    let reply = world.expect_chat(from, "Plain", "I have no LLM to plan with", Duration::from_secs(10));
    assert!(reply.contains("WAYFARER_LLM_URL"), "{reply}");
}

/// Answers that cannot run are sent back before the world: a call with the wrong number of values, a name from
/// another bot's API, a game function defined anew, a browser's `bot.` — each with what to write instead — and none
/// of them uses up one of the four world attempts. The fifth answer, in JavaScript's habits, is mended and runs.
#[test]
fn answers_that_cannot_run_are_sent_back_before_the_world() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.push_content(
        "[{\"task\": \"Mine 2 oak_log\", \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 2}}]",
    );
    endpoint
        .push_content("```rhai\nfn mineTwoLogs() {\n  chat(\"first try\");\n  exploreUntil(\"oak_log\", 64);\n}\n```");
    endpoint
        .push_content("```rhai\nfn mineTwoLogs() {\n  chat(\"second try\");\n  findNearestBlock(\"oak_log\");\n}\n```");
    endpoint.push_content(
        "```rhai\nfn exploreUntil(name, seconds) { mineBlock(name, 1) }\nfn mineTwoLogs() {\n  chat(\"third try\");\n  \
         exploreUntil(\"oak_log\", 2);\n}\n```",
    );
    endpoint.push_content(
        "```js\nfunction mineTwoLogs() {\n  chat(\"fourth try\");\n  bot.collectBlock(\"oak_log\");\n}\n```",
    );
    endpoint.push_content(
        "Description: Mines two oak logs from the nearest trees.\n```javascript\nasync function mineTwoLogs() {\n  \
         const n = 2;\n  await bot.mineBlock('oak_log', n);\n  console.log(`mined ${n}`);\n}\n```",
    );

    let skills = ScriptDir::new("task-checked", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url()]);
    for (x, z) in [(5, -3), (5, -5)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    let from = world.say("Alice", "!task gather the timber we need");
    world.expect_chat(from, "Wayfarer", "I will start task: Mine 2 oak_log", Duration::from_secs(10));
    let done = world.expect_chat(from, "Wayfarer", "plan for gather the timber we need", Duration::from_secs(90));
    // Timber is no game thing: the plan's steps are judged, the goal itself is not claimed.
    assert!(done.starts_with("I did every step of my plan for gather the timber we need"), "{done}");
    // The world shows the logs, and that no caught answer ran: none of them said its line.
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_log"), 2);
    let chat = world.chat_since(from).join("\n");
    assert!(!chat.contains("try"), "an answer that cannot run reached the world: {chat}");
    assert_eq!(endpoint.pending(), 0, "every scripted reply was used");
    let requests = endpoint.requests();
    assert_eq!(requests.len(), 6, "the plan and five answers");
    // The plan was asked in its schema, the code in words.
    let schema = &requests[0]["response_format"]["json_schema"]["schema"];
    assert_eq!(schema["items"]["required"], json!(["task", "tracker"]), "{}", requests[0]);
    assert!(requests[1].get("response_format").is_none());
    let said = |i: usize| last_user_message(&requests[i]);
    assert!(
        said(2).contains(
            "`exploreUntil` takes 3 values (direction, maxTime, callback); you passed 2 values. For example:"
        ),
        "{}",
        said(2)
    );
    assert!(said(2).contains("fn mineTwoLogs() {\n  chat(\"first try\");"), "the caught code is shown: {}", said(2));
    assert!(said(3).contains("there is no function `findNearestBlock`: did you mean `findBlock("), "{}", said(3));
    assert!(said(4).contains("`exploreUntil` is a built-in function of the game"), "{}", said(4));
    assert!(said(5).contains("`bot.` is not Rhai"), "{}", said(5));
    bot.expect_log("caught before the world (4 in this task)", Duration::from_secs(5));
    bot.expect_log("attempt 1: mended 'text' → \"text\", `function f(` → `fn f(`, `var`/`const` → `let`, `await` dropped, `bot.` dropped", Duration::from_secs(5));
    let from = world.say("Alice", "!usage");
    world.expect_chat(from, "Wayfarer", "broke on its own code", Duration::from_secs(10));
    let usage = world.chat_since(from).join(" ");
    assert!(usage.contains("4 sent back before the world, 1 run in it (0 broke on its own code)."), "{usage}");
    // The skill is kept as it ran: in Rhai.
    let code = std::fs::read_to_string(skills.0.join("mineTwoLogs.rhai")).unwrap();
    assert!(code.contains("let n = 2;") && code.contains("mineBlock(\"oak_log\", n);"), "{code}");
}

/// An answer that repeats code the task already ran and saw get it no further is sent back with why, not run again:
/// the world hears the first answer's line once, and the task ends done by the answer after. (Code that made some
/// progress may run again: `world_judges` stores planks two at a time with the same code.)
#[test]
fn code_that_fell_short_is_not_run_twice() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.push_content(
        "[{\"task\": \"Mine 2 oak_log\", \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 2}}]",
    );
    endpoint.push_content("```rhai\nfn getLogs() {\n    chat(\"one log\");\n    inventoryCount(\"oak_log\")\n}\n```");
    endpoint.push_content("```rhai\nfn getLogs() { chat(\"one log\"); inventoryCount(\"oak_log\") }\n```");
    endpoint.push_content(
        "Description: Mines two oak logs.\n```rhai\nfn getLogs() {\n    mineBlock(\"oak_log\", 2);\n}\n```",
    );

    let skills = ScriptDir::new("task-repeat", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url()]);
    for (x, z) in [(5, -3), (5, -5)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    let from = world.say("Alice", "!task gather some timber");
    let done = world.expect_chat(from, "Wayfarer", "plan for gather some timber", Duration::from_secs(120));
    // Timber is no game thing: the plan's steps are judged, the goal itself is not claimed.
    assert!(done.starts_with("I did every step of my plan for gather some timber"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_log"), 2);
    // The first answer ran once: its line was said once, though the model wrote it twice.
    let chat = world.chat_since(from);
    assert_eq!(chat.iter().filter(|line| line.contains("one log")).count(), 1, "{chat:?}");
    let requests = endpoint.requests();
    assert_eq!(requests.len(), 4, "the plan and three answers");
    let told = last_user_message(&requests[3]);
    assert!(
        told.contains("That code is the same as an attempt that already ran in this task and fell short"),
        "{told}"
    );
    // At 0 a model answers much the same prompt with the same code: the answer after a caught one is sampled, the
    // answers after a run in the world are not.
    let temperature = |i: usize| requests[i]["temperature"].as_f64().unwrap();
    assert_eq!((temperature(1), temperature(2)), (0.0, 0.0));
    assert!(temperature(3) > 0.0, "the answer after the repeat is sampled: {}", requests[3]["temperature"]);
    bot.expect_log("caught before the world (1 in this task)", Duration::from_secs(5));
    let from = world.say("Alice", "!usage");
    world.expect_chat(from, "Wayfarer", "broke on its own code", Duration::from_secs(10));
    let usage = world.chat_since(from).join(" ");
    assert!(usage.contains("0 sent back before the world, 2 run in it (0 broke on its own code). 1 repeat"), "{usage}");
}
