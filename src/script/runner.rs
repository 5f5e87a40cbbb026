//! One script run on its own thread, from start to report.
//!
//! The run gets a fresh sandboxed engine with Wayfarer's functions, the shared function library (hand-written
//! scripts' and skills' `fn`s), and `args`. It ends with a [`Report`]: the value or the error (with its line), what
//! the bot said, what it printed, the inventory before and after, and how long it took.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use parking_lot::Mutex;
use rhai::{AST, CallFnOptions, Dynamic, EvalAltResult, Map, Scope};

use super::{
    Limits, RunBounds, StopFlag, bindings, build_engine,
    host::{Answer, Call, Host},
};

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The script's value, as text (`()` when it returned nothing).
    Value(String),
    Failed(Failure),
}

/// A script error: the message, and the line it happened on when known.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub message: String,
    pub line: Option<usize>,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct Report {
    pub name: String,
    pub outcome: Outcome,
    /// Lines the script said in chat.
    pub chat: Vec<String>,
    /// Lines the script printed with `print` / `debug`.
    pub printed: Vec<String>,
    /// Mobs `killMob` killed, one entry per kill.
    pub kills: Vec<String>,
    pub inventory_before: Vec<(String, i64)>,
    pub inventory_after: Vec<(String, i64)>,
    pub elapsed: Duration,
}

impl Report {
    pub fn succeeded(&self) -> bool {
        matches!(self.outcome, Outcome::Value(_))
    }

    /// What the run changed in the inventory, by item name in order: `("oak_log", 3), ("stick", -1)`.
    pub fn inventory_deltas(&self) -> Vec<(String, i64)> {
        let mut names: Vec<&String> =
            self.inventory_before.iter().chain(&self.inventory_after).map(|(n, _)| n).collect();
        names.sort();
        names.dedup();
        let count = |list: &[(String, i64)], name: &str| list.iter().find(|(n, _)| n == name).map_or(0, |(_, c)| *c);
        names
            .into_iter()
            .map(|name| (name.clone(), count(&self.inventory_after, name) - count(&self.inventory_before, name)))
            .filter(|(_, delta)| *delta != 0)
            .collect()
    }

    /// `+3 oak_log, -1 stick`, or `no change`.
    pub fn inventory_change(&self) -> String {
        let changes: Vec<String> =
            self.inventory_deltas().iter().map(|(name, delta)| format!("{delta:+} {name}")).collect();
        if changes.is_empty() { "no change".to_owned() } else { changes.join(", ") }
    }
}

/// What to run: compiled code, and how to start it.
pub struct Job {
    pub name: String,
    pub ast: Arc<AST>,
    /// Functions every script can call (skills, helpers), merged under the code's own.
    pub library: Option<Arc<AST>>,
    pub entry: Entry,
    pub limits: Limits,
    pub stop: StopFlag,
}

/// How a run starts.
#[derive(Clone, Debug)]
pub enum Entry {
    /// Evaluate the code's top-level statements, with the owner's words as the `args` array (an owner's script).
    Script { args: Vec<String> },
    /// Call one function with these values (a skill from `!run`, the LLM's main function); top-level statements do
    /// not run.
    Function { name: String, args: Vec<Dynamic> },
}

/// Records what a script says while passing every call on.
struct Recording {
    inner: Arc<dyn Host>,
    chat: Mutex<Vec<String>>,
    kills: Mutex<Vec<String>>,
}

impl Host for Recording {
    fn call(&self, call: Call, bounds: &RunBounds) -> Answer {
        if let Call::Chat { text } = &call {
            self.chat.lock().push(text.clone());
        }
        let killed = match &call {
            Call::KillMob { name, .. } => Some(name.clone()),
            _ => None,
        };
        let answer = self.inner.call(call, bounds);
        if let (Some(mob), Ok(_)) = (killed, &answer) {
            self.kills.lock().push(mob);
        }
        answer
    }
}

/// Runs `job` on the calling thread (callers put it on its own thread: see [`spawn`]).
pub fn run(job: Job, host: Arc<dyn Host>) -> Report {
    let started = Instant::now();
    let bounds = RunBounds::new(job.stop.clone(), &job.limits);
    let recording = Arc::new(Recording { inner: host, chat: Mutex::new(Vec::new()), kills: Mutex::new(Vec::new()) });
    let inventory_before = inventory(&*recording, &bounds);

    let mut engine = build_engine(&job.limits, bounds.clone());
    bindings::register(&mut engine, recording.clone(), bounds.clone());
    let printed = Arc::new(Mutex::new(Vec::new()));
    {
        let printed_by_print = printed.clone();
        engine.on_print(move |text| printed_by_print.lock().push(text.to_owned()));
        let printed_by_debug = printed.clone();
        engine.on_debug(move |text, _source, pos| printed_by_debug.lock().push(format!("[{pos}] {text}")));
    }

    let ast = match &job.library {
        Some(library) => library.merge(&job.ast),
        None => (*job.ast).clone(),
    };
    let mut scope = Scope::new();
    let result = match job.entry {
        Entry::Script { args } => {
            scope.push("args", args.into_iter().map(Dynamic::from).collect::<rhai::Array>());
            engine.eval_ast_with_scope::<Dynamic>(&mut scope, &ast)
        }
        Entry::Function { name, args } => {
            let options = CallFnOptions::new().eval_ast(false);
            engine.call_fn_with_options::<Dynamic>(options, &mut scope, &ast, &name, args)
        }
    };
    let outcome = match result {
        Ok(value) => Outcome::Value(show(&value)),
        Err(err) => Outcome::Failed(failure(*err)),
    };

    // The inventory after is read even when the run was stopped, with a fresh bound.
    let after_bounds = RunBounds::new(StopFlag::default(), &Limits { deadline: Duration::from_secs(5), ..job.limits });
    let inventory_after = inventory(&*recording, &after_bounds);
    let chat = std::mem::take(&mut *recording.chat.lock());
    let printed = std::mem::take(&mut *printed.lock());
    let kills = std::mem::take(&mut *recording.kills.lock());
    Report {
        name: job.name,
        outcome,
        chat,
        printed,
        kills,
        inventory_before,
        inventory_after,
        elapsed: started.elapsed(),
    }
}

/// Runs `job` on a new thread; the returned receiver yields the report when the run ends. A panic inside the run (a
/// bug in Wayfarer, never the script's doing) becomes a failed report that says so.
pub fn spawn(job: Job, host: Arc<dyn Host>) -> tokio::sync::oneshot::Receiver<Report> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let name = job.name.clone();
    let spawned = std::thread::Builder::new().name(format!("script {name}")).spawn(move || {
        let name = job.name.clone();
        let started = Instant::now();
        let report =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(job, host))).unwrap_or_else(|panic| {
                let message = format!("an internal error stopped it: {}", panic_message(&*panic));
                tracing::error!("script {name}: {message}");
                Report {
                    name,
                    outcome: Outcome::Failed(Failure { message, line: None }),
                    chat: Vec::new(),
                    printed: Vec::new(),
                    kills: Vec::new(),
                    inventory_before: Vec::new(),
                    inventory_after: Vec::new(),
                    elapsed: started.elapsed(),
                }
            });
        let _ = tx.send(report);
    });
    if let Err(err) = spawned {
        tracing::error!("cannot start a thread for script {name}: {err}");
    }
    rx
}

/// The text a panic was raised with.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".to_owned())
}

/// A script's answer as its owner reads it: positions as `vec3(1, 64, 2)` (rhai would print their Rust type name),
/// inside arrays and maps too.
fn show(value: &Dynamic) -> String {
    if value.is_unit() {
        "()".to_owned()
    } else if let Some(v) = value.clone().try_cast::<super::vec3::Vec3>() {
        v.to_string()
    } else if let Some(list) = value.read_lock::<rhai::Array>() {
        format!("[{}]", list.iter().map(show).collect::<Vec<_>>().join(", "))
    } else if let Some(map) = value.read_lock::<rhai::Map>() {
        format!("#{{{}}}", map.iter().map(|(k, v)| format!("{k}: {}", show(v))).collect::<Vec<_>>().join(", "))
    } else {
        value.to_string()
    }
}

fn inventory(host: &dyn Host, bounds: &RunBounds) -> Vec<(String, i64)> {
    let Ok(value) = host.call(Call::Inventory, bounds) else { return Vec::new() };
    let Some(map) = value.try_cast::<Map>() else { return Vec::new() };
    map.into_iter().filter_map(|(name, count)| Some((name.to_string(), count.as_int().ok()?))).collect()
}

/// Turns a Rhai error into a message an LLM can act on, with the line it happened on.
pub fn failure(err: EvalAltResult) -> Failure {
    let line = err.position().line();
    let message = match err {
        EvalAltResult::ErrorTerminated(reason, _) => format!("the script was {}", reason),
        EvalAltResult::ErrorTooManyOperations(_) => {
            "the script did too much work without calling a primitive (endless loop?)".to_owned()
        }
        EvalAltResult::ErrorStackOverflow(_) => "too many nested function calls (endless recursion?)".to_owned(),
        EvalAltResult::ErrorDataTooLarge(what, _) => format!("{what} grew past its limit"),
        EvalAltResult::ErrorRuntime(value, _) => value.to_string(),
        // A native function's error arrives wrapped in the call that failed; keep the inner message.
        EvalAltResult::ErrorInFunctionCall(name, _, inner, _) => {
            let inner = failure(*inner);
            return Failure { message: format!("in {name}: {}", inner.message), line: inner.line.or(line) };
        }
        other => other.to_string().split(" (line ").next().unwrap_or_default().to_owned(),
    };
    Failure { message, line }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Vec3;

    /// A bot that stands still with 2 dirt and answers every call at once.
    struct Idle;

    impl Host for Idle {
        fn call(&self, call: Call, _bounds: &RunBounds) -> Answer {
            Ok(match call {
                Call::Position => Dynamic::from(Vec3::new(0.5, 64.0, 0.5)),
                Call::Inventory => {
                    let mut map = Map::new();
                    map.insert("dirt".into(), Dynamic::from_int(2));
                    Dynamic::from_map(map)
                }
                Call::MineBlock { .. } => return Err("No iron_ore within 32 blocks; explore first".to_owned()),
                _ => Dynamic::UNIT,
            })
        }
    }

    fn job(source: &str) -> Job {
        Job {
            name: "test".into(),
            ast: Arc::new(crate::script::compile(source, &["args"]).unwrap()),
            library: None,
            entry: Entry::Script { args: vec!["7".into()] },
            limits: Limits { deadline: Duration::from_millis(500), ..Limits::default() },
            stop: StopFlag::default(),
        }
    }

    #[test]
    fn positions_in_answers_read_as_positions() {
        let report = run(job("[position(), #{at: position().floor()}]"), Arc::new(Idle));
        assert_eq!(report.outcome, Outcome::Value("[vec3(0.50, 64, 0.50), #{at: vec3(0, 64, 0)}]".into()));
    }

    #[test]
    fn report_has_value_chat_and_inventory() {
        let report = run(job("chat(\"hello\"); print(\"note\"); position().y + args[0].parse_int()"), Arc::new(Idle));
        assert_eq!(report.outcome, Outcome::Value("71.0".into()));
        assert_eq!(report.chat, ["hello"]);
        assert_eq!(report.printed, ["note"]);
        assert_eq!(report.inventory_before, [("dirt".to_owned(), 2)]);
        assert_eq!(report.inventory_change(), "no change");
    }

    #[test]
    fn primitive_errors_keep_their_text_and_line() {
        let report = run(job("let x = 1;\n\nmineBlock(\"iron_ore\", 1);"), Arc::new(Idle));
        let Outcome::Failed(failure) = report.outcome else { panic!("{:?}", report.outcome) };
        assert_eq!(failure.message, "No iron_ore within 32 blocks; explore first");
        assert_eq!(failure.line, Some(3));
        assert_eq!(failure.to_string(), "line 3: No iron_ore within 32 blocks; explore first");
    }

    #[test]
    fn errors_inside_functions_point_at_the_failing_line() {
        let report = run(job("fn getIron() {\n  mineBlock(\"iron_ore\", 1)\n}\ngetIron()"), Arc::new(Idle));
        let Outcome::Failed(failure) = report.outcome else { panic!("{:?}", report.outcome) };
        assert_eq!(failure.message, "in getIron: No iron_ore within 32 blocks; explore first");
        assert_eq!(failure.line, Some(2));
    }

    #[test]
    fn sandbox_failures_read_as_advice() {
        let report = run(job("loop { }"), Arc::new(Idle));
        let Outcome::Failed(failure) = report.outcome else { panic!() };
        assert!(
            failure.message == "the script was stopped at its time limit" || failure.message.contains("endless loop"),
            "{failure}"
        );
        let report = run(job("fn f(n) { f(n + 1) }\nf(0)"), Arc::new(Idle));
        let Outcome::Failed(failure) = report.outcome else { panic!() };
        assert!(failure.message.contains("endless recursion"), "{failure}");
        let report = run(job("undefinedThing(3)"), Arc::new(Idle));
        let Outcome::Failed(failure) = report.outcome else { panic!() };
        assert!(failure.message.contains("undefinedThing"), "{failure}");
    }

    #[test]
    fn a_function_is_called_with_typed_arguments_and_top_level_code_does_not_run() {
        let mut job = job("chat(\"top level\");\nfn give(what, n) { `${what} x${n * 2}` }");
        job.entry = Entry::Function { name: "give".into(), args: vec![Dynamic::from("oak_log"), Dynamic::from_int(3)] };
        let report = run(job, Arc::new(Idle));
        assert_eq!(report.outcome, Outcome::Value("oak_log x6".into()));
        assert!(report.chat.is_empty(), "{:?}", report.chat);
    }

    /// A panic inside a run (here: inside the host, as a bug in a primitive would) is a failed report, not a lost one.
    #[tokio::test]
    async fn a_panic_during_a_run_is_reported_as_a_failure() {
        struct Broken;
        impl Host for Broken {
            fn call(&self, call: Call, _bounds: &RunBounds) -> Answer {
                match call {
                    Call::MineBlock { .. } => panic!("injected for the test"),
                    _ => Ok(Dynamic::UNIT),
                }
            }
        }
        let report = spawn(job("mineBlock(\"dirt\", 1)"), Arc::new(Broken)).await.expect("a report arrives");
        let Outcome::Failed(failure) = report.outcome else { panic!("{:?}", report.outcome) };
        assert_eq!(failure.message, "an internal error stopped it: injected for the test");
    }
}
