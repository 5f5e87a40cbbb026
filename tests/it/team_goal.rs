//! Teams in a natural world with a scripted LLM: a leader plans `!team GOAL` in stages, hands each member one job
//! over chat, judges the members' reports, and plans the next stage from its verdicts. Members gather in parallel,
//! deliver to the leader, and the leader assembles; a failed job and a member that leaves are planned around; a
//! leader in one process commands a member in another; and bots take no orders from anyone else's leader.

use crate::support;

use std::time::Duration;

use support::{fake_llm::FakeEndpoint, *};

/// A natural world with trees and stone near spawn (the seed `task_from_facts` uses), no monsters.
const SEED: u64 = 1009;

fn leader_prompts(endpoint: &FakeEndpoint) -> Vec<String> {
    endpoint.requests().iter().map(last_user_message).filter(|m| m.starts_with("You lead a team")).collect()
}

/// The world, with Alice (the owner) and a stranger beside spawn.
fn world() -> World {
    let world = World::start_natural(SEED, &["--mobs", "off"]);
    let (sx, sz) = world.spawn_column();
    world.add_player("Alice", [sx as f64 + 2.5, world.ground_y(sx + 2, sz + 2) as f64, sz as f64 + 2.5]);
    world.add_player("Rival_1", [sx as f64 - 2.5, world.ground_y(sx - 3, sz - 3) as f64, sz as f64 - 2.5]);
    world
}

#[test]
fn two_workers_gather_deliver_and_the_leader_makes_a_stone_pickaxe() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = scripted_leader(
        &runtime,
        &[
            "{\"reasoning\": \"logs and cobblestone can be gathered side by side\", \"plan\": [\"stage 1: Crew_2 gets logs, \
         Crew_3 gets cobblestone\", \"stage 2: both deliver to Crew_1\", \"stage 3: Crew_1 crafts\"], \"assignments\": \
         [\"notify Crew_2 get 3 logs\", \"notify Crew_3 get 3 cobblestone\"]}",
            "```json\n{\"plan\": \"deliver, then craft\", \"assignments\": [\"notify Crew_2 give 3 logs to Crew_1\", \
         \"notify Crew_3 give 3 cobblestone to Crew_1\"]}\n```",
            "{\"assignments\": [\"notify Crew_1 craft 1 stone_pickaxe\"]}",
        ],
    );
    let world = world();
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
            "--llm-url",
            &endpoint.base_url(),
        ],
    );
    for name in ["Crew_1", "Crew_2", "Crew_3"] {
        bot.expect_log(&format!("{name} spawned at"), Duration::from_secs(60));
    }

    // Another team's leader is not this team's: its orders are ignored.
    let from = world.say("Rival_1", "Crew_2 !task get 1 dirt");
    std::thread::sleep(Duration::from_secs(2));
    assert!(world.chat_since(from).iter().all(|l| !l.starts_with("<Crew_2>")), "{:?}", world.chat_since(from));

    let from = world.say("Alice", "Crew_1 !team make a stone pickaxe");
    let expect = |who: &str, needle: &str, secs: u64| world.expect_chat(from, who, needle, Duration::from_secs(secs));
    expect("Crew_1", "Leading Crew_2, Crew_3 on: make a stone pickaxe", 10);
    expect("Crew_2", "Inventory: empty", 10);
    expect("Crew_1", "Crew_2 !task get 3 logs", 15);
    expect("Crew_1", "Crew_3 !task get 3 cobblestone", 5);
    expect("Crew_2", "Got it!", 5);
    expect("Crew_3", "Got it!", 5);

    let status_from = world.say("Alice", "Crew_1 !team status");
    let status = world.expect_chat(status_from, "Crew_1", "Team goal: make a stone pickaxe", Duration::from_secs(5));
    assert!(status.contains("Crew_2: get 3 logs (") && status.contains("Crew_3: get 3 cobblestone ("), "{status}");

    expect("Crew_2", "I succeeded in task: get 3 logs", 180);
    expect("Crew_2", "My inventory is {", 5);
    expect("Crew_3", "I succeeded in task: get 3 cobblestone", 300);
    expect("Crew_1", "Crew_2 !task give 3 logs to Crew_1", 20);
    expect("Crew_1", "Crew_3 !task give 3 cobblestone to Crew_1", 5);
    expect("Crew_2", "I succeeded in task: give 3 logs to Crew_1", 60);
    expect("Crew_3", "I succeeded in task: give 3 cobblestone to Crew_1", 60);
    expect("Crew_1", "I will start task: Craft", 30);
    let done = expect("Crew_1", "Team goal done: make a stone pickaxe", 180);
    assert!(done.contains("Crew_1 has it"), "{done}");
    // Every job succeeded (a step may fail and be planned again on the way).
    assert!(done.contains("Crew_1: craft 1 stone_pickaxe; Crew_2: get 3 logs, give 3 logs to Crew_1; Crew_3: get 3 cobblestone, give 3 cobblestone to Crew_1"), "{done}");
    assert_eq!(inventory_count(&world, "Crew_1", "stone_pickaxe"), 1);

    // Three plannings, each told how the last stage went and what everyone carried.
    let prompts = leader_prompts(&endpoint);
    assert_eq!(prompts.len(), 3, "the goal was checked by the leader's inventory, not asked again");
    assert!(prompts[0].contains("Members: Crew_1, the leader: you (carrying nothing"), "{}", prompts[0]);
    assert!(
        prompts[1].contains("Crew_2 succeeded in \"get 3 logs\"")
            && prompts[1].contains("Crew_3 succeeded in \"get 3 cobblestone\""),
        "{}",
        prompts[1]
    );
    assert!(prompts[1].contains("Crew_3 (carrying") && prompts[1].contains(" cobblestone"), "{}", prompts[1]);
    assert!(prompts[1].contains("Plan so far: stage 1: Crew_2 gets logs"), "{}", prompts[1]);
    assert!(
        prompts[2].contains("] Crew_2: I succeeded in task: give 3 logs to Crew_1"),
        "the conversation is shown: {}",
        prompts[2]
    );
}

#[test]
fn a_failed_job_and_a_member_that_leaves_are_planned_around_across_processes() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = scripted_leader(
        &runtime,
        &[
            "{\"assignments\": [\"notify Hand build a lookout tower\", \"notify Boss get 1 log\"]}",
            "{\"assignments\": [\"notify Hand get 40 logs\", \"notify Boss get 2 logs\"]}",
            "{\"assignments\": [\"notify Boss get 5 logs\"]}",
            "{\"reasoning\": \"Boss has the logs\", \"done\": true}",
        ],
    );
    let world = world();
    let url = endpoint.base_url();
    let _leader = Bot::start(
        &world.address(),
        &["--username", "Boss", "--role", "leader", "--worker", "Hand", "--owner", "Alice", "--llm-url", &url],
    );
    let hand = Bot::start(
        &world.address(),
        &["--username", "Hand", "--leader", "Boss", "--owner", "Alice", "--llm-url", &url],
    );
    hand.expect_log("Hand spawned at", Duration::from_secs(60));
    _leader.expect_log("Boss spawned at", Duration::from_secs(60));

    let from = world.say("Alice", "Boss !team gather wood for a cabin");
    let expect = |who: &str, needle: &str, secs: u64| world.expect_chat(from, who, needle, Duration::from_secs(secs));
    // The member in the other process takes the job, cannot plan it, and says so; the leader plans around it.
    expect("Boss", "Hand !task build a lookout tower", 20);
    expect("Hand", "Got it!", 5);
    expect("Hand", "I failed task: build a lookout tower because", 30);
    expect("Boss", "I succeeded in task: get 1 log", 120);
    expect("Boss", "Hand !task get 40 logs", 30);
    expect("Hand", "I will start task:", 30);
    // The member leaves mid-job.
    drop(hand);
    expect("Boss", "I succeeded in task: get 2 logs", 120);
    expect("Boss", "I succeeded in task: get 5 logs", 180);
    let done = expect("Boss", "Team goal done: gather wood for a cabin", 30);
    assert!(done.contains("Boss has the logs") && done.contains("Boss: get 1 log, get 2 logs, get 5 logs"), "{done}");

    let prompts = leader_prompts(&endpoint);
    assert_eq!(prompts.len(), 4);
    // A tower of no height is asked about, not guessed: the member fails the job with what it did not understand.
    assert!(
        prompts[1].contains("Hand failed \"build a lookout tower\": I did not understand \"lookout tower\" in it"),
        "{}",
        prompts[1]
    );
    assert!(prompts[2].contains("Hand failed \"get 40 logs\": it left the game"), "{}", prompts[2]);
}

#[test]
fn an_owners_stop_ends_the_team_goal_and_every_members_job() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = scripted_leader(
        &runtime,
        &["{\"assignments\": [\"notify Crew_2 get 30 logs\", \"notify Crew_3 get 30 logs\"]}"],
    );
    let world = world();
    let bot = Bot::start(
        &world.address(),
        &["--username", "Crew", "--bots", "3", "--owner", "Alice", "--llm-url", &endpoint.base_url()],
    );
    for name in ["Crew_1", "Crew_2", "Crew_3"] {
        bot.expect_log(&format!("{name} spawned at"), Duration::from_secs(60));
    }
    // No bot leads until one is told to.
    let from = world.say("Alice", "Crew_1 !team get 60 logs");
    world.expect_chat(
        from,
        "Crew_1",
        "I don't lead a team. Start me with --role leader, or say Crew_1 !lead first.",
        Duration::from_secs(5),
    );
    let from = world.say("Alice", "Crew_1 !lead");
    world.expect_chat(from, "Crew_1", "I lead Crew_2, Crew_3 now.", Duration::from_secs(5));

    let from = world.say("Alice", "Crew_1 !team get 60 logs");
    world.expect_chat(from, "Crew_2", "I will start task:", Duration::from_secs(30));
    world.expect_chat(from, "Crew_3", "I will start task:", Duration::from_secs(30));
    let stop = world.say("Alice", "Crew_1 !stop");
    world.expect_chat(stop, "Crew_1", "Stopped leading the team: get 60 logs.", Duration::from_secs(5));
    world.expect_chat(stop, "Crew_1", "Crew_2 !stop", Duration::from_secs(5));
    world.expect_chat(stop, "Crew_2", "Stopped ", Duration::from_secs(10));
    world.expect_chat(stop, "Crew_3", "Stopped ", Duration::from_secs(10));
    let status = world.say("Alice", "!status");
    for name in ["Crew_1", "Crew_2", "Crew_3"] {
        let line = world.expect_chat(status, name, "At ", Duration::from_secs(5));
        assert!(line.ends_with("| idle"), "{name} still busy: {line}");
    }
    assert_eq!(leader_prompts(&endpoint).len(), 1);
}

#[test]
fn a_leader_restarted_mid_goal_takes_it_up_again() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = scripted_leader(
        &runtime,
        &[
            "{\"plan\": [\"stage 1: Hand gets logs\", \"stage 2: Hand hands them over\"], \"assignments\": [\"notify Hand get \
         2 logs\", \"notify Boss get 1 log\"]}",
            "{\"reasoning\": \"Hand has the logs it was asked for\", \"done\": true}",
        ],
    );
    let world = world();
    let checkpoint = ScriptDir::new("team-resume", &[]);
    let url = endpoint.base_url();
    let leader_args = [
        "--username",
        "Boss",
        "--role",
        "leader",
        "--worker",
        "Hand",
        "--owner",
        "Alice",
        "--llm-url",
        &url,
        "--checkpoint",
        checkpoint.path(),
    ];
    let leader = Bot::start(&world.address(), &leader_args);
    let hand = Bot::start(
        &world.address(),
        &["--username", "Hand", "--leader", "Boss", "--owner", "Alice", "--llm-url", &url],
    );
    leader.expect_log("Boss spawned at", Duration::from_secs(60));
    hand.expect_log("Hand spawned at", Duration::from_secs(60));

    let from = world.say("Alice", "Boss !team stock up on wood");
    world.expect_chat(from, "Boss", "Hand !task get 2 logs", Duration::from_secs(20));
    world.expect_chat(from, "Hand", "Got it!", Duration::from_secs(5));
    drop(leader);
    let back = world.cursor();
    let _leader = Bot::start(&world.address(), &leader_args);
    world.expect_chat(back, "Boss", "Going on with the team goal: stock up on wood.", Duration::from_secs(60));
    world.expect_chat(back, "Boss", "Hand !inventory", Duration::from_secs(10));
    world.expect_chat(back, "Boss", "Team goal done: stock up on wood", Duration::from_secs(60));

    let prompts = leader_prompts(&endpoint);
    assert_eq!(prompts.len(), 2);
    assert!(
        prompts[1].contains("Plan so far: stage 1: Hand gets logs; stage 2: Hand hands them over"),
        "{}",
        prompts[1]
    );
    assert!(
        prompts[1].contains("Hand: get 2 logs (outcome unknown: I restarted before it was reported)"),
        "{}",
        prompts[1]
    );
    let from = world.say("Alice", "Boss !goals");
    let goals = world.expect_chat(from, "Boss", "Goals, newest first:", Duration::from_secs(5));
    assert!(goals.contains("team goal stock up on wood: completed, stage 1"), "{goals}");
    assert!(
        goals.contains("get 1 log: stopped (the team goal was taken up again)")
            || goals.contains("get 1 log: completed"),
        "{goals}"
    );
}

#[test]
fn a_player_in_the_team_is_judged_from_what_they_say() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    let stages = std::sync::Mutex::new(std::collections::VecDeque::from([
        "{\"assignments\": [\"notify Steve get 3 logs\"]}",
        "{\"reasoning\": \"Steve has the logs\", \"done\": true}",
    ]));
    endpoint.respond_with(move |request| {
        let asked = last_user_message(request);
        if asked.starts_with("You check on one member") {
            "{\"reasoning\": \"Steve says he has three logs\", \"verdict\": \"success\"}".to_owned()
        } else if asked.starts_with("You lead a team") {
            let mut stages = stages.lock().unwrap();
            (if stages.len() > 1 { stages.pop_front().unwrap() } else { stages[0] }).to_owned()
        } else {
            "I am not sure.".to_owned()
        }
    });
    let world = world();
    world.add_player("Steve", [0.5, 80.0, 0.5]);
    let leader = Bot::start(
        &world.address(),
        &[
            "--username",
            "Boss",
            "--role",
            "leader",
            "--worker",
            "Steve",
            "--owner",
            "Alice",
            "--llm-url",
            &endpoint.base_url(),
        ],
    );
    leader.expect_log("Boss spawned at", Duration::from_secs(60));

    let from = world.say("Alice", "Boss !team stock up on wood");
    world.expect_chat(from, "Boss", "Steve !task get 3 logs", Duration::from_secs(20));
    world.say("Steve", "ok, on it");
    std::thread::sleep(Duration::from_secs(2));
    world.say("Steve", "done, I have three logs now");
    let done = world.expect_chat(from, "Boss", "Team goal done: stock up on wood", Duration::from_secs(40));
    assert!(done.contains("Steve: get 3 logs"), "{done}");
    let judged: Vec<String> = endpoint
        .requests()
        .iter()
        .map(last_user_message)
        .filter(|m| m.starts_with("You check on one member"))
        .collect();
    assert_eq!(judged.len(), 1, "judged once, after Steve went quiet");
    assert!(
        judged[0].contains("Job: get 3 logs")
            && judged[0].contains("] ok, on it\n")
            && judged[0].contains("] done, I have three logs now"),
        "{}",
        judged[0]
    );
}
