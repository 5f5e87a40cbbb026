//! Two bot processes with folders of their own and one store (`--store`): a skill dropped into one folder is run by
//! `!run` in the other within 2 s; an edit follows, a broken edit stays where it was made (its hot reload keeps the
//! last good version) and reaches no one, and one stored by other means is refused where it arrives; the same skill
//! learned in both at once is kept as two versions; with the database stopped mid-run `!status` says so, the bots go
//! on from their folders, and what was learned (and the goals given) meanwhile arrive when it is back; a bot whose
//! machine dies mid-goal goes on with it from the store on another.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use wayfarer::store::{Store, Stored, StoredGoal};

use crate::support::{pg, *};

fn folder(tag: &str) -> PathBuf {
    fresh_dir(&format!("fleet-{tag}"))
}

fn write_skill(dir: &Path, name: &str, description: &str, code: &str) {
    std::fs::write(dir.join(format!("{name}.json")), format!("{{\"description\": \"{description}\"}}")).unwrap();
    std::fs::write(dir.join(format!("{name}.rhai")), code).unwrap();
}

/// `!run NAME` as `bot` answers it: the line that says it finished or failed.
fn run_on(world: &World, bot: &str, name: &str) -> String {
    run_script_on(world, bot, name, Duration::from_secs(20))
}

fn status_of(world: &World, bot: &str, needle: &str) -> String {
    let from = world.say("Alice", "!status");
    world.expect_chat(from, bot, needle, Duration::from_secs(10))
}

#[test]
fn bots_on_one_store_share_skills_and_keep_working_through_an_outage() {
    let cluster = pg::OwnCluster::start("fleet");
    let store = cluster.connection();
    let world = World::start();
    world.add_player("Alice", [3.5, 64.0, 3.5]);
    let (maple_dir, birch_dir) = (folder("maple"), folder("birch"));
    let start = |name: &str, dir: &Path| {
        let args = ["--username", name, "--owner", "Alice", "--skills", dir.to_str().unwrap(), "--store", &store];
        let bot = Bot::start(&world.address(), &args);
        bot.expect_log(&format!("{name} spawned at"), Duration::from_secs(60));
        bot.expect_log("store: in step with", Duration::from_secs(10));
        bot
    };
    let maple = start("Maple", &maple_dir);
    let birch = start("Birch", &birch_dir);
    status_of(&world, "Birch", "Store: in step with wf@");

    // A skill dropped into Maple's folder is Birch's within 2 s, and runs there.
    write_skill(&maple_dir, "digHole", "Digs a hole and says how deep.", "fn digHole() { 40 + 2 }\n");
    maple.expect_log("store: digHole stored as version 1", Duration::from_secs(10));
    let stored = Instant::now();
    birch.expect_log("store: digHole version 1 came in", Duration::from_secs(5));
    let took = stored.elapsed();
    eprintln!("a new skill reached the other process in {} ms", took.as_millis());
    assert!(took < Duration::from_secs(2), "the skill took {took:?} to reach the other process");
    let done = run_on(&world, "Birch", "digHole");
    assert!(done.starts_with("digHole finished") && done.contains(": 42"), "{done}");
    assert_eq!(std::fs::read_to_string(birch_dir.join("digHole.rhai")).unwrap(), "fn digHole() { 40 + 2 }\n");

    // An edit follows as version 2.
    std::fs::write(maple_dir.join("digHole.rhai"), "fn digHole() { 7 }\n").unwrap();
    birch.expect_log("store: digHole version 2 came in", Duration::from_secs(10));
    let done = run_on(&world, "Birch", "digHole");
    assert!(done.contains(": 7"), "{done}");

    // A broken edit is refused where it was made (the last good version stays) and reaches no one.
    std::fs::write(maple_dir.join("digHole.rhai"), "fn digHole() {\n  let = ;\n}\n").unwrap();
    maple.expect_log("digHole.rhai line 2", Duration::from_secs(10));
    std::thread::sleep(Duration::from_secs(2));
    assert!(!birch.log_text().contains("digHole version 3"), "a broken version travelled");
    assert_eq!(std::fs::read_to_string(birch_dir.join("digHole.rhai")).unwrap(), "fn digHole() { 7 }\n");
    let done = run_on(&world, "Maple", "digHole");
    assert!(done.contains(": 7"), "Maple keeps its last good version: {done}");

    // A broken version put into the store by other means is reported where it arrives, the last good version kept,
    // and not sent back as a change.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let versions = runtime.block_on(async {
        let mut direct = Store::connect(&store).await.unwrap();
        let mut broken = direct.skill_versions("digHole").await.unwrap().pop().unwrap();
        broken.code = "fn digHole() {\n  let = ;\n}\n".to_owned();
        assert_eq!(direct.put_skill(&broken).await.unwrap(), Stored::New(3));
        tokio::time::sleep(Duration::from_secs(2)).await;
        direct.skill_versions("digHole").await.unwrap().len()
    });
    birch.expect_log("store: digHole version 3: ", Duration::from_secs(5));
    assert_eq!(versions, 3, "a process sent its last good version back as a change");
    let done = run_on(&world, "Birch", "digHole");
    assert!(done.contains(": 7"), "Birch keeps its last good version: {done}");

    // The same skill learned in both processes at once: both are kept, as two versions, and both folders end with
    // the later one.
    write_skill(&maple_dir, "fetchWater", "Fills a bucket.", "fn fetchWater() { \"maple\" }\n");
    write_skill(&birch_dir, "fetchWater", "Fills a bucket.", "fn fetchWater() { \"birch\" }\n");
    maple.expect_log("store: fetchWater stored as version", Duration::from_secs(10));
    birch.expect_log("store: fetchWater stored as version", Duration::from_secs(10));
    let kept =
        runtime.block_on(async { Store::connect(&store).await.unwrap().skill_versions("fetchWater").await.unwrap() });
    let mut codes: Vec<&str> = kept.iter().map(|s| s.code.as_str()).collect();
    codes.sort_unstable();
    assert_eq!(codes, ["fn fetchWater() { \"birch\" }\n", "fn fetchWater() { \"maple\" }\n"]);
    assert_eq!(kept.iter().map(|s| s.version).collect::<Vec<_>>(), [1, 2]);
    let until = Instant::now() + Duration::from_secs(5);
    while std::fs::read_to_string(maple_dir.join("fetchWater.rhai")).unwrap() != kept[1].code
        || std::fs::read_to_string(birch_dir.join("fetchWater.rhai")).unwrap() != kept[1].code
    {
        assert!(Instant::now() < until, "the folders did not both take version 2");
        std::thread::sleep(Duration::from_millis(100));
    }

    // The database goes away mid-run: both say so, and go on from their folders.
    cluster.stop();
    for bot in [&maple, &birch] {
        bot.expect_log("working from the local skills until it is back", Duration::from_secs(10));
    }
    let said = status_of(&world, "Birch", "Store unreachable");
    assert!(said.contains("working from the local skills"), "{said}");
    // What Maple learns meanwhile waits in its folder.
    write_skill(&maple_dir, "plankUp", "Counts planks.", "fn plankUp() { 8 }\n");
    maple.expect_log("skill plankUp loaded", Duration::from_secs(10));
    let done = run_on(&world, "Maple", "plankUp");
    assert!(done.contains(": 8"), "{done}");
    // The count is kept current four times a second.
    let mut heard = Vec::new();
    let waiting = (0..10).find_map(|_| {
        let said = status_of(&world, "Maple", "Store unreachable");
        heard.push(said.clone());
        std::thread::sleep(Duration::from_millis(300));
        said.contains("1 to write when it is back").then_some(said)
    });
    assert!(waiting.is_some(), "Maple never said a skill waits to be written: {heard:#?}");

    // A goal given meanwhile changes Maple's book; it waits too.
    let from = world.say("Alice", "Maple !task build a lookout tower");
    world.expect_chat(from, "Maple", "I failed task: build a lookout tower", Duration::from_secs(60));
    assert!(goals_of(&runtime, &store, "Maple").is_err(), "the store is still down");

    // Back: what was learned meanwhile is written, and reaches Birch; the goal is written; nothing is lost.
    cluster.start_again();
    birch.expect_log("store: plankUp version 1 came in", Duration::from_secs(30));
    let until = Instant::now() + Duration::from_secs(10);
    let goal = loop {
        let goals = goals_of(&runtime, &store, "Maple").unwrap_or_default();
        if let Some(goal) = goals.into_iter().find(|g| g.text == "build a lookout tower") {
            break goal;
        }
        assert!(Instant::now() < until, "the goal given during the outage never reached the store");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!((goal.key.as_str(), goal.status.as_str()), ("Maple#1", "failed"));

    // Maple's machine dies mid-goal, and Maple starts on another with empty folders: its goal comes back from the
    // store and goes on where it was.
    let from = world.say("Alice", "Maple !task get 12 dirt");
    world.expect_chat(from, "Maple", "I will start task: Mine 12 dirt", Duration::from_secs(20));
    let until = Instant::now() + Duration::from_secs(5);
    while !goals_of(&runtime, &store, "Maple")
        .unwrap()
        .iter()
        .any(|g| g.key == "Maple#2" && g.book.contains("\"start\""))
    {
        assert!(Instant::now() < until, "the goal under way never reached the store");
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(maple);
    let elsewhere = folder("maple-elsewhere");
    let from = world.say("Alice", "!status");
    let maple = start("Maple", &elsewhere);
    maple.expect_log("Maple: goal Maple#2 (get 12 dirt) came back from the store as #1", Duration::from_secs(5));
    world.expect_chat(from, "Maple", "Going on with get 12 dirt: 0 of 1 tasks were done.", Duration::from_secs(20));
    world.expect_chat(from, "Maple", "I succeeded in task: get 12 dirt", Duration::from_secs(120));
    assert!(inventory_count(&world, "Maple", "dirt") >= 12);
    let done = goals_of(&runtime, &store, "Maple").unwrap();
    let until = Instant::now() + Duration::from_secs(5);
    let mut done = done;
    while !done.iter().any(|g| g.key == "Maple#2" && g.status == "completed") {
        assert!(Instant::now() < until, "the goal's end never reached the store: {done:#?}");
        std::thread::sleep(Duration::from_millis(100));
        done = goals_of(&runtime, &store, "Maple").unwrap();
    }
    let done = run_on(&world, "Birch", "plankUp");
    assert!(done.contains(": 8"), "{done}");
    status_of(&world, "Birch", "Store: in step with");
}

/// `owner`'s goals in the store, or why they cannot be read.
fn goals_of(runtime: &tokio::runtime::Runtime, store: &str, owner: &str) -> Result<Vec<StoredGoal>, String> {
    runtime.block_on(async {
        let direct = Store::connect(store).await.map_err(|err| err.to_string())?;
        direct.goals_of(owner).await.map_err(|err| err.to_string())
    })
}
