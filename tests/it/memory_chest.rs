//! Memory in a natural world: the bot looks into a chest by the spawn once, remembers what it holds through a
//! restart, and, taken far away, gets coal by walking back to that chest (no search, no mining, no LLM), as a player
//! remembers where they keep things. `!recall` answers from the same memories; `!remember` and `!forget` change them.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn a_chest_seen_once_is_fetched_from_by_memory_after_a_restart() {
    let world = World::start_natural(1009, &["--mobs", "off"]);
    let (sx, sz) = world.spawn_column();
    // A chest by the spawn, as a player keeps one by their door, with coal among other things.
    let (cx, cz) = (sx + 3, sz - 2);
    let cy = world.ground_y(cx, cz);
    world.cmd(json!({"cmd": "fillChest", "x": cx, "y": cy, "z": cz, "items": {"coal": 12, "bread": 3, "torch": 8}}));
    world.add_player("Alice", [sx as f64 + 0.5, world.ground_y(sx, sz + 2) as f64, sz as f64 + 2.5]);
    let peek = format!("checkItemInsideChest(vec3({cx}, {cy}, {cz}))");
    let scripts = ScriptDir::new("memory-chest-scripts", &[("peek.rhai", &peek)]);
    let checkpoint = ScriptDir::new("memory-chest-checkpoint", &[]);
    let args =
        ["--username", "Wayfarer", "--owner", "Alice", "--checkpoint", checkpoint.path(), "--scripts", scripts.path()];
    let from = world.cursor();
    let bot = Bot::start(&world.address(), &args);
    world.expect_join(from, "Wayfarer", Duration::from_secs(60));

    // The bot looks into the chest once.
    let done = run_script(&world, "peek", Duration::from_secs(60));
    assert!(done.contains("peek finished"), "{done}");
    let chest = format!("the chest at {cx} {cy} {cz} holds 3 bread, 12 coal, 8 torch");
    let from = world.say("Alice", "!recall coal for the furnace");
    let recalled = world.expect_chat(from, "Wayfarer", "I remember:", Duration::from_secs(20));
    assert!(recalled.contains(&chest), "{recalled}");
    let from = world.say("Alice", "!remember the base is at 10 70 -20");
    world.expect_chat(from, "Wayfarer", "I'll remember that", Duration::from_secs(10));

    // A restart keeps it all.
    drop(bot);
    let log = checkpoint.0.join("Wayfarer").join("memory").join("memories.jsonl");
    let lines = std::fs::read_to_string(&log).expect("the memory log is written").lines().count();
    assert!(lines >= 2, "{lines} entries");
    let from = world.cursor();
    let bot = Bot::start(&world.address(), &args);
    world.expect_join(from, "Wayfarer", Duration::from_secs(60));
    bot.expect_log("memories in", Duration::from_secs(10));
    let from = world.say("Alice", "!recall where is the coal?");
    let place = world.expect_chat(from, "Wayfarer", "I saw coal in the chest", Duration::from_secs(20));
    assert!(place.contains(&format!("×12 at {cx} {cy} {cz}")), "{place}");
    let from = world.say("Alice", "!recall where is our base");
    let base = world.expect_chat(from, "Wayfarer", "I remember:", Duration::from_secs(20));
    assert!(base.contains("Alice told me: the base is at 10 70 -20"), "{base}");

    // Far from the chest, out of sight of it, the bot is asked for coal: it goes back to the chest it remembers.
    let (fx, fz) = (sx + 72, sz + 8);
    world.cmd(json!({"cmd": "teleport", "name": "Wayfarer", "x": fx as f64 + 0.5, "y": world.ground_y(fx, fz), "z": fz as f64 + 0.5}));
    let far = world.player("Wayfarer").distance_to([cx as f64 + 0.5, cy as f64, cz as f64 + 0.5]);
    assert!(far > 60.0, "the bot is {far:.0} blocks from the chest");
    let from = world.say("Alice", "!task get 5 coal");
    let plan = world.expect_chat(from, "Wayfarer", "Plan for get 5 coal:", Duration::from_secs(20));
    assert_eq!(plan, format!("Plan for get 5 coal: Take 5 coal from the chest at {cx} {cy} {cz}."));
    world.expect_chat(from, "Wayfarer", "I succeeded in task: get 5 coal", Duration::from_secs(120));
    assert_eq!(inventory_count(&world, "Wayfarer", "coal"), 5);
    let (coal, stored) = container_count(&world, [cx, cy, cz], "coal");
    assert_eq!(coal, 7, "the coal came out of the chest: {stored}");

    // What it took is remembered too; forgetting removes what matches.
    let from = world.say("Alice", "!recall what is in the chest");
    let after = world.expect_chat(from, "Wayfarer", "I remember:", Duration::from_secs(20));
    assert!(after.contains(&format!("the chest at {cx} {cy} {cz} holds 3 bread, 7 coal, 8 torch")), "{after}");
    let from = world.say("Alice", "!forget base 10 70");
    world.expect_chat(
        from,
        "Wayfarer",
        "Forgot 1 memories: \"Alice told me: the base is at 10 70 -20\"",
        Duration::from_secs(10),
    );
    let from = world.say("Alice", "!forget");
    world.expect_chat(from, "Wayfarer", "Usage: !forget WORDS...", Duration::from_secs(10));
}

#[test]
fn a_stop_while_items_move_in_a_chest_lets_the_moves_finish_and_remembers_what_is_left() {
    // Nineteen kinds to take, one click round each: the take lasts seconds, and the stop comes in the middle of it.
    const KINDS: [&str; 19] = [
        "apple",
        "bone",
        "book",
        "bread",
        "brick",
        "clay_ball",
        "coal",
        "cobblestone",
        "dirt",
        "feather",
        "flint",
        "gravel",
        "oak_planks",
        "paper",
        "sand",
        "stick",
        "string",
        "torch",
        "wheat",
    ];
    let (cx, cy, cz) = (2, 64, 0);
    let wanted = KINDS.iter().map(|k| format!("{k}: 1")).collect::<Vec<_>>().join(", ");
    let take = format!("getItemFromChest(vec3({cx}, {cy}, {cz}), #{{{wanted}}})");
    let scripts = ScriptDir::new("chest-stop-scripts", &[("take.rhai", &take)]);
    let (world, bot) = world_with_scripted_bot(&scripts);
    let mut items: serde_json::Map<String, serde_json::Value> =
        KINDS.iter().map(|k| (k.to_string(), json!(1))).collect();
    items.insert("glass".to_owned(), json!(1));
    world.cmd(json!({"cmd": "fillChest", "x": cx, "y": cy, "z": cz, "items": items}));

    let from = world.say("Alice", "!run take");
    world.expect_chat(from, "Wayfarer", "Running take.", Duration::from_secs(10));
    // The first item in the bot's hands: the moves have begun.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while world.cmd(json!({"cmd": "inventory", "name": "Wayfarer"})).as_object().is_none_or(|held| held.is_empty()) {
        assert!(std::time::Instant::now() < deadline, "nothing came out of the chest");
        std::thread::sleep(Duration::from_millis(20));
    }
    let stop = world.say("Alice", "!stop");
    world.expect_chat(stop, "Wayfarer", "Stopped running take.", Duration::from_secs(2));

    // The moves begun were finished: all nineteen taken, the glass left, and the bot's memory says so.
    bot.expect_log("failed: stopped by !stop", Duration::from_secs(12));
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    let all_taken = || KINDS.iter().all(|kind| inventory_count(&world, "Wayfarer", kind) > 0);
    while !all_taken() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    for kind in KINDS {
        assert_eq!(inventory_count(&world, "Wayfarer", kind), 1, "{kind} was not taken");
    }
    let (glass, left) = container_count(&world, [cx, cy, cz], "glass");
    assert_eq!((glass, left.as_array().map_or(0, |s| s.iter().filter(|s| !s.is_null()).count())), (1, 1), "{left}");
    let from = world.say("Alice", "!recall what is in the chest");
    let recalled = world.expect_chat(from, "Wayfarer", "I remember:", Duration::from_secs(20));
    assert!(recalled.contains(&format!("the chest at {cx} {cy} {cz} holds 1 glass (")), "{recalled}");
    bot.expect_log("finishes its moves before it stops", Duration::from_secs(1));
}
