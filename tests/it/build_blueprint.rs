//! `!build` builds blueprints, judged block by block by the test world: the hut from the starter folder with its
//! materials given (score 1.0, its door facing the way the blueprint says); a structure-block `.nbt` and a Sponge
//! `.schem` written by another NBT writer, turned to face east; `!status` shows the layer and share while it builds;
//! a build cut off by a restart goes on and finishes; materials it lacks are mined and crafted first; a site out of
//! sight is walked to; malformed blueprints get a clear answer and nothing is placed.

use crate::support;

use std::{collections::BTreeMap, path::Path, time::Duration};

use serde_json::{Value, json};
use support::{browser::http, fake_llm::FakeEndpoint, *};
use wayfarer::blueprint::{Blueprint, Facing, PLACED_PROPERTIES, Share};

/// The world's blocks in the box from `least` to `most`: position → (name, properties).
fn blocks(world: &World, least: [i64; 3], most: [i64; 3]) -> BTreeMap<[i64; 3], (String, BTreeMap<String, String>)> {
    let found = world.cmd(json!({"cmd": "getBlocks", "from": least, "to": most}));
    found
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let at = [b["x"].as_i64().unwrap(), b["y"].as_i64().unwrap(), b["z"].as_i64().unwrap()];
            let props = b["properties"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
                .collect();
            (at, (b["name"].as_str().unwrap().to_owned(), props))
        })
        .collect()
}

/// Checks every position of `blueprint` built at `origin` in the world: the right block in the right state where it
/// sets one, nothing where it says air. Returns the number of blocks checked.
fn assert_built(world: &World, blueprint: &Blueprint, origin: [i64; 3]) -> usize {
    let [w, h, d] = blueprint.size.map(i64::from);
    let most = [origin[0] + w - 1, origin[1] + h - 1, origin[2] + d - 1];
    let world_blocks = blocks(world, origin, most);
    let mut checked = 0;
    for part in &blueprint.parts {
        let at =
            [origin[0] + i64::from(part.at[0]), origin[1] + i64::from(part.at[1]), origin[2] + i64::from(part.at[2])];
        let there = world_blocks.get(&at);
        if part.block.is_air() {
            assert!(there.is_none(), "{at:?} should be clear, holds {there:?}");
            continue;
        }
        let (name, props) = there.unwrap_or_else(|| panic!("{at:?} should hold {}, holds air", part.block));
        assert_eq!(name, &part.block.name, "the block at {at:?}");
        for (key, value) in &part.block.properties {
            if PLACED_PROPERTIES.contains(&key.as_str()) {
                assert_eq!(props.get(key), Some(value), "{key} of the {name} at {at:?} ({props:?})");
            }
        }
        checked += 1;
    }
    checked
}

fn blueprint_file(name: &str) -> std::path::PathBuf {
    repo_root().join("skills/blueprints").join(name)
}

fn placed_since(world: &World, from: usize) -> Vec<Value> {
    world.events_since(from).into_iter().filter(|e| e["event"] == "blockPlaced" && e["name"] == "Wayfarer").collect()
}

#[test]
fn a_hut_is_built_from_its_blueprint_block_by_block() {
    let folder = blueprint_file("");
    let (world, _bot) = world_with_bot_args(&["--blueprints", folder.to_str().unwrap()]);
    let hut = Blueprint::load(&blueprint_file("hut.txt")).unwrap();
    for (item, count) in hut.materials() {
        give(&world, "Wayfarer", &item, count);
    }
    // Grass where the hut goes is cleared; a stone block in its middle too.
    world.cmd(json!({"cmd": "setBlock", "x": 6, "y": 64, "z": -3, "block": "stone"}));
    give(&world, "Wayfarer", "wooden_pickaxe", 1);
    bot_sees(&world, "Wayfarer", "oak_door", 1);

    let from = world.say("Alice", "!build hut at 4 64 -5");
    let started = world.expect_chat(from, "Wayfarer", "Building hut", Duration::from_secs(10));
    assert!(started.contains("at 4 64 -5 facing south"), "{started}");
    // While it builds, !status says how far it got.
    let progress = world.wait_event(from, Duration::from_secs(60), |e| {
        e["event"] == "blockPlaced" && e["name"] == "Wayfarer" && e["y"].as_i64() == Some(65)
    });
    assert!(progress.is_some(), "the second layer began");
    let asked = world.say("Alice", "!status");
    let status = world.expect_chat(asked, "Wayfarer", "At ", Duration::from_secs(10));
    assert!(
        status.contains("(building hut: layer 2 of 4,") || status.contains("(building hut: layer 3 of 4,"),
        "{status}"
    );

    let done = world.expect_chat(from, "Wayfarer", "Built hut", Duration::from_secs(420));
    let blocks = hut.blocks().count();
    assert_eq!(assert_built(&world, &hut, [4, 64, -5]), blocks);
    assert!(
        done.contains(&format!("score 1.00 ({blocks} of {blocks} blocks right; {blocks} in the right state)")),
        "{done}"
    );
    assert_eq!(world.cmd(json!({"cmd": "getBlock", "x": 6, "y": 64, "z": -3})), "air", "the stone inside was dug");
    // Nothing outside the footprint was built on, and the door is whole.
    let outside: Vec<Value> = placed_since(&world, from)
        .into_iter()
        .filter(|e| {
            let (x, y, z) = (e["x"].as_i64().unwrap(), e["y"].as_i64().unwrap(), e["z"].as_i64().unwrap());
            !((4..=8).contains(&x) && (64..=67).contains(&y) && (-5..=-1).contains(&z))
        })
        .collect();
    assert!(outside.is_empty(), "placed outside the hut: {outside:?}");
}

#[test]
fn a_site_out_of_sight_is_walked_to_and_built() {
    let folder = blueprint_file("");
    let (world, _bot) = world_with_bot_args(&["--blueprints", folder.to_str().unwrap()]);
    let pillar = Blueprint::load(&blueprint_file("pillar.txt")).unwrap();
    for (item, count) in pillar.materials() {
        give(&world, "Wayfarer", &item, count);
    }
    bot_sees(&world, "Wayfarer", "torch", 1);
    // 96 blocks east: past the four chunks the world sends round the bot, so nothing of the site is loaded yet.
    let from = world.say("Alice", "!build pillar at 96 64 2");
    world.expect_chat(from, "Wayfarer", "Built pillar", Duration::from_secs(120));
    assert_eq!(assert_built(&world, &pillar, [96, 64, 2]), pillar.blocks().count());
}

#[test]
fn structure_and_sponge_files_are_built_turned() {
    let fixtures = repo_root().join("tests/data/blueprints");
    let (world, _bot) = world_with_bot_args(&["--blueprints", fixtures.to_str().unwrap()]);
    let gate = Blueprint::load(&fixtures.join("gate.nbt")).unwrap();
    let post = Blueprint::load(&fixtures.join("post.schem")).unwrap().facing(Facing::East);
    for (item, count) in gate.materials().into_iter().chain(post.materials()) {
        give(&world, "Wayfarer", &item, count);
    }
    // Dirt to scaffold with: a log lying east-west on a post needs a face on that axis to be clicked.
    give(&world, "Wayfarer", "dirt", 4);
    bot_sees(&world, "Wayfarer", "spruce_stairs", 1);

    // The structure file by its name in the folder.
    let from = world.say("Alice", "!build gate at 6 64 2");
    let done = world.expect_chat(from, "Wayfarer", "Built gate", Duration::from_secs(240));
    assert_eq!(assert_built(&world, &gate, [6, 64, 2]), 10);
    assert!(done.contains("score 1.00 (10 of 10 blocks right; 10 in the right state)"), "{done}");
    // The scaffold was taken down again.
    let around = blocks(&world, [3, 64, -1], [11, 70, 5]);
    assert!(around.values().all(|(name, _)| name != "dirt"), "scaffold left: {around:?}");
    assert_eq!(inventory_count(&world, "Wayfarer", "dirt"), 4);

    // The schematic by its path, turned to face east.
    let path = fixtures.join("post.schem");
    let from = world.say("Alice", &format!("!build {} at -6 64 2 facing E", path.display()));
    let started = world.expect_chat(from, "Wayfarer", "Building post", Duration::from_secs(10));
    assert!(started.contains("facing east"), "{started}");
    let done = world.expect_chat(from, "Wayfarer", "Built post", Duration::from_secs(240));
    assert!(done.contains("score 1.00"), "{done}");
    assert_eq!(assert_built(&world, &post, [-6, 64, 2]), 6);
    // Turned so its front (south as drawn) faces east, the stair that faced the back (north) faces west.
    let stairs = blocks(&world, [-6, 64, 2], [-5, 66, 3]).into_values().find(|(n, _)| n == "spruce_stairs").unwrap();
    assert_eq!(stairs.1["facing"], "west");
}

#[test]
fn malformed_blueprints_place_nothing() {
    let dir = ScriptDir::new(
        "blueprints",
        &[
            ("unknown.txt", "palette:\n  c = cobblestone\n  x = castle_block\nlayer\n  cxc\n"),
            ("huge.txt", &format!("palette:\n  c = cobblestone\nlayer\n  {}\n", "c".repeat(60))),
            ("hut.txt", &std::fs::read_to_string(blueprint_file("hut.txt")).unwrap()),
        ],
    );
    std::fs::copy(repo_root().join("tests/data/blueprints/cut_off.nbt"), Path::new(dir.path()).join("cut_off.nbt"))
        .unwrap();
    let (world, _bot) = world_with_bot_args(&["--blueprints", dir.path()]);
    give(&world, "Wayfarer", "cobblestone", 20);
    bot_sees(&world, "Wayfarer", "cobblestone", 20);
    let from = world.cursor();
    let answer = |line: &str, needle: &str| {
        let asked = world.say("Alice", line);
        world.expect_chat(asked, "Wayfarer", needle, Duration::from_secs(15))
    };
    let unknown = answer("!build unknown", "I cannot build unknown");
    assert!(unknown.contains("line 3: there is no block called castle_block. Nothing was placed."), "{unknown}");
    let huge = answer("!build huge", "I cannot build huge");
    assert!(huge.contains("longer than 48 blocks"), "{huge}");
    let cut = answer("!build cut_off", "I cannot build cut_off");
    assert!(cut.contains("cut off"), "{cut}");
    let none = answer("!build castle", "There is no blueprint called castle");
    assert!(none.contains("hut") && none.contains("unknown"), "{none}");
    let usage = answer("!build hut at 4 64", "Usage: !build");
    assert!(usage.contains("three coordinates"), "{usage}");
    // Still answering, and nothing was placed by any of it.
    answer("!status", "At ");
    assert_eq!(placed_since(&world, from), Vec::<Value>::new());
    assert_eq!(inventory_count(&world, "Wayfarer", "cobblestone"), 20);
}

#[test]
fn a_build_cut_off_by_a_restart_goes_on_and_finishes() {
    let checkpoint = ScriptDir::new("build-resume", &[]);
    let folder = blueprint_file("");
    let args = ["--blueprints", folder.to_str().unwrap(), "--checkpoint", checkpoint.path()];
    let (world, bot) = world_with_bot_args(&args);
    let hut = Blueprint::load(&blueprint_file("hut.txt")).unwrap();
    for (item, count) in hut.materials() {
        give(&world, "Wayfarer", &item, count);
    }
    bot_sees(&world, "Wayfarer", "oak_door", 1);
    let from = world.say("Alice", "!build hut at -8 64 2");
    world
        .wait_event(from, Duration::from_secs(60), |e| {
            e["event"] == "blockPlaced" && e["name"] == "Wayfarer" && e["y"].as_i64() == Some(65)
        })
        .expect("the second layer began");
    drop(bot);
    let placed_before = placed_since(&world, from).len();
    assert!(placed_before < hut.blocks().count(), "cut off part way");

    let back = world.cursor();
    let mut bot_args = vec!["--username", "Wayfarer", "--owner", "Alice"];
    bot_args.extend_from_slice(&args);
    let _bot = Bot::start(&world.address(), &bot_args);
    world.expect_chat(back, "Wayfarer", "Going on with build hut at -8 64 2 facing south", Duration::from_secs(60));
    world.expect_chat(back, "Wayfarer", "Built hut", Duration::from_secs(300));
    assert_eq!(assert_built(&world, &hut, [-8, 64, 2]), hut.blocks().count());
    // Only what was missing was placed after the restart.
    assert_eq!(
        placed_since(&world, back).len() + placed_before,
        hut.blocks().count() - 1,
        "the door's upper half comes with it"
    );
}

#[test]
fn materials_the_bot_lacks_are_got_first() {
    let dir = ScriptDir::new(
        "blueprints-gather",
        &[(
            "bench.txt",
            "description: a plank bench on two log legs\npalette:\n  l = oak_log[axis=y]\n  p = oak_planks\nlayer\n  l.l\nlayer\n  ppp\n",
        )],
    );
    let (world, _bot) = world_with_bot_args(&["--blueprints", dir.path()]);
    // A log column to fell (two logs for the legs, one for the planks).
    world.cmd(json!({"cmd": "fill", "from": [-6, 64, -6], "to": [-6, 67, -6], "block": "oak_log"}));
    let from = world.say("Alice", "!build bench at 5 64 5");
    let started = world.expect_chat(from, "Wayfarer", "Building bench", Duration::from_secs(10));
    assert!(started.contains("first I get 3 oak_planks and 2 oak_log"), "{started}");
    world.expect_chat(from, "Wayfarer", "Built bench", Duration::from_secs(240));
    let bench = Blueprint::load(&dir.0.join("bench.txt")).unwrap();
    assert_eq!(assert_built(&world, &bench, [5, 64, 5]), 5);
    let felled =
        world.events_since(from).into_iter().filter(|e| e["event"] == "blockBroken" && e["block"] == "oak_log").count();
    assert!(felled >= 3, "the logs were mined: {felled}");
}

#[test]
fn a_hut_stands_on_a_natural_seeds_uneven_ground() {
    let folder = blueprint_file("");
    let (world, _bot, (sx, sz)) =
        natural_world_with_bot(1009, &["--mobs", "off", "--time", "6000"], &["--blueprints", folder.to_str().unwrap()]);
    // The owner steps out of the way (east of the bot is where the hut goes).
    world.move_player("Alice", [sx as f64 - 5.5, world.ground_y(sx - 6, sz) as f64, sz as f64 + 0.5]);
    let hut = Blueprint::load(&blueprint_file("hut.txt")).unwrap();
    for (item, count) in hut.materials() {
        give(&world, "Wayfarer", &item, count);
    }
    // Dirt to level dips with, and tools for what stands in the way.
    give(&world, "Wayfarer", "dirt", 48);
    give(&world, "Wayfarer", "stone_pickaxe", 1);
    give(&world, "Wayfarer", "stone_axe", 1);
    give(&world, "Wayfarer", "stone_shovel", 1);
    bot_sees(&world, "Wayfarer", "stone_shovel", 1);

    // Without `at`, beside the bot, on the level it stands on.
    let from = world.say("Alice", "!build hut");
    let started = world.expect_chat(from, "Wayfarer", "Building hut", Duration::from_secs(10));
    let at: Vec<i64> = started
        .split(" at ")
        .nth(1)
        .and_then(|rest| rest.split(" facing").next())
        .map(|xyz| xyz.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .unwrap_or_else(|| panic!("no place in {started:?}"));
    let origin = [at[0], at[1], at[2]];
    world.expect_chat(from, "Wayfarer", "Built hut", Duration::from_secs(420));
    assert_eq!(assert_built(&world, &hut, origin), hut.blocks().count());
    // Only the footprint, and the ground under it, was built on.
    let outside: Vec<Value> = placed_since(&world, from)
        .into_iter()
        .filter(|e| {
            let (x, y, z) = (e["x"].as_i64().unwrap(), e["y"].as_i64().unwrap(), e["z"].as_i64().unwrap());
            let over = (origin[0]..origin[0] + 5).contains(&x) && (origin[2]..origin[2] + 5).contains(&z);
            !(over && y < origin[1] + 4)
        })
        .collect();
    assert!(outside.is_empty(), "placed outside the hut: {outside:?}");
    // This seed's ground dips under the hut: the dips were filled with dirt, under the footprint only.
    let filled = placed_since(&world, from)
        .into_iter()
        .filter(|e| e["block"] == "dirt" && e["y"].as_i64() < Some(origin[1]))
        .count();
    assert!(filled >= 1, "no dip was filled");
}

#[test]
fn a_blueprint_from_words_is_drawn_checked_kept_and_built() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    // The first design names a block that does not exist; told so, the second is a dirt tower with a torch. Other
    // calls (the memory stream's) get an empty answer.
    let designs = std::sync::Mutex::new(std::collections::VecDeque::from([
        r#"{"name": "tiny tower", "palette": {"d": "dirt_bricks"}, "layers": [["d"]]}"#,
        r#"{"name": "tiny tower", "description": "a tiny dirt tower with a torch on top",
            "palette": {"d": "dirt", "t": "torch"}, "layers": [["d"], ["d"], ["d"], ["t"]]}"#,
    ]));
    endpoint.respond_with(move |request| {
        if request.to_string().contains("You design small Minecraft") {
            designs.lock().unwrap().pop_front().unwrap_or("no more designs").to_owned()
        } else {
            "[]".to_owned()
        }
    });
    let dir = ScriptDir::new("blueprints-words", &[]);
    let (world, _bot) = world_with_bot_args(&["--blueprints", dir.path(), "--llm-url", &endpoint.base_url()]);
    give(&world, "Wayfarer", "dirt", 3);
    give(&world, "Wayfarer", "torch", 1);
    bot_sees(&world, "Wayfarer", "torch", 1);

    let from = world.say("Alice", "!build a tiny dirt tower at 5 64 5");
    world.expect_chat(from, "Wayfarer", "I am drawing one", Duration::from_secs(10));
    let drew = world.expect_chat(from, "Wayfarer", "Drew tiny_tower", Duration::from_secs(30));
    assert!(drew.contains("4 blocks: 3 dirt, 1 torch"), "{drew}");
    world.expect_chat(from, "Wayfarer", "Built tiny_tower", Duration::from_secs(120));
    let tower = Blueprint::load(&dir.0.join("tiny_tower.txt")).expect("the design was kept in the folder");
    assert_eq!(assert_built(&world, &tower, [5, 64, 5]), 4);
    let designs = || -> Vec<String> {
        endpoint.requests().iter().map(|r| r.to_string()).filter(|r| r.contains("You design small Minecraft")).collect()
    };
    assert_eq!(designs().len(), 2, "one design refused, one kept");
    let second = designs()[1].clone();
    assert!(second.contains("no block called dirt_bricks"), "the model was told what was wrong: {second}");

    // The same words again build the kept blueprint: no LLM call.
    give(&world, "Wayfarer", "dirt", 3);
    give(&world, "Wayfarer", "torch", 1);
    bot_sees(&world, "Wayfarer", "torch", 1);
    let again = world.say("Alice", "!build a tiny dirt tower at 9 64 5");
    world.expect_chat(again, "Wayfarer", "Building tiny_tower", Duration::from_secs(10));
    world.expect_chat(again, "Wayfarer", "Built tiny_tower", Duration::from_secs(120));
    assert_eq!(assert_built(&world, &tower, [9, 64, 5]), 4);
    assert_eq!(designs().len(), 2, "no design was asked for");
}

#[test]
fn a_design_composed_from_parts_is_previewed_then_built_as_the_words_say() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    // The model's design is smaller than the words and has no gate: a 3 × 3 ring with a torch at each corner.
    endpoint.respond_with(move |request| {
        if request.to_string().contains("You design small Minecraft") {
            r#"{"name": "pen", "description": "a cobblestone pen", "shape": "none", "parts": [
                {"kind": "ring", "block": "cobblestone", "width": 3, "depth": 3, "height": 1},
                {"kind": "block", "block": "torch", "y": 1, "repeat": "corners"}]}"#
                .to_owned()
        } else {
            "[]".to_owned()
        }
    });
    let dir = ScriptDir::new("blueprints-parts", &[]);
    let (world, bot) = world_with_bot_args(&[
        "--blueprints",
        dir.path(),
        "--llm-url",
        &endpoint.base_url(),
        "--dashboard",
        "127.0.0.1:0",
    ]);
    let line = bot.expect_log("dashboard: http://", Duration::from_secs(5));
    let address = line.split("http://").nth(1).unwrap().split(['/', ' ']).next().unwrap().to_owned();
    let words = "a cobblestone pen 5 by 4 with an oak fence gate and a torch at each corner";

    // A preview draws and keeps the design, says it layer by layer, shows it on the dashboard's map where it
    // would stand, and places nothing.
    let from = world.say("Alice", &format!("!build {words} at 5 64 5 preview"));
    let drew = world.expect_chat(from, "Wayfarer", "Drew pen", Duration::from_secs(30));
    assert!(drew.contains("5×2×4") && drew.contains("ring 5×1×4 of cobblestone with a gate"), "{drew}");
    assert!(drew.contains("torch at each corner") && drew.contains("4 torch"), "{drew}");
    let layer = world.expect_chat(from, "Wayfarer", "layer 0:", Duration::from_secs(10));
    assert_eq!(layer.matches('/').count(), 3, "four rows, north to south: {layer}");
    world.expect_chat(from, "Wayfarer", "Nothing was placed: !build pen", Duration::from_secs(10));
    std::thread::sleep(Duration::from_secs(2));
    assert!(placed_since(&world, from).is_empty(), "a preview places nothing");
    let (status, map) = http(&address, "GET", "/api/map?bot=Wayfarer", &[], "");
    assert_eq!(status, 200, "{map}");
    let map: Value = serde_json::from_str(&map).unwrap();
    let preview = &map["preview"];
    assert_eq!(
        (preview["name"].as_str(), preview["x0"].as_i64(), preview["z0"].as_i64()),
        (Some("pen"), Some(5), Some(5))
    );
    assert_eq!((preview["width"].as_i64(), preview["depth"].as_i64()), (Some(5), Some(4)));
    assert_eq!(preview["cells"].as_str().unwrap().matches('#').count(), 14, "the ring's footprint: {preview}");

    give(&world, "Wayfarer", "cobblestone", 13);
    give(&world, "Wayfarer", "oak_fence_gate", 1);
    give(&world, "Wayfarer", "torch", 4);
    bot_sees(&world, "Wayfarer", "torch", 4);
    let from = world.say("Alice", "!build pen at 5 64 5");
    world.expect_chat(from, "Wayfarer", "Built pen", Duration::from_secs(180));
    // Judged as the owner asked it, not by the kept design: a 5 × 4 ring of cobblestone with a gate in the front,
    // a torch on each corner.
    let built = blocks(&world, [5, 64, 5], [9, 65, 8]);
    let name = |at: [i64; 3]| built.get(&at).map_or("air", |(n, _)| n.as_str());
    let ring: Vec<[i64; 3]> = (5..=9)
        .flat_map(|x| (5..=8).map(move |z| [x, 64, z]))
        .filter(|[x, _, z]| *x == 5 || *x == 9 || *z == 5 || *z == 8)
        .collect();
    assert_eq!(ring.len(), 14);
    let gates: Vec<_> = ring.iter().filter(|at| name(**at) == "oak_fence_gate").collect();
    assert_eq!(gates.len(), 1, "one gate in the ring: {built:?}");
    assert_eq!(gates[0][2], 8, "the gate is in the front (south) side");
    assert_eq!(ring.iter().filter(|at| name(**at) == "cobblestone").count(), 13, "{built:?}");
    for [x, z] in [[5, 5], [9, 5], [5, 8], [9, 8]] {
        assert_eq!(name([x, 65, z]), "torch", "a torch on the corner at {x} {z}");
    }
    assert_eq!(name([7, 64, 6]), "air", "nothing inside the pen");
    let designs = endpoint.requests().iter().filter(|r| r.to_string().contains("You design small Minecraft")).count();
    assert_eq!(designs, 1, "the words' sizes and gate were mended by rule, not asked for again");
}

#[test]
fn the_blueprint_command_ends_quietly_when_its_reader_goes_away() {
    use std::io::{BufRead, BufReader};
    // Far more than a pipe holds, so it is still writing when the reader has gone (`… | head -1`).
    let hut = blueprint_file("hut.txt");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wayfarer"))
        .arg("blueprint")
        .arg("--json")
        .args(std::iter::repeat_n(&hut, 300))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.contains("\"name\":\"hut\""), "{first}");
    // The reader is dropped here: the pipe is closed.
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{stderr}");
    use std::os::unix::process::ExitStatusExt;
    assert!(
        output.status.success() || output.status.signal() == Some(libc::SIGPIPE),
        "ended by {:?}: {stderr}",
        output.status
    );
}

#[test]
fn a_leader_splits_the_house_among_its_team_and_each_builds_its_strip() {
    let folder = blueprint_file("");
    let world = World::start();
    world.add_player("Alice", [0.5, 64.0, 8.5]);
    let bot = Bot::start(
        &world.address(),
        &[
            "--username",
            "Crew",
            "--bots",
            "3",
            "--role",
            "leader",
            "--owner",
            "Alice",
            "--blueprints",
            folder.to_str().unwrap(),
        ],
    );
    let house = Blueprint::load(&blueprint_file("two_storey_house.txt")).unwrap();
    let names = ["Crew_1", "Crew_2", "Crew_3"];
    for name in names {
        bot.expect_log(&format!("{name} spawned at"), Duration::from_secs(60));
    }
    // Each member carries what its own strip takes (and dirt to scaffold with), nothing of the others'.
    let strips: Vec<Blueprint> = (1..=3).map(|index| house.share(Share { index, of: 3 })).collect();
    for (name, strip) in names.iter().zip(&strips) {
        for (item, count) in strip.materials() {
            give(&world, name, &item, count);
        }
        give(&world, name, "dirt", 8);
    }
    for (name, strip) in names.iter().zip(&strips) {
        let (item, count) = strip.materials()[0].clone();
        bot_sees(&world, name, &item, count);
    }

    let from = world.say("Alice", "Crew_1 !build two_storey_house at 4 64 -4");
    let said = world.expect_chat(from, "Crew_1", "Building two_storey_house", Duration::from_secs(10));
    assert!(said.contains("with Crew_2, Crew_3: a strip each"), "{said}");
    for name in &names[1..] {
        world.expect_chat(from, name, "Building two_storey_house part", Duration::from_secs(20));
    }
    let done = world.expect_chat(from, "Crew_1", "Built two_storey_house with", Duration::from_secs(480));
    let count = house.blocks().count();
    assert_eq!(assert_built(&world, &house, [4, 64, -4]), count);
    assert!(done.contains(&format!("{count} of {count} blocks right")), "{done}");
    // The pillars the members climbed to reach the roof came down again (each member takes down its own, after its
    // strip: give it a moment).
    let site = ([0, 64, -8], [12, 72, 4]);
    let mut left = Vec::new();
    for _ in 0..60 {
        left = blocks(&world, site.0, site.1).into_iter().filter(|(_, (name, _))| name == "dirt").collect();
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    assert!(left.is_empty(), "scaffold left standing: {left:?}");
    // Each member placed blocks, and only in its own strip (scaffold dirt aside).
    for (name, strip) in names.iter().zip(&strips) {
        let own: std::collections::BTreeSet<[i64; 3]> = strip
            .blocks()
            .map(|p| [4 + i64::from(p.at[0]), 64 + i64::from(p.at[1]), -4 + i64::from(p.at[2])])
            .collect();
        let placed: Vec<Value> = world
            .events_since(from)
            .into_iter()
            .filter(|e| e["event"] == "blockPlaced" && e["name"] == *name && e["block"] != "dirt")
            .collect();
        assert!(placed.len() >= strip.blocks().count() / 2, "{name} placed {} blocks", placed.len());
        let elsewhere: Vec<&Value> = placed
            .iter()
            .filter(|e| !own.contains(&[e["x"].as_i64().unwrap(), e["y"].as_i64().unwrap(), e["z"].as_i64().unwrap()]))
            .collect();
        assert!(elsewhere.is_empty(), "{name} placed outside its strip: {elsewhere:?}");
    }
}
