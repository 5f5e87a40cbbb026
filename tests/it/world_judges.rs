//! The world judges every step of a `!task` the LLM plans, not the bot's words: a do-nothing answer with a critic
//! that believes it ends "I failed" with what the world did not show, and nothing is learned; a step's tracker that
//! cannot measure its verb is corrected; a wrong build fails its structure tracker and the right one is learned once;
//! code that threw is not learned even when the world shows the task done; a chest is judged by what it holds; a
//! "go stand on" step by where the bot stands; a goal naming a shape (a line) is judged by the shape, not the count, and
//! one naming a block to place beside by what stands beside it; goals whose words say what to build, where to place
//! and what to fill are planned and done from those words with no LLM call. Every verdict here is checked against the
//! test world's own state.

use crate::support;

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use serde_json::{Value, json};
use support::{fake_llm::FakeEndpoint, *};

/// What kind of call a scripted LLM request is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Call {
    Plan,
    Code,
    Critic,
    Describe,
    Other,
}

fn call_of(request: &Value) -> Call {
    let (system, last) = (system_message(request), last_user_message(request));
    if last.starts_with("You break a Minecraft goal") || system.starts_with("You break a Minecraft goal") {
        Call::Plan
    } else if system.starts_with("You judge") {
        Call::Critic
    } else if system.starts_with("You describe") {
        Call::Describe
    } else if system.starts_with("You control a Minecraft player") {
        Call::Code
    } else {
        Call::Other
    }
}

/// An endpoint that plans `plan`, answers the action agent with `codes` in turn (the last one again when they run
/// out), believes every critic call, and counts the calls of each kind.
fn scripted(runtime: &tokio::runtime::Runtime, plan: &str, codes: &[&str]) -> (FakeEndpoint, Arc<Mutex<Vec<Call>>>) {
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    let calls: Arc<Mutex<Vec<Call>>> = Arc::default();
    let codes: Mutex<std::collections::VecDeque<String>> = Mutex::new(codes.iter().map(|c| (*c).to_owned()).collect());
    let plan = plan.to_owned();
    let seen = calls.clone();
    endpoint.respond_with(move |request| {
        let call = call_of(request);
        seen.lock().unwrap().push(call);
        match call {
            Call::Plan => plan.clone(),
            Call::Code => {
                let mut codes = codes.lock().unwrap();
                if codes.len() > 1 { codes.pop_front().unwrap() } else { codes[0].clone() }
            }
            Call::Critic => {
                r#"{"reasoning": "The player said it is done.", "success": true, "critique": ""}"#.to_owned()
            }
            Call::Describe => "Does what the task asks.".to_owned(),
            Call::Other => "I am not sure.".to_owned(),
        }
    });
    (endpoint, calls)
}

/// Starts one more bot owned by Alice, with the library in `skills` and the LLM at `endpoint`, and waits for it.
fn another_bot(world: &World, name: &str, skills: &ScriptDir, endpoint: &FakeEndpoint) -> Bot {
    let url = endpoint.base_url();
    let bot = Bot::start(
        &world.address(),
        &["--username", name, "--owner", "Alice", "--skills", skills.path(), "--llm-url", &url, LLM_WRITES],
    );
    bot.expect_log(&format!("{name} spawned at"), Duration::from_secs(60));
    bot
}

fn count(calls: &Arc<Mutex<Vec<Call>>>, kind: Call) -> usize {
    calls.lock().unwrap().iter().filter(|c| **c == kind).count()
}

fn skill_files(skills: &ScriptDir) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(&skills.0)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".rhai"))
        .collect();
    names.sort();
    names
}

fn block(world: &World, x: i64, y: i64, z: i64) -> String {
    world.cmd(json!({"cmd": "getBlock", "x": x, "y": y, "z": z})).as_str().unwrap_or_default().to_owned()
}

/// How many blocks of `kind` stand within 6 blocks of the origin, at and above the ground.
fn blocks_near_spawn(world: &World, kind: &str) -> usize {
    let mut n = 0;
    for x in -6..=6 {
        for y in 64..=68 {
            for z in -6..=6 {
                if block(world, x, y, z) == kind {
                    n += 1;
                }
            }
        }
    }
    n
}

/// The tests of judging LLM-written code turn off planning from words, which would otherwise plan and code many of
/// their goals without the LLM (that path has its own test at the end).
const LLM_WRITES: &str = "--no-plan-from-words";

/// Code that claims the row and does nothing; it names the cobblestone, so the check before the world lets it run.
const DO_NOTHING: &str = "```rhai\nfn layTheRow() {\n  chat(\"done: the cobblestone row\");\n}\n```";

#[test]
fn a_do_nothing_answer_is_failed_by_the_world_and_never_learned() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // The plan a small model gave: a Mine step the bot has done, one that gets what the bot carries for the row, and
    // Place steps with inventory trackers (carrying cobblestone is no cobblestone laid).
    let plan = r#"[{"task": "Mine 1 dirt", "tracker": {"type": "inventory", "item": "dirt", "count": 1}},
        {"task": "Mine 3 cobblestone", "tracker": {"type": "inventory", "item": "cobblestone", "count": 3}},
        {"task": "Place 1 cobblestone", "tracker": {"type": "inventory", "item": "cobblestone", "count": 1}},
        {"task": "Place 1 cobblestone", "tracker": {"type": "inventory", "item": "cobblestone", "count": 1}},
        {"task": "Place 1 cobblestone", "tracker": {"type": "inventory", "item": "cobblestone", "count": 1}}]"#;
    let (endpoint, calls) = scripted(&runtime, plan, &[DO_NOTHING]);
    let skills = ScriptDir::new("judges-nothing", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    give(&world, "Wayfarer", "dirt", 1);
    give(&world, "Wayfarer", "cobblestone", 3);
    bot_sees(&world, "Wayfarer", "cobblestone", 3);

    let from = world.say("Alice", "!task lay 3 cobblestone in a row");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    // The Place steps, which drop the row the goal names, become one step in the goal's words, judged by its shape;
    // the cobblestone for it is carried, so its Mine step goes.
    expect("Plan for lay 3 cobblestone in a row: Mine 1 dirt; Lay 3 cobblestone in a row.", 20);
    bot.expect_log(
        "the plan's steps [\"Mine 3 cobblestone\"] get what the bot already carries; dropped",
        Duration::from_secs(1),
    );
    expect("Already done: Mine 1 dirt.", 10);
    expect("0/3 blocks of the structure (cobblestone; new)", 30);
    let failed = expect("I failed task: lay 3 cobblestone in a row because", 180);
    assert!(failed.contains("step 2 (Lay 3 cobblestone in a row) failed"), "{failed}");
    let chat = world.chat_since(from).join("\n");
    assert!(!chat.contains("I succeeded in task: lay 3"), "{chat}");
    assert!(!chat.contains("Already done: Lay"), "{chat}");
    assert!(
        chat.contains(
            "I failed task: Lay 3 cobblestone in a row because The task is not done yet: 0/3 blocks of the structure"
        ),
        "{chat}"
    );

    // The world agrees: nothing was laid, and the cobblestone is still carried.
    assert_eq!(blocks_near_spawn(&world, "cobblestone"), 0);
    assert_eq!(inventory_count(&world, "Wayfarer", "cobblestone"), 3);
    assert!(skill_files(&skills).is_empty(), "a do-nothing function was learned: {:?}", skill_files(&skills));
    assert_eq!(count(&calls, Call::Critic), 0, "trackers judged the Place steps");
    // Repeated requests are answered from the reply cache, so fewer than every attempt reach the endpoint.
    assert!(count(&calls, Call::Code) >= 2, "the action agent was asked, and told what went wrong");

    // A step whose words name nothing to count goes to the critic, held to the world: the believing critic is
    // not even asked when the world shows nothing placed, and nothing at all changed for a step of no known verb.
    let plan = r#"[{"task": "Build a small shelter"}, {"task": "Make the place feel like home"}]"#;
    let (endpoint, calls) = scripted(&runtime, plan, &[DO_NOTHING]);
    drop(bot);
    let bot = another_bot(&world, "Second", &skills, &endpoint);
    let from = world.say("Alice", "Second !task build a small shelter");
    let failed =
        world.expect_chat(from, "Second", "I failed task: build a small shelter because", Duration::from_secs(180));
    assert!(failed.contains("step 1 (Build a small shelter) failed"), "{failed}");
    let chat = world.chat_since(from).join("\n");
    assert!(chat.contains("I failed task: Build a small shelter because No block was placed; 1 was asked"), "{chat}");
    assert_eq!(count(&calls, Call::Critic), 0, "the world said no before any critic could say yes");
    bot.expect_log("the world shows no block was placed", Duration::from_secs(1));
    bot.expect_log("run changed: nothing changed in the world", Duration::from_secs(1));

    let plan = r#"[{"task": "Make the place feel like home"}]"#;
    let (endpoint, calls) = scripted(&runtime, plan, &[DO_NOTHING]);
    drop(bot);
    let _third = another_bot(&world, "Third", &skills, &endpoint);
    let from = world.say("Alice", "Third !task make it homely");
    let failed = world.expect_chat(from, "Third", "I failed task: make it homely because", Duration::from_secs(180));
    let chat = world.chat_since(from).join("\n");
    assert!(chat.contains("because Nothing changed in the world"), "{failed}\n{chat}");
    assert_eq!(count(&calls, Call::Critic), 0);
    assert!(skill_files(&skills).is_empty(), "{:?}", skill_files(&skills));
}

#[test]
fn a_wrong_build_fails_its_structure_and_the_right_one_is_learned_once() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let plan = r#"[{"task": "Build a pillar of 3 dirt", "tracker": {"type": "structure", "blocks": [
        {"x": 0, "y": 0, "z": 0, "block": "dirt"}, {"x": 0, "y": 1, "z": 0, "block": "dirt"}, {"x": 0, "y": 2, "z": 0, "block": "dirt"}]}}]"#;
    let row = "```rhai\nfn buildDirtPillar() {\n  for x in 2..5 { placeItem(\"dirt\", vec3(x, 64, -3)); }\n}\n```";
    let column = "Description: Builds a pillar of three dirt blocks two blocks north of the bot.\n\
        ```rhai\nfn buildDirtPillar() {\n  let base = vec3(2, 64, -1);\n  for dy in 0..3 { placeItem(\"dirt\", base + vec3(0, dy, 0)); }\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[row, column]);
    let skills = ScriptDir::new("judges-build", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    give(&world, "Wayfarer", "dirt", 16);
    bot_sees(&world, "Wayfarer", "dirt", 16);

    // A pillar of no height would be asked about: the words give it.
    let from = world.say("Alice", "!task build a dirt pillar 3 high");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    // The row: one of its blocks could start a column, no more.
    expect("1/3 blocks of the structure (dirt; new, best at", 90);
    expect("3/3 blocks of the structure (dirt; new, best at 2 64 -1)", 120);
    expect("I succeeded in task: build a dirt pillar 3 high (new skills: buildDirtPillar)", 30);
    for x in 2..5 {
        assert_eq!(block(&world, x, 64, -3), "dirt", "the row stands");
    }
    for y in 64..67 {
        assert_eq!(block(&world, 2, y, -1), "dirt", "the pillar stands, all three blocks");
    }
    assert_eq!(skill_files(&skills), ["buildDirtPillar.rhai"], "learned once");
    assert_eq!(count(&calls, Call::Code), 2);
    assert_eq!(count(&calls, Call::Critic), 0);
    bot.expect_log("buildDirtPillar's run changed: placed", Duration::from_secs(1));

    // Code that builds what was asked and then throws: the world shows the step done, but the code is not learned.
    let plan = r#"[{"task": "Build a pillar of 2 cobblestone", "tracker": {"type": "structure", "blocks": [
        {"x": 0, "y": 0, "z": 0, "block": "cobblestone"}, {"x": 0, "y": 1, "z": 0, "block": "cobblestone"}]}}]"#;
    let throws = "```rhai\nfn stackCobblestone() {\n  placeItem(\"cobblestone\", vec3(-2, 64, -3));\n  \
        placeItem(\"cobblestone\", vec3(-2, 65, -3));\n  throw \"I am not sure it worked\";\n}\n```";
    let (endpoint, _calls) = scripted(&runtime, plan, &[throws]);
    drop(bot);
    let bot = another_bot(&world, "Second", &skills, &endpoint);
    give(&world, "Second", "cobblestone", 4);
    bot_sees(&world, "Second", "cobblestone", 4);
    let from = world.say("Alice", "Second !task stack two cobblestone");
    world.expect_chat(from, "Second", "I succeeded in task: stack two cobblestone", Duration::from_secs(120));
    assert_eq!((block(&world, -2, 64, -3), block(&world, -2, 65, -3)), ("cobblestone".into(), "cobblestone".into()));
    bot.expect_log("is not kept as a skill: it threw", Duration::from_secs(5));
    assert_eq!(skill_files(&skills), ["buildDirtPillar.rhai"]);
}

#[test]
fn a_chest_is_judged_by_its_contents_and_a_stand_step_by_position() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let plan = r#"[{"task": "Place 1 chest", "tracker": {"type": "inventory", "item": "chest", "count": 1}},
        {"task": "Store 4 oak_planks in the chest", "tracker": {"type": "container", "item": "oak_planks", "count": 4}}]"#;
    // First the local model's answer of a run: a table's skill called for a chest. It never names the chest, so it
    // is sent back before the world.
    let unnamed = "```rhai\nfn placeChest() {\n  placeItem(\"crafting_table\", vec3(3, 64, -2));\n}\n```";
    let place = "```rhai\nfn placeChest() {\n  placeItem(\"chest\", vec3(3, 64, -2));\n}\n```";
    let two = "```rhai\nfn storePlanks() {\n  depositItemIntoChest(vec3(3, 64, -2), #{oak_planks: 2});\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[unnamed, place, two]);
    let skills = ScriptDir::new("judges-chest", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    give(&world, "Wayfarer", "chest", 1);
    give(&world, "Wayfarer", "crafting_table", 1);
    give(&world, "Wayfarer", "oak_planks", 8);
    bot_sees(&world, "Wayfarer", "oak_planks", 8);

    let from = world.say("Alice", "!task store planks in a chest you place");
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("1/1 chest placed near", 60);
    expect("I succeeded in task: Place 1 chest", 10);
    bot.expect_log("caught before the world (1 in this task): The code never names chest", Duration::from_secs(1));
    // Two planks a run: the chest's contents say when four are in.
    expect("2/4 oak_planks in a container near", 60);
    expect("4/4 oak_planks in a container near", 60);
    expect("I succeeded in task: store planks in a chest you place", 30);
    let (planks, contents) = container_count(&world, [3, 64, -2], "oak_planks");
    assert_eq!(planks, 4, "the chest holds what was asked: {contents}");
    assert_eq!(count(&calls, Call::Critic), 0);
    assert_eq!(count(&calls, Call::Code), 4);
    assert_eq!(blocks_near_spawn(&world, "crafting_table"), 0, "the answer sent back never ran");

    // Go stand on a gold block: a walk to the wrong place is not it; standing on it is.
    world.cmd(json!({"cmd": "setBlock", "x": -4, "y": 63, "z": 4, "block": "gold_block"}));
    let plan = r#"[{"task": "Go stand on the gold_block"}]"#;
    // It names the block (code going to a block it never names is sent back before the world), then walks elsewhere.
    let wrong = "```rhai\nfn standOnGold() {\n  let gold = findBlock(\"gold_block\", 32);\n  goTo(vec3(-4, 64, -4), 1);\n}\n```";
    let right = "```rhai\nfn standOnGold() {\n  standOn(findBlock(\"gold_block\", 32));\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[wrong, right]);
    drop(bot);
    let _second = another_bot(&world, "Second", &skills, &endpoint);
    let from = world.say("Alice", "Second !task go stand on the gold block");
    world.expect_chat(from, "Second", "0/1 standing on gold_block", Duration::from_secs(60));
    world.expect_chat(from, "Second", "1/1 standing on gold_block", Duration::from_secs(60));
    world.expect_chat(from, "Second", "I succeeded in task: go stand on the gold block", Duration::from_secs(20));
    let me = world.player("Second");
    assert_eq!(
        (me.pos[0].floor(), me.pos[1].floor(), me.pos[2].floor()),
        (-4.0, 64.0, 4.0),
        "on the gold block: {me:?}"
    );
    assert_eq!(count(&calls, Call::Critic), 0);
    let status_from = world.say("Alice", "Second !status");
    let status = world.expect_chat(status_from, "Second", "last run: went", Duration::from_secs(10));
    assert!(status.contains("blocks ("), "{status}");
}

#[test]
fn a_goal_is_held_to_its_own_words_when_every_step_is_done() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // A small model's plan for a wall of six: one step, a row of three blocks. The step is done; the goal is not.
    let plan = r#"[{"task": "Place 3 dirt in a row"}]"#;
    let low = "```rhai\nfn placeDirtRow() {\n  for x in 2..5 { placeItem(\"dirt\", vec3(x, 64, -4)); }\n}\n```";
    let high = "```rhai\nfn placeDirtRowAbove() {\n  for x in 2..5 { placeItem(\"dirt\", vec3(x, 65, -4)); }\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[low, high]);
    let skills = ScriptDir::new("judges-goal", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    give(&world, "Wayfarer", "dirt", 12);
    bot_sees(&world, "Wayfarer", "dirt", 12);

    let goal = "build a wall of dirt 3 blocks long and 2 blocks high";
    let from = world.say("Alice", &format!("!task {goal}"));
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("3/3 blocks of the structure (dirt; new, best at", 60);
    expect(
        &format!(
            "Every step is done, but the world shows only 3 dirt were placed; 6 were asked. Planning {goal} again."
        ),
        20,
    );
    expect(&format!("I succeeded in task: {goal}"), 90);
    for y in 64..66 {
        for x in 2..5 {
            assert_eq!(block(&world, x, y, -4), "dirt", "the wall's block at {x} {y}");
        }
    }
    assert_eq!(count(&calls, Call::Plan), 2, "planned again once");
    bot.expect_log("its steps are done, but the world shows only 3 dirt were placed", Duration::from_secs(1));
}

#[test]
fn a_goal_that_names_a_shape_is_judged_by_its_shape_not_its_count() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // A small model's plan keeps the count of a line and drops the line; its first code lays four blocks, three in
    // a line and one beside them. Counting placed blocks would call that done.
    let plan =
        r#"[{"task": "Place 4 cobblestone", "tracker": {"type": "placed", "block": "cobblestone", "count": 4}}]"#;
    let bent = "```rhai\nfn layCobblestoneLine() {\n  for x in -3..0 { placeItem(\"cobblestone\", vec3(x, 64, 3)); }\n  \
        placeItem(\"cobblestone\", vec3(-1, 64, 4));\n}\n```";
    let straight =
        "```rhai\nfn layCobblestoneLine() {\n  for x in -3..1 { placeItem(\"cobblestone\", vec3(x, 64, 6)); }\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[bent, straight]);
    let skills = ScriptDir::new("judges-shape", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    give(&world, "Wayfarer", "cobblestone", 12);
    bot_sees(&world, "Wayfarer", "cobblestone", 12);

    let goal = "lay 4 cobblestone in a line on the ground";
    let from = world.say("Alice", &format!("!task {goal}"));
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect(&format!("Plan for {goal}: Lay 4 cobblestone in a line on the ground."), 20);
    expect("3/4 blocks of the structure (cobblestone; new, best at", 90);
    expect("4/4 blocks of the structure (cobblestone; new, best at", 120);
    expect(&format!("I succeeded in task: {goal}"), 30);
    // The world agrees: the bent four stand, and a straight four beside them.
    for x in -3..0 {
        assert_eq!(block(&world, x, 64, 3), "cobblestone");
    }
    assert_eq!(block(&world, -1, 64, 4), "cobblestone");
    for x in -3..1 {
        assert_eq!(block(&world, x, 64, 6), "cobblestone", "the line's block at {x} 64 6");
    }
    assert_eq!(count(&calls, Call::Code), 2, "the bent line was tried once");
    assert_eq!(count(&calls, Call::Critic), 0, "the shape judged both attempts");
    bot.expect_log(
        "places cobblestone without where or in what shape; one step builds a line of 4",
        Duration::from_secs(1),
    );

    // A block to place beside another: a crafting table anywhere is not one next to the stone block.
    world.cmd(json!({"cmd": "setBlock", "x": 4, "y": 64, "z": -1, "block": "stone"}));
    let plan = r#"[{"task": "Place 1 crafting_table"}]"#;
    let anywhere = "```rhai\nfn placeTable() {\n  placeItem(\"crafting_table\", vec3(-2, 64, -2));\n}\n```";
    let beside = "```rhai\nfn placeTableByStone() {\n  placeItem(\"crafting_table\", vec3(4, 64, -2));\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[anywhere, beside]);
    drop(bot);
    let bot = another_bot(&world, "Second", &skills, &endpoint);
    give(&world, "Second", "crafting_table", 2);
    bot_sees(&world, "Second", "crafting_table", 2);
    let goal = "place a crafting table next to the stone block";
    let from = world.say("Alice", &format!("Second !task {goal}"));
    let said = world.expect_chat(from, "Second", &format!("I succeeded in task: {goal}"), Duration::from_secs(180));
    assert!(!said.contains("placeTable)"), "the table placed anywhere was not learned: {said}");
    assert_eq!(block(&world, -2, 64, -2), "crafting_table", "the first table stands where it was put");
    assert_eq!(block(&world, 4, 64, -2), "crafting_table", "the second stands next to the stone");
    assert_eq!(count(&calls, Call::Code), 2);
    bot.expect_log(
        "its tracker is done, but the world shows no crafting_table was placed next to a stone (placed at -2 64 -2)",
        Duration::from_secs(1),
    );
}

/// Goals whose words say what to build, where to place a block and what to put into a chest are planned and coded from
/// those words (and a handover from the game's facts): the endpoint is never called, and the world shows each one
/// done.
#[test]
fn goals_in_words_the_bot_reads_are_done_with_no_llm_call() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (endpoint, calls) = scripted(&runtime, "[]", &[DO_NOTHING]);
    let skills = ScriptDir::new("judges-words", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url()]);
    world.cmd(json!({"cmd": "setBlock", "x": -3, "y": 64, "z": 3, "block": "gold_block"}));
    world.cmd(json!({"cmd": "setBlock", "x": 2, "y": 64, "z": -3, "block": "chest"}));
    give(&world, "Wayfarer", "dirt", 2);
    give(&world, "Wayfarer", "oak_planks", 8);
    give(&world, "Wayfarer", "cobblestone", 6);
    bot_sees(&world, "Wayfarer", "cobblestone", 6);

    let goal = "build a wall of cobblestone 3 blocks long and 2 blocks high";
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", &format!("I succeeded in task: {goal}"), Duration::from_secs(120));
    bot.expect_log(&format!("planned {goal:?} from its words: 1 step(s)"), Duration::from_secs(1));
    // The six blocks stand as a wall: three in a row on the ground, three on top of them.
    let mut wall: Vec<[i64; 3]> = Vec::new();
    for x in -6..=6 {
        for y in 64..=66 {
            for z in -6..=6 {
                if block(&world, x, y, z) == "cobblestone" {
                    wall.push([x, y, z]);
                }
            }
        }
    }
    let (low, high): (Vec<[i64; 3]>, Vec<[i64; 3]>) = wall.iter().partition(|p| p[1] == 64);
    assert_eq!((low.len(), high.len()), (3, 3), "{wall:?}");
    assert!(high.iter().all(|p| low.contains(&[p[0], 64, p[2]])), "the top row stands on the bottom one: {wall:?}");
    let in_a_row = low.iter().all(|p| p[0] == low[0][0]) || low.iter().all(|p| p[2] == low[0][2]);
    let span = low.iter().map(|p| p[0] + p[2]).max().unwrap() - low.iter().map(|p| p[0] + p[2]).min().unwrap();
    assert!(in_a_row && span == 2, "the bottom row is three blocks in a line: {wall:?}");

    let goal = "place a dirt block on top of the gold block";
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", &format!("I succeeded in task: {goal}"), Duration::from_secs(90));
    assert_eq!(block(&world, -3, 65, 3), "dirt");

    let goal = "put 4 oak planks into the chest next to you";
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", &format!("I succeeded in task: {goal}"), Duration::from_secs(90));
    let (planks, contents) = container_count(&world, [2, 64, -3], "oak_planks");
    assert_eq!(planks, 4, "the chest holds what was asked: {contents}");

    // Three planks thrown one by one and caught together: the first pickups the bot ever saw, all counted (only
    // the last of them was, and the handover was judged not done).
    let _bob = another_bot(&world, "Bob", &ScriptDir::new("judges-words-bob", &[]), &endpoint);
    let goal = "give 3 oak planks to Bob";
    // Named, as Alice owns Bob too.
    let from = world.say("Alice", &format!("Wayfarer !task {goal}"));
    world.expect_chat(from, "Wayfarer", &format!("I succeeded in task: {goal}"), Duration::from_secs(90));
    assert_eq!(inventory_count(&world, "Bob", "oak_planks"), 3);
    // One lock for the count and the message: a guard held through `assert_eq!` would deadlock its own message.
    let made = calls.lock().unwrap().clone();
    assert!(made.is_empty(), "no LLM call: {made:?}");
}

#[test]
fn a_death_during_an_attempt_is_told_to_its_judge() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let plan = r#"[{"task": "Look around the area for a while"}]"#;
    let walk = "```rhai\nfn lookAround() {\n  exploreUntil(vec3(1, 0, 0), 20, || ());\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[walk]);
    let skills = ScriptDir::new("judges-death", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);

    let from = world.say("Alice", "!task look around for a while");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while count(&calls, Call::Code) < 1 {
        assert!(std::time::Instant::now() < deadline, "no attempt; the log:\n{}", bot.log_text());
        std::thread::sleep(Duration::from_millis(200));
    }
    // Dies while the walk runs; the walk goes on after the respawn.
    std::thread::sleep(Duration::from_secs(4));
    world.cmd(json!({ "cmd": "damage", "name": "Wayfarer", "amount": 40 }));
    world
        .wait_event(from, Duration::from_secs(5), |e| e["event"] == "death" && e["name"] == "Wayfarer")
        .expect("the bot died");
    world.expect_chat(from, "Wayfarer", "I died at", Duration::from_secs(15));
    world.expect_chat(from, "Wayfarer", "plan for look around for a while", Duration::from_secs(90));
    // The critic (asked, as the step names nothing to count) is told of the death, with where it happened.
    let judged: Vec<String> =
        endpoint.requests().iter().filter(|r| call_of(r) == Call::Critic).map(last_user_message).collect();
    assert_eq!(judged.len(), 1, "{judged:?}");
    assert!(judged[0].contains("I died during this attempt at "), "{}", judged[0]);
    assert!(judged[0].contains("what I carried was dropped where I died"), "{}", judged[0]);
}

#[test]
fn a_goal_to_break_a_wall_is_done_only_when_none_of_it_stands() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // The wall's words give no count: the plan's one block broken is no wall gone; its step becomes the goal's own.
    let plan = r#"[{"task": "Break 1 cobblestone"}]"#;
    let one = "```rhai\nfn breakOne() {\n  digBlock(vec3(2, 64, -3));\n}\n```";
    let rest = "```rhai\nfn breakTheRest() {\n  for x in 2..4 { for y in 64..66 { \
        if blockAt(vec3(x, y, -3)) == \"cobblestone\" { digBlock(vec3(x, y, -3)); } } }\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[one, rest]);
    let skills = ScriptDir::new("judges-wall", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    for x in 2..4 {
        for y in 64..66 {
            world.cmd(json!({"cmd": "setBlock", "x": x, "y": y, "z": -3, "block": "cobblestone"}));
        }
    }
    give(&world, "Wayfarer", "wooden_pickaxe", 1);
    bot_sees(&world, "Wayfarer", "wooden_pickaxe", 1);

    // The plan's one block becomes one step in the goal's words, done when each block of the wall that stood is dug.
    let goal = "break the cobblestone wall next to you";
    let from = world.say("Alice", &format!("!task {goal}"));
    let expect = |needle: &str, secs: u64| world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(secs));
    expect("Plan for break the cobblestone wall next to you: Break the cobblestone wall next to you.", 30);
    bot.expect_log(
        "digs cobblestone without all of it; steps [\"Break 1 cobblestone\"] become one step for the 4 standing",
        Duration::from_secs(1),
    );
    expect("1/4 positions dug", 60);
    expect(&format!("I succeeded in task: {goal}"), 120);
    for x in 2..4 {
        for y in 64..66 {
            assert_eq!(block(&world, x, y, -3), "air", "the wall's block at {x} {y} -3");
        }
    }
    assert_eq!(count(&calls, Call::Plan), 1, "planned once");
    assert_eq!(count(&calls, Call::Code), 2, "the second answer dug the rest");
    let chat = world.chat_since(from).join("\n");
    assert_eq!(chat.matches(&format!("I succeeded in task: {goal}")).count(), 1, "{chat}");
    drop(bot);
}

/// A placing step whose words give every value of a library skill is shown that skill first with the call its words
/// give, the answer's form holds that call, and no skill's code is shown: shown another skill's code above the call, a
/// small model copied that code (a crafting table set up anywhere). The code that makes the call is judged by the
/// world.
#[test]
fn a_step_the_library_does_is_shown_that_skill_called_with_its_words() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let plan = r#"[{"task": "Place a crafting table next to the stone block"}]"#;
    // The local model's habits: a position passed for the block's name; when it is where the code found the block by
    // that name, it is read as the name.
    let spot = "```rhai\nfn placeTableByStone() {\n  let spot = findFreeSpot();\n  \
        placeBlockNextTo(\"crafting_table\", spot);\n}\n```";
    let found = "```rhai\nfn placeTableByStone() {\n  let stone = findBlock(\"stone\", 32);\n  \
        placeBlockNextTo(\"crafting_table\", stone);\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[spot, found]);
    let skills = ScriptDir::starter_skills("judges-called", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    world.cmd(json!({"cmd": "setBlock", "x": 4, "y": 64, "z": -1, "block": "stone"}));
    give(&world, "Wayfarer", "crafting_table", 1);
    bot_sees(&world, "Wayfarer", "crafting_table", 1);

    let goal = "place a crafting table next to the stone block";
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", &format!("I succeeded in task: {goal}"), Duration::from_secs(180));
    let beside = [(5, -1), (3, -1), (4, 0), (4, -2)];
    let tables = beside.iter().filter(|(x, z)| block(&world, *x, 64, *z) == "crafting_table").count();
    assert_eq!(tables, 1, "a crafting table stands next to the stone");
    assert_eq!(count(&calls, Call::Code), 2, "the free spot passed for a name was sent back before the world");
    bot.expect_log(
        "mended `stone` (where a stone was found) → \"stone\", the name the call takes",
        Duration::from_secs(1),
    );
    bot.expect_log("placeTableByStone's run changed: placed 1 crafting_table", Duration::from_secs(1));

    // The prompts that led there: the fitting skill first with the call, in the answer's form too. The answer sent
    // back is told to pass a name, and the call again.
    let asked: Vec<Value> = endpoint.requests().into_iter().filter(|r| call_of(r) == Call::Code).collect();
    let again = last_user_message(&asked[1]);
    assert!(again.contains("you passed a position (vec3(x, y, z)): pass a name in quotes (\"stone\")"), "{again}");
    assert!(
        again.contains(
            "This task is done by one call of a skill you have: `placeBlockNextTo(\"crafting_table\", \"stone\");`"
        ),
        "{again}"
    );
    let asked = &asked[0];
    let system = system_message(asked);
    let skills_shown = &system[system.find("Skills you have learned").unwrap()..system.find("Rules:").unwrap()];
    let first = skills_shown.lines().find(|l| l.starts_with("// ")).unwrap();
    assert!(first.starts_with("// placeBlockNextTo(block, target):"), "{skills_shown}");
    assert!(
        skills_shown.contains("// This task is done by calling: placeBlockNextTo(\"crafting_table\", \"stone\");"),
        "{skills_shown}"
    );
    assert!(!skills_shown.contains("craftCraftingTable();"), "placeCraftingTable's code is not shown: {skills_shown}");
    assert!(!skills_shown.contains("fn placeBlockNextTo("), "nor the called skill's, to copy: {skills_shown}");
    let form = &system[system.find("Answer in this form").unwrap()..];
    assert!(form.contains("() {\n    placeBlockNextTo(\"crafting_table\", \"stone\");\n}"), "{form}");
    drop(bot);
}

/// A plan's last walk that would undo its goal is dropped, and a block the code placed and then dug out again is told
/// to the model as such, not hidden by the world's net change: the local model placed the dirt on the gold block and
/// then stood on the gold, digging the dirt out.
#[test]
fn a_block_placed_and_dug_again_is_told_and_a_plan_s_last_walk_dropped() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let plan = r#"[{"task": "Place 1 dirt on top of the gold_block"}, {"task": "Go stand on gold_block"}]"#;
    let undo = "```rhai\nfn placeDirtOnGold() {\n  placeItem(\"dirt\", vec3(2, 65, -3));\n  \
        digBlock(vec3(2, 65, -3));\n}\n```";
    let keep = "```rhai\nfn placeDirtOnGold() {\n  placeItem(\"dirt\", vec3(2, 65, -3));\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[undo, keep]);
    let skills = ScriptDir::new("judges-undone", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    world.cmd(json!({"cmd": "setBlock", "x": 2, "y": 64, "z": -3, "block": "gold_block"}));
    give(&world, "Wayfarer", "dirt", 2);
    bot_sees(&world, "Wayfarer", "dirt", 2);

    let goal = "place a dirt block on top of the gold block";
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", &format!("I succeeded in task: {goal}"), Duration::from_secs(180));
    assert_eq!(block(&world, 2, 65, -3), "dirt", "the dirt stands on the gold block");
    assert_eq!(block(&world, 2, 64, -3), "gold_block");
    bot.expect_log(
        "ends with walks [\"Go stand on gold_block\"] that do nothing for it; dropped",
        Duration::from_secs(1),
    );
    let chat = world.chat_since(from).join("\n");
    assert!(!chat.contains("Go stand on"), "no step went to stand on the gold: {chat}");
    assert_eq!(count(&calls, Call::Code), 2);
    let asked: Vec<Value> = endpoint.requests().into_iter().filter(|r| call_of(r) == Call::Code).collect();
    let again = last_user_message(&asked[1]);
    assert!(again.contains("placed 1 dirt (2 65 -3) that was gone again by the end"), "{again}");
}

/// A craft of what the bot carries is answered in that one call's form, and an answer that crafted something else
/// is told the call again: told `craftItem("spruce_pressure_plate", n) makes it` with the two planks it takes
/// carried, the local model crafted planks instead.
#[test]
fn a_craft_of_what_is_carried_is_shown_as_its_one_call() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let plan = r#"[{"task": "Craft 1 oak_pressure_plate"}]"#;
    let planks = "```rhai\nfn craftOakPressurePlate() {\n  craftItem(\"oak_planks\", 2);\n}\n```";
    let plate = "```rhai\nfn craftOakPressurePlate() {\n  craftItem(\"oak_pressure_plate\", 1);\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[planks, plate]);
    let skills = ScriptDir::new("judges-one-craft", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    give(&world, "Wayfarer", "oak_planks", 2);
    bot_sees(&world, "Wayfarer", "oak_planks", 2);

    // Words no recipe reads, so the plan is the model's and the step's code its too.
    let goal = "make the thing a door opens with when stepped on";
    let from = world.say("Alice", &format!("!task {goal}"));
    // The plate is the model's reading of a riddle no reader reads: the steps are judged, the goal is not claimed.
    world.expect_chat(from, "Wayfarer", &format!("I did every step of my plan for {goal}"), Duration::from_secs(180));
    let inventory = world.cmd(json!({"cmd": "inventory", "name": "Wayfarer"}));
    assert_eq!(inventory["oak_pressure_plate"], 1, "{inventory}");
    assert!(inventory.get("oak_planks").is_none(), "the planks went into the plate: {inventory}");
    assert_eq!(count(&calls, Call::Code), 2, "the planks' answer ran and fell short, the plate's did it");
    bot.expect_log(
        "task \"Craft 1 oak_pressure_plate\" is done by: craftItem(\"oak_pressure_plate\", 1)",
        Duration::from_secs(1),
    );

    let asked: Vec<Value> = endpoint.requests().into_iter().filter(|r| call_of(r) == Call::Code).collect();
    let system = system_message(&asked[0]);
    let form = &system[system.find("Answer in this form").unwrap()..];
    assert!(form.contains("() {\n    craftItem(\"oak_pressure_plate\", 1);\n}"), "{form}");
    let again = last_user_message(&asked[1]);
    assert!(again.contains("I cannot make oak_planks"), "{again}");
    assert!(again.contains("This task is done by one call: `craftItem(\"oak_pressure_plate\", 1);`"), "{again}");
}

/// A craft that needs what a learned skill gets is shown with that skill's call before the crafts, and the answer
/// that makes them is judged by the world: the library grows by composing what it learned (three tasks of one
/// learning run called a learned planks skill with no log, and never the learned log skill).
#[test]
fn a_craft_needing_what_a_learned_skill_gets_is_shown_with_its_call() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let plan = r#"[{"task": "Craft 1 oak_pressure_plate"}]"#;
    let answer = "```rhai\nfn craftOakPressurePlate() {\n  mineOakLog();\n  craftItem(\"oak_planks\", 4);\n  \
        craftItem(\"oak_pressure_plate\", 1);\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[answer]);
    let skills = ScriptDir::new(
        "judges-learned-log",
        &[
            ("mineOakLog.rhai", "fn mineOakLog() {\n  mineBlock(\"oak_log\", 1);\n}\n"),
            ("mineOakLog.json", r#"{"description": "Mines one oak log.", "task": "Mine 1 oak_log"}"#),
        ],
    );
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    world.cmd(json!({"cmd": "setBlock", "x": 3, "y": 64, "z": -2, "block": "oak_log"}));

    let goal = "make the thing a door opens with when stepped on";
    let from = world.say("Alice", &format!("!task {goal}"));
    // The plate is the model's reading of a riddle no reader reads: the steps are judged, the goal is not claimed.
    world.expect_chat(from, "Wayfarer", &format!("I did every step of my plan for {goal}"), Duration::from_secs(180));
    let inventory = world.cmd(json!({"cmd": "inventory", "name": "Wayfarer"}));
    assert_eq!(inventory["oak_pressure_plate"], 1, "{inventory}");
    assert_eq!(inventory["oak_planks"], 2, "the mined log made four planks, the plate took two: {inventory}");
    assert_eq!(count(&calls, Call::Code), 1);
    bot.expect_log(
        "task \"Craft 1 oak_pressure_plate\" is done by: mineOakLog(); craftItem(\"oak_planks\", 4); \
         craftItem(\"oak_pressure_plate\", 1)",
        Duration::from_secs(1),
    );
    bot.expect_log(
        "task \"Craft 1 oak_pressure_plate\" was done calling the library's mineOakLog",
        Duration::from_secs(1),
    );

    let asked: Vec<Value> = endpoint.requests().into_iter().filter(|r| call_of(r) == Call::Code).collect();
    let system = system_message(&asked[0]);
    let form = &system[system.find("Answer in this form").unwrap()..];
    assert!(
        form.contains(
            "() {\n    mineOakLog();\n    craftItem(\"oak_planks\", 4);\n    craftItem(\"oak_pressure_plate\", 1);\n}"
        ),
        "{form}"
    );
}

/// An attempt that fell short for a thing a learned skill gets is told to call that skill first, and the code that
/// does is judged by the world: three tasks of one learning run called the learned `craftSprucePlanks()` with no log
/// carried and never the learned `mineSpruceLog()` before it.
#[test]
fn a_skill_learned_for_what_is_missing_is_named_after_the_failure() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let plan = r#"[{"task": "Craft 1 oak_pressure_plate"}]"#;
    let bare = "```rhai\nfn craftOakPressurePlate() {\n  craftItem(\"oak_pressure_plate\", 1);\n}\n```";
    let built = "```rhai\nfn craftOakPressurePlate() {\n  craftOakPlanks();\n  \
        craftItem(\"oak_pressure_plate\", 1);\n}\n```";
    let (endpoint, calls) = scripted(&runtime, plan, &[bare, built]);
    let skills = ScriptDir::new(
        "judges-getter",
        &[
            ("craftOakPlanks.rhai", "fn craftOakPlanks() {\n  craftItem(\"oak_planks\", 4);\n}\n"),
            (
                "craftOakPlanks.json",
                r#"{"description": "Crafts 4 oak planks from a log.", "task": "Craft 1 oak_planks"}"#,
            ),
        ],
    );
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), LLM_WRITES]);
    give(&world, "Wayfarer", "oak_log", 1);
    bot_sees(&world, "Wayfarer", "oak_log", 1);

    let goal = "make the thing a door opens with when stepped on";
    let from = world.say("Alice", &format!("!task {goal}"));
    // The plate is the model's reading of a riddle no reader reads: the steps are judged, the goal is not claimed.
    world.expect_chat(from, "Wayfarer", &format!("I did every step of my plan for {goal}"), Duration::from_secs(180));
    let inventory = world.cmd(json!({"cmd": "inventory", "name": "Wayfarer"}));
    assert_eq!(inventory["oak_pressure_plate"], 1, "{inventory}");
    assert_eq!(inventory["oak_planks"], 2, "four planks made, two used: {inventory}");
    assert!(inventory.get("oak_log").is_none(), "the log went into the learned skill's planks: {inventory}");
    assert_eq!(count(&calls, Call::Code), 2);
    drop(bot);

    let asked: Vec<Value> = endpoint.requests().into_iter().filter(|r| call_of(r) == Call::Code).collect();
    let again = last_user_message(&asked[1]);
    assert!(again.contains("I cannot make oak_pressure_plate because I need: 2 more oak_planks"), "{again}");
    assert!(
        again.contains("A skill you have gets what is missing: `craftOakPlanks()` gets oak_planks. Call it first."),
        "{again}"
    );
}
