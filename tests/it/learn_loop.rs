//! `!learn start N` with a scripted OpenAI-compatible endpoint: the lifelong loop learns three tasks in the test world
//! (the fixed first task, then curriculum proposals with trackers), each success lands in the skill library and is
//! retrieved into the next prompt, bad answers are retried with the reason, the checkpoint is written as it goes,
//! and a restarted bot resumes from it. The run's LLM calls are counted against Voyager's for the same run.

use crate::support;

use std::time::Duration;

use serde_json::{Value, json};
use support::fake_llm::FakeEndpoint;
use support::*;

fn code(description: &str, body: &str) -> String {
    format!("Plan: as below.\nDescription: {description}\n```rhai\n{body}\n```")
}

#[test]
fn learns_three_skills_then_resumes() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    // 1. The fixed first task: no curriculum call.
    endpoint.push_content(code(
        "Mines one oak log from the nearest tree.",
        "fn mineOneLog() {\n  mineBlock(\"oak_log\", 1)\n}",
    ));
    // 2. A proposal; the first code names the wrong item, the second works.
    endpoint.push_content(
        "{\"reasoning\": \"planks lead to tools\", \"task\": \"Craft 4 oak_planks\", \"context\": \"one log makes four\", \
         \"tracker\": {\"type\": \"craft\", \"item\": \"oak_planks\", \"count\": 4}}",
    );
    // (A mistake the check before the world cannot see: it fails in the world, and the repair is shown the line.)
    endpoint.push_content(code(
        "Crafts planks.",
        "fn makePlanks() {\n  let counts = [4];\n  craftItem(\"oak_planks\", counts[1])\n}",
    ));
    endpoint.push_content(code(
        "Crafts four oak planks from one oak log.",
        "fn makePlanks() {\n  craftItem(\"oak_planks\", 4)\n}",
    ));
    // 3. No curriculum call: a build on the planks skill just learned, which calls both skills learned before.
    endpoint.push_content(code(
        "Makes a bowl: a log, planks, a table placed.",
        "fn makeBowl() {\n  mineOneLog();\n  makePlanks();\n  craftItem(\"crafting_table\", 1);\n  \
         placeItem(\"crafting_table\", findFreeSpot(4));\n  craftItem(\"bowl\", 1)\n}",
    ));

    let skills = ScriptDir::new("learn-skills", &[]);
    let checkpoint = ScriptDir::new("learn-checkpoint", &[]);
    let args = ["--llm-url", &endpoint.base_url(), "--checkpoint", checkpoint.path()];
    let (world, bot) = world_with_skilled_bot(&skills, &args);
    for (x, z) in [(5, -3), (5, -5), (7, -4)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    let from = world.say("Alice", "!learn start 3");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("Learning for up to 3 tasks (0 done before", 10);
    expect("I will start task: Mine 1 wood log", 10);
    expect("I succeeded in task: Mine 1 wood log", 60);
    expect("I will start task: Craft 4 oak_planks", 10);
    expect("I succeeded in task: Craft 4 oak_planks", 30);
    expect("I learned makePlanks; I will build on it: Craft 1 bowl.", 10);
    expect("I succeeded in task: Craft 1 bowl", 60);
    let done = expect("Learning done: 3 tasks done, 0 failed; learned 3 skills (mineOneLog, makePlanks, makeBowl)", 10);
    assert!(done.contains("with 5 LLM calls") && done.contains("Voyager's loop makes 15"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "bowl"), 4);

    let requests = endpoint.requests();
    assert_eq!(requests.len(), 5);
    assert!(requests.iter().all(|r| !system_message(r).starts_with("You judge")), "trackers judged every task");
    // The curriculum is told what was done; a bad answer is sent back with the reason.
    assert!(system_message(&requests[1]).starts_with("You plan what a Minecraft player should learn next"));
    let schema = &requests[1]["response_format"]["json_schema"]["schema"];
    assert_eq!(schema["required"], serde_json::json!(["reasoning", "task", "context", "tracker"]), "in its schema");
    assert!(
        last_user_message(&requests[1]).contains("Completed tasks so far: Mine 1 wood log"),
        "{}",
        last_user_message(&requests[1])
    );
    // Before five tasks are done the curriculum sees no entities or biome (Voyager's warm-up); chests it does.
    let seen = last_user_message(&requests[1]);
    assert!(
        seen.contains("Equipment: ") && seen.contains("Chests: none") && seen.contains("1/36 slots used"),
        "{seen}"
    );
    assert!(!seen.contains("Nearby entities") && !seen.contains("Biome"), "{seen}");
    assert!(
        last_user_message(&requests[3])
            .contains("The function failed at line 3, `craftItem(\"oak_planks\", counts[1])`:"),
        "{}",
        last_user_message(&requests[3])
    );
    // Skills learned earlier are shown to the action agent later: the nearest as code, the next by signature.
    let shown = system_message(&requests[4]);
    assert!(shown.contains("// makePlanks(): ") && shown.contains("// mineOneLog(): "), "{shown}");
    assert_eq!(shown.matches("fn makePlanks()").count() + shown.matches("fn mineOneLog()").count(), 1, "{shown}");

    // The checkpoint was written as it went, in this bot's own folder.
    let mine = checkpoint.0.join("Wayfarer");
    let tasks: Value = serde_json::from_str(&std::fs::read_to_string(mine.join("tasks.json")).unwrap()).unwrap();
    assert_eq!(tasks["completed"], json!(["Mine 1 wood log", "Craft 4 oak_planks", "Craft 1 bowl"]));
    let events = std::fs::read_to_string(mine.join("events.jsonl")).unwrap();
    assert_eq!(events.lines().count(), 3);
    assert!(events.contains("\"attempts\":2"), "{events}");
    let bowl: Value = serde_json::from_str(events.lines().last().unwrap()).unwrap();
    assert_eq!(bowl["used"], json!(["makePlanks", "mineOneLog"]), "{bowl}");
    for name in ["mineOneLog", "makePlanks", "makeBowl"] {
        assert!(skills.0.join(format!("{name}.rhai")).is_file(), "{name} was not saved");
    }

    // A restarted bot resumes: the curriculum sees the three completed tasks (an answer that is not JSON is sent
    // back), and a fourth is learned.
    drop(bot);
    world.cmd(json!({"cmd": "setBlock", "x": 7, "y": 64, "z": -6, "block": "oak_log"}));
    endpoint.push_content("Let us craft a crafting table next.");
    endpoint.push_content(
        "{\"reasoning\": \"more wood\", \"task\": \"Mine 2 oak_log\", \"context\": \"\", \
         \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 2}}",
    );
    endpoint.push_content(code("Mines two oak logs.", "fn mineTwoLogs() {\n  mineBlock(\"oak_log\", 2)\n}"));
    let bot = Bot::start(
        &world.address(),
        &[
            "--username",
            "Wayfarer",
            "--owner",
            "Alice",
            "--skills",
            skills.path(),
            "--llm-url",
            &endpoint.base_url(),
            "--checkpoint",
            checkpoint.path(),
        ],
    );
    bot.expect_log("Wayfarer spawned at", Duration::from_secs(60));
    let from = world.say("Alice", "!learn start 1");
    world.expect_chat(from, "Wayfarer", "Learning for up to 1 tasks (3 done before", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "I succeeded in task: Mine 2 oak_log", Duration::from_secs(60));
    world.expect_chat(from, "Wayfarer", "Learning done: 1 tasks done", Duration::from_secs(10));
    let requests = endpoint.requests();
    assert!(
        last_user_message(&requests[6]).starts_with("That cannot be used: no JSON object"),
        "{}",
        last_user_message(&requests[6])
    );
    let resumed = &requests[5];
    assert!(
        last_user_message(resumed)
            .contains("Completed tasks so far: Mine 1 wood log, Craft 4 oak_planks, Craft 1 bowl"),
        "{}",
        last_user_message(resumed)
    );
}

/// `wayfarer learn --max-iterations 1` joins, learns one task, prints the run's summary and exits.
#[test]
fn the_learn_command_learns_and_exits() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.push_content(code("Mines one oak log.", "fn mineOneLog() {\n  mineBlock(\"oak_log\", 1)\n}"));
    let world = World::start();
    world.cmd(json!({"cmd": "setBlock", "x": 4, "y": 64, "z": -3, "block": "oak_log"}));
    let checkpoint = ScriptDir::new("learn-cli", &[]);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_wayfarer"))
        .args(["learn", "--max-iterations", "1", "--server", &world.address(), "--username", "Learner"])
        .args(["--llm-url", &endpoint.base_url(), "--checkpoint", checkpoint.path()])
        .env("WAYFARER_SKILLS", checkpoint.0.join("skills"))
        .env_remove("OPENAI_API_KEY")
        .env_remove("WAYFARER_CONFIG")
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("1 tasks done, 0 failed; learned 1 skills (mineOneLog) with 1 LLM calls"), "{stdout}");
    assert!(checkpoint.0.join("skills").join("mineOneLog.rhai").is_file());

    // Without an LLM it refuses at once, saying what to set.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_wayfarer"))
        .args(["learn", "--server", &world.address()])
        .env_remove("OPENAI_API_KEY")
        .env_remove("WAYFARER_LLM_URL")
        .env_remove("WAYFARER_CONFIG")
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("learning needs an LLM"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A task the library's skill is named for runs that skill, judged by the tracker, with no action call: the fixed
/// first task by `mineWoodLog(count)`, a proposal by `craftOakPlanks(count)` (a skill that makes sure of at least its
/// count, asked for the planks carried more). The curriculum is told the library's skills, and each task's event names
/// the skill it used.
#[test]
fn a_task_the_library_does_runs_its_skill_without_writing_code() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.push_content(
        "{\"reasoning\": \"planks lead to tools\", \"task\": \"Craft 4 oak_planks\", \"context\": \"one log makes four\", \
         \"tracker\": {\"type\": \"craft\", \"item\": \"oak_planks\", \"count\": 4}}",
    );
    let skills = ScriptDir::new(
        "learn-known-skills",
        &[
            ("mineWoodLog.rhai", "fn mineWoodLog(count) {\n  mineBlock(\"oak_log\", count)\n}\n"),
            ("mineWoodLog.json", "{\"description\": \"Mines wood logs.\", \"version\": 1}"),
            (
                "craftOakPlanks.rhai",
                "fn craftOakPlanks(count) {\n  let have = inventoryCount(\"oak_planks\");\n  if have < count {\n    \
                 craftItem(\"oak_planks\", count - have);\n  }\n}\n",
            ),
            (
                "craftOakPlanks.json",
                "{\"description\": \"Crafts oak planks from logs until at least count are carried.\", \"version\": 1}",
            ),
        ],
    );
    let checkpoint = ScriptDir::new("learn-known-checkpoint", &[]);
    let args = ["--llm-url", &endpoint.base_url(), "--checkpoint", checkpoint.path()];
    let (world, bot) = world_with_skilled_bot(&skills, &args);
    world.cmd(json!({"cmd": "setBlock", "x": 5, "y": 64, "z": -3, "block": "oak_log"}));
    // Four planks carried already: a skill that makes sure of at least its count is asked for 8 (4 more).
    give(&world, "Wayfarer", "oak_planks", 4);
    let from = world.say("Alice", "!learn start 2");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("I succeeded in task: Mine 1 wood log", 60);
    expect("I succeeded in task: Craft 4 oak_planks", 30);
    bot.expect_log(
        "the library's skill does \"Craft 4 oak_planks\": running craftOakPlanks(8);",
        Duration::from_secs(5),
    );
    let done = expect("Learning done: 2 tasks done, 0 failed; learned 0 skills", 10);
    assert!(done.contains("with 1 LLM calls"), "{done}");
    // The world has the log mined and the planks made.
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": 5, "y": 64, "z": -3})), "air");
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_planks"), 8);
    // The one LLM call was the curriculum's, told the library's skills.
    let requests = endpoint.requests();
    assert_eq!(requests.len(), 1);
    let seen = last_user_message(&requests[0]);
    assert!(
        seen.contains("Skills the player has already (each does its own task): craftOakPlanks, mineWoodLog"),
        "{seen}"
    );
    let events = std::fs::read_to_string(checkpoint.0.join("Wayfarer").join("events.jsonl")).unwrap();
    let used: Vec<Value> = events.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()["used"].clone()).collect();
    assert_eq!(used, [json!(["mineWoodLog"]), json!(["craftOakPlanks"])], "{events}");
}

/// The curriculum's answer, always the task just done.
/// A checkpoint whose run has done its fixed first task and learned nothing, for a bot named Wayfarer to resume; the
/// bot's own folder in it.
fn resumed_after_the_first_task(checkpoint: &ScriptDir) -> std::path::PathBuf {
    let own = checkpoint.0.join("Wayfarer");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("tasks.json"), "{\"completed\": [\"Mine 1 wood log\"], \"failed\": []}").unwrap();
    own
}

const DONE_AGAIN: &str = "{\"reasoning\": \"logs\", \"task\": \"Mine 1 wood log\", \"context\": \"\", \
                          \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 1}}";

/// A curriculum that keeps proposing what is done does not end an unattended run: after two unusable answers (each
/// corrected once) the bot takes something new as its next task: a thing it can craft from what it carries that no
/// skill makes (sticks, from the log it was given, resuming a run whose first task is done and learned nothing), and
/// does it in the world.
#[test]
fn a_curriculum_stuck_on_done_tasks_gives_way_to_something_craftable() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    // Two questions, each asked twice.
    for _ in 0..4 {
        endpoint.push_content(DONE_AGAIN);
    }
    endpoint.push_content(code(
        "Crafts sticks from a log.",
        "fn makeSticks() {\n  craftItem(\"oak_planks\", 4);\n  craftItem(\"stick\", 4)\n}",
    ));
    let skills = ScriptDir::new("learn-craftable-skills", &[]);
    let checkpoint = ScriptDir::new("learn-craftable-checkpoint", &[]);
    resumed_after_the_first_task(&checkpoint);
    let args = ["--llm-url", &endpoint.base_url(), "--checkpoint", checkpoint.path()];
    let (world, _bot) = world_with_skilled_bot(&skills, &args);
    give(&world, "Wayfarer", "oak_log", 1);
    let from = world.say("Alice", "!learn start 1");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("The curriculum gave no usable task again; I will try Craft 1 stick instead.", 60);
    expect("I succeeded in task: Craft 1 stick", 60);
    expect("Learning done: 1 tasks done, 0 failed", 10);
    assert_eq!(endpoint.requests().len(), 5, "four curriculum answers, an action call");
    // The curriculum was shown what could be crafted, and nothing built on a learned skill (none was learned).
    let asked = last_user_message(&endpoint.requests()[0]);
    assert!(
        asked.contains("Craftable now from what the player carries, and no skill makes it yet: stick, "),
        "{asked}"
    );
    assert!(asked.contains("Craftable with a skill learned earlier, which gets what is missing: none"), "{asked}");
    // The action was told the game's facts about sticks, and the call that makes them.
    let told = last_user_message(&endpoint.requests()[4]);
    assert!(told.contains("no skill makes it yet. craftItem(\"stick\", n) makes it: each craft takes "), "{told}");
    assert_eq!(inventory_count(&world, "Wayfarer", "stick"), 4);
    assert!(skills.0.join("makeSticks.rhai").is_file(), "the crafting skill was learned");
}

/// With nothing to craft, the thing that takes the stuck curriculum's place is one in sight no task has tried (the
/// oak log beside the bot, which carries nothing, resuming a run whose first task is done).
#[test]
fn a_curriculum_stuck_with_nothing_to_craft_gives_way_to_something_in_sight() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    for _ in 0..4 {
        endpoint.push_content(DONE_AGAIN);
    }
    endpoint.push_content(code("Mines the oak log in sight.", "fn mineTheOakLog() {\n  mineBlock(\"oak_log\", 1)\n}"));
    let skills = ScriptDir::new("learn-untried-skills", &[]);
    let checkpoint = ScriptDir::new("learn-untried-checkpoint", &[]);
    resumed_after_the_first_task(&checkpoint);
    let args = ["--llm-url", &endpoint.base_url(), "--checkpoint", checkpoint.path()];
    let (world, _bot) = world_with_skilled_bot(&skills, &args);
    for (x, z) in [(5, -3), (7, -4)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    let from = world.say("Alice", "!learn start 1");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("The curriculum gave no usable task again; I will try Mine 1 oak_log instead.", 60);
    expect("I succeeded in task: Mine 1 oak_log", 60);
    expect("Learning done: 1 tasks done, 0 failed", 10);
    assert_eq!(endpoint.requests().len(), 5, "four curriculum answers, an action call");
    let asked = last_user_message(&endpoint.requests()[0]);
    assert!(asked.contains("Craftable now from what the player carries, and no skill makes it yet: none"), "{asked}");
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_log"), 1);
}

const MINE_ONE_LOG: &str = "fn mineOneLog() {\n  mineBlock(\"oak_log\", 1)\n}";

const MAKE_BOWL: &str = "fn makeBowl() {\n  mineOneLog();\n  craftItem(\"oak_planks\", 8);\n  \
                         craftItem(\"crafting_table\", 1);\n  placeItem(\"crafting_table\", findFreeSpot(4));\n  \
                         craftItem(\"bowl\", 1)\n}";

/// The bowl made with a second oak log that `mineOneLog` mined: four bowls carried, both logs gone from the world,
/// and the task's event naming the learned skill as used.
fn bowl_made_by_reuse(world: &World, checkpoint: &ScriptDir) {
    // One craft makes four bowls.
    assert_eq!(inventory_count(world, "Wayfarer", "bowl"), 4);
    // The second log was mined by the learned skill: both are gone from the world.
    for (x, z) in [(5, -3), (7, -4)] {
        assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": x, "y": 64, "z": z})), "air", "({x}, 64, {z})");
    }
    let events = std::fs::read_to_string(checkpoint.0.join("Wayfarer").join("events.jsonl")).unwrap();
    let bowl: Value = serde_json::from_str(events.lines().last().unwrap()).unwrap();
    assert_eq!(bowl["task"], "Craft 1 bowl");
    assert_eq!(bowl["outcome"], "succeeded");
    assert_eq!(bowl["used"], json!(["mineOneLog"]), "{bowl}");
}

/// A skill just learned that gets what a craft needs is built on by the next task, with no curriculum call: the
/// curriculum's second task, one oak log, was learned as `mineOneLog`, and with that log carried a bowl needs a second
/// one for the crafting table and planks. The action was told to call the skill, and the code that made the bowl
/// called it: the learned skill reused, as the task's event records.
#[test]
fn a_skill_just_learned_is_built_on_next() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.push_content(
        "{\"reasoning\": \"wood\", \"task\": \"Mine 1 oak_log\", \"context\": \"\", \
         \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 1}}",
    );
    endpoint.push_content(code("Mines one oak log.", MINE_ONE_LOG));
    endpoint.push_content(code("Makes a bowl, mining a log for the table and the planks.", MAKE_BOWL));
    let skills = ScriptDir::new("learn-builds-on-skills", &[]);
    let checkpoint = ScriptDir::new("learn-builds-on-checkpoint", &[]);
    resumed_after_the_first_task(&checkpoint);
    let args = ["--llm-url", &endpoint.base_url(), "--checkpoint", checkpoint.path()];
    let (world, _bot) = world_with_skilled_bot(&skills, &args);
    for (x, z) in [(5, -3), (7, -4)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    let from = world.say("Alice", "!learn start 2");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("I succeeded in task: Mine 1 oak_log", 60);
    expect("I learned mineOneLog; I will build on it: Craft 1 bowl.", 30);
    expect("I succeeded in task: Craft 1 bowl", 90);
    expect("Learning done: 2 tasks done, 0 failed", 10);
    assert_eq!(endpoint.requests().len(), 3, "a curriculum answer, two action calls");
    let told = last_user_message(&endpoint.requests()[2]);
    assert!(told.contains("mineOneLog(), a skill learned earlier, gets oak_log; call it first"), "{told}");
    bowl_made_by_reuse(&world, &checkpoint);
}

/// Resuming a run whose first task learned `mineOneLog`, an unusable curriculum answer's place is taken at once by
/// something that skill helps make (the bowl, with the one log the first task got carried). The curriculum was shown
/// it with the skill's call.
#[test]
fn a_stuck_curriculum_builds_on_a_skill_learned_earlier() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    // One question, asked twice.
    for _ in 0..2 {
        endpoint.push_content(DONE_AGAIN);
    }
    endpoint.push_content(code("Makes a bowl, mining a log for the table and the planks.", MAKE_BOWL));
    let meta = "{\"description\": \"Mines one oak log.\", \"task\": \"Mine 1 wood log\", \"created\": \
                \"2026-12-02T08:00:00Z\", \"version\": 1}";
    let skills =
        ScriptDir::new("learn-stuck-builds-skills", &[("mineOneLog.rhai", MINE_ONE_LOG), ("mineOneLog.json", meta)]);
    let checkpoint = ScriptDir::new("learn-stuck-builds-checkpoint", &[]);
    let own = resumed_after_the_first_task(&checkpoint);
    let learned = json!({"time": "2026-12-02T08:00:00Z", "task": "Mine 1 wood log", "outcome": "succeeded",
        "skill": "mineOneLog", "attempts": 1, "calls": 1, "tokens": 100, "voyager_calls": 4,
        "changed": ["broke 1 oak_log (6 64 -2); items +1 oak_log"]});
    std::fs::write(own.join("events.jsonl"), format!("{learned}\n")).unwrap();
    let args = ["--llm-url", &endpoint.base_url(), "--checkpoint", checkpoint.path()];
    let (world, _bot) = world_with_skilled_bot(&skills, &args);
    give(&world, "Wayfarer", "oak_log", 1);
    for (x, z) in [(5, -3), (7, -4)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    let from = world.say("Alice", "!learn start 1");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("I will build on a skill I learned: Craft 1 bowl.", 60);
    expect("I succeeded in task: Craft 1 bowl", 90);
    expect("Learning done: 1 tasks done, 0 failed", 10);
    assert_eq!(endpoint.requests().len(), 3, "two curriculum answers, an action call");
    let asked = last_user_message(&endpoint.requests()[0]);
    assert!(
        asked.contains(
            "Craftable with a skill learned earlier, which gets what is missing: bowl (mineOneLog() gets the oak_log)"
        ),
        "{asked}"
    );
    // Four bowls from one craft: planks from the log given and the one the learned skill mined.
    assert_eq!(inventory_count(&world, "Wayfarer", "bowl"), 4);
    let events = std::fs::read_to_string(own.join("events.jsonl")).unwrap();
    let bowl: Value = serde_json::from_str(events.lines().last().unwrap()).unwrap();
    assert_eq!(bowl["task"], "Craft 1 bowl");
    assert_eq!(bowl["used"], json!(["mineOneLog"]), "{bowl}");
}

/// A thing far from what the bot has is not one task: the curriculum's proposal of an iron pickaxe (eight steps from
/// the one log carried, three iron ores among them) is sent back, told why and with a nearer step, and no world time
/// is spent on it; the nearer task it proposes then is done in the world.
#[test]
fn a_far_task_is_sent_back_with_a_nearer_step() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    let pickaxe = "{\"reasoning\": \"better tools\", \"task\": \"Craft 1 iron_pickaxe\", \"context\": \"\"}";
    // The question and its correction.
    endpoint.push_content(pickaxe);
    endpoint.push_content(pickaxe);
    endpoint.push_content("{\"reasoning\": \"nearer\", \"task\": \"Craft 4 oak_planks\", \"context\": \"\"}");
    endpoint.push_content(code("Crafts planks from a log.", "fn makePlanks() {\n  craftItem(\"oak_planks\", 4)\n}"));
    let skills = ScriptDir::new("learn-far-skills", &[]);
    let checkpoint = ScriptDir::new("learn-far-checkpoint", &[]);
    let own = resumed_after_the_first_task(&checkpoint);
    let args = ["--llm-url", &endpoint.base_url(), "--checkpoint", checkpoint.path()];
    let (world, _bot) = world_with_skilled_bot(&skills, &args);
    give(&world, "Wayfarer", "oak_log", 1);
    let from = world.say("Alice", "!learn start 1");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("I will start task: Craft 4 oak_planks", 90);
    expect("I succeeded in task: Craft 4 oak_planks", 60);
    expect("Learning done: 1 tasks done, 0 failed", 10);
    assert_eq!(endpoint.requests().len(), 4, "a curriculum answer corrected once, a second question, an action call");
    let corrected = last_user_message(&endpoint.requests()[1]);
    assert!(
        corrected.contains("\"Craft 1 iron_pickaxe\" is too far from what the player has for one task: it takes"),
        "{corrected}"
    );
    assert!(corrected.contains("and 3 ore to find"), "{corrected}");
    let asked_again = last_user_message(&endpoint.requests()[2]);
    assert!(asked_again.contains("Your last answers could not be used:\n- \"Craft 1 iron_pickaxe\" is too far"));
    // Nothing of the pickaxe was tried: the only task in the run's events is the planks.
    let events = std::fs::read_to_string(own.join("events.jsonl")).unwrap();
    let tasks: Vec<String> = events
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["task"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(tasks, ["Craft 4 oak_planks"]);
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_planks"), 4);
    assert_eq!(inventory_count(&world, "Wayfarer", "iron_pickaxe"), 0);
}
