//! `mineBlock` digs real blocks and collects the drops; without a block, or without the right tool, it says what to
//! do next.

mod support;

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
        ],
    );
    let (world, _bot) = world_with_scripted_bot(&scripts);
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

    // No ore anywhere near: the error says to explore.
    let done = run_script(&world, "iron", Duration::from_secs(20));
    assert_eq!(done, "iron failed at line 1 after 0.0 s: No iron_ore within 32 blocks; explore first".replace("0.0 s", &secs(&done)));

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

/// The `N.N s` of a run report, so the comparison above ignores timing.
fn secs(report: &str) -> String {
    let after = report.split(" after ").nth(1).unwrap_or_default();
    after.split(':').next().unwrap_or_default().to_owned()
}
