//! Block search in natural worlds: `findBlocks(name, 64, 1)` timed from spawn, Wayfarer beside Mineflayer, over
//! seeds the bench picks (1, 2, 3 unless `BENCH_SEEDS=4,5` says otherwise), and the longest gap between two of the
//! Wayfarer bot's game ticks while it searched (ticks are 50 ms apart: a search that held the tick up shows here).
//!
//! `cargo bench --bench find_block` (part of `make bench`); needs the test world's npm packages (`make setup`).

#[path = "../support/mod.rs"]
mod support;

use std::{
    process::Command,
    str::FromStr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use azalea::registry::builtin::BlockKind;
use tokio::sync::oneshot;
use wayfarer::{
    bot::{self, BotHandle, Brain, Member},
    config::{Config, ServerAddress},
    primitives::observe,
};

/// What the bench looks for: common, scattered underground, rare, and absent from the world.
const BLOCKS: [&str; 6] = ["oak_log", "coal_ore", "iron_ore", "diamond_ore", "lava", "crafting_table"];
const ROUNDS: usize = 50;
/// Mineflayer takes up to a second a search here: fewer calls keep the bench short.
const MINEFLAYER_ROUNDS: usize = 10;
const RADIUS: f64 = 64.0;
/// Chunks around spawn: 5 keeps a 64-block radius loaded.
const VIEW_DISTANCE: &str = "5";
const SETTLE: Duration = Duration::from_secs(4);

/// One side's figures for one block: every call's time (ms), and the seeds in which it found one.
#[derive(Clone, Default)]
struct Block {
    name: String,
    times: Vec<f64>,
    found_in: usize,
}

#[derive(Default)]
struct Figures {
    blocks: Vec<Block>,
    longest_tick_gap_ms: f64,
}

struct Finder {
    done: Mutex<Option<oneshot::Sender<Figures>>>,
}

impl Brain for Finder {
    fn spawned(&self, bot: BotHandle, _again: bool) {
        let Some(done) = self.done.lock().unwrap().take() else { return };
        tokio::task::spawn_local(async move {
            tokio::time::sleep(SETTLE).await;
            let searching = Arc::new(AtomicBool::new(true));
            let gaps = Arc::new(Mutex::new(0.0f64));
            let watcher = {
                let (client, searching, gaps) = (bot.client().clone(), searching.clone(), gaps.clone());
                tokio::task::spawn_local(async move {
                    while searching.load(Ordering::Relaxed) {
                        let started = Instant::now();
                        client.wait_ticks(1).await;
                        let gap = started.elapsed().as_secs_f64() * 1000.0;
                        let mut longest = gaps.lock().unwrap();
                        *longest = longest.max(gap);
                    }
                })
            };
            let mut figures = Figures::default();
            for name in BLOCKS {
                let kind = BlockKind::from_str(name).expect("a block name");
                let mut block = Block { name: name.to_owned(), ..Block::default() };
                for _ in 0..ROUNDS {
                    let started = Instant::now();
                    let found = observe::nearest_blocks(&bot, kind, RADIUS, 1).await;
                    block.times.push(started.elapsed().as_secs_f64() * 1000.0);
                    block.found_in = usize::from(!found.is_empty());
                }
                figures.blocks.push(block);
            }
            searching.store(false, Ordering::Relaxed);
            let _ = watcher.await;
            figures.longest_tick_gap_ms = *gaps.lock().unwrap();
            let _ = done.send(figures);
        });
    }
    fn heard(&self, _bot: BotHandle, _sender: Option<String>, _content: String) {}
    fn disconnected(&self) {}
    fn died(&self, _bot: BotHandle) {}
}

fn wayfarer(port: u16) -> Figures {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let config = Config {
            server: ServerAddress { host: "127.0.0.1".into(), port },
            username: "Wayfarer".into(),
            ..Config::default()
        };
        let address = bot::preflight(&config.server).await.expect("the test world is listening");
        let (done, figures) = oneshot::channel();
        let member = Member { name: config.username.clone(), brain: Arc::new(Finder { done: Mutex::new(Some(done)) }) };
        tokio::select! {
            ended = bot::run_swarm(&config, &address, vec![member]) => panic!("the bot stopped before measuring: {ended:?}"),
            figures = figures => figures.expect("the measurement finished"),
            () = tokio::time::sleep(Duration::from_secs(300)) => panic!("no figures within 5 minutes"),
        }
    })
}

fn mineflayer(port: u16) -> Vec<Block> {
    let script = support::repo_root().join("tests/server/bench/find_block.js");
    let output = Command::new("node")
        .arg(script)
        .args(["--port", &port.to_string(), "--blocks", &BLOCKS.join(","), "--rounds", &MINEFLAYER_ROUNDS.to_string()])
        .args(["--settle-ms", &SETTLE.as_millis().to_string()])
        .output()
        .expect("node runs");
    assert!(output.status.success(), "the Mineflayer side failed: {}", String::from_utf8_lossy(&output.stderr));
    let line = String::from_utf8_lossy(&output.stdout);
    let parsed: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(line.lines().last().unwrap_or_default()).expect("Mineflayer's figures as JSON");
    parsed
        .into_iter()
        .map(|(name, figures)| Block {
            name,
            times: figures["times"].as_array().unwrap().iter().filter_map(serde_json::Value::as_f64).collect(),
            found_in: usize::from(!figures["distance"].is_null()),
        })
        .collect()
}

fn percentile(times: &[f64], p: f64) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    let seeds: Vec<u64> = std::env::var("BENCH_SEEDS")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 2, 3]);
    let mut ours: Vec<Block> = BLOCKS.iter().map(|b| Block { name: b.to_string(), ..Block::default() }).collect();
    let mut theirs = ours.clone();
    let merge = |into: &mut Vec<Block>, from: Vec<Block>| {
        for block in from {
            if let Some(entry) = into.iter_mut().find(|b| b.name == block.name) {
                entry.times.extend(block.times);
                entry.found_in += block.found_in;
            }
        }
    };
    let mut longest_gap: f64 = 0.0;
    for &seed in &seeds {
        eprintln!("find_block: seed {seed}");
        let seed_text = seed.to_string();
        let world = support::World::start_with(
            0,
            &["--world", "natural", "--seed", &seed_text, "--mobs", "off", "--view-distance", VIEW_DISTANCE],
        );
        let figures = wayfarer(world.port);
        longest_gap = longest_gap.max(figures.longest_tick_gap_ms);
        merge(&mut ours, figures.blocks);
        merge(&mut theirs, mineflayer(world.port));
        drop(world);
    }
    let seeds_text: Vec<String> = seeds.iter().map(u64::to_string).collect();
    println!(
        "\nfindBlocks(name, {RADIUS}, 1) from spawn in natural worlds, seeds {}, \
         {ROUNDS} calls per block per seed ({MINEFLAYER_ROUNDS} for Mineflayer), in ms",
        seeds_text.join(", ")
    );
    println!(
        "{:<16} {:>20} {:>8} {:>22} {:>8}",
        "block", "Wayfarer p50 / p95", "found", "Mineflayer p50 / p95", "found"
    );
    let pair = |t: &[f64]| format!("{:.2} / {:.2}", percentile(t, 0.5), percentile(t, 0.95));
    for (ours, theirs) in ours.iter().zip(&theirs) {
        let found = |b: &Block| format!("{}/{}", b.found_in, seeds.len());
        println!(
            "{:<16} {:>20} {:>8} {:>22} {:>8}",
            ours.name,
            pair(&ours.times),
            found(ours),
            pair(&theirs.times),
            found(theirs)
        );
    }
    let all: Vec<f64> = ours.iter().flat_map(|b| b.times.iter().copied()).collect();
    println!("{:<16} {:>20}", "all blocks", pair(&all));
    println!(
        "longest gap between two of the bot's game ticks while it searched: {longest_gap:.0} ms (ticks are 50 ms)"
    );
    // The bot's connection and the swarm run on threads of their own; leave without waiting for them.
    std::process::exit(0);
}
