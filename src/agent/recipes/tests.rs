use super::*;
use crate::agent::extract;

fn setting(items: &[(&str, i32)], wood: &str) -> Setting {
    Setting {
        carried: items.iter().map(|(n, c)| ((*n).to_owned(), *c)).collect(),
        wood: wood.to_owned(),
        ..Setting::default()
    }
}

fn tasks(steps: &[TaskSpec]) -> Vec<&str> {
    steps.iter().map(|s| s.task.as_str()).collect()
}

fn have(item: &str, count: u32) -> Want {
    Want::Have { item: item.to_owned(), count }
}

/// Every step's tracker counts what its text says, and its code compiles into a function a task can run.
fn assert_sound(steps: &[TaskSpec]) {
    for pair in steps.windows(2) {
        assert_ne!(pair[0].task, pair[1].task, "identical steps in a row");
    }
    for step in steps {
        let tracker = step.tracker.as_ref().unwrap_or_else(|| panic!("{} has no tracker", step.task));
        match tracker {
            Tracker::Craft { item, count } => {
                assert!(step.task.contains(&format!("{count} {item}")), "{}: tracker {tracker:?}", step.task);
            }
            Tracker::Kill { mob, count } => assert_eq!(step.task, format!("Kill {count} {mob}")),
            other => panic!("{}: unexpected tracker {other:?}", step.task),
        }
        let code = step.code.as_deref().expect("fact steps come with code");
        let reply = format!("```rhai\nfn factStep() {{\n{code}\n}}\n```");
        extract::program(
            &reply,
            &super::super::check::Known::new(
                crate::script::bindings::signatures().iter().map(|s| (s.name.as_str(), s.params.as_slice())),
                None,
            ),
        )
        .unwrap_or_else(|e| panic!("{}: {e}\n{code}", step.task));
    }
}

#[test]
fn shears_from_two_iron_ingots_are_one_craft() {
    let steps = plan(&have("shears", 1), &setting(&[("iron_ingot", 2)], "oak")).unwrap();
    assert_eq!(tasks(&steps), ["Craft 1 shears"]);
    assert_eq!(steps[0].tracker, Some(Tracker::Craft { item: "shears".into(), count: 1 }));
    assert_eq!(steps[0].code.as_deref(), Some("craftItem(\"shears\", 1);"), "shears fit the inventory's own grid");
    assert_sound(&steps);
}

#[test]
fn logs_asked_for_are_one_step() {
    let steps = plan(&have("oak_log", 2), &setting(&[], "oak")).unwrap();
    assert_eq!(tasks(&steps), ["Mine 2 oak_log"]);
    let steps = plan(&have("oak_log", 2), &setting(&[("oak_log", 1)], "oak")).unwrap();
    assert_eq!(tasks(&steps), ["Mine 1 oak_log"], "one is carried");
    assert_eq!(
        plan(&have("oak_log", 2), &setting(&[("oak_log", 2)], "oak")).unwrap_err().to_string(),
        "I already have 2 oak_log"
    );
}

#[test]
fn a_stone_pickaxe_from_nothing_gathers_each_thing_once() {
    let steps = plan(&have("stone_pickaxe", 1), &setting(&[], "birch")).unwrap();
    assert_eq!(
        tasks(&steps),
        [
            "Mine 3 birch_log",
            "Craft 12 birch_planks",
            "Craft 4 stick",
            "Craft 1 crafting_table",
            "Craft 1 wooden_pickaxe",
            "Mine stone for 3 cobblestone",
            "Craft 1 stone_pickaxe",
        ]
    );
    assert_sound(&steps);
    // With a table in reach and sticks carried, neither is made.
    let near = Setting { table_near: true, ..setting(&[("stick", 2), ("wooden_pickaxe", 1)], "oak") };
    let steps = plan(&have("stone_pickaxe", 1), &near).unwrap();
    assert_eq!(tasks(&steps), ["Mine stone for 3 cobblestone", "Craft 1 stone_pickaxe"]);
}

/// No tree in sight and no wood carried (a desert spawn): the logs for the table and the pickaxe are logs of any kind,
/// counted by any kind, mined by code that takes the nearest tree of any wood; logs asked for by name stay that kind.
#[test]
fn with_no_wood_known_the_logs_for_a_pickaxe_are_of_any_kind() {
    let steps = plan(&have("wooden_pickaxe", 1), &setting(&[], "")).unwrap();
    assert_eq!(steps[0].task, format!("Mine 3 {ANY_LOG}"));
    let Some(Tracker::Any { of }) = &steps[0].tracker else { panic!("{:?}", steps[0].tracker) };
    assert!(of.contains(&Tracker::Craft { item: "acacia_log".into(), count: 3 }), "{of:?}");
    let code = steps[0].code.as_deref().unwrap();
    assert!(code.contains("\"birch_log\"") && code.contains("mineBlock(nearest, 1)"), "{code}");
    let reply = format!("```rhai\nfn factStep() {{\n{code}\n}}\n```");
    let known = super::super::check::Known::new(
        crate::script::bindings::signatures().iter().map(|s| (s.name.as_str(), s.params.as_slice())),
        None,
    );
    extract::program(&reply, &known).unwrap_or_else(|e| panic!("{e}\n{code}"));
    // Asked for by name, or with a tree in sight, the kind is kept.
    assert_eq!(tasks(&plan(&have("oak_log", 2), &setting(&[], "")).unwrap()), ["Mine 2 oak_log"]);
    assert_eq!(plan(&have("wooden_pickaxe", 1), &setting(&[], "birch")).unwrap()[0].task, "Mine 3 birch_log");
}

#[test]
fn an_iron_pickaxe_smelts_with_planks_when_there_is_no_coal() {
    let near = Setting { table_near: true, ..setting(&[("stone_pickaxe", 1)], "spruce") };
    let steps = plan(&have("iron_pickaxe", 1), &near).unwrap();
    let names = tasks(&steps);
    assert!(names.contains(&"Mine iron_ore for 3 raw_iron"), "{names:?}");
    assert!(names.contains(&"Smelt raw_iron into 3 iron_ingot"), "{names:?}");
    assert!(names.contains(&"Craft 1 furnace"), "{names:?}");
    assert!(names.contains(&"Mine stone for 8 cobblestone"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("wooden_pickaxe")), "a stone pickaxe is carried: {names:?}");
    assert_eq!(names.last(), Some(&"Craft 1 iron_pickaxe"));
    let smelt = steps.iter().find(|s| s.task.starts_with("Smelt")).unwrap();
    assert!(
        smelt.code.as_deref().unwrap().contains("smeltItem(\"raw_iron\", \"spruce_planks\", 3)"),
        "{:?}",
        smelt.code
    );
    // 2 planks of fuel and 2 for the sticks: one log.
    assert!(names.contains(&"Mine 1 spruce_log"), "{names:?}");
    assert_sound(&steps);
    // Coal carried is the fuel.
    let steps = plan(&have("iron_ingot", 3), &setting(&[("raw_iron", 3), ("coal", 1)], "oak")).unwrap();
    assert!(tasks(&steps).contains(&"Smelt raw_iron into 3 iron_ingot"));
    assert!(steps.iter().any(|s| s.code.as_deref().is_some_and(|c| c.contains("\"coal\""))));
}

#[test]
fn food_armour_and_torches_come_from_the_facts() {
    for (want, first) in [
        (have("leather_helmet", 1), "Kill cow for 5 leather"),
        (have("cooked_beef", 2), "Kill cow for 2 beef"),
        (have("torch", 4), "Mine 3 oak_log"),
        (have("white_bed", 1), "Mine 2 oak_log"),
        (have("bucket", 1), "Mine 3 oak_log"),
    ] {
        let steps = plan(&want, &setting(&[], "oak")).unwrap_or_else(|e| panic!("{want:?}: {e}"));
        assert_eq!(steps[0].task, first, "{want:?}: {:?}", tasks(&steps));
        assert_sound(&steps);
    }
    let kill = plan(&Want::Kill { mob: "pig".into(), count: 2 }, &setting(&[], "oak")).unwrap();
    assert_eq!(tasks(&kill), ["Kill 2 pig"]);
    assert_sound(&kill);
    // A zombie fights back: bare-handed, a sword is made first; with one carried, none.
    // (Dirt carried: a pillar's blocks are dug first otherwise.)
    let kill = plan(&Want::Kill { mob: "zombie".into(), count: 1 }, &setting(&[("dirt", 3)], "oak")).unwrap();
    assert_eq!(tasks(&kill)[tasks(&kill).len() - 2..], ["Craft 1 wooden_sword", "Kill 1 zombie"]);
    assert_sound(&kill);
    let kill =
        plan(&Want::Kill { mob: "zombie".into(), count: 1 }, &setting(&[("stone_sword", 1), ("dirt", 3)], "oak"))
            .unwrap();
    assert_eq!(tasks(&kill), ["Kill 1 zombie"]);
    // Fewer than three blocks to build a pillar with: dirt is dug, right before the fight.
    let kill = plan(
        &Want::Kill { mob: "zombie".into(), count: 1 },
        &setting(&[("stone_sword", 1), ("cobblestone", 1)], "oak"),
    )
    .unwrap();
    assert_eq!(tasks(&kill), ["Mine 2 dirt", "Kill 1 zombie"]);
    assert_sound(&kill);
    let mine =
        plan(&Want::Mine { block: "iron_ore".into(), count: 2 }, &setting(&[("stone_pickaxe", 1)], "oak")).unwrap();
    assert_eq!(tasks(&mine), ["Mine iron_ore for 2 raw_iron"]);
}

#[test]
fn a_block_to_place_is_made_first_when_none_is_carried() {
    let steps =
        plan(&Want::Place { block: "crafting_table".into() }, &setting(&[("crafting_table", 1)], "oak")).unwrap();
    assert_eq!(tasks(&steps), ["Place 1 crafting_table"]);
    assert!(matches!(&steps[0].tracker, Some(Tracker::Placed { block, count: 1, .. }) if block == "crafting_table"));
    assert!(steps[0].code.as_deref().unwrap().contains("placeItem(\"crafting_table\")"));
    let steps = plan(&Want::Place { block: "crafting_table".into() }, &setting(&[], "oak")).unwrap();
    assert_eq!(
        tasks(&steps),
        ["Mine 1 oak_log", "Craft 4 oak_planks", "Craft 1 crafting_table", "Place 1 crafting_table"]
    );
}

#[test]
fn a_delivery_gathers_what_is_missing_then_gives() {
    let give = Want::Give { item: "cobblestone".into(), count: 3, to: "Crew_1".into() };
    let steps = plan(&give, &setting(&[("cobblestone", 5)], "oak")).unwrap();
    assert_eq!(tasks(&steps), ["Give 3 cobblestone to Crew_1"]);
    assert_eq!(steps[0].code.as_deref(), Some("giveItem(\"Crew_1\", \"cobblestone\", 3)"));
    let steps = plan(&give, &setting(&[("wooden_pickaxe", 1)], "oak")).unwrap();
    assert_eq!(tasks(&steps).last().copied(), Some("Give 3 cobblestone to Crew_1"));
    assert!(tasks(&steps)[0].contains("cobblestone"), "{:?}", tasks(&steps));
}

#[test]
fn what_the_facts_cannot_tell_is_said() {
    let err = plan(&have("elytra", 1), &setting(&[], "oak")).unwrap_err();
    assert_eq!(err.to_string(), "I cannot get an elytra: it is only found in End ships");
    assert!(matches!(err, NoSteps::Unreachable { .. }));
}

#[test]
fn goals_are_read_as_items_blocks_and_mobs() {
    let read = |goal: &str| parse_goal(goal, "spruce");
    assert_eq!(read("get 2 oak logs"), Some(have("oak_log", 2)));
    assert_eq!(read("craft shears"), Some(have("shears", 1)));
    assert_eq!(read("Craft 4 torches!"), Some(have("torch", 4)));
    assert_eq!(read("smelt four iron ingots"), Some(have("iron_ingot", 4)));
    assert_eq!(read("cook 2 beef"), Some(have("cooked_beef", 2)), "the cooked food, not the raw");
    assert_eq!(read("smelt 3 raw iron"), Some(have("iron_ingot", 3)));
    assert_eq!(read("get some wood"), Some(have("spruce_log", 1)));
    assert_eq!(read("make a stone pickaxe"), Some(have("stone_pickaxe", 1)));
    assert_eq!(read("get a block of iron"), Some(have("iron_block", 1)));
    assert_eq!(read("mine 3 iron ore"), Some(Want::Mine { block: "iron_ore".into(), count: 3 }));
    assert_eq!(read("mine 2 diamonds"), Some(Want::Mine { block: "diamond_ore".into(), count: 2 }));
    assert_eq!(read("chop 5 logs"), Some(Want::Mine { block: "spruce_log".into(), count: 5 }));
    assert_eq!(read("kill a pig"), Some(Want::Kill { mob: "pig".into(), count: 1 }));
    assert_eq!(
        read("give 8 cobblestone to Crew_1"),
        Some(Want::Give { item: "cobblestone".into(), count: 8, to: "Crew_1".into() })
    );
    assert_eq!(
        read("bring 3 logs to Alice."),
        Some(Want::Give { item: "spruce_log".into(), count: 3, to: "Alice".into() })
    );
    assert_eq!(read("hand Alice 2 sticks"), Some(Want::Give { item: "stick".into(), count: 2, to: "Alice".into() }));
    assert_eq!(read("give up"), None);
    assert_eq!(read("give 3 dirt to the-boss"), None);
    assert_eq!(read("hunt 2 cows"), Some(Want::Kill { mob: "cow".into(), count: 2 }));
    assert_eq!(read("place a crafting table next to you"), Some(Want::Place { block: "crafting_table".into() }));
    assert_eq!(read("place a torch on the ground next to you"), Some(Want::Place { block: "torch".into() }));
    // A place the facts' code cannot honour (it puts the block beside the bot) is the LLM's to plan.
    assert_eq!(read("place a crafting table next to the stone block"), None);
    assert_eq!(read("place a dirt block on top of the gold block"), None);
    assert_eq!(read("put down a furnace here"), Some(Want::Place { block: "furnace".into() }));
    // The thing alone, as an assistant or a player asks for it.
    assert_eq!(read("a stone pickaxe"), Some(have("stone_pickaxe", 1)));
    assert_eq!(read("12 oak logs"), Some(have("oak_log", 12)));
    assert_eq!(read("three iron ingots"), Some(have("iron_ingot", 3)));
    assert_eq!(read("torches"), Some(have("torch", 1)));
    for vague in [
        "build a house",
        "explore the cave",
        "get",
        "kill everything in sight",
        "craft 0 sticks",
        "go home",
        "nonsense",
    ] {
        assert_eq!(read(vague), None, "{vague}");
    }
}

#[test]
fn a_thing_the_game_has_no_name_for_gets_its_nearest_names() {
    let (asked, near) = unknown_thing("a diamond pickax").unwrap();
    assert_eq!((asked.as_str(), near[0].as_str()), ("diamond pickax", "diamond_pickaxe"), "{near:?}");
    assert_eq!(unknown_thing("get 3 irn ingot").map(|(_, near)| near[0].clone()), Some("iron_ingot".to_owned()));
    for read_or_far in ["a stone pickaxe", "craft 4 torches", "build a house", "a 3 by 3 platform of dirt", "xyzzy"] {
        assert_eq!(unknown_thing(read_or_far), None, "{read_or_far}");
    }
}

#[test]
fn remembered_chests_are_taken_from_before_anything_is_made() {
    let mut remembered = setting(&[], "oak");
    remembered.stored = vec![
        ([4, 64, 9], BTreeMap::from([("coal".to_owned(), 3), ("dirt".to_owned(), 9)])),
        ([40, 64, 9], BTreeMap::from([("coal".to_owned(), 12)])),
    ];
    let steps = plan(&have("coal", 5), &remembered).unwrap();
    assert_eq!(tasks(&steps), ["Take 3 coal from the chest at 4 64 9", "Take 2 coal from the chest at 40 64 9"]);
    assert_eq!(
        steps[0].code.as_deref(),
        Some("goTo(vec3(4, 64, 9), 3);\ngetItemFromChest(vec3(4, 64, 9), #{coal: 3});")
    );
    assert_eq!(steps[0].tracker, Some(Tracker::Craft { item: "coal".into(), count: 3 }));
    assert_sound(&steps);

    // Short of what is asked: the rest is made, and nothing is made for what the chest gives.
    remembered.stored = vec![([4, 64, 9], BTreeMap::from([("stick".to_owned(), 2), ("cobblestone".to_owned(), 3)]))];
    let steps = plan(&have("stone_pickaxe", 1), &remembered).unwrap();
    assert_eq!(steps[0].task, "Take 3 cobblestone, 2 stick from the chest at 4 64 9");
    assert!(matches!(&steps[0].tracker, Some(Tracker::All { of }) if of.len() == 2));
    assert!(!tasks(&steps).iter().any(|t| t.contains("cobblestone") && t.starts_with("Mine")), "{:?}", tasks(&steps));
    assert!(!tasks(&steps).iter().any(|t| t.starts_with("Craft") && t.contains("stick")), "{:?}", tasks(&steps));
    assert!(tasks(&steps).contains(&"Craft 1 stone_pickaxe"));
}

#[test]
fn a_remembered_sighting_is_gone_to_when_none_is_in_sight() {
    let mut remembered = setting(&[("stone_pickaxe", 1)], "oak");
    remembered.seen.insert("deepslate_iron_ore".into(), [120, -12, -40]);
    let steps = plan(&have("raw_iron", 2), &remembered).unwrap();
    assert_eq!(tasks(&steps), ["Mine iron_ore for 2 raw_iron"]);
    let code = steps[0].code.as_deref().unwrap();
    assert!(
        code.starts_with(
            "if findBlock(\"iron_ore\", 32) == () {\n    try { goTo(vec3(120, -12, -40), 3); } catch { }\n}"
        ),
        "{code}"
    );
    assert_sound(&steps);
    let steps = plan(&have("raw_iron", 2), &setting(&[("stone_pickaxe", 1)], "oak")).unwrap();
    assert!(!steps[0].code.as_deref().unwrap().contains("vec3(120"), "nothing remembered, nowhere to go");
}

#[test]
fn glass_is_smelted_from_plain_sand_unless_red_sand_is_carried() {
    let steps = plan(&have("glass", 3), &setting(&[("stone_pickaxe", 1)], "oak")).unwrap();
    let names = tasks(&steps);
    assert!(names.iter().any(|n| n.starts_with("Smelt sand into")), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("red_sand")), "red sand lies in badlands only: {names:?}");
    let carried = plan(&have("glass", 3), &setting(&[("stone_pickaxe", 1), ("red_sand", 3)], "oak")).unwrap();
    assert!(tasks(&carried).iter().any(|n| n.starts_with("Smelt red_sand into")), "{:?}", tasks(&carried));
}

#[test]
fn wool_is_sheared_or_hunted_and_then_dyed() {
    // Carrying pink dye and shears: one sheep sheared, the wool dyed. No wither rose, no wool that never generates.
    let steps = plan(&have("pink_wool", 1), &setting(&[("pink_dye", 1), ("shears", 1)], "oak")).unwrap();
    assert_eq!(tasks(&steps), ["Shear sheep for 1 white_wool", "Craft 1 pink_wool"]);
    assert!(steps[0].code.as_deref().unwrap().contains("shearSheep();"), "{:?}", steps[0].code);
    assert_sound(&steps);
    // Red dye and shears for purple wool: the blue dye from a flower, mixed with the red.
    let steps = plan(&have("purple_wool", 1), &setting(&[("red_dye", 1), ("shears", 1)], "oak")).unwrap();
    let words = tasks(&steps).join("; ");
    assert!(words.contains("Shear sheep for 1 white_wool") && words.ends_with("Craft 1 purple_wool"), "{words}");
    assert!(words.contains("blue_dye") && !words.contains("wither") && !words.contains("blue_wool"), "{words}");
    // Without shears a sheep is killed rather than shears made from iron.
    let steps = plan(&have("pink_wool", 1), &setting(&[("pink_dye", 1)], "oak")).unwrap();
    assert_eq!(tasks(&steps), ["Kill sheep for 1 white_wool", "Craft 1 pink_wool"]);
}

#[test]
fn animal_products_and_buckets_come_from_animals_and_fluids() {
    for (item, carried, first) in [
        ("leather", vec![], "Kill cow for 1 leather"),
        ("feather", vec![], "Kill chicken for 1 feather"),
        ("milk_bucket", vec![("bucket", 1)], "Milk a cow for 1 milk_bucket"),
        ("water_bucket", vec![("bucket", 1)], "Fill a bucket with water for 1 water_bucket"),
        ("string", vec![("stone_sword", 1), ("dirt", 3)], "Kill spider for 1 string"),
        ("bone_meal", vec![("iron_pickaxe", 1), ("dirt", 5)], "Kill skeleton for 1 bone"),
    ] {
        let steps = plan(&have(item, 1), &setting(&carried, "oak")).unwrap_or_else(|e| panic!("{item}: {e}"));
        assert_eq!(steps[0].task, first, "{item}: {:?}", tasks(&steps));
        assert_sound(&steps);
    }
    // A monster is not hunted bare-handed: a wooden sword is made first (an animal needs none).
    let steps = plan(&have("string", 1), &setting(&[], "oak")).unwrap();
    let words = tasks(&steps);
    assert_eq!(
        words[words.len() - 3..],
        ["Craft 1 wooden_sword", "Mine 3 dirt", "Kill spider for 1 string"],
        "{words:?}"
    );
    assert_sound(&steps);
    // No bucket: one is made of iron first, and then filled.
    let steps = plan(&have("milk_bucket", 2), &setting(&[("iron_pickaxe", 1)], "oak")).unwrap();
    let words = tasks(&steps);
    assert!(words.contains(&"Craft 2 bucket") && words.last() == Some(&"Milk a cow for 2 milk_bucket"), "{words:?}");
}

#[test]
fn what_the_overworld_does_not_give_is_refused_with_the_reason() {
    for (item, why) in [
        ("nether_star", "I cannot get a nether star: it only comes from killing the wither"),
        ("blaze_rod", "I cannot get a blaze rod: only blazes in Nether fortresses drop it"),
        ("beacon", "I cannot get a beacon: it is made with nether star (it only comes from killing the wither)"),
    ] {
        let err = plan(&have(item, 1), &setting(&[("diamond_pickaxe", 1)], "oak")).unwrap_err();
        assert!(matches!(err, NoSteps::Unreachable { .. }), "{item}: {err:?}");
        assert_eq!(err.to_string(), why);
    }
    // Carried already, it is no refusal.
    let carried = plan(&have("nether_star", 1), &setting(&[("nether_star", 1)], "oak")).unwrap_err();
    assert!(matches!(carried, NoSteps::Carried { .. }), "{carried:?}");
    assert_eq!(parse_goal("get a nether star", "oak"), Some(have("nether_star", 1)));
}

#[test]
fn every_item_the_overworld_gives_is_planned_and_no_plan_goes_through_what_it_does_not() {
    // Every item of the facts, from nothing: one the overworld gives has steps, and each step's item can be had.
    let empty = setting(&[], "oak");
    let mut unplanned = Vec::new();
    for item in crate::primitives::sources::items() {
        match plan(&have(item, 1), &empty) {
            Ok(steps) => {
                for step in &steps {
                    let Some(Tracker::Craft { item: got, .. }) = &step.tracker else { continue };
                    assert!(crate::primitives::sources::reachable(got), "{item}: step {:?} gets {got}", step.task);
                }
            }
            Err(NoSteps::Unreachable { .. }) => assert!(!crate::primitives::sources::reachable(item), "{item}"),
            Err(why) => unplanned.push(format!("{item}: {why}")),
        }
    }
    assert!(unplanned.is_empty(), "{} not planned:\n{}", unplanned.len(), unplanned.join("\n"));
}

#[test]
fn the_item_bench_goals_are_read_and_planned_as_the_bench_expects() {
    // tests/tasks/item_goals.json (`make bench-items`): each goal reads as the item it is judged by and plans from
    // what the bot starts with, and each one the overworld does not give is refused with the bench's words.
    let suite: serde_json::Value = serde_json::from_str(include_str!("../../../tests/tasks/item_goals.json")).unwrap();
    let goals = suite["goals"].as_array().unwrap();
    assert!(goals.len() >= 50, "{} goals", goals.len());
    for goal in goals {
        let words = goal["goal"].as_str().unwrap();
        let given: Vec<(&str, i32)> = goal["give"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| (k.as_str(), v.as_i64().unwrap() as i32)).collect())
            .unwrap_or_default();
        let want = parse_goal(words, "oak").unwrap_or_else(|| panic!("{words:?} is not read"));
        let planned = plan(&want, &setting(&given, "oak"));
        if let Some(refusal) = goal["refuse"].as_str() {
            assert_eq!(planned.map_err(|e| e.to_string()).unwrap_err(), refusal, "{words}");
            continue;
        }
        let Want::Have { item, count } = &want else { panic!("{words:?} read as {want:?}") };
        let judged = goal["item"].as_str().unwrap();
        assert!(item == judged || (judged.starts_with('_') && item.ends_with(judged)), "{words:?} read as {item}");
        assert_eq!(i64::from(*count), goal["count"].as_i64().unwrap(), "{words}");
        let steps = planned.unwrap_or_else(|e| panic!("{words}: {e}"));
        assert_sound(&steps);
    }
}

#[test]
fn a_craft_of_what_is_carried_is_its_craft_calls() {
    let carried = |items: &[(&str, i32)]| items.iter().map(|(i, n)| ((*i).to_owned(), *n)).collect();
    let calls = |task: &str, items: &[(&str, i32)], table_near: bool| {
        craft_calls(task, &carried(items), table_near, &[]).map(|calls| calls.join("; "))
    };
    let planks = [("spruce_planks", 2), ("cobblestone", 27)];
    assert_eq!(
        calls("Craft 1 spruce_pressure_plate", &planks, false).as_deref(),
        Some("craftItem(\"spruce_pressure_plate\", 1)")
    );
    assert_eq!(calls("Craft 1 spruce_button", &planks, false).as_deref(), Some("craftItem(\"spruce_button\", 1)"));
    // Crafts in a row: the bone's meal, then the dye.
    assert_eq!(
        calls("Craft 1 white_dye", &[("bone", 1)], false).as_deref(),
        Some("craftItem(\"bone_meal\", 3); craftItem(\"white_dye\", 1)")
    );
    // Too few planks and no log for two plates, or for a bowl and the table it needs: more than crafting.
    assert_eq!(calls("Craft 2 spruce_pressure_plate", &planks, false), None);
    assert_eq!(calls("Craft 1 bowl", &[("spruce_planks", 3)], false), None);
    assert_eq!(calls("Craft 1 bowl", &[("spruce_planks", 3)], true).as_deref(), Some("craftItem(\"bowl\", 4)"));
    // With none near, the table crafted is placed before the craft that needs it; one carried is placed alone.
    assert_eq!(
        calls("Craft 1 bowl", &[("spruce_planks", 7)], false).as_deref(),
        Some("craftItem(\"crafting_table\", 1); placeItem(\"crafting_table\"); craftItem(\"bowl\", 4)")
    );
    assert_eq!(
        calls("Craft 1 bowl", &[("spruce_planks", 3), ("crafting_table", 1)], false).as_deref(),
        Some("placeItem(\"crafting_table\"); craftItem(\"bowl\", 4)")
    );
    // The sticks a lever takes are crafted from the planks first; without planks, wood must be mined.
    assert_eq!(
        calls("Craft 1 lever", &planks, false).as_deref(),
        Some("craftItem(\"stick\", 4); craftItem(\"lever\", 1)")
    );
    assert_eq!(calls("Craft 1 lever", &[("cobblestone", 27)], true), None);
    assert_eq!(calls("Mine 1 stone", &planks, true), None);
}

/// A skill learned for `Mine 1 spruce_log` gets one log a call; one learned for `Mine 3 dirt` taking the count gets
/// what it is passed; one that returns early when a pickaxe is carried makes one at most; one learned for a build, or
/// taking a position, gets nothing a plan can count on.
#[test]
fn a_learned_skill_gets_what_its_task_asked_for() {
    use crate::skills::Skill;
    let log = Getter::of(&Skill::learned_for("mineSpruceLog", &[], "Mine 1 spruce_log")).unwrap();
    assert_eq!((log.gets.as_str(), log.per_call, log.counted, log.once), ("spruce_log", 1, false, false));
    assert_eq!(log.calls_for(2), Some(vec!["mineSpruceLog()".to_owned(), "mineSpruceLog()".to_owned()]));
    assert_eq!(log.calls_for(5), None, "more calls than a plan writes out");
    let ore = Getter::of(&Skill::learned_for("mineIronOre", &[], "Mine 3 iron_ore")).unwrap();
    assert_eq!((ore.gets.as_str(), ore.per_call), ("raw_iron", 3));
    assert_eq!(ore.calls_for(7).map(|c| c.len()), Some(3));
    let dirt = Getter::of(&Skill::learned_for("mineDirt", &["count"], "Mine 3 dirt")).unwrap();
    assert_eq!(dirt.calls_for(7), Some(vec!["mineDirt(7)".to_owned()]));
    let learned = Skill::learned_for("craftWoodenPickaxe", &[], "Craft 1 wooden_pickaxe");
    let pickaxe = Skill {
        code: "fn craftWoodenPickaxe() { if inventoryCount(\"wooden_pickaxe\") > 0 { return; } }".to_owned(),
        ..std::sync::Arc::try_unwrap(learned).unwrap()
    };
    let pickaxe = Getter::of(&pickaxe).unwrap();
    assert!(pickaxe.once);
    assert_eq!(pickaxe.calls_for(1).map(|c| c.len()), Some(1));
    assert_eq!(pickaxe.calls_for(2), None, "called again it does nothing");
    let planks = Getter::of(&Skill::learned_for("craftOakPlanks", &[], "Craft 1 oak_planks")).unwrap();
    assert_eq!(planks.per_call, 4, "a craft makes a whole batch");
    let wood = Getter::of(&Skill::learned_for("mineWoodLogs", &[], "Mine 3 wood_log")).unwrap();
    assert!(wood.any_wood, "whichever wood grows near");
    assert!(wood.gets_item("spruce_log", Some("spruce")) && !wood.gets_item("spruce_log", None));
    assert!(!wood.gets_item("spruce_planks", Some("spruce")) && !log.gets_item("oak_log", Some("oak")));
    assert_eq!(Getter::of(&Skill::learned_for("buildWall", &[], "Build a wall of 4 cobblestone")), None);
    assert_eq!(Getter::of(&Skill::learned_for("mineAt", &["pos"], "Mine 1 spruce_log")), None);
    assert_eq!(Getter::of(&Skill::learned_for("mineSomething", &[], "")), None);
}

/// What is missing for a craft is got by the learned skill that gets it, called as often as it takes, before the
/// crafts: the composition Voyager's library grows by. A thing the task itself asks for is crafted, not got.
#[test]
fn a_craft_gets_what_is_missing_by_the_learned_skill() {
    use crate::skills::Skill;
    let getters = Getter::in_library(&[
        Skill::learned_for("mineSpruceLog", &[], "Mine 1 spruce_log"),
        Skill::learned_for("mineCobblestone", &["count"], "Mine 3 cobblestone"),
        Skill::learned_for("craftSpruceButton", &[], "Craft 1 spruce_button"),
    ]);
    let calls = |task: &str, items: &[(&str, i32)], table_near: bool| {
        let carried = items.iter().map(|(i, n)| ((*i).to_owned(), *n)).collect();
        craft_calls(task, &carried, table_near, &getters).map(|calls| calls.join("; "))
    };
    // Nothing carried: the log's skill, then the crafts, in the wood the skill gets.
    assert_eq!(
        calls("Craft 1 spruce_button", &[], false).as_deref(),
        Some("mineSpruceLog(); craftItem(\"spruce_planks\", 4); craftItem(\"spruce_button\", 1)")
    );
    assert_eq!(
        calls("Craft 4 stick", &[], false).as_deref(),
        Some("mineSpruceLog(); craftItem(\"spruce_planks\", 4); craftItem(\"stick\", 4)")
    );
    // A stone pickaxe at a table, with planks and a wooden pickaxe carried: cobblestone by its skill, passed the count.
    assert_eq!(
        calls("Craft 1 stone_pickaxe", &[("spruce_planks", 4), ("wooden_pickaxe", 1)], true).as_deref(),
        Some("mineCobblestone(3); craftItem(\"stick\", 4); craftItem(\"stone_pickaxe\", 1)")
    );
    // Without the wooden pickaxe: it is made first, of planks from a log the log's skill gets.
    assert_eq!(
        calls("Craft 1 stone_pickaxe", &[("spruce_planks", 4)], true).as_deref(),
        Some(
            "mineSpruceLog(); craftItem(\"spruce_planks\", 4); craftItem(\"stick\", 4); craftItem(\"wooden_pickaxe\", \
             1); mineCobblestone(3); craftItem(\"stone_pickaxe\", 1)"
        )
    );
    // A skill for logs of any kind gets the wood carried; with no wood known, nothing.
    let any = Getter::in_library(&[Skill::learned_for("mineWoodLogs", &[], "Mine 3 wood_log")]);
    let carried = |items: &[(&str, i32)]| items.iter().map(|(i, n)| ((*i).to_owned(), *n)).collect();
    assert_eq!(craft_calls("Craft 1 bowl", &carried(&[]), true, &any), None);
    assert_eq!(
        craft_calls("Craft 1 bowl", &carried(&[("birch_planks", 1)]), true, &any).map(|c| c.join("; ")).as_deref(),
        Some("mineWoodLogs(); craftItem(\"birch_planks\", 4); craftItem(\"bowl\", 4)")
    );
    // Nothing gets what a furnace's iron needs: more than crafting and the getters.
    assert_eq!(calls("Craft 1 iron_pickaxe", &[("spruce_planks", 4)], true), None);
    // A learned planks skill needs a log: the starter's log skill gets it first, and the table is placed.
    let library = starter_library();
    let mut learned =
        std::sync::Arc::try_unwrap(Skill::learned_for("craftSprucePlanks", &[], "Craft 1 spruce_planks")).unwrap();
    learned.meta.created = "2026-12-02T11:54:39Z".to_owned();
    let with_learned: Vec<_> = library.iter().cloned().chain([std::sync::Arc::new(learned)]).collect();
    let getters = Getter::in_library(&with_learned);
    assert_eq!(
        craft_calls("Craft 1 bowl", &carried(&[("spruce_planks", 4)]), false, &getters)
            .map(|c| c.join("; "))
            .as_deref(),
        Some(
            "mineWoodLog(1); craftSprucePlanks(); craftItem(\"crafting_table\", 1); placeItem(\"crafting_table\"); \
             craftItem(\"bowl\", 4)"
        )
    );
    // Without the log skill, no calls: the planks skill alone cannot make planks from nothing.
    let alone = Getter::in_library(&with_learned[library.len()..]);
    assert_eq!(craft_calls("Craft 1 bowl", &carried(&[("spruce_planks", 4)]), false, &alone), None);
}

/// The starter library, as `skills/` holds it.
fn starter_library() -> Vec<std::sync::Arc<crate::skills::Skill>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("skills");
    crate::skills::SkillLibrary::open(dir).0.list()
}

/// The starter's skills that mine a thing get it, by the task their files name; a learned skill that gets the same
/// thing stands before the starter's.
#[test]
fn the_starters_mining_skills_are_getters() {
    use crate::skills::Skill;
    let library = starter_library();
    let getters = Getter::in_library(&library);
    let gets = |name: &str| getters.iter().find(|g| g.name == name).map(|g| (g.gets.clone(), g.counted, g.any_wood));
    assert_eq!(gets("mineWoodLog"), Some(("oak_log".to_owned(), true, true)));
    assert_eq!(gets("mineCobblestone"), Some(("cobblestone".to_owned(), true, false)));
    assert_eq!(gets("mineCoal"), Some(("coal".to_owned(), true, false)));
    assert_eq!(gets("mineIronOre"), Some(("raw_iron".to_owned(), true, false)));
    assert_eq!(gets("mineSand"), Some(("sand".to_owned(), true, false)));
    let mut learned = std::sync::Arc::try_unwrap(Skill::learned_for("mineWoodLogs", &[], "Mine 3 wood_log")).unwrap();
    learned.meta.created = "2026-12-02T11:54:39Z".to_owned();
    let with_learned: Vec<_> = library.iter().cloned().chain([std::sync::Arc::new(learned)]).collect();
    let getters = Getter::in_library(&with_learned);
    let logs: Vec<&str> = getters.iter().filter(|g| g.gets == "oak_log").map(|g| g.name.as_str()).collect();
    assert_eq!(logs, ["mineWoodLogs"]);
}

#[test]
fn armour_is_made_before_a_fight_from_what_the_plan_leaves_spare() {
    // (Dirt carried: a pillar's blocks are dug first otherwise.)
    let bones = |items: &[(&str, i32)]| {
        let mut at = setting(&[items, &[("dirt", 3)]].concat(), "oak");
        at.table_near = true;
        let steps = plan(&have("bone", 2), &at).unwrap();
        assert_sound(&steps);
        tasks(&steps).into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    // Thirteen ingots: a chestplate (8), then what is left makes a helmet (5); the leggings (7) are not made.
    assert_eq!(
        bones(&[("stone_sword", 1), ("iron_ingot", 13)]),
        ["Craft 1 iron_chestplate", "Craft 1 iron_helmet", "Kill skeleton for 2 bone"]
    );
    // A chestplate worn already: the next piece down.
    assert_eq!(
        bones(&[("stone_sword", 1), ("iron_ingot", 8), ("iron_chestplate", 1)]),
        ["Craft 1 iron_leggings", "Kill skeleton for 2 bone"]
    );
    // Leather when there is no iron; too little of anything, no armour.
    assert_eq!(bones(&[("stone_sword", 1), ("leather", 4)]), ["Craft 1 leather_boots", "Kill skeleton for 2 bone"]);
    assert_eq!(bones(&[("stone_sword", 1), ("iron_ingot", 3)]), ["Kill skeleton for 2 bone"]);
    // Bare-handed, the sword is made first (of wood: the ingots stay spare), then the armour.
    let sword_first = bones(&[("iron_ingot", 9), ("stick", 1)]);
    assert_eq!(
        sword_first[sword_first.len() - 3..],
        ["Craft 1 wooden_sword", "Craft 1 iron_chestplate", "Kill skeleton for 2 bone"]
    );
    // What the plan itself needs is not spare: a crossbow takes two of eight ingots (its own and its tripwire
    // hook's), so the six left make a helmet, not a chestplate.
    let mut at = setting(&[("stone_sword", 1), ("iron_ingot", 8)], "oak");
    at.table_near = true;
    let crossbow = tasks(&plan(&have("crossbow", 1), &at).unwrap()).into_iter().map(str::to_owned).collect::<Vec<_>>();
    assert!(crossbow.iter().any(|t| t == "Craft 1 iron_helmet"), "{crossbow:?}");
    assert!(!crossbow.iter().any(|t| t.contains("chestplate")), "{crossbow:?}");

    // No table near, none carried and none made: no armour (no table is gathered for it).
    let steps = plan(&have("bone", 2), &setting(&[("stone_sword", 1), ("iron_ingot", 8), ("dirt", 3)], "oak")).unwrap();
    assert_eq!(tasks(&steps), ["Kill skeleton for 2 bone"]);
    // A cow does not fight back: no armour for it, nor blocks.
    let mut at = setting(&[("stone_sword", 1), ("iron_ingot", 8)], "oak");
    at.table_near = true;
    assert_eq!(tasks(&plan(&have("leather", 1), &at).unwrap()), ["Kill cow for 1 leather"]);
    // A goal to kill monsters gets it too, after the sword.
    let kill = plan(&Want::Kill { mob: "zombie".into(), count: 2 }, &at).unwrap();
    assert_eq!(tasks(&kill), ["Craft 1 iron_chestplate", "Mine 3 dirt", "Kill 2 zombie"]);
    assert_sound(&kill);
}
