//! The fleet's store in PostgreSQL: its schema steps run on an empty database and on one an older build left, a newer
//! one is refused untouched; the same skill stored by two processes at once keeps both as versions; skills move
//! between a folder and the store both ways with their versions (`wayfarer skills export` / `import`), and an
//! unreachable store is a clear error that changes nothing.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use wayfarer::store::{GoalWrite, SKILLS_CHANNEL, Store, StoreError, Stored, StoredGoal, StoredSkill, latest_schema};

use crate::support::{fresh_dir, pg, printed as text, skills_command as skills};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn skill(name: &str, body: &str, version: u32) -> StoredSkill {
    StoredSkill {
        name: name.to_owned(),
        version,
        code: format!("fn {name}() {{ {body} }}\n"),
        description: format!("Does {body}."),
        task: String::new(),
        created: "2026-11-28T00:00:00Z".to_owned(),
        embedding: Some(vec![0.5, -0.25]),
        model: Some("test-model/2".to_owned()),
        origin: "test".to_owned(),
    }
}

/// A plain client on the same database, to look at it as an operator would.
/// An active goal of `owner`'s book, as the store keeps it.
fn goal(key: &str, owner: &str, text: &str) -> StoredGoal {
    StoredGoal {
        key: key.to_owned(),
        owner: owner.to_owned(),
        handed_from: None,
        text: text.to_owned(),
        asked_by: "Boss".to_owned(),
        status: "active".to_owned(),
        team: false,
        book: format!("{{\"id\": 1, \"text\": \"{text}\", \"plans\": []}}"),
    }
}

/// JSON as a value: the store keeps a goal's book as `jsonb`, which orders the keys its own way.
fn same_json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

async fn client(connection: &str) -> tokio_postgres::Client {
    let (client, conn) = tokio_postgres::connect(connection, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    client
}

#[test]
fn schema_steps_run_on_an_empty_database_and_on_one_from_the_previous_schema() {
    runtime().block_on(async {
        // Empty: every step.
        let empty = pg::database("empty");
        let store = Store::connect(&empty).await.unwrap();
        assert_eq!(store.schema_version().await.unwrap(), latest_schema());
        drop(store);
        // Connecting again applies nothing and keeps the record of each step once.
        let store = Store::connect(&empty).await.unwrap();
        let steps: i64 =
            client(&empty).await.query_one("SELECT count(*) FROM wayfarer_schema", &[]).await.unwrap().get(0);
        assert_eq!(steps, i64::from(latest_schema()));
        drop(store);

        // A database the previous schema made, with a skill in it: brought up to date, the skill kept, the notice
        // on each stored version still sent, and the newest step (goal books) working.
        let older = pg::database("older");
        let mut previous = Store::connect_up_to(&older, latest_schema() - 1).await.unwrap();
        assert_eq!(previous.schema_version().await.unwrap(), latest_schema() - 1);
        assert_eq!(previous.put_skill(&skill("digHole", "1", 1)).await.unwrap(), Stored::New(1));
        drop(previous);

        let mut store = Store::connect(&older).await.unwrap();
        assert_eq!(store.schema_version().await.unwrap(), latest_schema());
        assert_eq!(store.latest_skills().await.unwrap(), vec![skill("digHole", "1", 1)]);
        // The newest step: goal books.
        assert_eq!(store.put_goal(&goal("Hand#1", "Hand", "get 3 logs")).await.unwrap(), GoalWrite::Written);
        let stored = store.goals_of("Hand").await.unwrap();
        assert_eq!(stored.len(), 1);
        assert_eq!(same_json(&stored[0].book), same_json(&goal("Hand#1", "Hand", "get 3 logs").book));
        assert_eq!((stored[0].key.as_str(), stored[0].text.as_str()), ("Hand#1", "get 3 logs"));

        let (listener, mut connection) = tokio_postgres::connect(&older, tokio_postgres::NoTls).await.unwrap();
        let (notices_tx, mut notices) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(Ok(message)) = std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                if let tokio_postgres::AsyncMessage::Notification(n) = message {
                    let _ = notices_tx.send((n.channel().to_owned(), n.payload().to_owned()));
                }
            }
        });
        listener.batch_execute(&format!("LISTEN {SKILLS_CHANNEL}")).await.unwrap();
        assert_eq!(store.put_skill(&skill("digHole", "2", 1)).await.unwrap(), Stored::New(2));
        let notice = tokio::time::timeout(Duration::from_secs(2), notices.recv()).await.expect("a notice within 2 s");
        assert_eq!(notice, Some((SKILLS_CHANNEL.to_owned(), "digHole 2".to_owned())));

        // A database a newer build has moved on is refused, and left as it was.
        client(&older)
            .await
            .execute("INSERT INTO wayfarer_schema (version, about) VALUES (99, 'later')", &[])
            .await
            .unwrap();
        let err = Store::connect(&older).await.unwrap_err();
        assert!(matches!(err, StoreError::NewerSchema { found: 99, .. }), "{err}");
        assert!(err.to_string().contains("upgrade Wayfarer"), "{err}");
    });
}

#[test]
fn a_goal_has_one_owner_at_a_time_and_a_gone_members_goal_is_handed_on_once() {
    runtime().block_on(async {
        let db = pg::database("goals");
        let (first, second) = (Store::connect(&db).await.unwrap(), Store::connect(&db).await.unwrap());
        let mut hands = goal("Hand#4", "Hand", "get 3 logs");
        assert_eq!(first.put_goal(&hands).await.unwrap(), GoalWrite::Written);
        hands.book = "{\"id\": 4, \"plans\": [{\"tasks\": [], \"status\": \"active\"}]}".to_owned();
        assert_eq!(first.put_goal(&hands).await.unwrap(), GoalWrite::Written, "its owner rewrites it");
        // A team goal is its leader's: never handed on.
        let mut team = goal("Boss#1", "Boss", "set up a workshop");
        team.team = true;
        first.put_goal(&team).await.unwrap();
        assert_eq!(first.hand_over("Boss", "set up a workshop", "Mate").await.unwrap(), None);

        // Two leaders hand Hand's goal on at once: one of them does.
        let (to_mate, to_kit) =
            tokio::join!(first.hand_over("hand", "Get 3 logs ", "Mate"), second.hand_over("Hand", "get 3 logs", "Kit"));
        let (to_mate, to_kit) = (to_mate.unwrap(), to_kit.unwrap());
        assert!(to_mate.is_some() != to_kit.is_some(), "handed to both or neither: {to_mate:?} {to_kit:?}");
        let winner = if to_mate.is_some() { "Mate" } else { "Kit" };
        let loser = if to_mate.is_some() { "Kit" } else { "Mate" };
        let stored = first.goal("Hand#4").await.unwrap().unwrap();
        assert_eq!((stored.owner.as_str(), stored.handed_from.as_deref()), (winner, Some("Hand")));
        assert_eq!(same_json(&stored.book), same_json(&hands.book), "handed on as its owner left it");

        // The new owner finds it; the other does not; Hand, back late, cannot write it any more.
        let found = second.handed_to(winner, "get 3 logs").await.unwrap().expect("handed to the winner");
        assert_eq!(found.key, "Hand#4");
        assert_eq!(second.handed_to(loser, "get 3 logs").await.unwrap(), None);
        hands.status = "completed".to_owned();
        assert_eq!(first.put_goal(&hands).await.unwrap(), GoalWrite::OwnedBy(winner.to_owned()));
        assert_eq!(first.goal("Hand#4").await.unwrap().unwrap().status, "active", "the late write was refused");
        // The new owner writes it.
        let mut theirs = found.clone();
        theirs.status = "completed".to_owned();
        assert_eq!(second.put_goal(&theirs).await.unwrap(), GoalWrite::Written);
        let done = first.goal("Hand#4").await.unwrap().unwrap();
        assert_eq!((done.status.as_str(), done.owner.as_str()), ("completed", winner));
        assert_eq!(first.hand_over(winner, "get 3 logs", loser).await.unwrap(), None, "a finished goal stays put");
    });
}

#[test]
fn the_same_skill_stored_by_two_processes_at_once_keeps_both_as_versions() {
    runtime().block_on(async {
        let database = pg::database("race");
        // The schema first, so the two writers race on the skill, not on the schema steps.
        drop(Store::connect(&database).await.unwrap());
        let mut writers = Vec::new();
        for body in ["\"first\"", "\"second\""] {
            let database = database.clone();
            writers.push(tokio::spawn(async move {
                let mut store = Store::connect(&database).await.unwrap();
                let mut stored = Vec::new();
                for round in 0..20 {
                    stored.push(store.put_skill(&skill("craftBowl", &format!("{body}; {round}"), 1)).await.unwrap());
                }
                stored
            }));
        }
        let mut versions: Vec<u32> = Vec::new();
        for writer in writers {
            for stored in writer.await.unwrap() {
                match stored {
                    Stored::New(version) => versions.push(version),
                    Stored::Unchanged(version) => panic!("every write differs, yet version {version} was kept"),
                }
            }
        }
        versions.sort_unstable();
        assert_eq!(versions, (1..=40).collect::<Vec<_>>(), "each write its own version, none lost");
        let store = Store::connect(&database).await.unwrap();
        let kept = store.skill_versions("craftBowl").await.unwrap();
        assert_eq!(kept.len(), 40);
        for body in ["first", "second"] {
            assert_eq!(kept.iter().filter(|s| s.code.contains(body)).count(), 20, "every {body} write kept");
        }
        // The same skill again is no new version.
        let latest = kept.last().unwrap().clone();
        let mut store = store;
        assert_eq!(store.put_skill(&latest).await.unwrap(), Stored::Unchanged(40));
    });
}

fn temp_dir(tag: &str) -> PathBuf {
    fresh_dir(&format!("store-{tag}"))
}

fn meta(dir: &Path, name: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap()).unwrap()
}

#[test]
fn skills_move_between_a_folder_and_the_store_with_their_versions() {
    let url = pg::url(&pg::database("moving"));
    let first = temp_dir("first");
    std::fs::write(first.join("digHole.rhai"), "/// Digs a hole one block deep.\nfn digHole() { 1 }\n").unwrap();
    std::fs::write(first.join("craftBowl.rhai"), "/// Crafts a bowl.\nfn craftBowl() { craftItem(\"bowl\", 1) }\n")
        .unwrap();
    for file in ["digHole.rhai", "craftBowl.rhai"] {
        let out = skills(&first, &["add", first.join(file).to_str().unwrap(), "--replace"]);
        assert!(out.status.success(), "{}", text(&out));
    }

    // Folder → store.
    let out = skills(&first, &["export", &url]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("Exported 2 new versions; 0 skills were already in the store"), "{}", text(&out));
    // Again: nothing new.
    let out = skills(&first, &["export", &url]);
    assert!(text(&out).contains("Exported 0 new versions; 2 skills were already in the store"), "{}", text(&out));

    // A changed skill goes in as the next version; the store keeps both (looked at directly).
    std::fs::write(first.join("new.rhai"), "/// Digs a hole two blocks deep.\nfn digHole() { 2 }\n").unwrap();
    let out = skills(&first, &["add", first.join("new.rhai").to_str().unwrap(), "--replace"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = skills(&first, &["export", &url]);
    assert!(
        text(&out).contains("digHole  (version 2)") && text(&out).contains("Exported 1 new versions"),
        "{}",
        text(&out)
    );
    let versions = runtime().block_on(async {
        let store = Store::connect(&url).await.unwrap();
        store.skill_versions("digHole").await.unwrap()
    });
    assert_eq!(
        versions.iter().map(|s| (s.version, s.code.contains("{ 2 }"))).collect::<Vec<_>>(),
        [(1, false), (2, true)]
    );
    assert!(versions.iter().all(|s| s.embedding.as_ref().is_some_and(|e| e.len() == 384)), "embedded on export");

    // Store → an empty folder: the latest versions, with their numbers and dates, callable and searchable.
    let second = temp_dir("second");
    let out = skills(&second, &["import", &url]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("Imported 2; 0 were here already"), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(second.join("digHole.rhai")).unwrap(), versions[1].code);
    assert_eq!(meta(&second, "digHole")["version"], 2);
    assert_eq!(meta(&second, "digHole")["created"], meta(&first, "digHole")["created"]);
    let out = skills(&second, &["search", "dig", "a", "hole", "-k", "1"]);
    assert!(text(&out).contains("digHole()"), "{}", text(&out));

    // A folder with an older version is brought up to the store's; importing again changes nothing.
    let third = temp_dir("third");
    std::fs::write(third.join("digHole.rhai"), "/// Digs a hole one block deep.\nfn digHole() { 1 }\n").unwrap();
    let out = skills(&third, &["add", third.join("digHole.rhai").to_str().unwrap(), "--replace"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = skills(&third, &["import", &url]);
    assert!(text(&out).contains("digHole()  (version 2 replaces version 1)"), "{}", text(&out));
    let out = skills(&third, &["import", &url]);
    assert!(text(&out).contains("Imported 0; 2 were here already"), "{}", text(&out));
}

#[test]
fn an_unreachable_store_is_a_clear_error_that_changes_nothing() {
    let folder = temp_dir("unreachable");
    std::fs::write(folder.join("digHole.rhai"), "/// Digs a hole.\nfn digHole() { 1 }\n").unwrap();
    let out = skills(&folder, &["add", folder.join("digHole.rhai").to_str().unwrap(), "--replace"]);
    assert!(out.status.success(), "{}", text(&out));
    let before = std::fs::read_dir(&folder).unwrap().count();

    // Nothing listens on port 1.
    for args in [["export", "postgres://wf@127.0.0.1:1/fleet"], ["import", "postgres://wf@127.0.0.1:1/fleet"]] {
        let out = skills(&folder, &args);
        assert!(!out.status.success());
        assert!(text(&out).contains("cannot reach the store at wf@127.0.0.1:1/fleet"), "{}", text(&out));
    }
    // No store configured for a bare export.
    let out = skills(&folder, &["export"]);
    assert!(!out.status.success() && text(&out).contains("no store to export to"), "{}", text(&out));
    // A password is never echoed.
    let out = skills(&folder, &["export", "postgres://wf:hunter2@127.0.0.1:1/fleet"]);
    assert!(!text(&out).contains("hunter2"), "{}", text(&out));
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), before);
}
