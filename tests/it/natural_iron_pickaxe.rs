//! `!run craftIronPickaxe` from a natural world's spawn with an empty inventory, monsters on: the starter skills find
//! trees, dig stairs down for stone and for iron ore (none lies on the surface), climb back up, smelt and craft.

use crate::support;

use std::time::Duration;

use support::*;

#[test]
fn iron_pickaxe_from_a_natural_spawn() {
    let skills = ScriptDir::starter_skills("natural-iron", &[]);
    let (world, _bot, _) = natural_world_with_bot(1009, &[], &["--skills", skills.path()]);

    let done = run_script(&world, "craftIronPickaxe", Duration::from_secs(600));
    let deaths: Vec<_> = world.events_since(0).into_iter().filter(|e| e["event"] == "death").collect();
    assert!(done.starts_with("craftIronPickaxe finished"), "{done}; deaths: {deaths:?}");
    assert_eq!(inventory_count(&world, "Wayfarer", "iron_pickaxe"), 1);
    let mined_iron = world
        .events_since(0)
        .into_iter()
        .filter(|e| e["event"] == "blockBroken" && e["name"] == "Wayfarer")
        .filter(|e| e["block"] == "iron_ore" || e["block"] == "deepslate_iron_ore")
        .count();
    assert!(mined_iron >= 3, "the bot mined {mined_iron} iron ore");
    eprintln!("deaths on the way: {}", deaths.len());
}
