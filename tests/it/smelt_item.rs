//! `smeltItem` loads a furnace, waits for the output and takes it; without enough fuel it says how much more.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn smelt_item_makes_an_ingot_and_asks_for_fuel() {
    let scripts = ScriptDir::new(
        "smelt",
        &[
            ("ingot.rhai", "smeltItem(\"raw_iron\", \"coal\", 1)"),
            ("two.rhai", "smeltItem(\"raw_iron\", \"oak_planks\", 2)"),
        ],
    );
    let (world, _bot) = world_with_scripted_bot(&scripts);
    world.cmd(json!({"cmd": "setBlock", "x": 3, "y": 64, "z": -3, "block": "furnace"}));
    give(&world, "Wayfarer", "raw_iron", 3);
    give(&world, "Wayfarer", "coal", 1);
    give(&world, "Wayfarer", "oak_planks", 1);
    bot_sees(&world, "Wayfarer", "oak_planks", 1);

    let done = run_script(&world, "two", Duration::from_secs(20));
    assert!(done.ends_with("I cannot smelt 2 raw_iron because I need: 1 more oak_planks"), "{done}");

    let done = run_script(&world, "ingot", Duration::from_secs(40));
    assert!(done.contains("finished") && done.contains("+1 iron_ingot"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "iron_ingot"), 1);
    assert_eq!(inventory_count(&world, "Wayfarer", "raw_iron"), 2);
    assert_eq!(inventory_count(&world, "Wayfarer", "coal"), 0);
}
