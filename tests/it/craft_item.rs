//! `craftItem` crafts in the inventory grid, and says exactly what is missing or that a table is needed, with code that
//! gets one.

use crate::support;

use std::time::Duration;

use serde_json::json;

use support::*;

#[test]
fn craft_item_crafts_and_explains_what_is_missing() {
    let scripts = ScriptDir::new(
        "craft",
        &[
            ("planks.rhai", "craftItem(\"oak_planks\", 8)"),
            ("pickaxe.rhai", "craftItem(\"wooden_pickaxe\", 1)"),
            ("advised.rhai", &format!("{ADVICE}; craftItem(\"wooden_pickaxe\", 1)")),
        ],
    );
    let (world, _bot) = world_with_scripted_bot(&scripts);
    give(&world, "Wayfarer", "oak_log", 2);
    bot_sees(&world, "Wayfarer", "oak_log", 2);

    let done = run_script(&world, "planks", Duration::from_secs(30));
    assert!(done.contains("finished") && done.contains("-2 oak_log, +8 oak_planks"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_planks"), 8);

    let done = run_script(&world, "pickaxe", Duration::from_secs(30));
    assert!(done.ends_with("I cannot make wooden_pickaxe because I need: 2 more stick"), "{done}");

    give(&world, "Wayfarer", "stick", 2);
    bot_sees(&world, "Wayfarer", "stick", 2);
    let done = run_script(&world, "pickaxe", Duration::from_secs(30));
    assert!(done.contains("no crafting_table within 48 blocks"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_planks"), 8, "a failed craft spends nothing");

    // The failure says what to do, as code: run as it says, it makes and places a table and the pickaxe follows.
    assert!(done.ends_with(&format!("make one and place it first: {ADVICE}")), "{done}");
    let done = run_script(&world, "advised", Duration::from_secs(60));
    assert!(done.contains("finished"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "wooden_pickaxe"), 1);
    assert_eq!(inventory_count(&world, "Wayfarer", "oak_planks"), 8 - 4 - 3);
    assert_eq!(inventory_count(&world, "Wayfarer", "crafting_table"), 0, "the table was placed");
    let [x, y, z] = world.player("Wayfarer").pos.map(|c| c.floor() as i64);
    let near = world.cmd(json!({"cmd": "getBlocks", "from": [x - 5, y - 2, z - 5], "to": [x + 5, y + 2, z + 5]}));
    let tables = near.as_array().unwrap().iter().filter(|b| b["name"] == "crafting_table").count();
    assert_eq!(tables, 1, "one crafting table placed near the bot: {near}");
}

/// The code a failed craft gives when there is no crafting table and the bot carries none.
const ADVICE: &str = r#"craftItem("crafting_table", 1); placeItem("crafting_table")"#;
