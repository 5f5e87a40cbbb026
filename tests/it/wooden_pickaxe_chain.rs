//! The hand-written `scripts/wooden_pickaxe.rhai` makes a wooden pickaxe from an empty inventory in the test
//! world: it mines logs, crafts planks and a table, places the table, crafts sticks and the pickaxe in the table.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn wooden_pickaxe_from_nothing() {
    let source = std::fs::read_to_string(support::repo_root().join("scripts/wooden_pickaxe.rhai")).unwrap();
    let scripts = ScriptDir::new("pickaxe", &[("wooden_pickaxe.rhai", &source)]);
    let (world, _bot) = world_with_scripted_bot(&scripts);
    for (x, z) in [(5, -3), (5, -5), (7, -4)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    assert_eq!(inventory_count(&world, "Wayfarer", "wooden_pickaxe"), 0);

    let done = run_script(&world, "wooden_pickaxe", Duration::from_secs(120));
    assert!(done.starts_with("wooden_pickaxe finished"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "wooden_pickaxe"), 1);
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_log"), 0);
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_planks"), 3, "12 planks - 4 table - 2 sticks - 3 pickaxe");
    assert_eq!(inventory_count(&world, "Wayfarer", "stick"), 2);
    // The table stands in the world, where the bot placed it.
    let placed =
        world.wait_event(0, Duration::from_secs(1), |e| e["event"] == "blockPlaced" && e["block"] == "crafting_table");
    assert!(placed.is_some(), "no crafting_table was placed");
}
