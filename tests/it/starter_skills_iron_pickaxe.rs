//! The starter skill library climbs the tech tree in the test world: `!run craftIronPickaxe` from an empty inventory
//! mines logs, makes planks, sticks and a crafting table, a wooden then a stone pickaxe, mines cobblestone and iron
//! ore, builds and places a furnace, smelts three ingots and crafts the iron pickaxe. Each step is a skill calling
//! the skills below it.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn iron_pickaxe_from_nothing_through_run() {
    let skills = ScriptDir::starter_skills("iron", &[]);
    let (world, _bot) = world_with_skilled_bot(&skills, &[]);
    for (x, z) in [(5, -3), (5, -5), (7, -4), (6, -7), (8, -6), (4, -8)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    for x in -8..=4 {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": 6, "block": "stone"}));
    }
    for x in [-4, -3, -2] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": 9, "block": "iron_ore"}));
    }
    for item in ["oak_log", "wooden_pickaxe", "stone_pickaxe", "iron_pickaxe", "iron_ingot"] {
        assert_eq!(inventory_count(&world, "Wayfarer", item), 0, "{item}");
    }

    let done = run_script(&world, "craftIronPickaxe", Duration::from_secs(360));
    assert!(done.starts_with("craftIronPickaxe finished"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "iron_pickaxe"), 1);
    // The lower tiers were made on the way, and are still carried.
    assert_eq!(inventory_count(&world, "Wayfarer", "wooden_pickaxe"), 1);
    assert_eq!(inventory_count(&world, "Wayfarer", "stone_pickaxe"), 1);
    assert_eq!(inventory_count(&world, "Wayfarer", "iron_ingot"), 0, "all three ingots went into the pickaxe");
    // The world saw the table and the furnace placed, and all three ores broken.
    for block in ["crafting_table", "furnace"] {
        let placed =
            world.wait_event(0, Duration::from_secs(1), |e| e["event"] == "blockPlaced" && e["block"] == block);
        assert!(placed.is_some(), "no {block} was placed");
    }
    // `getBlock` answers the block's name as a plain string. (This check once read `left["name"]`, which is null
    // for a string, so it could never fail.)
    for x in [-4, -3, -2] {
        let left = world.cmd(json!({"cmd": "getBlock", "x": x, "y": 64, "z": 9}));
        assert!(left.is_string(), "getBlock answered {left}");
        assert_eq!(left, "air", "the iron ore at x={x} was not mined");
    }
}
