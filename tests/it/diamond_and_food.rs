//! Beyond iron: `mineDiamond` digs stairs down from a natural spawn to where diamonds are, mines one and climbs back;
//! `cookFood` hunts and cooks.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn mines_a_diamond_from_a_natural_spawn_and_comes_back_up() {
    let skills = ScriptDir::starter_skills("diamond", &[]);
    let (world, _bot, _) = natural_world_with_bot(3, &["--mobs", "off"], &["--skills", skills.path()]);
    give(&world, "Wayfarer", "iron_pickaxe", 1);
    give(&world, "Wayfarer", "bread", 8);
    // A sword too: without one the skill makes one first (trees, cobblestone, a table) before it goes down.
    give(&world, "Wayfarer", "stone_sword", 1);
    bot_sees(&world, "Wayfarer", "stone_sword", 1);
    bot_sees(&world, "Wayfarer", "iron_pickaxe", 1);
    let start = world.player("Wayfarer");

    let done = run_script(&world, "mineDiamond 1", Duration::from_secs(600));
    assert!(done.starts_with("mineDiamond finished"), "{done}");
    assert!(inventory_count(&world, "Wayfarer", "diamond") >= 1);
    let end = world.player("Wayfarer");
    assert!(end.distance_to(start.pos) < 5.0, "the bot did not come back up: from {:?} to {:?}", start.pos, end.pos);
}

#[test]
fn hunts_and_cooks_food() {
    let skills = ScriptDir::starter_skills("food", &[]);
    let (world, _bot) = world_with_skilled_bot(&skills, &[]);
    for (x, z) in [(6.5, -4.5), (-5.5, 7.5)] {
        world.cmd(json!({"cmd": "spawnMob", "kind": "pig", "x": x, "z": z}));
    }
    give(&world, "Wayfarer", "oak_log", 2);
    give(&world, "Wayfarer", "cobblestone", 8);
    bot_sees(&world, "Wayfarer", "cobblestone", 8);

    let done = run_script(&world, "cookFood 2", Duration::from_secs(240));
    assert!(done.starts_with("cookFood finished"), "{done}");
    assert!(inventory_count(&world, "Wayfarer", "cooked_porkchop") >= 2, "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "porkchop"), 0, "all raw meat was cooked");
}
