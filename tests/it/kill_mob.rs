//! `killMob` hunts a pig with the best weapon and collects its drops; with no such mob it explores for one, then says
//! where it looked; bare-handed it does not hunt a monster; a kill the self-defence reflex made of the mob hunted
//! counts.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

#[test]
fn kill_mob_hunts_and_collects() {
    let scripts = ScriptDir::new(
        "kill",
        &[
            ("pig.rhai", "killMob(\"pig\", 20)"),
            ("zombie.rhai", "killMob(\"zombie\", 60)"),
            ("short.toml", "script_time_limit_secs = 15\n"),
        ],
    );
    let config = scripts.0.join("short.toml");
    let (world, _bot) = world_with_bot_args(&["--scripts", scripts.path(), "--config", config.to_str().unwrap()]);
    // Bare-handed, a monster is not hunted (nor looked for): the call says at once what to make first.
    let asked = std::time::Instant::now();
    let done = run_script(&world, "zombie", Duration::from_secs(10));
    assert!(done.contains("I carry no weapon to fight a zombie with: make a sword first"), "{done}");
    assert!(asked.elapsed() < Duration::from_secs(3), "answered after {:?}", asked.elapsed());
    give(&world, "Wayfarer", "stone_sword", 1);
    let pig = world.cmd(json!({"cmd": "spawnMob", "kind": "pig", "x": 6.5, "z": -4.5}));
    bot_sees(&world, "Wayfarer", "stone_sword", 1);

    // No zombie anywhere: the bot looks for one until the run's time is nearly up, then says where it looked.
    let done = run_script(&world, "zombie", Duration::from_secs(25));
    assert!(done.contains("looking for a zombie and saw none within 32 blocks of my way"), "{done}");
    world.cmd(json!({"cmd": "teleport", "name": "Wayfarer", "x": 0.5, "y": 64.0, "z": 0.5}));

    let from = world.cursor();
    let done = run_script(&world, "pig", Duration::from_secs(60));
    assert!(done.contains("finished"), "{done}");
    let killed = world.wait_event(from, Duration::from_secs(1), |e| e["event"] == "mobKilled" && e["entityId"] == pig);
    assert_eq!(killed.expect("the pig died")["by"], "Wayfarer");
    assert_eq!(inventory_count(&world, "Wayfarer", "porkchop"), 2);
}

#[test]
fn a_hunt_picks_up_the_loot_already_lying_near_before_it_looks_for_more() {
    let (world, bot) = world_with_bot_args(&[]);
    give(&world, "Wayfarer", "stone_sword", 1);
    // Blocks for a pillar to fight from are carried: none is dug first.
    give(&world, "Wayfarer", "dirt", 3);
    bot_sees(&world, "Wayfarer", "dirt", 3);
    // Flesh a zombie dropped lies 6 and 8 blocks off (one killed while the bot fought another); no zombie is left.
    let bones = world.cmd(json!({"cmd": "dropItem", "item": "bone", "x": 3.5, "z": -6.5}));
    assert!(bones.is_u64(), "{bones}");
    for (x, z) in [(6.5, 0.5), (0.5, 8.5)] {
        world.cmd(json!({"cmd": "dropItem", "item": "rotten_flesh", "x": x, "z": z}));
    }
    let from = world.say("Alice", "!task get 2 rotten flesh");
    let done = world.expect_chat(from, "Wayfarer", "I succeeded in task: get 2 rotten flesh", Duration::from_secs(60));
    assert!(done.starts_with("I succeeded"), "{done}");
    bot.expect_log_count("picking up zombie loot at", 2, Duration::ZERO);
    assert_eq!(inventory_count(&world, "Wayfarer", "rotten_flesh"), 2);
    // Loot of another kind of mob is left where it lies.
    assert_eq!(inventory_count(&world, "Wayfarer", "bone"), 0);
    let killed = world.wait_event(from, Duration::ZERO, |e| e["event"] == "mobKilled");
    assert!(killed.is_none(), "{killed:?}");
}

/// A zombie that comes at the bot while `killMob("zombie")` looks for one is killed by the self-defence reflex: the
/// hunt counts that kill when it starts again (the script finishes at once) rather than looking for another until its
/// time is up.
#[test]
fn a_hunt_counts_the_kill_a_reflex_made_of_its_mob() {
    let scripts = ScriptDir::new(
        "reflex-kill",
        &[("zombie.rhai", "killMob(\"zombie\", 60)"), ("short.toml", "script_time_limit_secs = 40\n")],
    );
    let config = scripts.0.join("short.toml");
    let (world, bot) = world_with_bot_args(&["--scripts", scripts.path(), "--config", config.to_str().unwrap()]);
    give(&world, "Wayfarer", "stone_sword", 1);
    bot_sees(&world, "Wayfarer", "stone_sword", 1);
    let from = world.say("Alice", "!run zombie");
    world.expect_chat(from, "Wayfarer", "No zombie within 32 blocks; exploring for one.", Duration::from_secs(10));
    let me = world.player("Wayfarer");
    let zombie = world.cmd(json!({"cmd": "spawnMob", "kind": "zombie", "x": me.pos[0] + 2.0, "z": me.pos[2]}));
    let killed =
        world.wait_event(from, Duration::from_secs(30), |e| e["event"] == "mobKilled" && e["entityId"] == zombie);
    assert_eq!(killed.expect("the zombie died")["by"], "Wayfarer");
    // Within seconds of the kill, not when the script's 40 s are up.
    let done = world.wait_event(from, Duration::from_secs(10), |e| {
        e["event"] == "chat" && e["from"] == "Wayfarer" && e["text"].as_str().is_some_and(|t| t.starts_with("zombie "))
    });
    let done = done.unwrap_or_else(|| panic!("the hunt went on; the bot's log:\n{}", bot.log_text()));
    assert!(done["text"].as_str().is_some_and(|t| t.starts_with("zombie finished")), "{done}");
    assert!(bot.log_text().contains("a reflex killed the zombie this hunt was for"), "{}", bot.log_text());
}
