//! Owners reach the skill library from chat: `!skills` lists it, `!skills WORDS` finds skills by meaning and words (with
//! the real embedding model), `!run SKILL ARGS` calls one with arguments, new and edited skill files hot-reload while the
//! bot runs, and a skill calls another skill.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn list_search_run_and_hot_reload() {
    let skills = ScriptDir::starter_skills("chat", &[]);
    let (world, _bot) = world_with_skilled_bot(&skills, &[]);
    let chat = |text: &str, needle: &str| {
        let from = world.say("Alice", text);
        world.expect_chat(from, "Wayfarer", needle, Duration::from_secs(20))
    };

    let listed = chat("!skills", "Skills (68):");
    assert!(
        listed.contains("Skills (68): buildFloor, buildPillar, buildWall, clearBlocksAround, collectFlint"),
        "{listed}"
    );

    let found = chat("!skills make a stone pick", "Skills for \"make a stone pick\":");
    let first = found.split(": ").nth(1).unwrap_or_default();
    assert!(first.starts_with("craftStonePickaxe() "), "{found}");
    assert_eq!(found.matches("()").count() + found.matches("(count)").count(), 5, "five matches: {found}");

    // Arguments are checked against the skill's signature, then passed.
    let wrong = chat("!run mineWoodLog", "mineWoodLog takes 1 argument");
    assert!(wrong.contains("mineWoodLog(count)"), "{wrong}");
    // Values it cannot use are refused with the reason (they used to "finish" having done nothing).
    chat("!run craftPlanks -5", "craftPlanks's count must be a whole number of at least 1, not -5.");
    chat("!run mineWoodLog \"x\"", "mineWoodLog's count must be a whole number of at least 1, not \"x\".");
    world.cmd(json!({"cmd": "setBlock", "x": 5, "y": 64, "z": -3, "block": "oak_log"}));
    world.cmd(json!({"cmd": "setBlock", "x": 6, "y": 64, "z": -4, "block": "birch_log"}));
    let done = run_script(&world, "mineWoodLog 2", Duration::from_secs(60));
    assert!(done.starts_with("mineWoodLog finished") && done.contains(": 2 "), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_log") + inventory_count(&world, "Wayfarer", "birch_log"), 2);

    // A new skill that calls a starter skill, dropped in while the bot runs.
    let from = world.cursor();
    std::fs::write(
        skills.0.join("plankUp.json"),
        r#"{"description": "Turns the logs carried into planks and reports the count."}"#,
    )
    .unwrap();
    std::fs::write(
        skills.0.join("plankUp.rhai"),
        "fn plankUp() {\n  let planks = craftPlanks(8);\n  chat(`I have ${planks} planks`);\n  planks\n}\n",
    )
    .unwrap();
    world.expect_chat(from, "Wayfarer", "Skills: skill plankUp loaded", Duration::from_secs(10));
    let done = run_script(&world, "plankUp", Duration::from_secs(30));
    // One oak and one birch log: four planks of each.
    assert!(done.starts_with("plankUp finished") && done.contains(": 8 (inventory:"), "{done}");
    assert!(done.contains("+4 oak_planks") && done.contains("+4 birch_planks"), "{done}");
    world.expect_chat(from, "Wayfarer", "I have 8 planks", Duration::from_secs(1));
    let found = chat("!skills convert logs to planks", "Skills for");
    assert!(found.contains("plankUp()"), "the new skill is searchable: {found}");

    // A broken edit is reported and the working version stays.
    let from = world.cursor();
    std::fs::write(skills.0.join("plankUp.rhai"), "fn plankUp() {\n  let = ;\n}\n").unwrap();
    let failed = world.expect_chat(from, "Wayfarer", "Skills: skills/plankUp.rhai line 2", Duration::from_secs(10));
    assert!(failed.contains("previous version stays in use"), "{failed}");
}

#[test]
fn search_without_the_model_says_how_to_get_it() {
    let skills = ScriptDir::starter_skills("nomodel", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--models", "/nonexistent/models"]);
    bot.expect_log("skill search will not work until the model is there", Duration::from_secs(5));
    let from = world.say("Alice", "!skills get wood");
    let reply = world.expect_chat(from, "Wayfarer", "Skill search is off", Duration::from_secs(10));
    assert!(reply.contains("libonnxruntime.so.1.31.1 is missing") && reply.contains("make models"), "{reply}");
    // Skills still run without the model.
    world.cmd(json!({"cmd": "setBlock", "x": 5, "y": 64, "z": -3, "block": "oak_log"}));
    let done = run_script(&world, "mineWoodLog 1", Duration::from_secs(60));
    assert!(done.starts_with("mineWoodLog finished"), "{done}");
}
