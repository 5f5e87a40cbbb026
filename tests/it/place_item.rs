//! `placeItem` puts a block where asked (against the ground) and refuses occupied spots; `equip` wears armour.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn place_item_places_and_refuses_occupied_spots() {
    let scripts = ScriptDir::new(
        "place",
        &[
            ("place.rhai", "placeItem(\"cobblestone\", vec3(4, 64, -2))"),
            ("occupied.rhai", "placeItem(\"cobblestone\", vec3(4, 63, -2))"),
            ("ground.rhai", "placeItem(\"cobblestone\", vec3(5, 63, -2))"),
            ("nothing.rhai", "placeItem(\"oak_planks\", vec3(1, 64, 1))"),
            // On top of a crafting table: a click on the table opens it, so there is nothing to place against.
            ("on_table.rhai", "placeItem(\"cobblestone\", vec3(-3, 65, 2))"),
            // No table carried, one standing near: the call that gets it is named.
            ("table_again.rhai", "placeItem(\"crafting_table\", vec3(2, 64, 2))"),
            // Items "placed in a chest" by a small model's code: the call that puts them in is named.
            ("into_chest.rhai", "placeItem(\"cobblestone\", vec3(-2, 64, -3))"),
            ("bread_into_chest.rhai", "placeItem(\"bread\", vec3(-2, 64, -3))"),
            ("helmet.rhai", "equip(\"iron_helmet\", \"head\"); inventoryCount(\"iron_helmet\")"),
        ],
    );
    let (world, _bot) = world_with_scripted_bot(&scripts);
    give(&world, "Wayfarer", "cobblestone", 2);
    give(&world, "Wayfarer", "iron_helmet", 1);
    bot_sees(&world, "Wayfarer", "iron_helmet", 1);

    let done = run_script(&world, "place", Duration::from_secs(30));
    assert!(done.contains("finished") && done.contains("-1 cobblestone"), "{done}");
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": 4, "y": 64, "z": -2})), "cobblestone");

    let done = run_script(&world, "occupied", Duration::from_secs(30));
    let occupied = "There is already grass_block at 4 63 -2; `pos` is where the new block goes: pick an empty spot";
    assert!(done.ends_with(occupied), "{done}");
    // The ground with air on it: the spot on top is named, for code that aimed at the ground to aim at instead.
    let done = run_script(&world, "ground", Duration::from_secs(30));
    assert!(done.ends_with("pick an empty spot such as 5 64 -2, on top of it (offset(0, 1, 0))"), "{done}");
    let done = run_script(&world, "nothing", Duration::from_secs(30));
    assert!(done.ends_with("I have no oak_planks to place; the blocks I carry: 1 cobblestone"), "{done}");

    // A table near the bot: clicking it opens it, so nothing can be placed on top of it that way.
    world.cmd(json!({"cmd": "setBlock", "x": -3, "y": 64, "z": 2, "block": "crafting_table"}));
    let done = run_script(&world, "on_table", Duration::from_secs(30));
    assert!(done.contains("Nothing to place cobblestone against at -3 65 2"), "{done}");
    assert!(!done.contains("bottom up"), "the table under it is no ground to start on: {done}");
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": -3, "y": 65, "z": 2})), "air");
    let done = run_script(&world, "table_again", Duration::from_secs(30));
    let back = "I have no crafting_table to place; one stands at -3 64 2: digBlock(vec3(-3, 64, 2)) gets it";
    assert!(done.ends_with(back), "{done}");

    world.cmd(json!({"cmd": "setBlock", "x": -2, "y": 64, "z": -3, "block": "chest"}));
    let done = run_script(&world, "into_chest", Duration::from_secs(30));
    let deposit = "There is a chest at -2 64 -3: placeItem puts a block into the world. To put cobblestone into the \
                   chest, call depositItemIntoChest(vec3(-2, 64, -3), #{cobblestone: how_many})";
    assert!(done.ends_with(deposit), "{done}");
    // Bread is no block, and the bot has none: still the chest's call is named, for that is what the code meant.
    let done = run_script(&world, "bread_into_chest", Duration::from_secs(30));
    assert!(done.ends_with("call depositItemIntoChest(vec3(-2, 64, -3), #{bread: how_many})"), "{done}");
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": -2, "y": 64, "z": -3})), "chest");

    let done = run_script(&world, "helmet", Duration::from_secs(30));
    assert!(done.contains("finished"), "{done}");
    assert_eq!(inventory_count(&world, "Wayfarer", "iron_helmet"), 1, "the helmet is still carried (worn)");
}

/// Regression: a third block on a pillar landed beside it (the top face of the second block is above the eyes, so a
/// click on it hits its side), and the error said only that the server refused it. Now the bot stands higher.
#[test]
fn a_pillar_of_three_stands_with_place_item_alone() {
    let scripts = ScriptDir::new(
        "pillar",
        &[
            ("pillar.rhai", "for dy in 0..3 { placeItem(\"dirt\", vec3(3, 64 + dy, -3)); }"),
            ("floating.rhai", "placeItem(\"dirt\", vec3(-3, 70, -3))"),
        ],
    );
    let (world, _bot) = world_with_scripted_bot(&scripts);
    give(&world, "Wayfarer", "dirt", 8);
    bot_sees(&world, "Wayfarer", "dirt", 8);
    let done = run_script(&world, "pillar", Duration::from_secs(60));
    assert!(done.contains("finished"), "{done}");
    for y in 64..67 {
        assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": 3, "y": y, "z": -3})), "dirt", "block {y} of the pillar");
    }
    for (x, z) in [(2, -3), (4, -3), (3, -2), (3, -4)] {
        assert_ne!(
            world.cmd(json!({"cmd": "getBlock", "x": x, "y": 66, "z": z})),
            "dirt",
            "nothing landed beside the top"
        );
    }
    let done = run_script(&world, "floating", Duration::from_secs(30));
    assert!(done.contains("Nothing to place dirt against at -3 70 -3"), "{done}");
    assert!(done.ends_with("build from the bottom up, starting at -3 64 -3 on the ground"), "{done}");
}

/// The starter skill that sets up a crafting table, where the world refuses the spots nearest the bot (as a spot on
/// grass under leaves was refused on a natural seed): `placeItem("crafting_table")` tries the next spot after each
/// refusal, so the table stands on a spot the world took, and the chain above it is not ended at the first spot.
#[test]
fn a_starter_skill_places_its_table_past_the_spots_the_world_refuses() {
    let skills = ScriptDir::starter_skills("refused-spots", &[]);
    let (world, _bot) = world_with_skilled_bot(&skills, &[]);
    give(&world, "Wayfarer", "crafting_table", 1);
    bot_sees(&world, "Wayfarer", "crafting_table", 1);
    let me = world.player("Wayfarer").pos;
    let (fx, fy, fz) = (me[0].floor() as i64, (me[1] + 0.01).floor() as i64, me[2].floor() as i64);
    // The spots a table goes first: two blocks away on each side, level with the bot's feet.
    let refused = [[fx + 2, fy, fz], [fx - 2, fy, fz], [fx, fy, fz + 2], [fx, fy, fz - 2]];
    world.cmd(json!({"cmd": "refusePlace", "spots": refused}));
    let from = world.cursor();

    let done = run_script(&world, "placeCraftingTable", Duration::from_secs(60));
    assert!(done.starts_with("placeCraftingTable finished"), "{done}");
    let refusals = world.events_since(from).into_iter().filter(|e| e["event"] == "placeRefused").count();
    assert!(refusals >= 1, "the world refused no spot: the path past a refusal was not taken");
    let placed = world
        .wait_event(from, Duration::from_secs(1), |e| e["event"] == "blockPlaced" && e["block"] == "crafting_table")
        .expect("a crafting table was placed");
    let at = [placed["x"].as_i64().unwrap(), placed["y"].as_i64().unwrap(), placed["z"].as_i64().unwrap()];
    assert!(!refused.contains(&at), "placed on a refused spot: {at:?}");
    let stands = world.cmd(json!({"cmd": "getBlock", "x": at[0], "y": at[1], "z": at[2]}));
    assert_eq!(stands, "crafting_table");
    assert_eq!(inventory_count(&world, "Wayfarer", "crafting_table"), 0);
}
