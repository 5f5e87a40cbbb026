//! `craftItem` crafts in the inventory grid, and says exactly what is missing or that a table is needed.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn craft_item_crafts_and_explains_what_is_missing() {
    let scripts = ScriptDir::new(
        "craft",
        &[("planks.rhai", "craftItem(\"oak_planks\", 8)"), ("pickaxe.rhai", "craftItem(\"wooden_pickaxe\", 1)")],
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
}
