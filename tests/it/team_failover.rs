//! A team across three processes on one store (`--store`): a member's process is killed mid-job, and the leader
//! hands the job to an idle member, which takes the goal up from the store where the gone member left it (its plan
//! and the step under way, counted from what the new member carries) and finishes it in the world. The leader plans
//! no stage for it: the handover is not the LLM's to make. When the gone member's machine comes back, the store tells
//! it the goal is another's now.

use std::time::{Duration, Instant};

use serde_json::Value;
use wayfarer::store::Store;

use crate::support::{pg, *};

/// A natural world with trees near spawn (the seed the team tests use), no monsters.
const SEED: u64 = 1009;

#[test]
fn a_member_killed_mid_job_is_replaced_and_its_goal_goes_on_from_the_store() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = scripted_leader(
        &runtime,
        &["{\"assignments\": [\"notify Hand get 8 logs\"]}", "{\"reasoning\": \"Mate has the logs\", \"done\": true}"],
    );
    let store = pg::database("failover");
    let world = World::start_natural(SEED, &["--mobs", "off"]);
    let (sx, sz) = world.spawn_column();
    world.add_player("Alice", [sx as f64 + 2.5, world.ground_y(sx + 2, sz + 2) as f64, sz as f64 + 2.5]);
    let url = endpoint.base_url();
    let start = |name: &str, team: &[&str]| {
        let mut args = vec!["--username", name, "--owner", "Alice", "--llm-url", &url, "--store", &store];
        args.extend_from_slice(team);
        let bot = Bot::start(&world.address(), &args);
        bot.expect_log(&format!("{name} spawned at"), Duration::from_secs(60));
        bot
    };
    let boss = start("Boss", &["--role", "leader", "--worker", "Hand", "--worker", "Mate"]);
    let hands_checkpoint = ScriptDir::new("failover-hand", &[]);
    let hand_args = ["--leader", "Boss", "--checkpoint", hands_checkpoint.path()];
    let hand = start("Hand", &hand_args);
    let mate = start("Mate", &["--leader", "Boss"]);

    let from = world.say("Alice", "Boss !team set up a workshop");
    let expect = |who: &str, needle: &str, secs: u64| world.expect_chat(from, who, needle, Duration::from_secs(secs));
    expect("Boss", "Hand !task get 8 logs", 20);
    expect("Hand", "Plan for get 8 logs: Mine 8 ", 20);
    expect("Hand", "I will start task: Mine 8 ", 20);
    // Its book has the step begun (with what Hand carried then), in the store too, when its machine goes.
    let hands_goal = wait_for_goal(&runtime, &store, "Hand", |book| task_status(book, 0) == "active");
    drop(hand); // killed, as a machine that dies

    let handed = expect("Boss", "Hand is gone (it left the game); handing \"get 8 logs\" to Mate", 30);
    assert!(handed.ends_with("it goes on from where the goal book has it."), "{handed}");
    expect("Boss", "Mate !task get 8 logs", 5);
    expect("Mate", "Taking over get 8 logs from Hand, as the goal book has it.", 10);
    // It goes on with the plan from the store, not one of its own, counting from what it carries itself.
    expect("Mate", "Going on with get 8 logs: 0 of 1 tasks were done.", 10);
    expect("Mate", "I will start task: Mine 8 ", 10);
    expect("Mate", "I succeeded in task: get 8 logs", 240);
    let mates_lines: Vec<String> = world.chat_since(from).into_iter().filter(|l| l.starts_with("<Mate>")).collect();
    assert!(!mates_lines.iter().any(|l| l.contains("Plan for") || l.contains("I failed")), "{mates_lines:#?}");
    let done = expect("Boss", "Team goal done: set up a workshop", 30);
    assert!(done.contains("Mate: get 8 logs"), "{done}");

    // The world: Mate has the logs.
    let logs = world.cmd(serde_json::json!({"cmd": "inventory", "name": "Mate"}));
    let logs: u64 =
        logs.as_object().unwrap().iter().filter(|(k, _)| k.ends_with("_log")).filter_map(|(_, n)| n.as_u64()).sum();
    assert!(logs >= 8, "Mate carries {logs} logs");
    // The store: Hand's goal is Mate's now, finished by Mate, and Mate holds it once (no second goal of its own).
    let (taken, mates) = runtime.block_on(async {
        let direct = Store::connect(&store).await.unwrap();
        (direct.goal(&hands_goal).await.unwrap().unwrap(), direct.goals_of("Mate").await.unwrap())
    });
    assert_eq!((taken.owner.as_str(), taken.handed_from.as_deref()), ("Mate", Some("Hand")));
    wait_until(Duration::from_secs(5), || {
        runtime.block_on(async {
            let direct = Store::connect(&store).await.unwrap();
            direct.goal(&hands_goal).await.unwrap().unwrap().status == "completed"
        })
    });
    assert_eq!(mates.iter().filter(|g| g.text == "get 8 logs").count(), 1, "{mates:#?}");
    // The leader's team goal, with its handed-on job, is in the store as well (a moment after the book has it).
    let team_jobs = || {
        let team = runtime.block_on(async {
            let direct = Store::connect(&store).await.unwrap();
            direct.goals_of("Boss").await.unwrap().into_iter().find(|g| g.team).expect("the team goal is stored")
        });
        let book: Value = serde_json::from_str(&team.book).unwrap();
        let jobs: Vec<(String, String)> = book["plans"][0]["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t["task"].as_str().unwrap().to_owned(), t["status"].as_str().unwrap().to_owned()))
            .collect();
        (team.status, jobs)
    };
    let expected = (
        "completed".to_owned(),
        vec![
            ("Hand: get 8 logs".to_owned(), "failed".to_owned()),
            ("Mate: get 8 logs".to_owned(), "completed".to_owned()),
        ],
    );
    wait_until(Duration::from_secs(3), || team_jobs() == expected);

    // One planning for the work and one to end it: the handover took no LLM call.
    let prompts: Vec<String> =
        endpoint.requests().iter().map(last_user_message).filter(|m| m.starts_with("You lead a team")).collect();
    assert_eq!(prompts.len(), 2, "{prompts:#?}");
    assert!(prompts[1].contains("Mate succeeded in \"get 8 logs\""), "{}", prompts[1]);
    assert!(prompts[1].contains("Hand failed \"get 8 logs\": it left the game; handed to Mate"), "{}", prompts[1]);

    // Hand's machine comes back with the goal in its book: the store says it is Mate's now, so Hand stops it (before
    // or soon after it would have gone on with it) and writes nothing over Mate's record.
    let back = world.say("Alice", "!status");
    let hand = start("Hand", &hand_args);
    hand.expect_log("Hand: goal Hand#1 (get 8 logs) was handed to Mate; stopped here", Duration::from_secs(10));
    let from = world.say("Alice", "Hand !goals");
    let listed = world.expect_chat(from, "Hand", "Goals, newest first:", Duration::from_secs(10));
    assert!(listed.contains("#1 get 8 logs: stopped (it was handed to Mate)"), "{listed}");
    let book: Value = serde_json::from_str(
        &std::fs::read_to_string(hands_checkpoint.0.join("Hand").join("goals.json")).expect("Hand's book"),
    )
    .unwrap();
    let goal = &book["goals"][0];
    assert_eq!((goal["status"].as_str(), goal["reason"].as_str()), (Some("stopped"), Some("it was handed to Mate")));
    std::thread::sleep(Duration::from_secs(3));
    let hands_lines: Vec<String> = world.chat_since(back).into_iter().filter(|l| l.starts_with("<Hand>")).collect();
    assert!(!hands_lines.iter().any(|l| l.contains("I succeeded in task: get 8 logs")), "{hands_lines:#?}");
    let kept = runtime.block_on(async { Store::connect(&store).await.unwrap().goal(&hands_goal).await.unwrap() });
    let kept = kept.unwrap();
    assert_eq!((kept.owner.as_str(), kept.status.as_str()), ("Mate", "completed"));
    drop((boss, mate, hand));
}

/// The status of task `t` of a stored goal's first plan.
fn task_status(book: &Value, t: usize) -> String {
    book["plans"][0]["tasks"][t]["status"].as_str().unwrap_or_default().to_owned()
}

/// Waits for `owner`'s one stored goal to satisfy `ready`; returns its key.
fn wait_for_goal(
    runtime: &tokio::runtime::Runtime,
    store: &str,
    owner: &str,
    ready: impl Fn(&Value) -> bool,
) -> String {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let goals = runtime.block_on(async { Store::connect(store).await.unwrap().goals_of(owner).await.unwrap() });
        if let Some(goal) = goals.iter().find(|g| ready(&serde_json::from_str(&g.book).unwrap())) {
            return goal.key.clone();
        }
        assert!(Instant::now() < until, "{owner}'s goal never reached the store as expected: {goals:#?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn wait_until(limit: Duration, mut done: impl FnMut() -> bool) {
    let until = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < until, "not so within {limit:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
}
