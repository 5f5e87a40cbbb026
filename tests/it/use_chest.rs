//! The chest calls: check, deposit and withdraw, with a clear error when something is short.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn chest_deposit_withdraw_and_check() {
    let scripts = ScriptDir::new(
        "chest",
        &[
            ("check.rhai", "let c = checkItemInsideChest(vec3(-3, 64, 2)); c.coal"),
            ("deposit.rhai", "depositItemIntoChest(vec3(-3, 64, 2), #{dirt: 7})"),
            ("take.rhai", "getItemFromChest(vec3(-3, 64, 2), #{coal: 3})"),
            ("greedy.rhai", "getItemFromChest(vec3(-3, 64, 2), #{coal: 9})"),
        ],
    );
    let (world, _bot) = world_with_scripted_bot(&scripts);
    world.cmd(json!({"cmd": "fillChest", "x": -3, "y": 64, "z": 2, "items": {"coal": 5}}));
    give(&world, "Wayfarer", "dirt", 10);
    bot_sees(&world, "Wayfarer", "dirt", 10);

    let done = run_script(&world, "check", Duration::from_secs(30));
    assert!(done.contains("finished") && done.contains(": 5 "), "{done}");
    let done = run_script(&world, "deposit", Duration::from_secs(30));
    assert!(done.contains("finished") && done.contains("-7 dirt"), "{done}");
    let done = run_script(&world, "take", Duration::from_secs(30));
    assert!(done.contains("finished") && done.contains("+3 coal"), "{done}");
    let done = run_script(&world, "greedy", Duration::from_secs(30));
    assert!(done.ends_with("The chest has only 2 coal, not 9"), "{done}");

    assert_eq!(inventory_count(&world, "Wayfarer", "dirt"), 3);
    assert_eq!(inventory_count(&world, "Wayfarer", "coal"), 3);
    let stored = world.cmd(json!({"cmd": "container", "x": -3, "y": 64, "z": 2}));
    let total = |item: &str| {
        stored
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["item"] == item)
            .map(|s| s["count"].as_u64().unwrap())
            .sum::<u64>()
    };
    assert_eq!((total("coal"), total("dirt")), (2, 7));
}

/// A chest whose contents come late (after a resend of the bot's own inventory, which ends azalea's wait for the
/// menu) is read whole, and closing it leaves the bot's inventory as it was: read too early, the chest looked
/// empty and its closing blanked the inventory the bot saw, so a goal to store planks found none to store.
#[test]
fn a_chest_whose_contents_come_late_is_read_whole_and_the_inventory_is_still_seen() {
    let scripts = ScriptDir::new(
        "chest-late",
        &[
            ("check.rhai", "let c = checkItemInsideChest(vec3(-3, 64, 2)); c.coal"),
            ("count.rhai", r#"`dirt ${inventoryCount("dirt")}`"#),
            ("deposit.rhai", "depositItemIntoChest(vec3(-3, 64, 2), #{dirt: 4})"),
        ],
    );
    let (world, bot) = world_with_scripted_bot(&scripts);
    world.cmd(json!({"cmd": "fillChest", "x": -3, "y": 64, "z": 2, "items": {"coal": 5}}));
    give(&world, "Wayfarer", "dirt", 10);
    bot_sees(&world, "Wayfarer", "dirt", 10);
    world.cmd(json!({"cmd": "lagMenus", "ms": 600}));

    let done = run_script(&world, "check", Duration::from_secs(30));
    assert!(done.contains("finished") && done.contains(": 5 "), "the chest's coal is counted: {done}");
    // The path meant: the menu opened before its contents, and they were waited for.
    bot.expect_log("contents came", Duration::from_secs(1));
    let done = run_script(&world, "count", Duration::from_secs(30));
    assert!(done.contains("dirt 10"), "the bot still sees its dirt: {done}");
    let done = run_script(&world, "deposit", Duration::from_secs(30));
    assert!(done.contains("finished") && done.contains("-4 dirt"), "{done}");
    let stored = world.cmd(json!({"cmd": "container", "x": -3, "y": 64, "z": 2}));
    let dirt: u64 =
        stored.as_array().unwrap().iter().filter(|s| s["item"] == "dirt").map(|s| s["count"].as_u64().unwrap()).sum();
    assert_eq!(dirt, 4, "{stored}");
    assert_eq!(inventory_count(&world, "Wayfarer", "dirt"), 6);

    // Contents later than the bot waits for: the chest is said not to open, and closing it leaves the inventory.
    world.cmd(json!({"cmd": "lagMenus", "ms": 5000}));
    let done = run_script(&world, "check", Duration::from_secs(30));
    assert!(done.contains("did not open"), "{done}");
    bot.expect_log("its contents never came", Duration::from_secs(1));
    world.cmd(json!({"cmd": "lagMenus", "ms": 0}));
    let done = run_script(&world, "count", Duration::from_secs(30));
    assert!(done.contains("dirt 6"), "the bot still sees its dirt: {done}");
}
