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
