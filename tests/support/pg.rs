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

/// A cluster of one test's own, to stop and start again under running bots without disturbing the other tests'
/// databases. Stopped and removed when dropped.
pub struct OwnCluster {
    dir: std::path::PathBuf,
    port: u16,
    bin: std::path::PathBuf,
}

impl OwnCluster {
    /// Creates and starts one (about 3 s), with the server `tests/pg/with-cluster` found (`WAYFARER_PG_BIN`).
    pub fn start(tag: &str) -> Self {
        cluster(); // the same clear failure when PostgreSQL is not set up
        let bin =
            std::path::PathBuf::from(std::env::var("WAYFARER_PG_BIN").expect("WAYFARER_PG_BIN (set by with-cluster)"));
        let dir = std::env::temp_dir().join(format!("wayfarer-pg-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if is_root() {
            let status = std::process::Command::new("chown").arg("postgres").arg(&dir).status().unwrap();
            assert!(status.success(), "chown postgres {}", dir.display());
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let cluster = OwnCluster { dir, port, bin };
        let data = cluster.dir.join("data");
        cluster.run("initdb", &["-D", data.to_str().unwrap(), "-A", "trust", "-U", "wf", "--no-sync"]);
        cluster.start_again();
        cluster
    }

    pub fn connection(&self) -> String {
        format!("host={} port={} user=wf dbname=postgres", self.dir.display(), self.port)
    }

    /// Stops the server at once, as a crash or a pulled cable would.
    pub fn stop(&self) {
        self.run("pg_ctl", &["-D", self.dir.join("data").to_str().unwrap(), "-m", "immediate", "-w", "stop"]);
    }

    pub fn start_again(&self) {
        let options = format!("-p {} -k {} -c listen_addresses=''", self.port, self.dir.display());
        let log = self.dir.join("log");
        let data = self.dir.join("data");
        self.run("pg_ctl", &["-D", data.to_str().unwrap(), "-o", &options, "-l", log.to_str().unwrap(), "-w", "start"]);
    }

    fn run(&self, program: &str, args: &[&str]) {
        let path = self.bin.join(program);
        let mut command = if is_root() {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            std::process::Command::new(&path)
        };
        let out = command.args(args).output().unwrap_or_else(|err| panic!("cannot run {program}: {err}"));
        assert!(
            out.status.success(),
            "{program} {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for OwnCluster {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let path = self.bin.join("pg_ctl");
        let args = ["-D", data.to_str().unwrap_or_default(), "-m", "immediate", "stop"];
        let _ = if is_root() {
            std::process::Command::new("runuser").args(["-u", "postgres", "--"]).arg(&path).args(args).output()
        } else {
            std::process::Command::new(&path).args(args).output()
        };
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn is_root() -> bool {
    std::process::Command::new("id").arg("-u").output().is_ok_and(|out| out.stdout.starts_with(b"0\n"))
}
