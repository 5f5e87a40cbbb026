//! The MCP server, driven by a real MCP client (the official TypeScript SDK) against the test world: over HTTP at
//! `/mcp` on the dashboard's listener (the token and Origin guard it; tools, resources and prompts are listed and
//! read; a bad argument gets a schema error; `task` for a stone pickaxe streams progress and ends with the world's
//! verdict and the pickaxe in the world's inventory); two clients at once on two bots, and `stop` ending a goal mid
//! way; and `wayfarer mcp` over standard input and output building a starter blueprint the world scores in full, then
//! following a learning run to its end.

use crate::support;

use std::time::Duration;

use serde_json::{Value, json};
use support::{browser::http, mcp::*, *};

const TOOLS: [&str; 15] = [
    "task",
    "build",
    "team",
    "learn",
    "status",
    "inventory",
    "goto",
    "come",
    "follow",
    "stop",
    "recall",
    "remember",
    "skills_search",
    "run_skill",
    "look_around",
];

fn uris(resources: &Value) -> Vec<String> {
    resources.as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn an_assistant_over_http_reads_the_bot_and_gets_a_stone_pickaxe_the_world_shows() {
    let skills = ScriptDir::starter_skills("mcp-http", &[]);
    let blueprints = repo_root().join("skills/blueprints");
    let (world, bot, _) = natural_world_with_bot(
        1009,
        &["--mobs", "off"],
        &["--dashboard", "127.0.0.1:0", "--skills", skills.path(), "--blueprints", blueprints.to_str().unwrap()],
    );
    let (url, token) = endpoint(&bot);
    assert_eq!(token.len(), 32, "a token is made for MCP even on loopback");

    // The endpoint's guard: no token, a wrong one, a page of another origin.
    let address = url.trim_start_matches("http://").split('/').next().unwrap().to_owned();
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let json_in = ("Content-Type", "application/json");
    let accept = ("Accept", "application/json, text/event-stream");
    let bearer = format!("Bearer {token}");
    let (status, body) = http(&address, "POST", "/mcp", &[json_in, accept], init);
    assert_eq!(status, 401, "{body}");
    assert!(body.contains("Authorization: Bearer"), "{body}");
    let (status, _) = http(&address, "POST", "/mcp", &[json_in, accept, ("Authorization", "Bearer 0123")], init);
    assert_eq!(status, 401);
    let foreign = [json_in, accept, ("Authorization", bearer.as_str()), ("Origin", "http://elsewhere.example")];
    let (status, body) = http(&address, "POST", "/mcp", &foreign, init);
    assert_eq!(status, 403, "a page of another origin: {body}");
    let own_origin = format!("http://{address}");
    let own = [json_in, accept, ("Authorization", bearer.as_str()), ("Origin", own_origin.as_str())];
    assert_eq!(http(&address, "POST", "/mcp", &own, init).0, 200, "the dashboard's own origin");

    let client = McpClient::start();
    let connected = client.ok(json!({"op": "connect", "http": url, "token": token}));
    assert_eq!(connected["server"]["name"], "wayfarer");
    assert_eq!(connected["capabilities"]["resources"]["subscribe"], true);

    // What a model is shown: every tool with a description and an argument schema.
    let tools = client.ok(json!({"op": "tools"}));
    let listed: Vec<&str> = tools.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    for tool in TOOLS {
        assert!(listed.contains(&tool), "{tool} missing from {listed:?}");
    }
    for tool in tools.as_array().unwrap() {
        assert!(tool["description"].as_str().unwrap().len() > 30, "{tool}");
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }
    let task_schema = &tools.as_array().unwrap().iter().find(|t| t["name"] == "task").unwrap()["inputSchema"];
    assert_eq!(task_schema["required"], json!(["goal"]), "{task_schema}");

    // Resources: the bot, every skill with its code, every blueprint.
    let resources = uris(&client.ok(json!({"op": "resources"})));
    for uri in ["wayfarer://bot/Wayfarer/status", "wayfarer://bot/Wayfarer/goals", "wayfarer://blueprint/hut"] {
        assert!(resources.contains(&uri.to_owned()), "{uri} missing from {resources:?}");
    }
    let skill_uri = resources.iter().find(|u| u.starts_with("wayfarer://skill/craftStonePickaxe")).expect("a skill");
    let read = client.ok(json!({"op": "read", "uri": skill_uri}));
    let code = read["contents"][0]["text"].as_str().unwrap();
    assert!(code.contains("fn craftStonePickaxe"), "{code}");
    let status = client.ok(json!({"op": "read", "uri": "wayfarer://bot/Wayfarer/status"}));
    let status: Value = serde_json::from_str(status["contents"][0]["text"].as_str().unwrap()).unwrap();
    let me = world.player("Wayfarer");
    let pos: Vec<f64> = status["pos"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert!(me.distance_to([pos[0], pos[1], pos[2]]) < 1.5, "the resource has {pos:?}, the world {:?}", me.pos);
    let missing = client.ask(json!({"op": "read", "uri": "wayfarer://bot/Nobody/status"}), Duration::from_secs(10));
    assert!(missing.as_ref().is_err_and(|(m, _)| m.contains("no bot called")), "{missing:?}");
    let prompts = client.ok(json!({"op": "prompts"}));
    assert_eq!(prompts.as_array().unwrap().len(), 2, "{prompts}");
    let prompt = client.ok(json!({"op": "prompt", "name": "iron_pickaxe", "arguments": {}}));
    assert!(prompt["messages"][0]["content"]["text"].as_str().unwrap().contains("`task`"), "{prompt}");

    // Errors a model can act on: a bad argument, a bot that is not there.
    let bad = client.call("goto", json!({"x": "east", "y": 64}), Duration::from_secs(10));
    let said = match &bad {
        Ok(result) if is_error(result) => text(result),
        Err((message, _)) => message.clone(),
        Ok(result) => panic!("a bad argument was taken: {result}"),
    };
    assert!(said.contains("invalid type") || said.contains("missing field"), "{said}");
    let misspelt = client.call("task", json!({"goal": "a diamond pickax"}), Duration::from_secs(10)).unwrap();
    assert!(is_error(&misspelt) && text(&misspelt).contains("the nearest names are diamond_pickaxe"), "{misspelt}");
    let nobody = client.call("status", json!({"bot": "Nobody"}), Duration::from_secs(10)).unwrap();
    assert!(is_error(&nobody) && text(&nobody).contains("the bots are: Wayfarer"), "{nobody}");

    // A goal in the owner's words, followed to the world's verdict.
    client.ok(json!({"op": "subscribe", "uri": "wayfarer://bot/Wayfarer/goals"}));
    let id = client.start_call("task", json!({"goal": "a stone pickaxe"}));
    let result = client.answer(id, Duration::from_secs(400)).expect("the task call ended");
    let summary = text(&result);
    assert!(!is_error(&result), "{summary}");
    assert!(summary.starts_with("Wayfarer: goal #1 (a stone pickaxe) completed"), "{summary}");
    assert_eq!(inventory_count(&world, "Wayfarer", "stone_pickaxe"), 1, "the world's inventory");
    let progress = client.progress(id);
    let messages: Vec<&str> = progress.iter().filter_map(|p| p["message"].as_str()).collect();
    assert!(messages.iter().any(|m| m.starts_with("Plan for a stone pickaxe: ")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("steps; now: Mine stone for 3 cobblestone")), "{messages:?}");
    let values: Vec<f64> = progress.iter().map(|p| p["progress"].as_f64().unwrap()).collect();
    assert!(values.windows(2).all(|w| w[0] < w[1]), "progress only grows: {values:?}");
    assert_eq!(values.last(), Some(&100.0), "{values:?}");
    assert!(
        client.notifications().iter().any(|n| n["params"]["uri"] == "wayfarer://bot/Wayfarer/goals"),
        "the goal book's change was notified: {:?}",
        client.notifications()
    );

    // Logged like a chat command, and counted.
    bot.expect_log("Wayfarer: Alice (mcp http): !task a stone pickaxe", Duration::from_secs(1));
    let from = world.say("Alice", "!usage");
    let usage = world.expect_chat(from, "Wayfarer", "MCP: ", Duration::from_secs(10));
    assert!(usage.contains("tool calls"), "{usage}");
}

#[test]
fn two_assistants_drive_two_bots_at_once_and_a_stop_ends_a_goal_mid_way() {
    let world = World::start_natural(1009, &["--mobs", "off"]);
    let (sx, sz) = world.spawn_column();
    world.add_player("Alice", [sx as f64 + 2.5, world.ground_y(sx + 2, sz + 2) as f64, sz as f64 + 2.5]);
    let from = world.cursor();
    let bot = Bot::start(
        &world.address(),
        &["--username", "Crew", "--bots", "2", "--owner", "Alice", "--dashboard", "127.0.0.1:0"],
    );
    world.expect_join(from, "Crew_1", Duration::from_secs(60));
    world.expect_join(from, "Crew_2", Duration::from_secs(60));
    let (url, token) = endpoint(&bot);
    let (first, second) = (McpClient::start(), McpClient::start());
    first.ok(json!({"op": "connect", "http": url, "token": token}));
    second.ok(json!({"op": "connect", "http": url, "token": token}));

    let logs = first.start_call("task", json!({"goal": "2 spruce logs", "bot": "Crew_1"}));
    let dirt = second.start_call("task", json!({"goal": "get 3 dirt", "bot": "Crew_2"}));
    let logs = first.answer(logs, Duration::from_secs(300)).unwrap();
    let dirt = second.answer(dirt, Duration::from_secs(300)).unwrap();
    assert!(!is_error(&logs) && text(&logs).starts_with("Crew_1: goal #1 (2 spruce logs) completed"), "{logs}");
    assert!(!is_error(&dirt) && text(&dirt).starts_with("Crew_2: goal #1 (get 3 dirt) completed"), "{dirt}");
    assert!(inventory_count(&world, "Crew_1", "spruce_log") >= 2);
    assert!(inventory_count(&world, "Crew_2", "dirt") >= 3);

    // A long goal, stopped by the other assistant once it is under way.
    let long = first.start_call("task", json!({"goal": "get 40 spruce logs", "bot": "Crew_1"}));
    first.wait_progress(long, Duration::from_secs(60), |p| {
        p["message"].as_str().is_some_and(|m| m.starts_with("I will start task:"))
    });
    let busy = second.call("task", json!({"goal": "get 3 dirt", "bot": "Crew_1"}), Duration::from_secs(10)).unwrap();
    assert!(
        is_error(&busy) && text(&busy).contains("busy with") && text(&busy).contains("get 40 spruce logs"),
        "{busy}"
    );
    // Refused before it ran, and still logged with why, as a refused chat command is.
    bot.expect_log("Crew_1: Alice (mcp http): refused: Crew_1 is busy with", Duration::from_secs(1));
    let stopped = second.call("stop", json!({"bot": "Crew_1"}), Duration::from_secs(20)).unwrap();
    assert!(text(&stopped).starts_with("Stopped "), "{stopped}");
    let long = first.answer(long, Duration::from_secs(20)).unwrap();
    assert!(is_error(&long), "{long}");
    assert!(text(&long).contains("(get 40 spruce logs) stopped: stopped by Alice"), "{long}");
    assert!(inventory_count(&world, "Crew_1", "spruce_log") < 40);
}

#[test]
fn wayfarer_mcp_over_stdio_builds_a_starter_blueprint_the_world_scores_in_full_and_follows_learning() {
    let world = World::start();
    world.add_player("Alice", [3.5, 64.0, 3.5]);
    let blueprints = repo_root().join("skills/blueprints");
    let home = fresh_dir("mcp-stdio");
    let log = home.join("wayfarer.log");
    // The learning's one task (the fixed first one, mine a log) is written by a scripted LLM.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let llm = runtime.block_on(support::fake_llm::FakeEndpoint::start()).unwrap();
    llm.push_content(
        "Plan: dig the nearest log.\nDescription: Mines one oak log from the nearest tree.\n```rhai\nfn mineOneLog() \
         {\n  mineBlock(\"oak_log\", 1)\n}\n```",
    );
    let client = McpClient::start();
    let from = world.cursor();
    let connect = json!({
        "op": "connect",
        "command": env!("CARGO_BIN_EXE_wayfarer"),
        "args": ["mcp", "--server", world.address(), "--owner", "Alice", "--llm-url", llm.base_url(),
                 "--blueprints", blueprints.to_str().unwrap(), "--skills", home.join("skills").to_str().unwrap()],
        "env": {"RUST_LOG": "warn,wayfarer=debug", "WAYFARER_CHECKPOINT": home.join("checkpoint").to_str().unwrap()},
        "stderr": log.to_str().unwrap(),
    });
    client.ok(connect);
    world.expect_join(from, "Wayfarer", Duration::from_secs(60));
    for (item, count) in [("cobblestone", 4), ("torch", 1)] {
        give(&world, "Wayfarer", item, count);
    }
    bot_sees(&world, "Wayfarer", "torch", 1);

    let preview = client.call("build", json!({"what": "pillar", "preview": true}), Duration::from_secs(30)).unwrap();
    assert!(!is_error(&preview) && text(&preview).contains("1×5×1"), "{preview}");
    let built =
        client.call("build", json!({"what": "pillar", "at": {"x": 6, "y": 64, "z": 2}}), Duration::from_secs(240));
    let built = built.unwrap();
    assert!(!is_error(&built), "{built}");
    assert!(text(&built).contains("score 1.00"), "the world's score: {built}");
    let column = world.cmd(json!({"cmd": "getBlocks", "from": [6, 64, 2], "to": [6, 68, 2]}));
    let names: Vec<&str> = column.as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["cobblestone", "cobblestone", "cobblestone", "cobblestone", "torch"], "{column}");

    // Learning followed to its end: each task as progress, then the learning's own summary; the log in the world's
    // inventory and the skill in the library.
    for (x, z) in [(-5, -3), (-5, -5)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    let learning = client.start_call("learn", json!({"iterations": 1, "wait": true}));
    client.wait_progress(learning, Duration::from_secs(60), |p| {
        p["message"].as_str().is_some_and(|m| m.starts_with("I will start task: Mine 1 wood log"))
    });
    let learned = client.answer(learning, Duration::from_secs(120)).unwrap();
    assert!(!is_error(&learned), "{learned}");
    assert!(
        text(&learned).starts_with("Learning done: 1 tasks done, 0 failed; learned 1 skills (mineOneLog)"),
        "{learned}"
    );
    assert!(inventory_count(&world, "Wayfarer", "oak_log") >= 1, "the log is carried");
    assert!(home.join("skills/mineOneLog.rhai").exists(), "the skill is in the library");
    assert_eq!(llm.requests().len(), 1, "one LLM call: the code for the fixed first task");

    // What is near: a crafting table where the world has it, the log left standing among the kinds, the owner.
    world.cmd(json!({"cmd": "setBlock", "x": -3, "y": 64, "z": 4, "block": "crafting_table"}));
    // (The block reaches the bot's view of the world a moment after it is set.)
    let look = || {
        let seen = client.call("look_around", json!({"radius": 12}), Duration::from_secs(30)).unwrap();
        serde_json::from_str::<Value>(text(&seen).split_once('\n').unwrap().1).unwrap()
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let mut seen = look();
    while seen["notable"].as_array().is_some_and(Vec::is_empty) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(500));
        seen = look();
    }
    let notable: Vec<&Value> = seen["notable"].as_array().unwrap().iter().collect();
    assert_eq!(notable.len(), 1, "{seen}");
    assert_eq!((&notable[0]["block"], &notable[0]["nearest"]), (&json!("crafting_table"), &json!([-3, 64, 4])));
    assert!(seen["blocks"].as_array().unwrap().contains(&json!("oak_log")), "{seen}");
    assert!(seen["players"].as_array().unwrap().iter().any(|p| p["name"] == "Alice"), "{seen}");

    // A goal with wait false answers with its handle at once; the goal goes on to the world's verdict.
    let handle = client.call("task", json!({"goal": "get 2 dirt", "wait": false}), Duration::from_secs(20)).unwrap();
    assert!(!is_error(&handle) && text(&handle).contains("(get 2 dirt) is under way"), "{handle}");
    let from = world.cursor();
    world.expect_chat(from, "Wayfarer", "I succeeded in task: get 2 dirt", Duration::from_secs(60));
    assert!(inventory_count(&world, "Wayfarer", "dirt") >= 2, "the dirt is carried");
    drop(client);
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(logged.contains("Wayfarer: Alice (mcp stdio): !build pillar at 6 64 2"), "{logged}");
}
