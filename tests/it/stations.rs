//! Crafting tables and furnaces: the bot reuses the one it placed rather than strewing new ones, and takes it along
//! when it leaves the area to explore.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn reuses_its_table_and_takes_it_along_when_leaving() {
    let skills = ScriptDir::starter_skills(
        "stations",
        &[
            (
                "twice.rhai",
                "fn twice() { let a = placeCraftingTable(); craftItem(\"wooden_pickaxe\", 1); let b = placeCraftingTable(); [a, b] }",
            ),
            (
                "twice.json",
                "{\"description\": \"Places a crafting table twice.\", \"task\": \"\", \"created\": \"2026-11-23T00:00:00Z\", \"version\": 1}",
            ),
            ("away.rhai", "fn away() { mineBlock(\"diamond_ore\", 1) }"),
            (
                "away.json",
                "{\"description\": \"Looks for diamonds.\", \"task\": \"\", \"created\": \"2026-11-23T00:00:00Z\", \"version\": 1}",
            ),
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
        world
            .events_since(0)
            .into_iter()
            .filter(|e| e["event"] == "blockPlaced" && e["block"] == "crafting_table")
            .count()
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

/// In a mine, a new table goes into a side nook of the tunnel rather than across the way back; walled in on every
/// side, the bot says there is no room rather than placing it anywhere.
#[test]
fn places_its_table_out_of_the_way_underground() {
    let skills = ScriptDir::starter_skills("stations-tunnel", &[]);
    let (world, _bot) = world_with_skilled_bot(&skills, &[]);
    give(&world, "Wayfarer", "oak_planks", 4);
    bot_sees(&world, "Wayfarer", "oak_planks", 4);
    let fill = |from: [i64; 3], to: [i64; 3], block: &str| {
        world.cmd(json!({ "cmd": "fill", "from": from, "to": to, "block": block }));
    };
    // Solid rock, with a pocket just big enough for the bot.
    fill([18, 55, -6], [42, 67, 6], "stone");
    fill([30, 60, 0], [30, 61, 0], "air");
    world.cmd(json!({ "cmd": "teleport", "name": "Wayfarer", "x": 30.5, "y": 60.0, "z": 0.5 }));
    std::thread::sleep(Duration::from_secs(1));
    let from = world.say("Alice", "!run placeCraftingTable");
    let failed = world.expect_chat(from, "Wayfarer", "placeCraftingTable failed", Duration::from_secs(30));
    assert!(failed.contains("could not find a free spot"), "{failed}");
    assert_eq!(inventory_count(&world, "Wayfarer", "crafting_table"), 1, "the table is kept: {failed}");

    // A tunnel two high along x, with one nook off its side.
    fill([22, 60, 0], [38, 61, 0], "air");
    fill([33, 60, 1], [33, 61, 1], "air");
    let done = run_script(&world, "placeCraftingTable", Duration::from_secs(30));
    assert!(done.starts_with("placeCraftingTable finished"), "{done}");
    let placed: Vec<_> = world.events_since(0).into_iter().filter(|e| e["event"] == "blockPlaced").collect();
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": 33, "y": 60, "z": 1})), "crafting_table", "{done}: {placed:?}");
    for x in 22..=38 {
        assert_eq!(
            world.cmd(json!({"cmd": "getBlock", "x": x, "y": 60, "z": 0})),
            "air",
            "the tunnel is open at x {x}"
        );
    }
}

/// A table the bot cannot get to (on top of a stone pillar, with nothing to climb it with) fails the chain's first try,
/// with where it is; `!run` tries the chain again, which passes it over and places a table of its own.
#[test]
fn a_table_out_of_reach_is_passed_over_for_a_new_one() {
    let skills = ScriptDir::starter_skills("stations-unreachable", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &[]);
    let me = world.player("Wayfarer").pos;
    let (px, pz) = (me[0].floor() as i64 + 4, me[2].floor() as i64);
    let ground = me[1].floor() as i64;
    world.cmd(json!({"cmd": "fill", "from": [px, ground, pz], "to": [px, ground + 7, pz], "block": "stone"}));
    world.cmd(json!({"cmd": "setBlock", "x": px, "y": ground + 8, "z": pz, "block": "crafting_table"}));
    give(&world, "Wayfarer", "oak_planks", 7);
    give(&world, "Wayfarer", "stick", 2);
    bot_sees(&world, "Wayfarer", "stick", 2);

    // One `!run`: the chain fails where the world may let it through another way, and is run once more.
    let from = world.say("Alice", "!run craftWoodenPickaxe");
    let first = world.expect_chat(from, "Wayfarer", "Trying craftWoodenPickaxe again", Duration::from_secs(120));
    assert!(first.contains(&format!("I could not get to the crafting_table at {px} {} {pz}", ground + 8)), "{first}");
    let second = world.expect_chat(from, "Wayfarer", "craftWoodenPickaxe finished", Duration::from_secs(120));
    assert!(second.starts_with("craftWoodenPickaxe finished"), "{second}; its log:\n{}", bot.log_text());
    assert_eq!(inventory_count(&world, "Wayfarer", "wooden_pickaxe"), 1);
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": px, "y": ground + 8, "z": pz})), "crafting_table");
}
