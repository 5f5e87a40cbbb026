//! A fleet on one store (`make bench-fleet`): 4 bot processes × 25 bots, each process with its own skills folder,
//! one PostgreSQL database (a throwaway cluster of the bench's own).
//!
//! Printed: how long a skill stored by one process takes to be installed in each of the others (p50 / p95 over
//! every edit and every receiving process, from the file written to the receiver's "came in" log line), the
//! database's transactions per propagated skill, each process's memory, skill query p50 over a folder the store
//! filled against the folder it came from, and 1 000 edits of 10 skills from 4 connections at once: versions kept.

#[path = "../support/mod.rs"]
mod support;

use std::{
    path::{Path, PathBuf},
    sync::Arc,
    time::{Duration, Instant, SystemTime},
};

use support::*;
use wayfarer::{
    skills::{Embedder, SkillLibrary, default_models_dir},
    store::{Store, Stored, StoredSkill},
};

const PROCESSES: usize = 4;
const BOTS: usize = 25;
const EDITS: usize = 40;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// The time stamp a log line starts with.
fn logged_at(line: &str) -> SystemTime {
    let stamp = line.split_whitespace().next().unwrap_or_default();
    let at = chrono::DateTime::parse_from_rfc3339(stamp).unwrap_or_else(|err| panic!("{stamp:?}: {err}"));
    SystemTime::UNIX_EPOCH + Duration::from_micros(at.timestamp_micros() as u64)
}

fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

async fn commits(connection: &str) -> i64 {
    let (client, conn) = tokio_postgres::connect(connection, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    client
        .query_one("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()", &[])
        .await
        .unwrap()
        .get(0)
}

fn query_p50(dir: &Path, embedder: &Arc<Embedder>) -> f64 {
    let (library, _) = SkillLibrary::open(dir);
    library.enable_search_with(embedder.clone()).unwrap();
    let queries = ["dig a hole", "edit number seven", "craft a bowl", "make planks", "a skill that says a number"];
    let mut times: Vec<f64> = (0..200)
        .map(|i| {
            let started = Instant::now();
            library.retrieve(queries[i % queries.len()], 5).unwrap();
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    percentile(&times, 0.5)
}

fn main() {
    let cluster = support::pg::OwnCluster::start("bench");
    let store = cluster.connection();
    let world = World::start();
    world.add_player("Alice", [3.5, 64.0, 3.5]);
    let started = Instant::now();
    let fleet: Vec<(Bot, PathBuf)> = (0..PROCESSES)
        .map(|p| {
            let dir = fresh_dir(&format!("bench-fleet-p{p}"));
            let name = format!("Fleet{p}");
            let bots = BOTS.to_string();
            let args = [
                "--username",
                &name,
                "--bots",
                &bots,
                "--owner",
                "Alice",
                "--skills",
                dir.to_str().unwrap(),
                "--store",
                &store,
            ];
            (Bot::start(&world.address(), &args), dir)
        })
        .collect();
    for (p, (bot, _)) in fleet.iter().enumerate() {
        bot.expect_log_count("spawned at", BOTS, Duration::from_secs(300));
        bot.expect_log("store: in step with", Duration::from_secs(30));
        eprintln!("process {p}: {BOTS} bots spawned and in step ({:.1} s)", started.elapsed().as_secs_f64());
    }

    // Edits: a new skill or a new version of one, written into one process's folder at a time.
    let before = runtime().block_on(commits(&store));
    let mut latencies = Vec::new();
    for edit in 0..EDITS {
        let writer = edit % PROCESSES;
        let name = format!("edit{}", edit % 10);
        let version = edit / 10 + 1;
        let dir = &fleet[writer].1;
        std::fs::write(dir.join(format!("{name}.json")), format!("{{\"description\": \"Edit number {edit}.\"}}"))
            .unwrap();
        let written = SystemTime::now();
        std::fs::write(dir.join(format!("{name}.rhai")), format!("fn {name}() {{ {edit} }}\n")).unwrap();
        for (p, (bot, _)) in fleet.iter().enumerate().filter(|(p, _)| *p != writer) {
            let line = bot.expect_log(&format!("store: {name} version {version} came in"), Duration::from_secs(30));
            let took = logged_at(&line).duration_since(written).unwrap_or_default();
            latencies.push(took.as_secs_f64() * 1000.0);
            let _ = p;
        }
    }
    std::thread::sleep(Duration::from_millis(1500)); // the statistics settle
    let after = runtime().block_on(commits(&store));
    latencies.sort_by(f64::total_cmp);
    let memory: Vec<String> = fleet.iter().map(|(bot, _)| format!("{:.0}", rss_mb(bot.pid()))).collect();

    // Search over a folder the store filled, against the folder the skills were written in.
    // One model for both (ONNX Runtime allows one environment per process).
    let embedder = Arc::new(Embedder::load(&default_models_dir()).expect("the embedding model (make models)"));
    let here = query_p50(&fleet[1].1, &embedder);
    let source = query_p50(&fleet[0].1, &embedder);

    // 1 000 edits of 10 skills from 4 connections at once.
    let kept = runtime().block_on(async {
        let mut writers = Vec::new();
        for w in 0..4 {
            let store = store.clone();
            writers.push(tokio::spawn(async move {
                let mut connection = Store::connect(&store).await.unwrap();
                let mut new = 0;
                for i in 0..250 {
                    let name = format!("race{}", i % 10);
                    let skill = StoredSkill {
                        name: name.clone(),
                        version: 1,
                        code: format!("fn {name}() {{ {w} * 1000 + {i} }}\n"),
                        description: "A race.".to_owned(),
                        task: String::new(),
                        created: String::new(),
                        embedding: None,
                        model: None,
                        origin: format!("writer {w}"),
                    };
                    if let Stored::New(_) = connection.put_skill(&skill).await.unwrap() {
                        new += 1;
                    }
                }
                new
            }));
        }
        let mut new = 0;
        for writer in writers {
            new += writer.await.unwrap();
        }
        let connection = Store::connect(&store).await.unwrap();
        let mut versions = 0;
        for i in 0..10 {
            versions += connection.skill_versions(&format!("race{i}")).await.unwrap().len();
        }
        (new, versions)
    });

    println!();
    println!("Fleet on one store: {PROCESSES} processes × {BOTS} bots, {EDITS} edits, PostgreSQL (throwaway cluster)");
    println!("| measure | figure |");
    println!("|---|---|");
    println!(
        "| propagation, file written → installed in another process (p50 / p95 / max, {} deliveries) | {:.0} / {:.0} / {:.0} ms |",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.95),
        latencies.last().unwrap()
    );
    println!(
        "| database transactions per propagated skill (store + {} receivers' reads) | {:.1} |",
        PROCESSES - 1,
        (after - before) as f64 / EDITS as f64
    );
    println!("| memory per process ({BOTS} bots each) | {} MB |", memory.join(" / "));
    println!("| skill query p50, folder filled by the store / folder written | {here:.2} / {source:.2} ms |");
    println!(
        "| 1 000 edits of 10 skills from 4 connections at once: stored / versions kept | {} / {} |",
        kept.0, kept.1
    );
    assert_eq!(kept, (1000, 1000), "a write was lost");
}
