//! One bot against a team of three on the same composite goal, in the same natural world (`make bench-team`):
//! 24 logs and 6 cobblestone, from nothing.
//!
//! - One bot: its owner gives `!task get 6 cobblestone` (logs, planks, a table and a wooden pickaxe on the way), then
//!   `!task get 24 logs`; both are planned from the game's facts.
//! - A team: `!team` to a leader of two workers; a scripted LLM plans the stages as a leader would (12 logs each for
//!   two members while the third makes its pickaxe and gets the cobblestone; then both deliver to the leader).
//!
//! Printed per seed, side by side: wall time (first command to the goal's last line), LLM calls, chat lines, and
//! whether the goal was really met (the world's count of the holder's logs and cobblestone). The seeds are fresh ones
//! no test uses, monsters off, daylight.

#[path = "../support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::fake_llm::FakeEndpoint;
use support::*;

const SEEDS: [u64; 3] = [4242, 90210, 31337];
const LOGS: u64 = 24;
const COBBLESTONE: u64 = 6;
/// The longest one run may take before it counts as not done.
const LIMIT: Duration = Duration::from_secs(900);

/// The leader's stages, as a capable model plans them.
const STAGES: [&str; 3] = [
    "{\"reasoning\": \"logs split between two members; the third makes a pickaxe and mines stone\", \"plan\": [\"stage 1: \
     gather in parallel\", \"stage 2: deliver to Crew_1\"], \"assignments\": [\"notify Crew_1 get 12 logs\", \"notify Crew_2 \
     get 12 logs\", \"notify Crew_3 get 6 cobblestone\"]}",
    "{\"plan\": \"deliver\", \"assignments\": [\"notify Crew_2 give 12 logs to Crew_1\", \"notify Crew_3 give 6 cobblestone to \
     Crew_1\"]}",
    "{\"reasoning\": \"Crew_1 holds 24 logs and 6 cobblestone\", \"done\": true}",
];

struct Run {
    seconds: f64,
    llm_calls: usize,
    chat_lines: usize,
    logs: u64,
    cobblestone: u64,
    ended: String,
}

fn world(seed: u64) -> World {
    let world = World::start_natural(seed, &["--mobs", "off"]);
    let (sx, sz) = world.spawn_column();
    world.add_player("Alice", [sx as f64 + 2.5, world.ground_y(sx + 2, sz + 2) as f64, sz as f64 + 2.5]);
    world
}

fn holding(world: &World, player: &str) -> (u64, u64) {
    let inventory: Value = world.cmd(json!({"cmd": "inventory", "name": player}));
    let logs = inventory.as_object().map_or(0, |items| {
        items.iter().filter(|(name, _)| name.ends_with("_log")).map(|(_, n)| n.as_u64().unwrap_or(0)).sum()
    });
    (logs, inventory["cobblestone"].as_u64().unwrap_or(0))
}

/// Waits for a chat line of `who` that starts with one of `endings`; returns it (or why there was none).
fn ending(world: &World, from: usize, who: &str, endings: &[&str]) -> String {
    world
        .wait_event(from, LIMIT, |e| {
            e["event"] == "chat"
                && e["from"] == who
                && e["text"].as_str().is_some_and(|t| endings.iter().any(|x| t.starts_with(x)))
        })
        .map_or_else(
            || format!("nothing within {} s", LIMIT.as_secs()),
            |e| e["text"].as_str().unwrap_or("").to_owned(),
        )
}

fn bots_lines(world: &World, from: usize, prefix: &str) -> usize {
    world.chat_since(from).iter().filter(|l| l.starts_with(&format!("<{prefix}"))).count()
}

fn single(seed: u64, endpoint: &FakeEndpoint) -> Run {
    let world = world(seed);
    let bot =
        Bot::start(&world.address(), &["--username", "Solo", "--owner", "Alice", "--llm-url", &endpoint.base_url()]);
    bot.expect_log("Solo spawned at", Duration::from_secs(60));
    let before = endpoint.requests().len();
    let started = Instant::now();
    let from = world.say("Alice", "!task get 6 cobblestone");
    let first =
        ending(&world, from, "Solo", &["I succeeded in task: get 6 cobblestone", "I failed task: get 6 cobblestone"]);
    let next = world.say("Alice", "!task get 24 logs");
    let second = ending(&world, next, "Solo", &["I succeeded in task: get 24 logs", "I failed task: get 24 logs"]);
    let seconds = started.elapsed().as_secs_f64();
    let (logs, cobblestone) = holding(&world, "Solo");
    Run {
        seconds,
        llm_calls: endpoint.requests().len() - before,
        chat_lines: bots_lines(&world, from, "Solo"),
        logs,
        cobblestone,
        ended: format!("{first} / {second}"),
    }
}

fn team(seed: u64) -> Run {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = scripted_leader(&runtime, &STAGES);
    let world = world(seed);
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
    let started = Instant::now();
    let from = world.say("Alice", "Crew_1 !team gather 24 logs and 6 cobblestone");
    let ended = ending(&world, from, "Crew_1", &["Team goal done:", "Team goal failed:", "Team goal given up:"]);
    let seconds = started.elapsed().as_secs_f64();
    let (logs, cobblestone) = holding(&world, "Crew_1");
    Run {
        seconds,
        llm_calls: endpoint.requests().len(),
        chat_lines: bots_lines(&world, from, "Crew_"),
        logs,
        cobblestone,
        ended,
    }
}

fn met(run: &Run) -> &'static str {
    if run.logs >= LOGS && run.cobblestone >= COBBLESTONE { "yes" } else { "NO" }
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.answer_all("I am not sure.");
    // `TEAM_BENCH_SEEDS=90210,7` runs other seeds (with `WAYFARER_TEST_LOGS=DIR` every bot's log is kept).
    let seeds: Vec<u64> = match std::env::var("TEAM_BENCH_SEEDS") {
        Ok(list) => list.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
        Err(_) => SEEDS.to_vec(),
    };
    let mut rows = Vec::new();
    for seed in seeds {
        eprintln!("seed {seed}: one bot…");
        let one = single(seed, &endpoint);
        eprintln!("   {:.0} s, {} ({} logs, {} cobblestone)", one.seconds, one.ended, one.logs, one.cobblestone);
        eprintln!("seed {seed}: a team of three…");
        let three = team(seed);
        eprintln!(
            "   {:.0} s, {} ({} logs, {} cobblestone)",
            three.seconds, three.ended, three.logs, three.cobblestone
        );
        rows.push((seed, one, three));
    }
    println!(
        "\n{LOGS} logs and {COBBLESTONE} cobblestone from nothing: one bot vs a team of three (leader + 2 workers)\n"
    );
    println!(
        "| seed | one bot | team of three | team / one | LLM calls (one, team) | chat lines (one, team) | goal met (one, team) |"
    );
    println!("|---|---|---|---|---|---|---|");
    let (mut one_total, mut team_total) = (0.0, 0.0);
    for (seed, one, three) in &rows {
        println!(
            "| {seed} | {:.0} s | {:.0} s | {:.2} | {}, {} | {}, {} | {}, {} |",
            one.seconds,
            three.seconds,
            three.seconds / one.seconds,
            one.llm_calls,
            three.llm_calls,
            one.chat_lines,
            three.chat_lines,
            met(one),
            met(three)
        );
        one_total += one.seconds;
        team_total += three.seconds;
    }
    println!("| all | {one_total:.0} s | {team_total:.0} s | {:.2} | | | |", team_total / one_total);
    let unmet: Vec<String> = rows
        .iter()
        .flat_map(|(seed, one, three)| {
            [("one bot", one), ("team", three)].into_iter().filter(|(_, run)| met(run) == "NO").map(
                move |(who, run)| {
                    format!("seed {seed}, {who}: {} ({} logs, {} cobblestone)", run.ended, run.logs, run.cobblestone)
                },
            )
        })
        .collect();
    if !unmet.is_empty() {
        eprintln!("goal not met:\n{}", unmet.join("\n"));
        std::process::exit(1);
    }
}
