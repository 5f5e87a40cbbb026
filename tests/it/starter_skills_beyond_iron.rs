//! The starter skills past the first pickaxes, from a natural world's spawn with an empty inventory: tools and
//! things to build with (an axe, a shovel, ladders, a door, a boat), and a chest that takes what the bot stores.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

const CHAIN: &str = r#"
fn beyondWood() {
    craftWoodenAxe();
    craftStoneShovel();
    craftLadders(3);
    craftDoor();
    craftBoat();
    let chest = placeChest();
    storeItemsInChest("wooden_axe", 1);
    chest
}
"#;

#[test]
fn tools_building_things_and_a_chest_from_a_natural_spawn() {
    let skills = ScriptDir::starter_skills(
        "beyond-iron",
        &[
            ("beyondWood.rhai", CHAIN),
            ("beyondWood.json", r#"{"description": "Test chain: tools, building things, a chest."}"#),
        ],
    );
    let (world, bot, _) = natural_world_with_bot(3, &[], &["--skills", skills.path()]);

    let done = run_script(&world, "beyondWood", Duration::from_secs(300));
    assert!(done.starts_with("beyondWood finished"), "{done}; its log:\n{}", bot.log_text());
    let inventory = world.cmd(json!({ "cmd": "inventory", "name": "Wayfarer" }));
    let count = |suffix: &str| {
        inventory
            .as_object()
            .unwrap()
            .iter()
            .filter(|(name, _)| name.ends_with(suffix))
            .map(|(_, n)| n.as_u64().unwrap())
            .sum::<u64>()
    };
    assert_eq!(count("stone_shovel"), 1, "{inventory}");
    assert!(count("ladder") >= 3, "{inventory}");
    assert!(count("_door") >= 3, "{inventory}");
    assert_eq!(count("_boat"), 1, "{inventory}");
    assert_eq!(count("wooden_axe"), 0, "the axe was not stored: {inventory}");
    // The chest beside the bot holds the axe.
    let me = world.player("Wayfarer").pos;
    let chest =
        world.cmd(json!({ "cmd": "locate", "block": "chest", "x": me[0], "y": me[1], "z": me[2], "radius": 12 }));
    assert!(chest.is_object(), "no chest near the bot at {me:?}: {chest}");
    let held = world.cmd(json!({ "cmd": "container", "x": chest["x"], "y": chest["y"], "z": chest["z"] }));
    assert!(held.to_string().contains("\"wooden_axe\""), "the chest holds {held}");
}
