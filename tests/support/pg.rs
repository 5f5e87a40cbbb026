//! A database of its own for each test that needs PostgreSQL, in the cluster `make test` starts
//! (`tests/pg/with-cluster` sets `WAYFARER_TEST_PG`).

use std::sync::atomic::{AtomicU64, Ordering};

/// The cluster's connection string; a test that needs it and runs without it fails, saying how to get one.
pub fn cluster() -> String {
    std::env::var("WAYFARER_TEST_PG").unwrap_or_else(|_| {
        panic!(
            "WAYFARER_TEST_PG is not set: this test needs PostgreSQL. Run it as `make test` does, inside \
             `tests/pg/with-cluster cargo test …`, or set WAYFARER_TEST_PG to a server's connection string"
        )
    })
}

/// Creates an empty database named after `tag` (and this process) and returns its connection string.
pub fn database(tag: &str) -> String {
    static DATABASES: AtomicU64 = AtomicU64::new(0);
    let cluster = cluster();
    let name = format!("wf_{tag}_{}_{}", std::process::id(), DATABASES.fetch_add(1, Ordering::Relaxed));
    // On a thread of its own, so a test inside a runtime may call it too.
    let (at, db) = (cluster.clone(), name.clone());
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let (client, connection) = tokio_postgres::connect(&format!("{at} dbname=postgres"), tokio_postgres::NoTls)
                .await
                .unwrap_or_else(|err| panic!("cannot reach the test cluster ({at}): {err}"));
            tokio::spawn(connection);
            client.batch_execute(&format!("DROP DATABASE IF EXISTS {db}")).await.unwrap();
            client.batch_execute(&format!("CREATE DATABASE {db}")).await.unwrap();
        });
    })
    .join()
    .expect("the test database was created");
    format!("{cluster} dbname={name}")
}

/// The same database as a `postgres://` URL (`wayfarer skills import` tells a store from a path by its scheme).
pub fn url(connection: &str) -> String {
    let value = |key: &str| {
        connection
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
            .unwrap_or_else(|| panic!("no {key} in {connection}"))
            .to_owned()
    };
    format!("postgresql:///{}?host={}&port={}&user={}", value("dbname"), value("host"), value("port"), value("user"))
}
