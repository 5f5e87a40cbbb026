//! The fleet's store in PostgreSQL: its schema steps run on an empty database and on one an older build left, a newer
//! one is refused untouched; the same skill stored by two processes at once keeps both as versions; skills move
//! between a folder and the store both ways with their versions (`wayfarer skills export` / `import`), and an
//! unreachable store is a clear error that changes nothing.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use wayfarer::store::{SKILLS_CHANNEL, Store, StoreError, Stored, StoredSkill, latest_schema};

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

        // A database the previous schema made, with a skill in it: brought up to date, the skill kept, and the
        // newest step (a notice on each stored version) working.
        let older = pg::database("older");
        let mut previous = Store::connect_up_to(&older, latest_schema() - 1).await.unwrap();
        assert_eq!(previous.schema_version().await.unwrap(), latest_schema() - 1);
        assert_eq!(previous.put_skill(&skill("digHole", "1", 1)).await.unwrap(), Stored::New(1));
        drop(previous);

        let mut store = Store::connect(&older).await.unwrap();
        assert_eq!(store.schema_version().await.unwrap(), latest_schema());
        assert_eq!(store.latest_skills().await.unwrap(), vec![skill("digHole", "1", 1)]);

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
