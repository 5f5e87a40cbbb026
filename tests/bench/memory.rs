//! Memory figures (`make bench-memory`).
//!
//! 1. Recall at 100 000 memories: a stream filled with a long run's kinds of memory (chat, sightings, chests,
//!    meetings, hurts, task outcomes, insights), its index built from the log, then 200 questions recalled (embed the
//!    question, the nearest 128 by meaning, the 128 most recently recalled and the 64 most important, ranked). Side by side with
//!    generative agents' way: every memory scored against the question. Printed: p50/p95 per question, how often
//!    the two ways agree on the best memory and on the top five, and what our five score by the full ranking's own
//!    scores against its best five (near-twin memories make which one is first a coin toss).
//! 2. An hour of play, measured over `PLAY_MINUTES` of a real bot in a natural world (seed 5150: no test uses it), an
//!    owner giving it goals and chatting, a scripted LLM answering the memory prompts: memories and log bytes added,
//!    and LLM calls for importance and reflection, per hour.

#[path = "../support/mod.rs"]
mod support;

use std::{
    path::PathBuf,
    sync::Arc,
    time::{Duration, Instant},
};

use serde_json::Value;
use support::{fake_llm::FakeEndpoint, *};
use wayfarer::{
    memory::{MemoryStream, NewMemory, Settings, Subject, recall},
    skills::{Embedder, default_models_dir},
};

const MEMORIES: usize = 100_000;
const QUESTIONS: usize = 200;
const PLAY_SEED: u64 = 5150;
/// How long the bot stands idle between two goals in the play part.
const IDLE_BETWEEN_GOALS: Duration = Duration::from_secs(45);

fn embedder() -> Arc<Embedder> {
    let dir = std::env::var_os("WAYFARER_MODELS").map(PathBuf::from).unwrap_or_else(default_models_dir);
    Arc::new(Embedder::load(&dir).unwrap_or_else(|err| panic!("{err}")))
}

/// Memory `i` of a long run: the kinds a bot records, with varied places, players, items and words.
fn memory(i: usize) -> NewMemory {
    const PLAYERS: [&str; 6] = ["Alex", "Steve", "Maya", "Ravi", "Kofi", "Lena"];
    const SAID: [&str; 10] = [
        "can you bring me some iron",
        "the creepers are bad tonight",
        "let's build a house by the lake",
        "good morning",
        "I need wood for the bridge",
        "where did you put the coal",
        "watch out, there is lava below",
        "nice work",
        "we should farm wheat",
        "meet me at the village",
    ];
    const BLOCKS: [&str; 8] = [
        "coal_ore",
        "iron_ore",
        "copper_ore",
        "gold_ore",
        "deepslate_iron_ore",
        "diamond_ore",
        "crafting_table",
        "furnace",
    ];
    const ITEMS: [&str; 8] =
        ["coal", "cobblestone", "oak_log", "bread", "iron_ingot", "torch", "wheat_seeds", "string"];
    const MOBS: [&str; 4] = ["zombie", "skeleton", "spider", "creeper"];
    const TASKS: [&str; 6] = [
        "Mine 3 oak_log",
        "Craft 1 stone_pickaxe",
        "Smelt 4 iron_ingot",
        "Kill 1 cow",
        "Craft 8 torch",
        "Mine 10 cobblestone",
    ];
    // Each memory in an area of its own (17 blocks apart on a 317-wide grid), so none replaces another.
    let pos = [(i as i32 % 317) * 17 - 2700, 12 + (i as i32 * 13) % 60, (i as i32 / 317) * 17 - 2700];
    let player = PLAYERS[i % PLAYERS.len()];
    let at = format!("{} {} {}", pos[0], pos[1], pos[2]);
    match i % 7 {
        0 | 1 => NewMemory::new(
            format!("{player} said: {} ({i})", SAID[(i / 7) % SAID.len()]),
            Subject::Heard { from: player.into() },
        ),
        2 => {
            let block = BLOCKS[(i / 7) % BLOCKS.len()];
            NewMemory::new(
                format!("I found {} {block} at {at}", 1 + i % 5),
                Subject::Seen { block: block.into(), count: 1 + (i % 5) as u32 },
            )
            .at(pos, Some("minecraft:forest".into()))
        }
        3 => {
            let (a, b) = (ITEMS[(i / 7) % ITEMS.len()], ITEMS[(i / 11) % ITEMS.len()]);
            let items = [(a.to_owned(), 1 + (i % 30) as u32), (b.to_owned(), 2)].into_iter().collect();
            NewMemory::new(format!("the chest at {at} holds {} {a}, 2 {b}", 1 + i % 30), Subject::Chest { items })
                .at(pos, None)
        }
        4 => NewMemory::new(format!("I met {player} at {at}"), Subject::Met { player: format!("{player}{i}") }),
        5 => {
            let mob = MOBS[(i / 7) % MOBS.len()];
            NewMemory::new(
                format!("a {mob} hurt me at {at} (health {}/20)", 4 + i % 15),
                Subject::Hurt { by: mob.into() },
            )
        }
        _ => {
            let task = TASKS[(i / 7) % TASKS.len()];
            NewMemory::new(format!("I did the task {task} (at {at})"), Subject::Task { ok: !i.is_multiple_of(3) })
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn recall_at_scale() {
    let dir = std::env::temp_dir().join(format!("wayfarer-bench-memory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let settings = Settings { max_memories: MEMORIES + 1_000, ..Settings::default() };
    let (mut stream, _) = MemoryStream::open(&dir, settings).unwrap();
    let started = Instant::now();
    for i in 0..MEMORIES {
        // Ten game seconds apart: a hundred thousand memories span about three game days.
        stream.record(memory(i), i as u64 * 200).unwrap();
    }
    let logged = started.elapsed().as_secs_f64();
    let live = stream.len();
    let embedder = embedder();
    let started = Instant::now();
    let report = stream.attach(embedder.clone()).unwrap();
    let indexed = started.elapsed().as_secs_f64();
    eprintln!(
        "{live} memories ({} replaced as newer ones came) logged in {logged:.1} s; index built in {indexed:.0} s ({report})",
        MEMORIES - live
    );
    let now = MEMORIES as u64 * 200;
    let questions = [
        "where is iron ore",
        "who asked me for help",
        "is there coal in a chest",
        "what hurt me",
        "where is a furnace",
        "what did Maya want",
        "diamonds",
        "which tasks failed",
        "is it dangerous at night",
        "where can I get bread",
    ];
    let ids: Vec<u64> = stream.memories().map(|m| m.id).collect();
    let vectors: Vec<Vec<f32>> = ids.iter().map(|id| stream.vector(*id).expect("every memory is indexed")).collect();
    let (mut ours, mut every) = (Vec::new(), Vec::new());
    let (mut same_best, mut top_five_overlap, mut score_share) = (0, 0.0, 0.0);
    for q in 0..QUESTIONS {
        let question = questions[q % questions.len()];
        let started = Instant::now();
        let found = stream.rank(question, now, 5).unwrap();
        ours.push(started.elapsed().as_secs_f64() * 1000.0);
        // Generative agents' way: every memory's cosine to the question, every memory ranked.
        let started = Instant::now();
        let query = embedder.embed(&[question]).unwrap().remove(0);
        let all: Vec<_> = stream
            .memories()
            .zip(&vectors)
            .map(|(m, v)| (m, v.iter().zip(&query).map(|(a, b)| a * b).sum::<f32>()))
            .collect();
        let ranked = recall::rank(&all, now, settings.half_life, settings.weights);
        every.push(started.elapsed().as_secs_f64() * 1000.0);
        let theirs: Vec<u64> = ranked.iter().take(5).map(|s| s.id).collect();
        same_best += usize::from(found.first().map(|r| r.memory.id) == theirs.first().copied());
        top_five_overlap += found.iter().filter(|r| theirs.contains(&r.memory.id)).count() as f64 / 5.0;
        // How good ours are by the full ranking's own scores: many memories are near-twins (the same sighting
        // elsewhere), and which of two near-equal ones comes first is a coin toss, not a miss.
        let total = |id: u64| ranked.iter().find(|s| s.id == id).map_or(0.0, |s| f64::from(s.total));
        let best_five: f64 = theirs.iter().map(|id| total(*id)).sum();
        score_share += found.iter().map(|r| total(r.memory.id)).sum::<f64>() / best_five.max(f64::MIN_POSITIVE);
    }
    ours.sort_by(f64::total_cmp);
    every.sort_by(f64::total_cmp);
    println!("\nRecall at {live} memories ({QUESTIONS} questions; embedding the question included)\n");
    println!("| | p50 | p95 | same best memory | top five shared | top five's score, of the best five's |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| Wayfarer (nearest 128 by meaning, 128 most recent, 64 most important, ranked) | {:.2} ms | {:.2} ms | {:.0} % | {:.0} % | {:.1} % |",
        percentile(&ours, 0.5),
        percentile(&ours, 0.95),
        100.0 * same_best as f64 / QUESTIONS as f64,
        100.0 * top_five_overlap / QUESTIONS as f64,
        100.0 * score_share / QUESTIONS as f64
    );
    println!(
        "| every memory scored (generative agents) | {:.2} ms | {:.2} ms | 100 % | 100 % | 100 % |",
        percentile(&every, 0.5),
        percentile(&every, 0.95)
    );
    println!(
        "\nLog {:.1} MB ({:.0} bytes a memory), index build from the log {indexed:.0} s",
        stream.log_bytes() as f64 / 1e6,
        stream.log_bytes() as f64 / MEMORIES as f64
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The scripted LLM's answers to the memory prompts (and a plain answer to anything else).
fn memory_answers(request: &Value) -> String {
    let prompt = last_user_message(request);
    if prompt.contains("Rate each numbered memory") {
        let count =
            prompt.lines().filter(|l| l.split_once(". ").is_some_and(|(n, _)| n.parse::<usize>().is_ok())).count();
        let ratings: Vec<String> = (0..count).map(|i| (2 + i % 5).to_string()).collect();
        format!("[{}]", ratings.join(", "))
    } else if prompt.contains("most salient high-level questions") {
        "1. What does Alice want from me?\n2. Where are the resources?\n3. What is dangerous here?".to_owned()
    } else if prompt.contains("high-level insights") {
        "Alice keeps asking for wood and stone (because of 1, 2)\nThe forest by spawn has what I need (because of 3)"
            .to_owned()
    } else {
        "I am not sure.".to_owned()
    }
}

fn play_for_a_while(minutes: u64) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let endpoint = runtime.block_on(FakeEndpoint::start()).unwrap();
    endpoint.respond_with(memory_answers);
    let world = World::start_natural(PLAY_SEED, &["--mobs", "off"]);
    let (sx, sz) = world.spawn_column();
    world.add_player("Alice", [sx as f64 + 2.5, world.ground_y(sx + 2, sz + 2) as f64, sz as f64 + 2.5]);
    let checkpoint = ScriptDir::new("bench-memory-play", &[]);
    let bot = Bot::start(
        &world.address(),
        &[
            "--username",
            "Pip",
            "--owner",
            "Alice",
            "--llm-url",
            &endpoint.base_url(),
            "--checkpoint",
            checkpoint.path(),
        ],
    );
    bot.expect_log("Pip spawned at", Duration::from_secs(60));
    // Goals that each take work, the counts growing every round so none is done already; between goals the owner
    // chats and the bot stands idle for a while, as a bot beside a player does.
    let goals =
        ["get {} logs", "craft a stone pickaxe", "get {} cobblestone", "get {} coal", "craft a furnace", "get {} dirt"];
    let base = [6, 1, 8, 4, 1, 16];
    let talk = [
        "good morning Pip",
        "could you build us a shelter later?",
        "I saw a cave to the east",
        "the sun is nice today",
        "watch out for creepers at night",
        "we need more torches",
        "thanks for the wood",
        "I'm going fishing",
    ];
    let started = Instant::now();
    let limit = Duration::from_secs(minutes * 60);
    let (mut done, mut said) = (0, 0);
    let mut next_talk = Instant::now() + Duration::from_secs(20);
    'play: for k in 0.. {
        let round = k / goals.len() + 1;
        let goal = goals[k % goals.len()].replace("{}", &(base[k % goals.len()] * round).to_string());
        if goal.starts_with("craft") && round > 1 {
            continue;
        }
        let from = world.say("Alice", &format!("!task {goal}"));
        let mut ended_at: Option<Instant> = None;
        loop {
            std::thread::sleep(Duration::from_millis(500));
            if started.elapsed() >= limit {
                break 'play;
            }
            if Instant::now() >= next_talk {
                world.say("Alice", talk[said % talk.len()]);
                said += 1;
                next_talk = Instant::now() + Duration::from_secs(20);
            }
            if ended_at.is_none()
                && world.chat_since(from).iter().any(|l| {
                    l.starts_with(&format!("<Pip> I succeeded in task: {goal}"))
                        || l.starts_with(&format!("<Pip> I failed task: {goal}"))
                })
            {
                ended_at = Some(Instant::now());
                done += 1;
            }
            if ended_at.is_some_and(|at| at.elapsed() >= IDLE_BETWEEN_GOALS) {
                break;
            }
        }
    }
    let played = started.elapsed().as_secs_f64() / 3600.0;
    drop(bot);
    let log =
        std::fs::read_to_string(checkpoint.0.join("Pip").join("memory").join("memories.jsonl")).unwrap_or_default();
    let added = log.lines().filter(|l| l.starts_with("{\"add\"")).count();
    let insights = log.lines().filter(|l| l.starts_with("{\"add\"") && l.contains("\"type\":\"insight\"")).count();
    let requests = endpoint.requests();
    let of = |needle: &str| requests.iter().filter(|r| last_user_message(r).contains(needle)).count();
    let (rating, questions, insight_calls) =
        (of("Rate each numbered memory"), of("most salient high-level questions"), of("high-level insights"));
    let per_hour = |n: f64| n / played;
    println!(
        "\nAn hour of play, from {:.0} minutes in a natural world (seed {PLAY_SEED}): {done} goals ended, {said} chat lines from the owner, {} s idle after each goal\n",
        played * 60.0,
        IDLE_BETWEEN_GOALS.as_secs()
    );
    println!("| memories added | of them insights | log bytes | LLM calls: importance | LLM calls: reflection |");
    println!("|---|---|---|---|---|");
    println!(
        "| {:.0} / h | {:.0} / h | {:.0} kB / h | {:.0} / h | {:.0} / h ({:.0} reflections) |",
        per_hour(added as f64),
        per_hour(insights as f64),
        per_hour(log.len() as f64) / 1000.0,
        per_hour(rating as f64),
        per_hour((questions + insight_calls) as f64),
        per_hour(questions as f64)
    );
    if added == 0 {
        eprintln!("the bot recorded nothing");
        std::process::exit(1);
    }
}

fn main() {
    // `MEMORY_BENCH=play` or `=recall` runs one part; `PLAY_MINUTES` sets the play time (10).
    let part = std::env::var("MEMORY_BENCH").unwrap_or_default();
    if part != "play" {
        recall_at_scale();
    }
    if part != "recall" {
        let minutes = std::env::var("PLAY_MINUTES").ok().and_then(|m| m.parse().ok()).unwrap_or(10);
        play_for_a_while(minutes);
    }
}
