//! Goals are read whole, worded as players type them, and judged as the owner asked them: a hole asked "three blocks
//! deep" is dug three deep, a square asked "3x3" stands as nine blocks, "surround yourself" walls in all four sides,
//! planks go into the chest next to the crafting table and not the other one, a goal typed in Vietnamese without its
//! marks is read with no LLM. Words the reader cannot follow in full are asked about, and nothing is done until the
//! owner answers; a plan that dug less than the goal asked ends "I failed … (asked 3 deep, dug 1)" and keeps no skill.
//! Every verdict here is the test world's own state.

use crate::support;

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use serde_json::json;
use support::{fake_llm::FakeEndpoint, *};

fn block(world: &World, [x, y, z]: [i64; 3]) -> String {
    world.cmd(json!({"cmd": "getBlock", "x": x, "y": y, "z": z})).as_str().unwrap_or_default().to_owned()
}

/// Where blocks of `kind` stand within 6 blocks of the origin, from the ground up to 4 above it.
fn where_stands(world: &World, kind: &str) -> Vec<[i64; 3]> {
    let mut found = Vec::new();
    for x in -6..=6 {
        for y in 60..=67 {
            for z in -6..=6 {
                if block(world, [x, y, z]) == kind {
                    found.push([x, y, z]);
                }
            }
        }
    }
    found
}

/// The deepest column of air dug into the ground (grass at 63, dirt below) within 6 blocks of the origin.
fn deepest_hole(world: &World) -> i64 {
    let mut deepest = 0;
    for x in -6..=6 {
        for z in -6..=6 {
            let depth = (0..4).take_while(|d| block(world, [x, 63 - d, z]) == "air").count() as i64;
            deepest = deepest.max(depth);
        }
    }
    deepest
}

/// `!task GOAL` from the owner: the bot says it read the goal as `reading` (a part of its line), then that it
/// succeeded, within `within`.
fn done_as_read(world: &World, goal: &str, reading: &str, within: Duration) {
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", reading, Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", &format!("I succeeded in task: {goal}"), within);
}

/// `!task GOAL` from the owner is asked about and failed as not understood, and in the two seconds after, the bot
/// made no `event` (`blockBroken`, `blockPlaced`) and claimed nothing.
fn asked_and_left_alone(world: &World, goal: &str, event: &str) {
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", "I am not sure what you mean by", Duration::from_secs(10));
    let failed = world.expect_chat(from, "Wayfarer", "I failed task: ", Duration::from_secs(5));
    assert!(failed.contains("because I did not understand"), "{failed}");
    std::thread::sleep(Duration::from_secs(2));
    let done: Vec<_> =
        world.events_since(from).into_iter().filter(|e| e["event"] == event && e["name"] == "Wayfarer").collect();
    assert!(done.is_empty(), "{event} on a reading that dropped words: {done:?}");
    assert!(!world.chat_since(from).iter().any(|l| l.contains("I succeeded")), "claimed a goal never read");
}

/// An LLM endpoint that answers only the second reader, always with `form`, and counts the calls made to it (its
/// runtime is to be kept alive with it).
fn reader_only(form: &'static str) -> (tokio::runtime::Runtime, FakeEndpoint, Arc<Mutex<u32>>) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    let calls = Arc::new(Mutex::new(0));
    let counted = calls.clone();
    endpoint.respond_with(move |request| {
        *counted.lock().unwrap() += 1;
        assert!(system_message(request).starts_with("You read what a Minecraft player asked"), "only the reader");
        form.to_owned()
    });
    (runtime, endpoint, calls)
}

/// A scripted LLM that only translates: `english` gives the English for the request's text; the calls are counted.
fn translator_only(
    english: impl Fn(&str) -> (&'static str, &'static str) + Send + Sync + 'static,
) -> (tokio::runtime::Runtime, FakeEndpoint, Arc<Mutex<u32>>) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    let calls = Arc::new(Mutex::new(0));
    let counted = calls.clone();
    endpoint.respond_with(move |request| {
        assert!(system_message(request).starts_with("You translate what a Minecraft player wrote"), "{request}");
        *counted.lock().unwrap() += 1;
        let (language, text) = english(&request.to_string());
        json!({"language": language, "english": text}).to_string()
    });
    (runtime, endpoint, calls)
}

/// Where the bot's feet are, as the world has it.
fn feet(world: &World, name: &str) -> [i64; 3] {
    let players = world.cmd(json!({"cmd": "players"}));
    let me =
        players.as_array().and_then(|all| all.iter().find(|p| p["name"] == name)).expect("the bot is in the world");
    let at = |k: &str| me[k].as_f64().unwrap_or_default();
    [at("x").floor() as i64, (at("y") + 0.01).floor() as i64, at("z").floor() as i64]
}

#[test]
fn a_hole_asked_three_deep_in_words_is_dug_three_deep() {
    let (world, _bot) = world_with_bot_args(&[]);
    give(&world, "Wayfarer", "wooden_shovel", 1);
    bot_sees(&world, "Wayfarer", "wooden_shovel", 1);
    let goal = "dig a hole three blocks deep";
    let reading = format!("I read \"{goal}\" as: a hole 3 deep, dug beside me.");
    done_as_read(&world, goal, &reading, Duration::from_secs(120));
    assert_eq!(deepest_hole(&world), 3, "the world shows a hole three deep");
}

/// `dig down 3` is a hole three deep, dug from its words with no LLM. It was read as "3 blocks dug near me" (the
/// `down` taken into the verb and dropped), a reading no code is written for, so the goal went to the LLM with the
/// depth lost.
#[test]
fn dig_down_three_is_a_hole_three_deep() {
    let (world, _bot) = world_with_bot_args(&[]);
    give(&world, "Wayfarer", "wooden_shovel", 1);
    bot_sees(&world, "Wayfarer", "wooden_shovel", 1);
    let goal = "can you dig down 3 blocks";
    done_as_read(&world, goal, "as: a hole 3 deep, dug beside me.", Duration::from_secs(120));
    assert_eq!(deepest_hole(&world), 3, "the world shows a hole three deep");
}

/// Blocks to dig with no kind named are the ground's own: `dig out any four blocks of ground` digs four of its top
/// blocks, where no code was written for it before (the goal went to the LLM).
#[test]
fn any_four_blocks_of_ground_are_dug_from_the_top() {
    let (world, _bot) = world_with_bot_args(&[]);
    let goal = "dig out any four blocks of ground near you";
    done_as_read(&world, goal, "as: 4 blocks dug near me.", Duration::from_secs(60));
    let mut dug = 0;
    for x in -6..=6 {
        for z in -6..=6 {
            dug += usize::from(block(&world, [x, 63, z]) == "air");
        }
    }
    assert_eq!(dug, 4, "four blocks of the ground's top layer are air");
}

#[test]
fn a_square_and_a_bot_walled_in_stand_as_asked() {
    let (world, _bot) = world_with_bot_args(&[]);
    give(&world, "Wayfarer", "dirt", 12);
    give(&world, "Wayfarer", "cobblestone", 6);
    bot_sees(&world, "Wayfarer", "cobblestone", 6);

    let goal = "put down a 3x3 square of dirt next to you";
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", &format!("I succeeded in task: {goal}"), Duration::from_secs(150));
    let dirt = where_stands(&world, "dirt").into_iter().filter(|p| p[1] == 64).collect::<Vec<_>>();
    assert_eq!(dirt.len(), 9, "nine blocks on the ground: {dirt:?}");
    let xs: std::collections::BTreeSet<i64> = dirt.iter().map(|p| p[0]).collect();
    let zs: std::collections::BTreeSet<i64> = dirt.iter().map(|p| p[2]).collect();
    assert_eq!((xs.len(), zs.len()), (3, 3), "standing as a 3 by 3 square: {dirt:?}");

    let goal = "surround yourself with cobblestone";
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", &format!("I succeeded in task: {goal}"), Duration::from_secs(90));
    let [x, y, z] = feet(&world, "Wayfarer");
    for side in [[x + 1, y, z], [x - 1, y, z], [x, y, z + 1], [x, y, z - 1]] {
        assert_eq!(block(&world, side), "cobblestone", "the bot at {x} {y} {z} is walled in at {side:?}");
    }
}

#[test]
fn planks_go_into_the_chest_named_by_its_neighbour_and_not_the_other() {
    let (world, _bot) = world_with_bot_args(&[]);
    world.cmd(json!({"cmd": "setBlock", "x": 3, "y": 64, "z": -2, "block": "chest"}));
    world.cmd(json!({"cmd": "setBlock", "x": -3, "y": 64, "z": 4, "block": "chest"}));
    world.cmd(json!({"cmd": "setBlock", "x": -4, "y": 64, "z": 4, "block": "crafting_table"}));
    give(&world, "Wayfarer", "oak_planks", 8);
    bot_sees(&world, "Wayfarer", "oak_planks", 8);
    let goal = "put 4 planks into the chest next to the crafting table";
    done_as_read(
        &world,
        goal,
        "as: 4 oak_planks put into the chest next to a crafting_table.",
        Duration::from_secs(90),
    );
    only_in(&world, [-3, 64, 4], [3, 64, -2], "oak_planks", 4);
}

/// The chest at `named` holds `count` of `item`, and the one at `other` none.
fn only_in(world: &World, named: [i64; 3], other: [i64; 3], item: &str, count: u64) {
    let (held, contents) = container_count(world, named, item);
    assert_eq!(held, count, "the chest named holds the {item}: {contents}");
    let (held, contents) = container_count(world, other, item);
    assert_eq!(held, 0, "the other chest holds none: {contents}");
}

/// "All" of a thing is what the bot carries (it was asked about: how many is all?), a name typed in lower case
/// before the count is the player to hand things to (`toss bob 4 apples` was read as 4 items for no one), and `me`
/// is whoever asked, in English and in Vietnamese (`toss me 3 apples` was read as apples for no one, and planned by
/// the LLM).
#[test]
fn all_of_a_thing_is_what_the_bot_carries_and_a_name_in_lower_case_is_the_player() {
    let (world, _bot) = world_with_bot_args(&["--owner", "Bob"]);
    world.cmd(json!({"cmd": "setBlock", "x": -3, "y": 64, "z": 2, "block": "chest"}));
    // A second bot to hand things to (a player with a body, who picks up what lands at its feet), owned by another.
    let skills = ScriptDir::new("read-whole-bob", &[]);
    let bob = Bot::start(&world.address(), &["--username", "Bob", "--owner", "Carol", "--skills", skills.path()]);
    bob.expect_log("Bob spawned at", Duration::from_secs(60));
    world.cmd(json!({"cmd": "teleport", "name": "Bob", "x": -4.5, "y": 64, "z": -4.5}));
    give(&world, "Wayfarer", "dirt", 16);
    give(&world, "Wayfarer", "apple", 12);
    bot_sees(&world, "Wayfarer", "apple", 12);

    let goal = "dump all ur dirt in the chest";
    done_as_read(
        &world,
        goal,
        "as: 16 dirt put into the nearest chest (all the dirt I carry).",
        Duration::from_secs(90),
    );
    let (dirt, contents) = container_count(&world, [-3, 64, 2], "dirt");
    assert_eq!(dirt, 16, "the chest holds all the dirt: {contents}");
    assert_eq!(inventory_count(&world, "Wayfarer", "dirt"), 0, "none is left with the bot");

    // `yo` opens Spanish too: words the English reader reads whole are not sent to be translated.
    let goal = "yo toss bob 4 apples";
    done_as_read(&world, goal, "as: 4 apple handed to bob.", Duration::from_secs(90));
    assert_eq!(inventory_count(&world, "Bob", "apple"), 4, "Bob carries the four apples");

    // Bob owns the bot too, and asks for some himself.
    let from = world.say("Bob", "!task toss me 3 apples");
    world.expect_chat(from, "Wayfarer", "Understood: toss Bob 3 apples", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "I succeeded in task: toss Bob 3 apples", Duration::from_secs(90));
    assert_eq!(inventory_count(&world, "Bob", "apple"), 7, "Bob carries three more apples");
    // The same in Vietnamese (`cho mình … với`, give me … please), read with no LLM: a translation had made it bread
    // to craft, "already had", and claimed.
    let from = world.say("Bob", "!task cho mình 2 quả táo với");
    world.expect_chat(from, "Wayfarer", "Đã hiểu: give Bob 2 apple", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "hoàn thành nhiệm vụ: give Bob 2 apple", Duration::from_secs(90));
    assert_eq!(inventory_count(&world, "Bob", "apple"), 9, "Bob carries two more apples");
    // `gimme`, and Spanish `dame` (give me), read with no LLM and handed to whoever asked: before, `gimme` was no
    // verb, and `dame` no word the vocabulary knew (no LLM here to translate it, so nothing was done).
    let from = world.say("Bob", "!task gimme 1 apple pls im starving");
    world.expect_chat(from, "Wayfarer", "Understood: give Bob 1 apple pls im starving", Duration::from_secs(10));
    world.expect_chat(
        from,
        "Wayfarer",
        "I succeeded in task: give Bob 1 apple pls im starving",
        Duration::from_secs(90),
    );
    let from = world.say("Bob", "!task dame 2 manzanas porfa");
    world.expect_chat(from, "Wayfarer", "Entendido: give Bob 2 apple", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "Tarea cumplida: give Bob 2 apple", Duration::from_secs(90));
    assert_eq!(inventory_count(&world, "Bob", "apple"), 12, "Bob carries three more apples");
}

#[test]
fn a_goal_in_vietnamese_without_its_marks_is_read_with_no_llm() {
    let (world, _bot) = world_with_bot_args(&[]);
    give(&world, "Wayfarer", "dirt", 8);
    bot_sees(&world, "Wayfarer", "dirt", 8);
    let from = world.say("Alice", "!task dat 4 khoi dat thanh mot hang");
    // Answered in Vietnamese, with the goal in the reader's English words.
    world.expect_chat(from, "Wayfarer", "Đã hiểu: place 4 dirt in a row", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "hoàn thành nhiệm vụ: place 4 dirt in a row", Duration::from_secs(90));
    let dirt = where_stands(&world, "dirt").into_iter().filter(|p| p[1] == 64).collect::<Vec<_>>();
    let in_a_row = dirt.iter().all(|p| p[0] == dirt[0][0]) || dirt.iter().all(|p| p[2] == dirt[0][2]);
    assert!(dirt.len() == 4 && in_a_row, "four dirt in a row: {dirt:?}");
}

/// A hole given its sides and its depth is dug whole: `a 3 by 3 hole, one deep` is nine blocks of the ground gone,
/// from its words, with no LLM call. It was asked about before (the reader's hole had a depth only), and before that
/// read as a hole one deep: one block dug, and that reading's own check said done.
#[test]
fn a_hole_given_its_sides_and_depth_is_dug_whole() {
    let (_runtime, endpoint, calls) = reader_only(r#"{"effect": "dig", "shape": "hole", "deep": 1}"#);
    let (world, _bot) = world_with_bot_args(&["--llm-url", &endpoint.base_url()]);
    give(&world, "Wayfarer", "wooden_shovel", 1);
    bot_sees(&world, "Wayfarer", "wooden_shovel", 1);
    let goal = "dig me a 3 by 3 hole, just one block deep";
    done_as_read(&world, goal, "as: a hole 3 by 3, 1 deep, dug beside me.", Duration::from_secs(180));
    // Nine cells of the grass dug in a square, one deep (the dirt under them whole).
    let square = (-6..=4).flat_map(|x| (-6..=4).map(move |z| (x, z))).find(|&(x, z)| {
        (0..3).all(|i| {
            (0..3).all(|j| block(&world, [x + i, 63, z + j]) == "air" && block(&world, [x + i, 62, z + j]) != "air")
        })
    });
    assert!(square.is_some(), "a 3 by 3 hole one deep in the ground");
    assert_eq!(*calls.lock().unwrap(), 0, "read with no LLM");
}

/// A trench given its length is dug that long, one wide and one deep (its other sizes unsaid): four cells of the
/// grass gone in a row. It was asked about before (`trench` was no shape the reader knew). One eight long is done
/// too: it began two blocks from the bot, so its far end lay past where the step's own count looked (`7/8 blocks
/// dug`), and the goal failed with the trench in the ground.
#[test]
fn a_trench_is_dug_as_long_as_asked() {
    let (world, _bot) = world_with_bot_args(&[]);
    give(&world, "Wayfarer", "wooden_shovel", 1);
    bot_sees(&world, "Wayfarer", "wooden_shovel", 1);
    let dug = |x: i64, z: i64| block(&world, [x, 63, z]) == "air" && block(&world, [x, 62, z]) != "air";
    let trench = |long: i64| {
        (-12..=12)
            .flat_map(|x| (-12..=12).map(move |z| (x, z)))
            .find(|&(x, z)| (0..long).all(|i| dug(x + i, z)) || (0..long).all(|i| dug(x, z + i)))
    };
    let goal = "dig a trench 4 blocks long";
    done_as_read(&world, goal, "as: a trench 4 long, 1 wide and 1 deep, dug beside me.", Duration::from_secs(150));
    assert!(trench(4).is_some(), "a trench four long in the ground");
    world.cmd(json!({"cmd": "teleport", "name": "Wayfarer", "x": 0.5, "y": 64, "z": -8.5}));
    let goal = "dig me a trench 8 long, 1 wide, 1 deep";
    done_as_read(&world, goal, "as: a trench 8 long, 1 wide and 1 deep, dug beside me.", Duration::from_secs(150));
    assert!(trench(8).is_some(), "a trench eight long in the ground");
}

/// A hole given its sides but no depth is asked about: the second reader's form, which drops the sides and makes up
/// a depth, does not hold to the words, so the owner is asked and the ground stays whole.
#[test]
fn a_hole_given_a_width_and_no_depth_is_asked_about() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.respond_with(|_| r#"{"effect": "dig", "shape": "hole", "deep": 1}"#.to_owned());
    let (world, _bot) = world_with_bot_args(&["--llm-url", &endpoint.base_url()]);
    asked_and_left_alone(&world, "dig me a 3 by 3 hole", "blockBroken");
}

/// Words the reader cannot follow in full that ask something precise (a square of no size) are asked about: the
/// second reader's form, which makes up a size, does not hold to the words; no block is placed and nothing else is
/// asked of the LLM. The question waits for the owner's answer: no, yes, or the goal again in other words.
#[test]
fn a_shape_with_no_size_is_asked_about_and_the_answer_is_heard() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    let calls = Arc::new(Mutex::new(0));
    let counted = calls.clone();
    endpoint.respond_with(move |_| {
        *counted.lock().unwrap() += 1;
        r#"{"effect": "place", "block": "dirt", "shape": "floor", "long": 3, "wide": 3}"#.to_owned()
    });
    let (world, _bot) = world_with_bot_args(&["--llm-url", &endpoint.base_url()]);
    give(&world, "Wayfarer", "dirt", 12);
    bot_sees(&world, "Wayfarer", "dirt", 12);
    let goal = "put down a square of dirt";
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", "I am not sure what you mean by \"square\"", Duration::from_secs(10));
    world.expect_chat(
        from,
        "Wayfarer",
        &format!("I failed task: {goal} because I did not understand"),
        Duration::from_secs(5),
    );
    assert!(where_stands(&world, "dirt").iter().all(|p| p[1] < 64), "no dirt was placed");
    assert_eq!(*calls.lock().unwrap(), 1, "the second reader's one call, and no plan");

    // The question waits for its answer: chat that is none leaves it waiting, `no` leaves the goal, and after the
    // same question again, the goal in other words (no command) is read whole and done.
    world.say("Alice", "hmm");
    let from = world.say("Alice", "nope");
    world.expect_chat(from, "Wayfarer", &format!("All right, I will leave \"{goal}\""), Duration::from_secs(5));
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", "Say yes to have just that", Duration::from_secs(10));
    let from = world.say("Alice", "put down a 3 by 3 square of dirt");
    world.expect_chat(
        from,
        "Wayfarer",
        "I read \"put down a 3 by 3 square of dirt\" as: a floor 3 by 3",
        Duration::from_secs(10),
    );
    world.expect_chat(
        from,
        "Wayfarer",
        "I succeeded in task: put down a 3 by 3 square of dirt",
        Duration::from_secs(90),
    );
    let placed: Vec<[i64; 3]> = where_stands(&world, "dirt").into_iter().filter(|p| p[1] >= 64).collect();
    assert_eq!(placed.len(), 9, "nine dirt stand: {placed:?}");
    let span =
        |axis: usize| placed.iter().map(|p| p[axis]).max().unwrap() - placed.iter().map(|p| p[axis]).min().unwrap();
    assert_eq!((span(0), span(1), span(2)), (2, 0, 2), "as a 3 by 3 square: {placed:?}");
    // Asked once more, `yes` has just what was read: one dirt placed.
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", "Say yes to have just that", Duration::from_secs(10));
    let from = world.say("Alice", "yes pls");
    world.expect_chat(from, "Wayfarer", "I succeeded in task: place a dirt", Duration::from_secs(60));
    assert_eq!(where_stands(&world, "dirt").into_iter().filter(|p| p[1] >= 64).count(), 10, "one more dirt");
    // The same words asked again get the second reader's cached reply; the goal in other words reads whole.
    assert_eq!(*calls.lock().unwrap(), 1, "no LLM call after the first");
}

/// Where the words put a block, not read, is asked about: `next to me` is beside the owner, which neither reader
/// reads. Before, the words went to the LLM's plan (walk to the owner's spot, place a cobblestone), whose steps were
/// done and judged by what they said, and the goal was claimed with no cobblestone beside the owner; and a form from
/// the second reader that dropped the place (`place a cobblestone`) was held to the words, its numbers and things
/// being the same. Now neither happens: nothing is placed, nothing claimed.
#[test]
fn a_block_put_next_to_the_owner_is_asked_about_not_put_anywhere() {
    let (_runtime, endpoint, calls) = reader_only(r#"{"effect": "place", "block": "cobblestone"}"#);
    let (world, _bot) = world_with_bot_args(&["--llm-url", &endpoint.base_url()]);
    give(&world, "Wayfarer", "cobblestone", 4);
    bot_sees(&world, "Wayfarer", "cobblestone", 4);
    asked_and_left_alone(&world, "put a cobblestone block next to me", "blockPlaced");
    assert_eq!(*calls.lock().unwrap(), 1, "the second reader was asked once");
}

/// Words the reader does not read whole (`smol`) are read by the LLM into the reader's form, held to the owner's
/// words (five, cobble), and done from that reading: a pillar five high stands, with one LLM call.
#[test]
fn words_the_reader_cannot_read_whole_are_read_by_the_llm_and_held_to_them() {
    let (_runtime, endpoint, calls) =
        reader_only(r#"{"effect": "place", "block": "cobblestone", "shape": "column", "high": 5}"#);
    let (world, _bot) = world_with_bot_args(&["--llm-url", &endpoint.base_url()]);
    give(&world, "Wayfarer", "cobblestone", 8);
    bot_sees(&world, "Wayfarer", "cobblestone", 8);
    let goal = "i need a smol cobble tower, five tall";
    done_as_read(
        &world,
        goal,
        "as: a pillar of 5 cobblestone, on open ground beside me (the LLM's reading, held to your words).",
        Duration::from_secs(120),
    );
    // Five one on another from the ground (the bot may stand on blocks of its own to reach the top).
    let five = (-6..=6).flat_map(|x| (-6..=6).map(move |z| (x, z))).find(|&(x, z)| {
        (64..69).all(|y| block(&world, [x, y, z]) == "cobblestone") && block(&world, [x, 69, z]) != "cobblestone"
    });
    assert!(five.is_some(), "a pillar of five cobblestone: {:?}", where_stands(&world, "cobblestone"));
    assert_eq!(*calls.lock().unwrap(), 1);
}

/// A tower of a block no walk builds with (stone bricks), too tall to reach its top from the ground and with nothing
/// else carried to stand on, goes up under the bot jump by jump: five stone bricks stand one on another, and the bot
/// is back on the ground beside them. Before, the top two were out of reach and the goal failed at 3 of 5.
#[test]
fn a_tower_taller_than_the_bot_reaches_goes_up_under_it() {
    let (world, _bot) = world_with_bot_args(&[]);
    give(&world, "Wayfarer", "stone_bricks", 5);
    bot_sees(&world, "Wayfarer", "stone_bricks", 5);
    let goal = "can u build a tower out of stone bricks, five high";
    done_as_read(&world, goal, "as: a pillar of 5 stone_bricks", Duration::from_secs(120));
    let five = (-6..=6)
        .flat_map(|x| (-6..=6).map(move |z| (x, z)))
        .find(|&(x, z)| (64..69).all(|y| block(&world, [x, y, z]) == "stone_bricks"));
    assert!(five.is_some(), "a tower of five stone bricks: {:?}", where_stands(&world, "stone_bricks"));
    assert_eq!(feet(&world, "Wayfarer")[1], 64, "back on the ground");
}

/// A wall too tall to reach the top of from the ground, of a block no walk builds with, goes up a column at a time
/// under the bot: twelve stone bricks stand as a wall 3 long and 4 high.
#[test]
fn a_wall_taller_than_the_bot_reaches_goes_up_a_column_at_a_time() {
    let (world, _bot) = world_with_bot_args(&[]);
    give(&world, "Wayfarer", "stone_bricks", 12);
    bot_sees(&world, "Wayfarer", "stone_bricks", 12);
    let goal = "build a stone brick wall 3 long and 4 high";
    done_as_read(&world, goal, "as: a wall 3 long and 4 high of stone_bricks", Duration::from_secs(150));
    let stands = |x: i64, z: i64, dx: i64, dz: i64| {
        (0..3).all(|i| (64..68).all(|y| block(&world, [x + i * dx, y, z + i * dz]) == "stone_bricks"))
    };
    let wall =
        (-6..=6).flat_map(|x| (-6..=6).map(move |z| (x, z))).find(|&(x, z)| stands(x, z, 1, 0) || stands(x, z, 0, 1));
    assert!(wall.is_some(), "a wall 3 long and 4 high: {:?}", where_stands(&world, "stone_bricks"));
}

/// A plan that reads one block where the goal asked a hole three deep (a scripted reading that drops the depth) does
/// every step, and the goal's own check fails it: three plans, then "I failed … (asked 3 deep, dug 1)", and the skill
/// its steps taught is not kept.
#[test]
fn a_plan_that_drops_the_depth_fails_the_goal_and_keeps_nothing() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    let plans = Arc::new(Mutex::new(0));
    let counted = plans.clone();
    // Digs the nearest grass not under the bot: one block a step, each in a column of its own.
    let dig_one = "```rhai\nfn digOneGrass() {\n  let feet = position().floor();\n  \
        for p in findBlocks(\"grass_block\", 6, 30) {\n    if p.x != feet.x || p.z != feet.z { digBlock(p); return p; }\n  }\n}\n```";
    endpoint.respond_with(move |request| {
        let (system, last) = (system_message(request), last_user_message(request));
        if last.starts_with("You break a Minecraft goal") || system.starts_with("You break a Minecraft goal") {
            *counted.lock().unwrap() += 1;
            r#"[{"task": "Dig 1 grass_block"}]"#.to_owned()
        } else if system.starts_with("You judge") {
            r#"{"reasoning": "Dug.", "success": true, "critique": ""}"#.to_owned()
        } else if system.starts_with("You describe") {
            "Digs one grass block.".to_owned()
        } else {
            dig_one.to_owned()
        }
    });
    let skills = ScriptDir::new("read-whole-misread", &[]);
    let (world, bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), "--no-plan-from-words"]);
    give(&world, "Wayfarer", "wooden_shovel", 1);
    bot_sees(&world, "Wayfarer", "wooden_shovel", 1);
    let goal = "dig a hole three blocks deep";
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(
        from,
        "Wayfarer",
        &format!("I failed task: {goal} because every step was done, but the world shows no hole 3 deep was dug (asked 3 deep, dug 1)"),
        Duration::from_secs(240),
    );
    assert_eq!(*plans.lock().unwrap(), 3, "planned, then planned again twice");
    assert_eq!(deepest_hole(&world), 1, "the world shows no hole deeper than one");
    let said = world.chat_since(from);
    assert!(!said.iter().any(|l| l.starts_with(&format!("I succeeded in task: {goal}"))), "{said:?}");
    bot.expect_log("was learned for a goal its plan did not do; removed", Duration::from_secs(5));
    let kept: Vec<String> = std::fs::read_dir(&skills.0)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".rhai"))
        .collect();
    assert!(kept.is_empty(), "no skill kept: {kept:?}");
}

/// A plan whose code breaks the chest that stood and fills one of its own (a scripted plan, as the local model wrote
/// for `put 8 cobble in teh chest`: it stood on the chest's spot) does not fill the chest asked for: the goal fails
/// saying so, and is never announced as done.
#[test]
fn a_plan_that_breaks_the_chest_and_fills_its_own_is_not_a_success() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    let own_chest = "```rhai\nfn storeInAChestOfMyOwn() {\n  let old = findBlock(\"chest\", 16);\n  \
        if old != () { digBlock(old); }\n  let chest = placeItem(\"chest\");\n  \
        depositItemIntoChest(chest, #{\"cobblestone\": 8});\n}\n```";
    endpoint.respond_with(move |request| {
        let (system, last) = (system_message(request), last_user_message(request));
        if last.starts_with("You break a Minecraft goal") || system.starts_with("You break a Minecraft goal") {
            r#"[{"task": "Store 8 cobblestone in a chest"}]"#.to_owned()
        } else if system.starts_with("You judge") {
            r#"{"reasoning": "Stored.", "success": true, "critique": ""}"#.to_owned()
        } else if system.starts_with("You describe") {
            "Stores cobblestone in a chest.".to_owned()
        } else {
            own_chest.to_owned()
        }
    });
    let skills = ScriptDir::new("read-whole-own-chest", &[]);
    let (world, _bot) = world_with_skilled_bot(&skills, &["--llm-url", &endpoint.base_url(), "--no-plan-from-words"]);
    world.cmd(json!({"cmd": "setBlock", "x": 3, "y": 64, "z": -2, "block": "chest"}));
    give(&world, "Wayfarer", "cobblestone", 16);
    give(&world, "Wayfarer", "chest", 1);
    bot_sees(&world, "Wayfarer", "chest", 1);
    let goal = "put 8 cobblestone in the chest";
    let from = world.say("Alice", &format!("!task {goal}"));
    world.expect_chat(from, "Wayfarer", "the chest at 3 64 -2 was broken, not filled", Duration::from_secs(240));
    world.expect_chat(from, "Wayfarer", &format!("I failed task: {goal}"), Duration::from_secs(240));
    let said = world.chat_since(from);
    assert!(!said.iter().any(|l| l.starts_with(&format!("I succeeded in task: {goal}"))), "{said:?}");
    assert_ne!(block(&world, [3, 64, -2]), "chest", "the world shows the chest that stood broken");
}

/// A goal with no verb that still says how many and into which chest is read whole with no LLM call (the thing and
/// the chest say it is stored; the LLM's form read it before, held to the words): the ingots are in the chest beside
/// the gold block and not in the other one.
#[test]
fn a_goal_with_no_verb_that_names_a_chest_is_read_and_done() {
    let (_runtime, endpoint, calls) = reader_only(
        r#"{"effect": "store", "block": "gold_ingot", "count": 4, "side": "next_to", "beside": "gold_block"}"#,
    );
    let (world, _bot) = world_with_bot_args(&["--llm-url", &endpoint.base_url()]);
    world.cmd(json!({"cmd": "setBlock", "x": -3, "y": 64, "z": 3, "block": "chest"}));
    world.cmd(json!({"cmd": "setBlock", "x": -4, "y": 64, "z": 3, "block": "gold_block"}));
    world.cmd(json!({"cmd": "setBlock", "x": 3, "y": 64, "z": -2, "block": "chest"}));
    give(&world, "Wayfarer", "gold_ingot", 8);
    bot_sees(&world, "Wayfarer", "gold_ingot", 8);
    let goal = "4 gold ingots in the chest thats next to the gold block, pls";
    done_as_read(&world, goal, "as: 4 gold_ingot put into the chest next to a gold_block.", Duration::from_secs(90));
    let (named, contents) = container_count(&world, [-3, 64, 3], "gold_ingot");
    assert_eq!(named, 4, "the chest beside the gold block holds them: {contents}");
    assert_eq!(container_count(&world, [3, 64, -2], "gold_ingot").0, 0, "the other chest holds none");
    assert_eq!(*calls.lock().unwrap(), 0);
}

/// A chest named by one neighbour and not another, a chest named only by what it is not beside (`the chest that
/// isn't next to the iron block`: not the nearest), a chest named in a remark before the goal (`the chest by the
/// iron block, shove 3 bread in it`), and a block put on a named compass side of another: each where the words say,
/// as the world has it.
#[test]
fn a_chest_named_by_its_neighbours_and_a_block_on_a_compass_side_are_the_ones_asked() {
    let (world, _bot) = world_with_bot_args(&[]);
    // The nearer chest stands by a diamond block and by the iron block; the farther one by a diamond block only.
    for (at, kind) in [
        ([3, 64, -2], "chest"),
        ([4, 64, -2], "diamond_block"),
        ([3, 64, -3], "iron_block"),
        ([-3, 64, 4], "chest"),
        ([-4, 64, 4], "diamond_block"),
        ([-3, 64, -1], "gold_block"),
    ] {
        let [x, y, z] = at;
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": y, "z": z, "block": kind}));
    }
    give(&world, "Wayfarer", "coal", 8);
    give(&world, "Wayfarer", "bread", 6);
    give(&world, "Wayfarer", "stone", 4);
    bot_sees(&world, "Wayfarer", "stone", 4);

    let goal = "put 4 coal in the chest beside the diamond block, not the one by the iron block";
    done_as_read(
        &world,
        goal,
        "as: 4 coal put into the chest next to a diamond_block, not the one next to a iron_block.",
        Duration::from_secs(90),
    );
    only_in(&world, [-3, 64, 4], [3, 64, -2], "coal", 4);

    // Before, the reader had no chest for words that only say what it is not beside: the goal went to an LLM.
    give(&world, "Wayfarer", "apple", 3);
    bot_sees(&world, "Wayfarer", "apple", 3);
    let goal = "stick 2 apples in the chest that isn't next to the iron block";
    done_as_read(&world, goal, "as: 2 apple put into the chest not next to a iron_block.", Duration::from_secs(90));
    only_in(&world, [-3, 64, 4], [3, 64, -2], "apple", 2);

    let goal = "the chest by the iron block, shove 3 bread in it";
    done_as_read(&world, goal, "as: 3 bread put into the chest next to a iron_block.", Duration::from_secs(90));
    let (bread, contents) = container_count(&world, [3, 64, -2], "bread");
    assert_eq!(bread, 3, "the chest by the iron block holds the bread: {contents}");

    let goal = "place a stone block on the north side of the gold block";
    done_as_read(&world, goal, "as: 1 stone placed on the north side of a gold_block.", Duration::from_secs(90));
    // North is -Z: the stone stands at the gold block's north face, and on none of its other sides.
    assert_eq!(block(&world, [-3, 64, -2]), "stone", "stone on the gold block's north side");
    for side in [[-3, 64, 0], [-2, 64, -1], [-4, 64, -1]] {
        assert_ne!(block(&world, side), "stone", "no stone at {side:?}");
    }

    // A tower given two sides is solid: 2 by 2 and 2 high, eight blocks.
    give(&world, "Wayfarer", "cobblestone", 8);
    bot_sees(&world, "Wayfarer", "cobblestone", 8);
    let goal = "build a 2x2 tower of cobblestone 2 high";
    done_as_read(
        &world,
        goal,
        "as: a solid block 2 by 2 and 2 high of cobblestone, on open ground beside me.",
        Duration::from_secs(90),
    );
    let cobble = where_stands(&world, "cobblestone");
    let solid = cobble
        .iter()
        .any(|[x, y, z]| (0..2).all(|h| (0..2).all(|i| (0..2).all(|j| cobble.contains(&[x + i, y + h, z + j])))));
    assert!(solid, "eight cobblestone stand 2 by 2 and 2 high: {cobble:?}");
}

/// `the 4 dirt blocks i put down` picks four dirt out from the dirt of the ground by who put them there, which no
/// reader has words for: the second reader's `dig 4 dirt` drops it and is not used, the owner is asked, and nothing
/// is dug. Before, the words were read as any four dirt, the nearest dug from under the grass, and the goal's check,
/// built from that reading, said done.
#[test]
fn dirt_chosen_by_who_put_it_down_is_asked_about_not_dug_from_the_ground() {
    let (_runtime, endpoint, calls) = reader_only(r#"{"effect": "dig", "block": "dirt", "count": 4}"#);
    let (world, _bot) = world_with_bot_args(&["--llm-url", &endpoint.base_url()]);
    let put = [[2, 64, -2], [-2, 64, 2], [3, 64, 3], [-3, 64, -1]];
    for [x, y, z] in put {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": y, "z": z, "block": "dirt"}));
    }
    give(&world, "Wayfarer", "wooden_shovel", 1);
    bot_sees(&world, "Wayfarer", "wooden_shovel", 1);
    asked_and_left_alone(&world, "dig up the 4 dirt blocks i put down", "blockBroken");
    assert_eq!(*calls.lock().unwrap(), 1, "the second reader was asked once");
    for at in put {
        assert_eq!(block(&world, at), "dirt", "{at:?} stands");
    }
}

/// Sand on the ground asked all dug in Chinese (`把地上那几块沙子都挖掉吧`, with its `掉`, "away") is read by the
/// vocabulary, with no LLM, as every sand near the bot, and all five are dug. Before, `掉` was unknown: with no LLM
/// the goal was refused, and a model's translation (`mine the sand`) made it one sand, got and claimed.
#[test]
fn sand_asked_all_dug_in_chinese_is_all_dug_with_no_llm() {
    let (world, _bot) = world_with_bot_args(&["--owner", "Chen"]);
    world.add_player("Chen", [-1.5, 64.0, 3.5]);
    let sand = [[3, 64, 1], [-2, 64, -3], [1, 64, -4], [-4, 64, 3], [2, 64, 4]];
    for [x, y, z] in sand {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": y, "z": z, "block": "sand"}));
    }
    give(&world, "Wayfarer", "wooden_shovel", 1);
    bot_sees(&world, "Wayfarer", "wooden_shovel", 1);
    let from = world.say("Chen", "!task 把地上那几块沙子都挖掉吧");
    world.expect_chat(from, "Wayfarer", "明白了：dig sand all", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "任务完成：dig sand all", Duration::from_secs(120));
    for at in sand {
        assert_eq!(block(&world, at), "air", "{at:?} dug");
    }
}

/// A translation that drops the `all` the owner wrote (`toda la arena` read as `dig the sand`, planned as one sand)
/// is not started: the owner is told in Spanish what was left out, after the one translation call, and every sand
/// still stands.
#[test]
fn a_translation_that_drops_all_is_not_started() {
    let (_runtime, endpoint, calls) = translator_only(|_| ("Spanish", "dig the sand"));
    let (world, _bot) = world_with_bot_args(&["--owner", "Elena", "--llm-url", &endpoint.base_url()]);
    world.add_player("Elena", [-1.5, 64.0, 3.5]);
    let sand = [[3, 64, 1], [-2, 64, -3], [1, 64, -4]];
    for [x, y, z] in sand {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": y, "z": z, "block": "sand"}));
    }
    give(&world, "Wayfarer", "wooden_shovel", 1);
    bot_sees(&world, "Wayfarer", "wooden_shovel", 1);
    let from = world.say("Elena", "!task oye excava toda la arena de por aquí que estorba");
    let told = world.expect_chat(from, "Wayfarer", "Leí \"oye excava", Duration::from_secs(20));
    // The model's English as the planner reads it: one sand.
    assert!(told.contains("como \"mine 1 sand\", que deja fuera el \"all\" que escribiste"), "{told}");
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(*calls.lock().unwrap(), 1, "one translation call");
    let broken: Vec<_> = world.events_since(from).into_iter().filter(|e| e["event"] == "blockBroken").collect();
    assert!(broken.is_empty(), "dug on a translation that dropped \"all\": {broken:?}");
    for at in sand {
        assert_eq!(block(&world, at), "sand", "{at:?} stands");
    }
}

/// A handover asked in Vietnamese with a word the vocabulary does not know goes to the translator; a translation that
/// makes it anything but a handover (here, bread to craft) is not started: the ninth set's false success, where the
/// bot carried the bread, said it already had it and claimed the goal while the owner got nothing. Likewise a
/// placing made crafting (the tenth set's `stell ne werkbank … neben den eisenblock`, claimed as a table crafted).
#[test]
fn a_translation_that_drops_the_deed_asked_is_not_started() {
    let (_runtime, endpoint, calls) = translator_only(|request| match request.contains("werkbank") {
        true => ("German", "craft crafting_table west of iron"),
        false => ("Vietnamese", "craft 4 bread"),
    });
    let (world, _bot) = world_with_bot_args(&["--llm-url", &endpoint.base_url()]);
    world.cmd(json!({"cmd": "setBlock", "x": 3, "y": 64, "z": 2, "block": "iron_block"}));
    give(&world, "Wayfarer", "crafting_table", 1);
    give(&world, "Wayfarer", "bread", 6);
    bot_sees(&world, "Wayfarer", "bread", 6);
    bot_sees(&world, "Wayfarer", "crafting_table", 1);

    let from = world.say("Alice", "!task stell ne werkbank direkt westlich neben den eisenblock, dankeschön");
    let told = world.expect_chat(from, "Wayfarer", "Ich habe \"stell ne werkbank", Duration::from_secs(20));
    assert!(told.contains("das lässt die \"place\" weg"), "{told}");
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(*calls.lock().unwrap(), 1, "one translation call");
    assert!(where_stands(&world, "crafting_table").is_empty(), "no table placed");
    let claimed = world.chat_since(from).into_iter().any(|line| line.contains("geschafft"));
    assert!(!claimed, "nothing claimed");

    let from = world.say("Alice", "!task cho mình 4 ổ bánh mì thơm ngon với");
    let told = world.expect_chat(from, "Wayfarer", "Tôi đọc \"cho mình", Duration::from_secs(20));
    assert!(told.contains("thành \"craft 4 bread\", bỏ mất \"give\""), "{told}");
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(*calls.lock().unwrap(), 2, "one translation call each");
    let claimed = world.chat_since(from).into_iter().any(|line| line.contains("hoàn thành"));
    assert!(!claimed, "nothing claimed");
    assert_eq!(inventory_count(&world, "Wayfarer", "bread"), 6, "the bread is still carried");
}

/// A block asked under one that stands on the ground goes where the ground was: the grass under the gold block is
/// dug and the stone put there, from the words, with no LLM. Before, there was no room under it and the step failed.
#[test]
fn a_block_asked_under_one_on_the_ground_takes_the_ground_s_place() {
    let (world, _bot) = world_with_bot_args(&[]);
    world.cmd(json!({"cmd": "setBlock", "x": 3, "y": 64, "z": -2, "block": "gold_block"}));
    give(&world, "Wayfarer", "stone", 4);
    give(&world, "Wayfarer", "iron_shovel", 1);
    bot_sees(&world, "Wayfarer", "iron_shovel", 1);
    let goal = "put a stone block underneath the gold block";
    done_as_read(&world, goal, "as: 1 stone placed under a gold_block.", Duration::from_secs(90));
    assert_eq!(block(&world, [3, 63, -2]), "stone", "stone where the grass was");
    assert_eq!(block(&world, [3, 64, -2]), "gold_block", "the gold block stands");
}

/// Shapes and sizes worded as players word them: a cube given three sides (`a solid 2x2x2 cube`) is a solid block;
/// a wall whose sizes come word first (`长5格高2格`, read `long 5 high 2`) is that wall; a `go` after the goal is the
/// word to start, not a walk.
#[test]
fn a_cube_a_wall_sized_word_first_and_a_go_after_the_goal_are_built_as_asked() {
    let (world, _bot) = world_with_bot_args(&["--owner", "Chen"]);
    world.add_player("Chen", [-1.5, 64.0, 3.5]);
    give(&world, "Wayfarer", "dirt", 32);
    give(&world, "Wayfarer", "cobblestone", 16);
    bot_sees(&world, "Wayfarer", "cobblestone", 16);
    let goal = "yo build a solid 2x2x2 cube of dirt. go";
    done_as_read(&world, goal, "as: a solid block 2 by 2 and 2 high of dirt", Duration::from_secs(120));
    let cube = (-8..=8).flat_map(|x| (-8..=8).map(move |z| (x, z))).find(|&(x, z)| {
        (0..2).all(|dx| (0..2).all(|dz| (64..66).all(|y| block(&world, [x + dx, y, z + dz]) == "dirt")))
    });
    assert!(cube.is_some(), "a 2x2x2 cube of dirt: {:?}", where_stands(&world, "dirt"));

    let from = world.say("Chen", "!task 帮我用圆石搭一堵墙，长5格高2格");
    world.expect_chat(from, "Wayfarer", "明白了：", Duration::from_secs(10));
    world.expect_chat(from, "Wayfarer", "任务完成：", Duration::from_secs(150));
    let cobble = where_stands(&world, "cobblestone");
    let rows = |y: i64| cobble.iter().filter(|p| p[1] == y).count();
    assert!(cobble.len() == 10 && rows(64) == 5 && rows(65) == 5, "a wall 5 long, 2 high: {cobble:?}");
}

/// A wall asked with a verb that also throws things (`throw up a glass wall 3 across n 2 up`) stands as a wall: it was
/// read as six glass handed over, to no one named, done and claimed with no wall standing. A place said before the
/// goal with no comma (`on the south side of the gold block put a dirt`) is where the dirt goes: it was asked about.
#[test]
fn a_wall_thrown_up_stands_and_a_place_said_first_holds() {
    let (world, _bot) = world_with_bot_args(&[]);
    world.cmd(json!({"cmd": "setBlock", "x": 3, "y": 64, "z": -3, "block": "gold_block"}));
    give(&world, "Wayfarer", "glass", 8);
    give(&world, "Wayfarer", "dirt", 2);
    bot_sees(&world, "Wayfarer", "dirt", 2);

    let goal = "throw up a glass wall 3 across n 2 up";
    done_as_read(&world, goal, "as: a wall 3 long and 2 high of glass", Duration::from_secs(150));
    let glass = where_stands(&world, "glass");
    let rows: std::collections::BTreeSet<i64> = glass.iter().map(|p| p[1]).collect();
    assert_eq!((glass.len(), rows.len()), (6, 2), "six glass standing in two rows: {glass:?}");

    let goal = "on the south side of the gold block put a dirt";
    done_as_read(&world, goal, "on the south side of a gold_block", Duration::from_secs(90));
    assert_eq!(block(&world, [3, 64, -2]), "dirt", "the dirt stands south of the gold block");
}

/// A thing stored as the owner's with no number (`put the coal in the chest by the furnace`) is all the bot carries:
/// it was read as one coal, one was stored, and the goal was claimed with fifteen still in the bot's hands.
#[test]
fn the_coal_put_in_the_chest_is_all_of_it() {
    let (world, _bot) = world_with_bot_args(&[]);
    world.cmd(json!({"cmd": "setBlock", "x": 3, "y": 64, "z": -2, "block": "chest"}));
    world.cmd(json!({"cmd": "setBlock", "x": 4, "y": 64, "z": -2, "block": "furnace"}));
    world.cmd(json!({"cmd": "setBlock", "x": -3, "y": 64, "z": 4, "block": "chest"}));
    give(&world, "Wayfarer", "coal", 16);
    bot_sees(&world, "Wayfarer", "coal", 16);
    let goal = "put the coal in the chest by the furnace";
    done_as_read(&world, goal, "(all the coal I carry)", Duration::from_secs(90));
    only_in(&world, [3, 64, -2], [-3, 64, 4], "coal", 16);
}

/// The same in French, read from the vocabulary with no LLM: all the coal (the reading left `all` to count, so the
/// goal went to a translation before, and with no LLM none came).
#[test]
fn the_coal_put_in_the_chest_in_french_is_all_of_it() {
    let (world, _bot) = world_with_bot_args(&[]);
    world.cmd(json!({"cmd": "setBlock", "x": 3, "y": 64, "z": -2, "block": "chest"}));
    world.cmd(json!({"cmd": "setBlock", "x": 4, "y": 64, "z": -2, "block": "furnace"}));
    world.cmd(json!({"cmd": "setBlock", "x": -3, "y": 64, "z": 4, "block": "chest"}));
    give(&world, "Wayfarer", "coal", 10);
    bot_sees(&world, "Wayfarer", "coal", 10);
    let from = world.say("Alice", "!task mets le charbon dans le coffre a cote du four");
    world.expect_chat(from, "Wayfarer", "J'ai réussi la tâche", Duration::from_secs(90));
    only_in(&world, [3, 64, -2], [-3, 64, 4], "coal", 10);
}

/// Blocks to break near the bot are the ones standing in the open first (`the 3 stone blocks sitting on the grass by
/// you`): before, the third one dug was a stone five blocks under the bot's feet, reached by digging down through
/// the ground, and its count of three said done with one of the three still standing.
#[test]
fn blocks_broken_near_the_bot_are_the_ones_in_the_open() {
    let (world, _bot) = world_with_bot_args(&[]);
    let stones = [[-2, 64, 3], [-3, 64, 3], [-4, 64, 3]];
    for [x, y, z] in stones {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": y, "z": z, "block": "stone"}));
    }
    give(&world, "Wayfarer", "stone_pickaxe", 1);
    bot_sees(&world, "Wayfarer", "stone_pickaxe", 1);
    let goal = "can you break the 3 stone blocks sitting on the grass by you";
    done_as_read(&world, goal, "as: 3 stone dug near me.", Duration::from_secs(120));
    for at in stones {
        assert_ne!(block(&world, at), "stone", "the stone at {at:?} is broken");
    }
    assert_eq!(block(&world, [0, 63, 0]), "grass_block", "the ground under the bot is whole");
}

/// A hole asked where the bot stands (`dig a hole 3 deep right where ur standing`) is dug straight down under its
/// feet: it was asked about (the only hole the reader knew was dug beside the bot).
#[test]
fn a_hole_asked_where_the_bot_stands_is_dug_under_it() {
    let (world, _bot) = world_with_bot_args(&[]);
    give(&world, "Wayfarer", "stone_shovel", 1);
    bot_sees(&world, "Wayfarer", "stone_shovel", 1);
    let [x, y, z] = feet(&world, "Wayfarer");
    let goal = "dig a hole 3 deep right where ur standing";
    done_as_read(&world, goal, "as: a hole 3 deep, dug where I stand.", Duration::from_secs(90));
    for depth in 1..=3 {
        assert_eq!(block(&world, [x, y - depth, z]), "air", "the cell {depth} under the bot's first spot is dug");
    }
}
