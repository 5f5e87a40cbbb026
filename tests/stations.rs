//! Crafting tables and furnaces: the bot reuses the one it placed rather than strewing new ones, and takes it along
//! when it leaves the area to explore.

mod support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn reuses_its_table_and_takes_it_along_when_leaving() {
    let skills = ScriptDir::starter_skills(
        "stations",
        &[
            ("twice.rhai", "fn twice() { let a = placeCraftingTable(); craftItem(\"wooden_pickaxe\", 1); let b = placeCraftingTable(); [a, b] }"),
            ("twice.json", "{\"description\": \"Places a crafting table twice.\", \"task\": \"\", \"created\": \"2026-11-23T00:00:00Z\", \"version\": 1}"),
            ("away.rhai", "fn away() { mineBlock(\"diamond_ore\", 1) }"),
            ("away.json", "{\"description\": \"Looks for diamonds.\", \"task\": \"\", \"created\": \"2026-11-23T00:00:00Z\", \"version\": 1}"),
            ("short.toml", "script_time_limit_secs = 15\n"),
        ],
    );
    let config = skills.0.join("short.toml");
    let (world, _bot) = world_with_skilled_bot(&skills, &["--config", config.to_str().unwrap()]);
    give(&world, "Wayfarer", "oak_planks", 8);
    give(&world, "Wayfarer", "stick", 2);
    bot_sees(&world, "Wayfarer", "stick", 2);

    let done = run_script(&world, "twice", Duration::from_secs(60));
    assert!(done.starts_with("twice finished"), "{done}");
    let placed = |world: &World| {
        world.events_since(0).into_iter().filter(|e| e["event"] == "blockPlaced" && e["block"] == "crafting_table").count()
    };
    assert_eq!(placed(&world), 1, "the second call reused the first table: {done}");
    let table = world.events_since(0).into_iter().find(|e| e["event"] == "blockPlaced").unwrap();

    // No ore anywhere: mineBlock explores away, and the table comes along.
    let from = world.say("Alice", "!run away");
    let failed = world.expect_chat(from, "Wayfarer", "away failed", Duration::from_secs(40));
    assert!(failed.contains("looking for diamond_ore"), "{failed}");
    let (x, y, z) = (table["x"].as_i64().unwrap(), table["y"].as_i64().unwrap(), table["z"].as_i64().unwrap());
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": x, "y": y, "z": z})), "air", "the table was left behind");
    assert_eq!(inventory_count(&world, "Wayfarer", "crafting_table"), 1);
}
