//! The starter skills for building and digging, run by `!run` in the flat world and checked against the world's own
//! blocks: a pillar, a line, a floor, a hole, grass cleared, a block on top of another and a table beside one, and
//! standing on a gold block.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;

fn block(world: &World, x: i64, y: i64, z: i64) -> String {
    world.cmd(json!({"cmd": "getBlock", "x": x, "y": y, "z": z})).as_str().unwrap_or_default().to_owned()
}

#[test]
fn the_building_skills_leave_what_they_say_in_the_world() {
    let skills = ScriptDir::starter_skills("build-skills", &[]);
    // `standOn` given where the feet go (air over the grass) stands there.
    let scripts = ScriptDir::new("build-scripts", &[("feet.rhai", "standOn(vec3(6, 64, -10))")]);
    let (world, _bot) = world_with_skilled_bot(&skills, &["--scripts", scripts.path()]);
    give(&world, "Wayfarer", "dirt", 16);
    give(&world, "Wayfarer", "cobblestone", 8);
    give(&world, "Wayfarer", "oak_planks", 8);
    give(&world, "Wayfarer", "crafting_table", 1);
    give(&world, "Wayfarer", "wooden_shovel", 1);
    bot_sees(&world, "Wayfarer", "wooden_shovel", 1);
    let run = |what: &str| {
        let done = run_script(&world, what, Duration::from_secs(90));
        assert!(done.contains("finished"), "{what}: {done}");
        done
    };
    let at = |done: &str| -> [i64; 3] {
        // `… finished in 1.2 s: vec3(2, 64, 0) (inventory: …)`
        let inside = done
            .split_once("vec3(")
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(v, _)| v)
            .unwrap_or_else(|| panic!("{done}"));
        let v: Vec<i64> = inside.split(',').map(|n| n.trim().parse::<f64>().unwrap() as i64).collect();
        [v[0], v[1], v[2]]
    };

    let [x, y, z] = at(&run("buildPillar \"dirt\" 3"));
    for dy in 0..3 {
        assert_eq!(block(&world, x, y + dy, z), "dirt", "pillar block {dy}");
    }
    world.cmd(json!({"cmd": "teleport", "name": "Wayfarer", "x": 0.5, "y": 64, "z": -6.5}));
    let [x, y, z] = at(&run("placeBlocksInLine \"cobblestone\" 4"));
    for i in 0..4 {
        assert_eq!(block(&world, x + i, y, z), "cobblestone", "line block {i}");
    }
    world.cmd(json!({"cmd": "teleport", "name": "Wayfarer", "x": -8.5, "y": 64, "z": 6.5}));
    let [x, y, z] = at(&run("buildFloor \"oak_planks\" 2 2"));
    for (dx, dz) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        assert_eq!(block(&world, x + dx, y, z + dz), "oak_planks");
    }
    let [x, y, z] = at(&run("digHole 2"));
    assert_eq!((block(&world, x, y, z), block(&world, x, y - 1, z)), ("air".into(), "air".into()), "a hole 2 deep");

    for (gx, gz) in [(-10, 3), (-6, 3), (-9, 9)] {
        world.cmd(json!({"cmd": "setBlock", "x": gx, "y": 64, "z": gz, "block": "short_grass"}));
    }
    run("clearBlocksAround \"short_grass\" 8");
    for (gx, gz) in [(-10, 3), (-6, 3), (-9, 9)] {
        assert_eq!(block(&world, gx, 64, gz), "air", "grass at {gx} {gz} cleared");
    }

    world.cmd(json!({"cmd": "setBlock", "x": -4, "y": 64, "z": 10, "block": "gold_block"}));
    run("placeBlockOnTop \"dirt\" \"gold_block\"");
    assert_eq!(block(&world, -4, 65, 10), "dirt");
    world.cmd(json!({"cmd": "setBlock", "x": -12, "y": 64, "z": 10, "block": "stone"}));
    run("placeBlockNextTo \"crafting_table\" \"stone\"");
    let beside = [(-11, 10), (-13, 10), (-12, 11), (-12, 9)]
        .iter()
        .filter(|(bx, bz)| block(&world, *bx, 64, *bz) == "crafting_table")
        .count();
    assert_eq!(beside, 1, "a table beside the stone");

    world.cmd(json!({"cmd": "setBlock", "x": -2, "y": 63, "z": 14, "block": "diamond_block"}));
    run("standOnBlock \"diamond_block\"");
    let me = world.player("Wayfarer");
    assert_eq!((me.pos[0].floor(), me.pos[1].floor(), me.pos[2].floor()), (-2.0, 64.0, 14.0), "{me:?}");
    run("feet");
    let me = world.player("Wayfarer");
    assert_eq!((me.pos[0].floor(), me.pos[1].floor(), me.pos[2].floor()), (6.0, 64.0, -10.0), "{me:?}");
}
