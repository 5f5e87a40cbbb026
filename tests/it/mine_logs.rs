//! `mineBlock` digs real blocks and collects the drops; with no such block anywhere it explores and then says where
//! it looked; without the right tool it names the tool.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn mine_block_collects_logs_and_explains_failures() {
    let scripts = ScriptDir::new(
        "mine",
        &[
            ("logs.rhai", "mineBlock(\"oak_log\", 3)"),
            ("iron.rhai", "mineBlock(\"iron_ore\", 1)"),
            ("stone.rhai", "mineBlock(\"stone\", 1)"),
            // A short run limit keeps the search for ore that is nowhere short: it ends 5 s before the limit.
            ("short.toml", "script_time_limit_secs = 20\n"),
        ],
    );
    let config = scripts.0.join("short.toml");
    let (world, _bot) = world_with_bot_args(&["--scripts", scripts.path(), "--config", config.to_str().unwrap()]);
    for (x, z) in [(6, 2), (6, 5), (-4, 6)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }

    let done = run_script(&world, "logs", Duration::from_secs(90));
    assert!(done.starts_with("logs finished"), "{done}");
    assert!(done.contains(": 3 (inventory: +3 oak_log)"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_log"), 3);
    for (x, z) in [(6, 2), (6, 5), (-4, 6)] {
        assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": x, "y": 64, "z": z})), "air");
    }

    // No ore anywhere: the bot explores for it until the run's time is nearly up, then says where it looked.
    let from = world.cursor();
    let done = run_script(&world, "iron", Duration::from_secs(30));
    world.expect_chat(from, "Wayfarer", "No iron_ore within 64 blocks; exploring for some.", Duration::from_secs(1));
    assert!(done.starts_with("iron failed at line 1 after 1"), "{done}");
    assert!(done.contains("looking for iron_ore and saw none within 64 blocks of my way"), "{done}");
    let walked: f64 = done.split("I walked ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!(walked >= 20.0, "the bot hardly moved while exploring: {done}");
    world.cmd(json!({"cmd": "teleport", "name": "Wayfarer", "x": 0.5, "y": 64.0, "z": 0.5}));

    // Ore, but no pickaxe: the error names the tool.
    world.cmd(json!({"cmd": "setBlock", "x": 2, "y": 63, "z": 0, "block": "iron_ore"}));
    let done = run_script(&world, "iron", Duration::from_secs(20));
    assert!(done.ends_with(": I need at least a stone_pickaxe to mine iron_ore"), "{done}");

    // With a pickaxe, stone is mined with it and drops cobblestone.
    give(&world, "Wayfarer", "wooden_pickaxe", 1);
    world.cmd(json!({"cmd": "fill", "from": [-3, 63, -3], "to": [-3, 63, -3], "block": "stone"}));
    let done = run_script(&world, "stone", Duration::from_secs(30));
    assert!(done.contains("finished") && done.contains("+1 cobblestone"), "{done}");
}

/// The nearest ore sealed in bedrock cannot be reached: `mineBlock` passes over it to the next one, and a later
/// call does not walk back to it.
#[test]
fn an_ore_it_cannot_reach_is_passed_over() {
    let scripts = ScriptDir::new("mine-sealed", &[("iron.rhai", "mineBlock(\"iron_ore\", 1)")]);
    let (world, bot) = world_with_bot_args(&["--scripts", scripts.path()]);
    give(&world, "Wayfarer", "stone_pickaxe", 1);
    bot_sees(&world, "Wayfarer", "stone_pickaxe", 1);
    // Sealed: a bedrock box on the ground with the ore in its middle, 7 blocks away.
    world.cmd(json!({"cmd": "fill", "from": [4, 64, 4], "to": [6, 66, 6], "block": "bedrock"}));
    world.cmd(json!({"cmd": "setBlock", "x": 5, "y": 65, "z": 5, "block": "iron_ore"}));
    // Open: two ores on the ground farther away.
    for (x, z) in [(-12, -8), (-12, -12)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "iron_ore"}));
    }

    for round in 0..2 {
        let done = run_script(&world, "iron", Duration::from_secs(120));
        let walks: Vec<String> = bot
            .log_text()
            .lines()
            .filter(|l| l.contains("could not get to") || l.contains("path"))
            .map(str::to_owned)
            .collect();
        assert!(done.starts_with("iron finished"), "round {round}: {done}\n{}", walks.join("\n"));
        assert!(done.contains("+1 raw_iron"), "round {round}: {done}");
    }
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": 5, "y": 65, "z": 5})), "iron_ore");
    for (x, z) in [(-12, -8), (-12, -12)] {
        assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": x, "y": 64, "z": z})), "air", "the ore at {x} {z}");
    }
}

/// Iron under a pond is a last choice: the stairs to ore under water run under what falls into them and below what
/// the way back would open. The nearer ore under the pond stays; the farther dry one is mined.
#[test]
fn ore_under_water_is_left_for_dry_ore() {
    let scripts = ScriptDir::new("mine-wet", &[("iron.rhai", "mineBlock(\"iron_ore\", 1)")]);
    let (world, bot) = world_with_bot_args(&["--scripts", scripts.path()]);
    give(&world, "Wayfarer", "stone_pickaxe", 1);
    bot_sees(&world, "Wayfarer", "stone_pickaxe", 1);
    // A pond two deep, 7 to 9 blocks east; iron 6 blocks under its middle. Dry iron as deep, 14 blocks west.
    world.cmd(json!({"cmd": "fill", "from": [7, 62, -1], "to": [9, 63, 1], "block": "water"}));
    world.cmd(json!({"cmd": "setBlock", "x": 8, "y": 56, "z": 0, "block": "iron_ore"}));
    world.cmd(json!({"cmd": "setBlock", "x": -14, "y": 56, "z": 0, "block": "iron_ore"}));

    let done = run_script(&world, "iron", Duration::from_secs(120));
    assert!(done.starts_with("iron finished") && done.contains("+1 raw_iron"), "{done}; its log:\n{}", bot.log_text());
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": -14, "y": 56, "z": 0})), "air", "the dry ore is still there");
    assert_eq!(
        world.cmd(json!({"cmd": "getBlock", "x": 8, "y": 56, "z": 0})),
        "iron_ore",
        "the ore under the pond was dug"
    );
}
