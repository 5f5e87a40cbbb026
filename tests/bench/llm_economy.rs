//! What the LLM economy buys, measured (`make bench-llm-economy`):
//!
//! 1. The scripted learning run (`!learn start 3` in a fresh test world whose clock stands still, so a repeated
//!    request is the same request), once with the reply cache cold and once warm: LLM requests and wall time. The
//!    scripted endpoint answers each request after a fixed latency, as a hosted model would.
//! 2. Fifty bots asking at once through one rate limiter, against the same fifty with none: requests per minute
//!    achieved against the configured rate, and the busiest second.

#[path = "../support/mod.rs"]
mod support;

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use support::fake_llm::FakeEndpoint;
use support::*;
use wayfarer::llm::{Llm, LlmConfig, Message, Role};

/// Each scripted answer's latency.
const LATENCY: Duration = Duration::from_millis(1500);

fn code(description: &str, body: &str) -> String {
    format!("Plan: as below.\nDescription: {description}\n```rhai\n{body}\n```")
}

/// The scripted model: a curriculum that climbs log → planks, and code for each task (the third, a bowl, is the
/// bot's own build on the planks skill just learned, with no curriculum call).
fn answer(request: &Value) -> String {
    let system = system_message(request);
    let user = last_user_message(request);
    if system.starts_with("You plan what a Minecraft player should learn next") {
        return "{\"reasoning\": \"planks lead to tools\", \"task\": \"Craft 4 oak_planks\", \"context\": \
                \"one log makes four\", \"tracker\": {\"type\": \"craft\", \"item\": \"oak_planks\", \"count\": 4}}"
            .to_owned();
    }
    if user.contains("Task: Mine 1 wood log") {
        code("Mines one oak log from the nearest tree.", "fn mineOneLog() {\n  mineBlock(\"oak_log\", 1)\n}")
    } else if user.contains("Task: Craft 4 oak_planks") {
        code("Crafts four oak planks from one oak log.", "fn makePlanks() {\n  craftItem(\"oak_planks\", 4)\n}")
    } else if user.contains("Task: Craft 1 bowl") {
        code(
            "Makes a bowl: a log, planks, a table placed.",
            "fn makeBowl() {\n  mineOneLog();\n  makePlanks();\n  craftItem(\"crafting_table\", 1);\n  \
             placeItem(\"crafting_table\", findFreeSpot(4));\n  craftItem(\"bowl\", 1)\n}",
        )
    } else {
        "I do not know.".to_owned()
    }
}

/// One learning run from a fresh world, skills and checkpoint, with the reply cache in `cache_dir`: (requests, s).
fn learning_run(endpoint: &FakeEndpoint, cache_dir: &ScriptDir, tag: &str) -> (usize, f64) {
    let world = World::start_with(0, &["--time-scale", "0"]);
    world.add_player("Alice", [3.5, 64.0, 3.5]);
    let skills = ScriptDir::new(&format!("economy-bench-skills-{tag}"), &[]);
    let checkpoint = ScriptDir::new(&format!("economy-bench-checkpoint-{tag}"), &[]);
    let config = cache_dir.0.join("wayfarer.toml");
    std::fs::write(&config, format!("[llm]\ncache_file = {:?}\n", cache_dir.0.join("replies.jsonl"))).unwrap();
    let args = [
        "--username",
        "Wayfarer",
        "--owner",
        "Alice",
        "--skills",
        skills.path(),
        "--checkpoint",
        checkpoint.path(),
        "--config",
        config.to_str().unwrap(),
        "--llm-url",
        &endpoint.base_url(),
    ];
    let bot = Bot::start(&world.address(), &args);
    bot.expect_log("Wayfarer spawned at", Duration::from_secs(60));
    for (x, z) in [(5, -3), (5, -5), (7, -4)] {
        world.cmd(json!({"cmd": "setBlock", "x": x, "y": 64, "z": z, "block": "oak_log"}));
    }
    let before = endpoint.requests().len();
    let started = Instant::now();
    let from = world.say("Alice", "!learn start 3");
    let done = world.expect_chat(from, "Wayfarer", "Learning done:", Duration::from_secs(300));
    let seconds = started.elapsed().as_secs_f64();
    assert!(done.contains("3 tasks done, 0 failed"), "the scripted run must succeed to be measured: {done}");
    (endpoint.requests().len() - before, seconds)
}

/// Fifty bots each making `per_bot` calls at once; returns (requests per minute achieved, busiest second).
async fn fifty_bots(requests_per_minute: Option<u32>, per_bot: usize) -> (f64, usize) {
    let endpoint = FakeEndpoint::start().await.unwrap();
    endpoint.answer_all("ok");
    let config = LlmConfig { base_url: endpoint.base_url(), requests_per_minute, cache: None, ..LlmConfig::default() };
    let shared = Llm::new(config).unwrap();
    let bots: Vec<Arc<Llm>> = (0..50).map(|_| Arc::new(shared.for_bot())).collect();
    let calls: Vec<_> = bots
        .iter()
        .map(|bot| {
            let bot = bot.clone();
            tokio::spawn(async move {
                for i in 0..per_bot {
                    bot.chat(Role::Action, &[Message::user(format!("call {i}"))], 0.7).await.unwrap();
                }
            })
        })
        .collect();
    for call in calls {
        call.await.unwrap();
    }
    let arrivals = endpoint.arrivals();
    let span = arrivals.last().unwrap().duration_since(arrivals[0]).as_secs_f64().max(1e-3);
    let per_minute = (arrivals.len() - 1) as f64 / span * 60.0;
    let busiest = (0..arrivals.len())
        .map(|i| arrivals[i..].iter().take_while(|t| t.duration_since(arrivals[i]) < Duration::from_secs(1)).count())
        .max()
        .unwrap_or(0);
    (per_minute, busiest)
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();

    eprintln!(
        "1. the scripted learning run, reply cache cold then warm ({} ms a scripted answer)",
        LATENCY.as_millis()
    );
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.respond_with(answer);
    endpoint.set_latency(LATENCY);
    let cache = ScriptDir::new("economy-bench-cache", &[]);
    let (cold_calls, cold_secs) = learning_run(&endpoint, &cache, "cold");
    eprintln!("   cold: {cold_calls} requests, {cold_secs:.1} s");
    let (warm_calls, warm_secs) = learning_run(&endpoint, &cache, "warm");
    eprintln!("   warm: {warm_calls} requests, {warm_secs:.1} s");
    // Why a warm request missed: the first line where it differs from the cold run's request of the same kind.
    let requests = endpoint.requests();
    let (cold, warm) = requests.split_at(cold_calls);
    for request in warm {
        let kind: String = system_message(request).chars().take(40).collect();
        let asked = last_user_message(request);
        let differs = cold.iter().filter(|c| system_message(c) == system_message(request)).find_map(|c| {
            let before = last_user_message(c);
            before.lines().zip(asked.lines()).find(|(a, b)| a != b).map(|(a, b)| format!("{a:?} then {b:?}"))
        });
        eprintln!(
            "   warm miss ({kind}…): {}",
            differs.unwrap_or_else(|| "no request of its kind in the cold run".to_owned())
        );
    }

    eprintln!("2. fifty bots asking at once (4 calls each)");
    let configured = 600;
    let (limited, limited_peak) = runtime.block_on(fifty_bots(Some(configured), 4));
    let (unlimited, unlimited_peak) = runtime.block_on(fifty_bots(None, 4));

    println!("\nScripted learning run (`!learn start 3`, 3 tasks), the reply cache cold and warm:\n");
    println!("| cache | LLM requests | wall time |");
    println!("|---|---|---|");
    println!("| cold | {cold_calls} | {cold_secs:.1} s |");
    println!("| warm | {warm_calls} | {warm_secs:.1} s |");
    println!("\nFifty bots, 4 calls each, all at once, through one endpoint:\n");
    println!("| limiter | requests per minute achieved | busiest second |");
    println!("|---|---|---|");
    println!("| {configured} per minute configured | {limited:.0} | {limited_peak} requests |");
    println!("| none | {unlimited:.0} | {unlimited_peak} requests |");
    assert!(
        limited <= f64::from(configured) * 1.02,
        "the limiter let {limited:.0} a minute through, configured {configured}"
    );
}
