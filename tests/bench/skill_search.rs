//! Skill search figures (criterion): a query as the library answers it (embed, nearest 40 by meaning, best 40 by
//! words with BM25, fused, the action asked for lifted, top 5) against 100, 1 000 and 10 000 skills, embedding throughput, and loading a
//! 10 000-skill index from disk. Ends with p50/p95 query latency per size, the figure the README quotes. Needs the model (`make models`); `cargo bench --bench skill_search`.

use std::{collections::BTreeMap, path::PathBuf, sync::Arc, time::Instant};

use criterion::{BenchmarkId, Criterion, Throughput, black_box};
use wayfarer::skills::{CANDIDATES, Embedder, SkillIndex, default_models_dir, lexical::Lexical, rank};

const SIZES: [usize; 3] = [100, 1_000, 10_000];
const QUERIES: [&str; 6] = [
    "get some wood",
    "make a stone pick",
    "cook iron",
    "kill a zombie at night",
    "fill a chest with wheat",
    "build a shelter",
];

/// Synthetic but varied skill descriptions, like the ones a long learning run writes.
fn descriptions(n: usize) -> BTreeMap<String, String> {
    const VERBS: [&str; 8] = ["Mines", "Crafts", "Smelts", "Collects", "Places", "Kills", "Cooks", "Deposits"];
    const THINGS: [&str; 25] = [
        "oak logs",
        "birch planks",
        "sticks",
        "a crafting table",
        "a wooden pickaxe",
        "cobblestone",
        "a stone sword",
        "a furnace",
        "iron ore",
        "iron ingots",
        "coal",
        "a bucket",
        "wheat",
        "bread",
        "a zombie",
        "a skeleton",
        "a cow",
        "leather",
        "a chest",
        "torches",
        "sand",
        "glass",
        "a shield",
        "diamonds",
        "an iron chestplate",
    ];
    const HOW: [&str; 10] = [
        "near the bot",
        "from the nearest chest",
        "at a crafting table",
        "in a furnace with coal",
        "before night falls",
        "while keeping food above half",
        "exploring north until found",
        "with the best tool carried",
        "and returns the count",
        "then stores the surplus",
    ];
    (0..n)
        .map(|i| {
            let (verb, thing, how) = (VERBS[i % 8], THINGS[(i / 8) % 25], HOW[(i / 200) % 10]);
            (format!("skill{i}"), format!("{verb} {} {thing} {how}. Variant {i}.", 1 + i % 16))
        })
        .collect()
}

fn embedder() -> Arc<Embedder> {
    let dir = std::env::var_os("WAYFARER_MODELS").map(PathBuf::from).unwrap_or_else(default_models_dir);
    Arc::new(Embedder::load(&dir).unwrap_or_else(|err| panic!("{err}")))
}

/// An index of the first `n` synthetic skills, built from vectors embedded once.
fn index_of(n: usize, embedder: &Embedder, texts: &BTreeMap<String, String>, vectors: &[Vec<f32>]) -> SkillIndex {
    let dir = std::env::temp_dir().join(format!("wayfarer-bench-index-{n}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (mut index, _) = SkillIndex::open(&dir, embedder, &BTreeMap::new()).unwrap();
    for ((name, text), vector) in texts.iter().zip(vectors).take(n) {
        index.insert(name, text, vector).unwrap();
    }
    index
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args().sample_size(50);
    let embedder = embedder();
    let texts = descriptions(SIZES[2]);
    let all: Vec<&str> = texts.values().map(String::as_str).collect();

    let started = Instant::now();
    let vectors = embedder.embed(&all).unwrap();
    let embed_secs = started.elapsed().as_secs_f64();
    println!("embedded {} descriptions in {embed_secs:.1} s ({:.0}/s)", all.len(), all.len() as f64 / embed_secs);

    let mut group = criterion.benchmark_group("embed");
    group.throughput(Throughput::Elements(64));
    group.bench_function("batch_of_64_descriptions", |b| b.iter(|| embedder.embed(black_box(&all[..64])).unwrap()));
    group.bench_function("one_query", |b| b.iter(|| embedder.embed_one(black_box("make a stone pick")).unwrap()));
    group.finish();

    let indexes: Vec<(usize, SkillIndex, Lexical)> = SIZES
        .iter()
        .map(|&n| {
            let lexical = Lexical::new(texts.iter().take(n).map(|(name, text)| (name.as_str(), text.as_str())));
            (n, index_of(n, &embedder, &texts, &vectors), lexical)
        })
        .collect();
    // The library's retrieve, without the library around it: both searches, the action and things asked for, the ranking.
    let query = |index: &SkillIndex, lexical: &Lexical, text: &str| {
        let vector = embedder.embed_one(text).unwrap();
        let lists = [index.search(&vector, CANDIDATES).unwrap(), lexical.search(text, CANDIDATES)];
        let things = lexical.asked_stems(text);
        rank(&lists, &lexical.asked(text), |name| lexical.names_only_asked(&things, name), 5)
    };
    let mut group = criterion.benchmark_group("query_hybrid_top5");
    for (n, index, lexical) in &indexes {
        group.bench_with_input(BenchmarkId::from_parameter(n), n, |b, _| {
            let mut i = 0;
            b.iter(|| {
                i += 1;
                query(index, lexical, QUERIES[i % QUERIES.len()])
            })
        });
    }
    group.finish();

    // A saved 10 000-skill index, opened as the bot does: load, check against the skills, nothing to embed.
    let dir = std::env::temp_dir().join(format!("wayfarer-bench-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    {
        let (mut index, _) = SkillIndex::open(&dir, &embedder, &BTreeMap::new()).unwrap();
        for ((name, text), vector) in texts.iter().zip(&vectors) {
            index.insert(name, text, vector).unwrap();
        }
        index.save().unwrap();
    }
    let mut group = criterion.benchmark_group("index_load");
    group.sample_size(20);
    group.bench_function("10000_skills", |b| {
        b.iter(|| {
            let (index, report) = SkillIndex::open(&dir, &embedder, &texts).unwrap();
            assert_eq!(report.embedded, 0);
            index
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);

    println!(
        "\nquery latency (embed, both searches, fusion, top 5), 300 queries each; the words half alone beside it:"
    );
    println!("{:>8}  {:>8}  {:>8}  {:>14}", "skills", "p50 ms", "p95 ms", "BM25 p50 ms");
    for (n, index, lexical) in &indexes {
        let mut times: Vec<f64> = (0..300)
            .map(|i| {
                let started = Instant::now();
                black_box(query(index, lexical, QUERIES[i % QUERIES.len()]));
                started.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        let mut words: Vec<f64> = (0..300)
            .map(|i| {
                let started = Instant::now();
                black_box(lexical.search(QUERIES[i % QUERIES.len()], CANDIDATES));
                started.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        words.sort_by(f64::total_cmp);
        println!(
            "{n:>8}  {:>8.2}  {:>8.2}  {:>14.3}",
            times[times.len() / 2],
            times[times.len() * 95 / 100],
            words[words.len() / 2]
        );
    }
    criterion.final_summary();
}
