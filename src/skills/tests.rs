//! Store, index and retrieval with the real model, in temporary folders. The model comes from `WAYFARER_MODELS` or
//! the default models folder (`make models`); without it these tests fail, naming what is missing.

use std::{
    path::PathBuf,
    sync::{Arc, OnceLock},
    time::Duration,
};

use super::*;
use crate::script::{
    Answer, Call, Host, Limits, RunBounds,
    runner::{self, Outcome},
};

pub(crate) fn embedder() -> Arc<Embedder> {
    static EMBEDDER: OnceLock<Arc<Embedder>> = OnceLock::new();
    EMBEDDER
        .get_or_init(|| {
            let dir = std::env::var_os("WAYFARER_MODELS").map(PathBuf::from).unwrap_or_else(default_models_dir);
            Arc::new(Embedder::load(&dir).unwrap_or_else(|err| panic!("{err}")))
        })
        .clone()
}

fn temp_dir(tag: &str) -> crate::TestDir {
    crate::test_dir(&format!("skills-{tag}"))
}

/// A copy of the starter library in `skills/`.
fn starter_copy(tag: &str) -> crate::TestDir {
    let dir = temp_dir(tag);
    let starter = crate::crate_dir().join("skills");
    for entry in std::fs::read_dir(starter).unwrap() {
        let path = entry.unwrap().path();
        if skill_name(&path).is_some() {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

fn skill(name: &str, code: &str, description: &str) -> NewSkill {
    NewSkill { name: name.into(), code: code.into(), description: description.into(), task: String::new() }
}

fn names(matches: &[Match]) -> Vec<&str> {
    matches.iter().map(|m| m.skill.name.as_str()).collect()
}

#[test]
fn a_missing_model_names_the_file_and_the_fix() {
    let dir = temp_dir("no-model");
    let err = Embedder::load(&dir).unwrap_err().to_string();
    assert!(err.contains("libonnxruntime.so.1.31.1 is missing"), "{err}");
    assert!(err.contains("make models"), "{err}");
    let skills = temp_dir("no-model-skills");
    let (library, _) = SkillLibrary::open(&skills);
    assert!(library.enable_search(&dir).is_err());
    let err = library.retrieve("wood", 3).unwrap_err().to_string();
    assert!(err.starts_with("skill search is off: the embedding model is incomplete"), "{err}");
}

#[test]
fn starter_skills_load_and_are_found_by_natural_queries() {
    let dir = starter_copy("starter");
    let (library, events) = SkillLibrary::open(&dir);
    assert!(events.iter().all(|e| matches!(e, SkillEvent::Loaded { .. })), "{events:?}");
    assert_eq!(library.len(), 68);
    let report = library.enable_search_with(embedder()).unwrap();
    assert_eq!((report.embedded, report.rebuilt.as_deref()), (68, Some("there was none")));

    let expected = [
        ("get some wood", "mineWoodLog"),
        ("chop down a tree", "mineWoodLog"),
        ("make wooden planks", "craftPlanks"),
        ("craft sticks", "craftSticks"),
        ("make a workbench", "craftCraftingTable"),
        ("make a wooden pick", "craftWoodenPickaxe"),
        ("get cobblestone", "mineCobblestone"),
        ("make a stone pick", "craftStonePickaxe"),
        ("make a weapon", "craftStoneSword"),
        ("build a furnace", "craftFurnace"),
        ("find and dig iron", "mineIronOre"),
        ("cook iron", "smeltIronIngot"),
        ("make an iron pickaxe", "craftIronPickaxe"),
        ("mine a diamond", "mineDiamond"),
        ("find some food to eat", "cookFood"),
    ];
    let mut misses = Vec::new();
    for (query, skill) in expected {
        let found = library.retrieve(query, 3).unwrap();
        assert!(found.windows(2).all(|w| w[0].score >= w[1].score), "not best first: {found:?}");
        if !names(&found).contains(&skill) {
            let scored: Vec<String> = found.iter().map(|m| format!("{} {:.2}", m.skill.name, m.score)).collect();
            misses.push(format!("{query:?} → {scored:?}, not {skill}"));
        }
    }
    assert!(misses.is_empty(), "intended skill not in the top 3:\n{}", misses.join("\n"));
}

/// The search evaluation: questions in everyday words over the starter library, each with the skill meant to answer
/// it (`tests/data/skill_questions.tsv`, a held-out set never looked at while tuning, and a third set written later,
/// before the next round of tuning). `make eval-search` prints
/// top-1, top-5 and the mean reciprocal rank for the search by meaning alone (as before the lexical half), by words
/// alone, and fused. The floors asserted are the fused figures when they were measured: search may only get better.
#[test]
fn search_evaluation_over_the_starter_library() {
    let dir = starter_copy("eval");
    let (library, _) = SkillLibrary::open(&dir);
    library.enable_search_with(embedder()).unwrap();
    let mut fused = None;
    for set in ["skill_questions.tsv", "skill_questions_heldout.tsv", "skill_questions_fresh.tsv"] {
        let text = std::fs::read_to_string(crate::crate_dir().join("tests/data").join(set)).unwrap();
        let questions: Vec<(&str, &str)> = text
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| line.split_once('\t').unwrap_or_else(|| panic!("no tab in {line:?}")))
            .collect();
        for mode in [SearchMode::Meaning, SearchMode::Words, SearchMode::MeaningAndWords, SearchMode::Hybrid] {
            let (figures, misses) = evaluate(&library, &questions, mode);
            eprintln!(
                "{set}, {mode:?}: {} questions over {} skills: top-1 {:.1} %, top-5 {:.1} %, MRR {:.3}",
                questions.len(),
                library.len(),
                figures.0 * 100.0,
                figures.1 * 100.0,
                figures.2
            );
            if mode == SearchMode::Hybrid {
                eprintln!("not first:\n{}", misses.join("\n"));
                if set == "skill_questions.tsv" {
                    assert!(
                        questions.len() >= 60 && library.len() >= 50,
                        "{} questions over {} skills",
                        questions.len(),
                        library.len()
                    );
                    fused = Some(figures);
                }
            }
        }
    }
    let (top1, top5, mrr) = fused.unwrap();
    assert!(
        top1 >= EVAL_FLOOR.0 && top5 >= EVAL_FLOOR.1 && mrr >= EVAL_FLOOR.2,
        "search got worse than {EVAL_FLOOR:?}"
    );
}

/// Requests and the skills that answer each (`a|b`), from a question file of `tests/data`.
fn question_file(path: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(crate::crate_dir().join("tests/data").join(path)).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split_once('\t').unwrap_or_else(|| panic!("no tab in {line:?}")))
        .map(|(question, skills)| (question.to_owned(), skills.to_owned()))
        .collect()
}

/// Skill search over a library Wayfarer did not write, imported as `wayfarer skills import` reads it: the descriptions
/// of Voyager's published skill library, and requests for them in a player's words (`make eval-search` prints it).
#[test]
fn search_evaluation_over_an_imported_library() {
    let dir = temp_dir("foreign");
    let (library, _) = SkillLibrary::open(&dir);
    let source = crate::crate_dir().join("tests/data/foreign/voyager_skills.json");
    for incoming in import::read_source(&source).unwrap() {
        library.add(incoming.unwrap(), OnCollision::KeepBoth).unwrap();
    }
    assert_eq!(library.len(), 120);
    library.enable_search_with(embedder()).unwrap();
    let mut scores = Vec::new();
    for (set, _) in FOREIGN_SETS {
        let owned = question_file(set);
        let questions: Vec<(&str, &str)> = owned.iter().map(|(q, s)| (q.as_str(), s.as_str())).collect();
        for mode in [SearchMode::Meaning, SearchMode::Words, SearchMode::Hybrid] {
            let (figures, misses) = evaluate(&library, &questions, mode);
            eprintln!(
                "{set}, {mode:?}: {} requests over {} skills: top-1 {:.1} %, top-5 {:.1} %, MRR {:.3}",
                questions.len(),
                library.len(),
                figures.0 * 100.0,
                figures.1 * 100.0,
                figures.2
            );
            if mode == SearchMode::Hybrid {
                eprintln!("not first:\n{}", misses.join("\n"));
                scores.push(figures.0);
            }
        }
    }
    for (&(set, floor), &top1) in FOREIGN_SETS.iter().zip(&scores) {
        assert!(top1 >= floor, "top-1 on {set} fell below {floor}: {top1}");
    }
}

/// Skill search over a second library Wayfarer did not write (ODYSSEY's published skills, `tests/data/foreign2`),
/// with requests written blind to the search code: the sets search was tuned on, and the one sealed set, run once and
/// never tuned on, whose misses are not shown. The floors hold what was measured.
#[test]
fn search_evaluation_over_a_second_imported_library() {
    let dir = temp_dir("foreign2");
    let (library, _) = SkillLibrary::open(&dir);
    let source = crate::crate_dir().join("tests/data/foreign2/skills.json");
    for incoming in import::read_source(&source).unwrap() {
        library.add(incoming.unwrap(), OnCollision::KeepBoth).unwrap();
    }
    assert_eq!(library.len(), 136);
    library.enable_search_with(embedder()).unwrap();
    for &(set, floor, sealed) in SECOND_SETS {
        let owned = question_file(set);
        let questions: Vec<(&str, &str)> = owned.iter().map(|(q, s)| (q.as_str(), s.as_str())).collect();
        let (figures, misses) = evaluate(&library, &questions, SearchMode::Hybrid);
        eprintln!(
            "{set}: {} requests over {} skills: top-1 {:.1} %, top-5 {:.1} %, MRR {:.3}",
            questions.len(),
            library.len(),
            figures.0 * 100.0,
            figures.1 * 100.0,
            figures.2,
        );
        if !sealed {
            eprintln!("not first:\n{}", misses.join("\n"));
        }
        assert!(figures.0 >= floor, "top-1 on {set} fell below {floor}: {}", figures.0);
    }
}

/// The second imported library's request sets, their top-1 floors, and whether the set is sealed (its misses never
/// shown). The first six were tuned on (each after its first figures: see the benchmarks); the seventh is sealed.
const SECOND_SETS: &[(&str, f64, bool)] = &[
    ("foreign2/questions.tsv", 0.97, false),
    ("foreign2/questions_sealed.tsv", 0.95, false),
    ("foreign2/questions_sealed2.tsv", 0.9, false),
    ("foreign2/questions_sealed4.tsv", 0.97, false),
    ("foreign2/questions_sealed5.tsv", 0.97, false),
    ("foreign2/questions_sealed6.tsv", 0.95, false),
    ("foreign2/questions_sealed7.tsv", 0.85, true),
];

/// The imported library's question sets, each with the top-1 the fused search must keep on it: the one search was
/// tuned on; requests in the words of a player who does not know the game's names (for the reranker that was tried,
/// see the benchmarks); then the unseen ones, each run once when its round of tuning was done (the third after the
/// glossary, the fourth after the round that followed), and a floor since. The floors are the scores after the
/// glossary of things described without their names and the rounds that followed it.
const FOREIGN_SETS: &[(&str, f64)] = &[
    ("foreign/questions.tsv", 0.95),
    ("foreign/questions_riddles.tsv", 0.74),
    ("foreign/questions_unseen.tsv", 0.96),
    ("foreign/questions_unseen2.tsv", 0.92),
    ("foreign/questions_unseen3.tsv", 0.92),
    ("foreign/questions_unseen4.tsv", 0.97),
];

/// Top-1, top-5 and MRR over `questions`, and the questions whose skill did not come first.
fn evaluate(library: &SkillLibrary, questions: &[(&str, &str)], mode: SearchMode) -> ((f64, f64, f64), Vec<String>) {
    let (mut top1, mut top5, mut reciprocal) = (0, 0, 0.0);
    let mut misses = Vec::new();
    for (question, skill) in questions {
        // Any of `a|b` answers the question.
        let answers: Vec<&str> = skill.split('|').collect();
        for answer in &answers {
            assert!(library.get(answer).is_some(), "{question:?} expects {answer}, which is not in the library");
        }
        let found = library.retrieve_by(question, library.len(), mode).unwrap();
        let rank = names(&found)
            .iter()
            .position(|name| answers.iter().any(|a| a == name))
            .map_or(library.len() + 1, |i| i + 1);
        top1 += usize::from(rank == 1);
        top5 += usize::from(rank <= 5);
        reciprocal += 1.0 / rank as f64;
        if rank > 1 {
            misses.push(format!(
                "  {question:?}: {skill} ranked {rank}, after {}",
                names(&found[..3.min(found.len())]).join(", ")
            ));
        }
    }
    let n = questions.len() as f64;
    ((top1 as f64 / n, top5 as f64 / n, reciprocal / n), misses)
}

/// Top-1, top-5 and MRR the fused search must keep on the first question set (0.924, 1.0, 0.960 when requests that
/// only name things came to ask for them; 0.909, 1.0, 0.955 since a skill named after only asked-for things is
/// lifted, which lost "make a hatchet" to the stone axe and won 5 points on the imported libraries' sets).
const EVAL_FLOOR: (f64, f64, f64) = (0.90, 1.0, 0.95);

#[test]
fn the_index_persists_and_rebuilds_when_damaged() {
    let dir = starter_copy("persist");
    let (library, _) = SkillLibrary::open(&dir);
    library.enable_search_with(embedder()).unwrap();
    drop(library);

    // Reopened as it was: nothing to embed.
    let (library, _) = SkillLibrary::open(&dir);
    let report = library.enable_search_with(embedder()).unwrap();
    assert_eq!(report, SyncReport::default());
    drop(library);

    // A torn vectors file: rebuilt, and search still works.
    let vectors = dir.join(INDEX_DIR).join("skills.usearch");
    let bytes = std::fs::read(&vectors).unwrap();
    std::fs::write(&vectors, &bytes[..bytes.len() / 3]).unwrap();
    let (library, _) = SkillLibrary::open(&dir);
    let report = library.enable_search_with(embedder()).unwrap();
    assert!(report.rebuilt.as_deref().is_some_and(|r| r.contains("skills.usearch")), "{report:?}");
    assert_eq!(report.embedded, 68);
    assert_eq!(names(&library.retrieve("cook iron", 1).unwrap()), ["smeltIronIngot"]);
    drop(library);

    // An index from another model: rebuilt.
    let manifest = dir.join(INDEX_DIR).join("manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap().replace(MODEL_ID, "another-model");
    std::fs::write(&manifest, text).unwrap();
    let (library, _) = SkillLibrary::open(&dir);
    let report = library.enable_search_with(embedder()).unwrap();
    assert!(report.rebuilt.as_deref().is_some_and(|r| r.contains("another-model")), "{report:?}");
    drop(library);

    // A skill deleted while nothing ran: dropped from the index on the next open.
    std::fs::remove_file(dir.join("craftFurnace.rhai")).unwrap();
    let (library, _) = SkillLibrary::open(&dir);
    let report = library.enable_search_with(embedder()).unwrap();
    assert_eq!((report.removed, report.embedded), (1, 0));
    assert!(!names(&library.retrieve("build a furnace", 15).unwrap()).contains(&"craftFurnace"));
}

#[test]
fn torn_and_invalid_skill_files_are_reported_and_skipped() {
    let dir = temp_dir("torn");
    std::fs::write(dir.join("good.rhai"), "fn good() { 1 }").unwrap();
    std::fs::write(dir.join("good.json"), r#"{"description": "Returns one."}"#).unwrap();
    // A crash mid-write of the metadata.
    std::fs::write(dir.join("torn.rhai"), "fn torn() { 2 }").unwrap();
    std::fs::write(dir.join("torn.json"), r#"{"description": "Retu"#).unwrap();
    // Code that does not compile, and code without its function.
    std::fs::write(dir.join("broken.rhai"), "fn broken() {\n  let = ;\n}").unwrap();
    std::fs::write(dir.join("broken.json"), r#"{"description": "Broken."}"#).unwrap();
    std::fs::write(dir.join("misnamed.rhai"), "fn other() { 3 }").unwrap();
    std::fs::write(dir.join("misnamed.json"), r#"{"description": "Misnamed."}"#).unwrap();
    std::fs::write(dir.join("lonely.rhai"), "fn lonely() { 4 }").unwrap();
    // Leftovers of an interrupted atomic write are not skills.
    std::fs::write(dir.join(".good.rhai.123.tmp"), "fn good() {").unwrap();

    let (library, events) = SkillLibrary::open(&dir);
    assert_eq!(library.list().iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["good"]);
    let failed: Vec<String> =
        events.iter().filter(|e| matches!(e, SkillEvent::Failed { .. })).map(|e| e.to_string()).collect();
    assert_eq!(failed.len(), 4, "{failed:#?}");
    assert!(failed.iter().any(|f| f.starts_with("skills/torn.json line 1: not valid skill metadata")), "{failed:#?}");
    assert!(failed.iter().any(|f| f.starts_with("skills/broken.rhai line 2:")), "{failed:#?}");
    assert!(
        failed.iter().any(|f| f.contains("misnamed.rhai: it defines no fn misnamed (functions found: other)")),
        "{failed:#?}"
    );
    assert!(failed.iter().any(|f| f.contains("lonely.json: it is missing")), "{failed:#?}");
}

#[test]
fn add_keeps_both_on_a_collision_unless_replacing() {
    let dir = temp_dir("add");
    let (library, _) = SkillLibrary::open(&dir);
    library.enable_search_with(embedder()).unwrap();
    let first = library
        .add(skill("dig", "fn dig(n) { if n > 0 { dig(n - 1) } else { 1 } }", "Digs down."), OnCollision::KeepBoth)
        .unwrap();
    assert_eq!((first.name.as_str(), first.meta.version), ("dig", 1));
    let second = library
        .add(skill("dig", "fn dig(n) { if n > 0 { dig(n - 1) } else { 2 } }", "Digs a tunnel."), OnCollision::KeepBoth)
        .unwrap();
    assert_eq!(second.name, "digV2");
    assert!(second.code.contains("fn digV2(n)") && second.code.contains("digV2(n - 1)"), "{}", second.code);
    assert!(dir.join("digV2.rhai").is_file() && dir.join("digV2.json").is_file());

    let replaced = library.add(skill("dig", "fn dig(n) { 3 }", "Digs a staircase."), OnCollision::Replace).unwrap();
    assert_eq!((replaced.name.as_str(), replaced.meta.version), ("dig", 2));
    assert_eq!(library.len(), 2);
    let meta: SkillMeta = serde_json::from_str(&std::fs::read_to_string(dir.join("dig.json")).unwrap()).unwrap();
    assert_eq!(meta.description, "Digs a staircase.");
    assert_eq!(names(&library.retrieve("staircase", 1).unwrap()), ["dig"], "the replaced description is what is found");

    library.remove("digV2").unwrap();
    assert!(!dir.join("digV2.rhai").exists() && !dir.join("digV2.json").exists());
    assert_eq!(names(&library.retrieve("tunnel", 5).unwrap()), ["dig"]);
    assert!(matches!(library.remove("digV2"), Err(SkillError::Unknown(_))));

    // Bad input is refused with the reason, and nothing is written.
    let err = library.add(skill("bad", "fn bad() {\n  let = ;\n}", "Bad."), OnCollision::KeepBoth).unwrap_err();
    assert!(err.to_string().starts_with("skill bad does not compile (line 2)"), "{err}");
    let err =
        library.add(skill("mineBlock", "fn mineBlock() {}", "Hides a primitive."), OnCollision::KeepBoth).unwrap_err();
    assert!(err.to_string().contains("taken by Wayfarer"), "{err}");
    let err = library.add(skill("quiet", "fn quiet() {}", "  "), OnCollision::KeepBoth).unwrap_err();
    assert!(err.to_string().contains("description is empty"), "{err}");
    assert!(!dir.join("bad.rhai").exists() && !dir.join("quiet.rhai").exists());
}

#[test]
fn an_edited_skill_is_reloaded_and_re_embedded() {
    let dir = temp_dir("reload");
    let (library, _) = SkillLibrary::open(&dir);
    library.enable_search_with(embedder()).unwrap();
    library
        .add(
            skill("fish", "fn fish() { 1 }", "Catches fish with a fishing rod at the nearest water."),
            OnCollision::KeepBoth,
        )
        .unwrap();
    library
        .add(skill("farm", "fn farm() { 1 }", "Plants wheat seeds on tilled farmland."), OnCollision::KeepBoth)
        .unwrap();
    assert_eq!(names(&library.retrieve("go fishing", 1).unwrap()), ["fish"]);

    // Our own write, seen again (as a watcher would), is nothing new.
    assert_eq!(library.reload(&dir.join("fish.json")), None);
    // The owner edits the metadata by hand: the skill now harvests wheat.
    let json = std::fs::read_to_string(dir.join("fish.json")).unwrap();
    let edited = json.replace(
        "Catches fish with a fishing rod at the nearest water.",
        "Harvests ripe wheat and replants the seeds.",
    );
    std::fs::write(dir.join("fish.json"), edited).unwrap();
    assert_eq!(library.reload(&dir.join("fish.json")), Some(SkillEvent::Loaded { name: "fish".into() }));
    assert_eq!(names(&library.retrieve("harvest the wheat", 1).unwrap()), ["fish"]);
    assert_eq!(library.get("fish").unwrap().meta.description, "Harvests ripe wheat and replants the seeds.");

    // A broken edit keeps the working version; deleting the code removes the skill.
    std::fs::write(dir.join("farm.rhai"), "fn farm( {").unwrap();
    let event = library.reload(&dir.join("farm.rhai")).unwrap();
    let SkillEvent::Failed { file, kept, .. } = &event else { panic!("{event:?}") };
    assert_eq!((file.as_str(), *kept), ("farm.rhai", true));
    assert!(library.get("farm").is_some());
    std::fs::remove_file(dir.join("farm.rhai")).unwrap();
    assert_eq!(library.reload(&dir.join("farm.rhai")), Some(SkillEvent::Removed { name: "farm".into() }));
    assert!(library.get("farm").is_none());
    assert_eq!(names(&library.retrieve("plant seeds", 5).unwrap()), ["fish"]);
}

/// A skill whose description had seven sentences was skipped when the library loaded, so importing someone's library
/// lost skills with only a warning. It loads; the index embeds the first six sentences.
#[test]
fn an_overlong_description_is_trimmed_for_the_index_not_skipped() {
    let dir = temp_dir("long");
    std::fs::write(dir.join("fish.rhai"), "fn fish() { 1 }\n").unwrap();
    let description = "Walks to water. Equips a rod. Casts it. Waits for a bite. Reels in. Repeats. Returns the catch.";
    std::fs::write(dir.join("fish.json"), serde_json::json!({"description": description}).to_string()).unwrap();
    let (library, events) = SkillLibrary::open(&dir);
    assert_eq!(library.len(), 1, "{events:?}");
    let SkillEvent::Trimmed { name, reason } = &events[0] else { panic!("{events:?}") };
    assert_eq!(name, "fish");
    assert!(reason.contains("more than 6 sentences"), "{reason}");
    assert_eq!(library.get("fish").unwrap().meta.description, description, "the description itself is kept whole");
    assert!(!library.get("fish").unwrap().search_text().contains("Returns the catch"));
    library.enable_search_with(embedder()).unwrap();
    assert_eq!(names(&library.retrieve("go fishing", 1).unwrap()), ["fish"]);
}

/// Answers calls without a world: 5 cobblestone carried, everything else succeeds doing nothing.
struct Carrying;

impl Host for Carrying {
    fn call(&self, call: Call, _bounds: &RunBounds) -> Answer {
        Ok(match call {
            Call::InventoryCount { name } => rhai::Dynamic::from_int(if name == "cobblestone" { 5 } else { 0 }),
            Call::Inventory => rhai::Dynamic::from_map(rhai::Map::new()),
            _ => rhai::Dynamic::UNIT,
        })
    }
}

#[test]
fn skills_call_skills_through_the_shared_library() {
    let dir = temp_dir("calls");
    let (library, _) = SkillLibrary::open(&dir);
    library
        .add(skill("stock", "fn stock(item) { inventoryCount(item) }", "Counts an item."), OnCollision::KeepBoth)
        .unwrap();
    library
        .add(
            skill("enough", "fn enough(item, n) { stock(item) >= n }", "Whether enough is carried."),
            OnCollision::KeepBoth,
        )
        .unwrap();
    let caller = library.get("enough").unwrap();
    let args = call_args(&caller, &["cobblestone".into(), "3".into()]).unwrap();
    let job = runner::Job {
        name: "enough".into(),
        ast: Arc::new(AST::empty()),
        library: Some(library.functions()),
        entry: runner::Entry::Function { name: "enough".into(), args },
        limits: Limits { deadline: Duration::from_secs(2), ..Limits::default() },
        stop: Default::default(),
    };
    let report = runner::run(job, Arc::new(Carrying));
    assert_eq!(report.outcome, Outcome::Value("true".into()));
}
