//! The one place a Rhai engine is built: the sandbox every script runs in.
//!
//! Scripts (hand-written or written by an LLM) get the core language, strings, arrays, maps and maths, plus the
//! functions Wayfarer registers — nothing that reads files, opens sockets, starts processes or evaluates strings as
//! code. Every run is bounded: operation count, call depth, string/array/map size, expression depth, a wall-clock
//! deadline, and a stop flag that `!stop` raises.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use rhai::{AST, Dynamic, Engine, Scope, packages::Package};

/// Resource limits for one script run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rhai operations (roughly: expressions evaluated) per run.
    pub max_operations: u64,
    /// Nested function calls.
    pub max_call_levels: usize,
    /// Characters in one string.
    pub max_string_size: usize,
    /// Elements in one array.
    pub max_array_size: usize,
    /// Entries in one object map.
    pub max_map_size: usize,
    /// Nesting of expressions at top level and inside functions.
    pub max_expr_depth: usize,
    pub max_fn_expr_depth: usize,
    /// Wall-clock time for a whole run, primitives included.
    pub deadline: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            // Bots spend their time waiting in primitives, not computing: 5 million operations is a few tenths of
            // a second of pure computation, far above what a sensible script needs, and it ends a runaway loop
            // well within a second.
            max_operations: 5_000_000,
            max_call_levels: 48,
            max_string_size: 1 << 20,
            max_array_size: 100_000,
            max_map_size: 10_000,
            max_expr_depth: 64,
            max_fn_expr_depth: 48,
            deadline: Duration::from_secs(600),
        }
    }
}

/// Why a script was stopped from outside: the text is what the script's error says.
pub const CANCELLED: &str = "stopped by !stop";
pub const DEADLINE: &str = "stopped at its time limit";

/// Raised to end a running script (and the primitive it is waiting on). Cloning shares the flag.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// When one run must end: its deadline, or its stop flag.
#[derive(Clone, Debug)]
pub struct RunBounds {
    pub stop: StopFlag,
    pub deadline: Instant,
}

impl RunBounds {
    pub fn new(stop: StopFlag, limits: &Limits) -> Self {
        Self { stop, deadline: Instant::now() + limits.deadline }
    }

    /// Why the run must end now, if it must.
    pub fn reason_to_end(&self) -> Option<&'static str> {
        if self.stop.is_stopped() {
            Some(CANCELLED)
        } else if Instant::now() >= self.deadline {
            Some(DEADLINE)
        } else {
            None
        }
    }
}

/// Builds the sandboxed engine for one run. Registering Wayfarer's functions is the caller's next step.
pub fn build_engine(limits: &Limits, bounds: RunBounds) -> Engine {
    let mut engine = Engine::new_raw();
    // Core language + strings, arrays, maps, maths, logic, iterators. No file, network or process access exists
    // in Rhai's standard packages; `eval` is the one escape hatch and is switched off below.
    engine.register_global_module(rhai::packages::StandardPackage::new().as_shared_module());
    engine.disable_symbol("eval");

    engine.set_max_operations(limits.max_operations);
    engine.set_max_call_levels(limits.max_call_levels);
    engine.set_max_string_size(limits.max_string_size);
    engine.set_max_array_size(limits.max_array_size);
    engine.set_max_map_size(limits.max_map_size);
    engine.set_max_expr_depths(limits.max_expr_depth, limits.max_fn_expr_depth);
    engine.set_max_modules(0);
    engine.set_fail_on_invalid_map_property(true);
    engine.set_strict_variables(true);

    engine.on_progress(move |_ops| bounds.reason_to_end().map(Dynamic::from));
    engine
}

/// Why a piece of code does not compile. `Display` gives the line (when known) and what to change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    #[error("{}`eval` is not allowed: write the code itself, not a string to evaluate", at_line(*line))]
    Eval { line: Option<usize> },
    #[error("{}{message}", at_line(*line))]
    Syntax { line: Option<usize>, message: String },
}

impl CompileError {
    pub fn line(&self) -> Option<usize> {
        match self {
            CompileError::Eval { line } | CompileError::Syntax { line, .. } => *line,
        }
    }

    /// What is wrong, without the line.
    pub fn message(&self) -> String {
        match self {
            CompileError::Eval { .. } => CompileError::Eval { line: None }.to_string(),
            CompileError::Syntax { message, .. } => message.clone(),
        }
    }
}

fn at_line(line: Option<usize>) -> String {
    line.map(|l| format!("line {l}: ")).unwrap_or_default()
}

/// The one compiler: the sandbox's engine, so code is held to the same rules it will run under.
fn compiler() -> &'static Engine {
    static COMPILER: std::sync::OnceLock<Engine> = std::sync::OnceLock::new();
    COMPILER.get_or_init(|| {
        let limits = Limits::default();
        build_engine(&limits, RunBounds::new(StopFlag::default(), &limits))
    })
}

/// Compiles Wayfarer code — an owner's script, a skill, or code an LLM wrote — under the sandbox's rules: `eval` is
/// refused here, at compile time (the AST would not be checked for it again when it runs), undefined variables are
/// errors, and nesting is bounded. `globals` names the variables the code may use without defining them (`args` in
/// owner scripts).
pub fn compile(code: &str, globals: &[&str]) -> Result<AST, CompileError> {
    let mut scope = Scope::new();
    for name in globals {
        scope.push_dynamic(*name, Dynamic::UNIT);
    }
    compiler().compile_with_scope(&scope, code).map_err(|err| {
        let line = err.1.line();
        let message = err.0.to_string();
        if message.contains("'eval' is disabled") {
            CompileError::Eval { line }
        } else {
            CompileError::Syntax { line, message }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rhai::EvalAltResult;

    /// `eval` in LLM-written code ran: that code was compiled by an engine that did not disable it, and Rhai does not
    /// check an AST again when a sandboxed engine runs it. Every piece of code now compiles here.
    #[test]
    fn eval_is_refused_at_compile_time_in_every_form() {
        for code in ["eval(\"1\")", "fn a() {\n  eval(\"chat(`hi`)\")\n}", "let x = 1;\nlet y = eval(\"x\");"] {
            let err = compile(code, &[]).unwrap_err();
            assert!(matches!(err, CompileError::Eval { .. }), "{code}: {err}");
            assert!(err.to_string().contains("`eval` is not allowed"), "{err}");
        }
        assert_eq!(compile("let a = 1;\neval(\"a\")", &[]).unwrap_err().line(), Some(2));
        // Nor can it be reached through a function pointer.
        let limits = short();
        let engine = build_engine(&limits, RunBounds::new(StopFlag::default(), &limits));
        let ast = compile("let f = Fn(\"eval\"); f.call(\"1\")", &[]).unwrap();
        assert!(engine.eval_ast::<Dynamic>(&ast).is_err());
    }

    #[test]
    fn compile_knows_the_globals_it_is_given() {
        assert!(compile("args.len()", &["args"]).is_ok());
        let err = compile("args.len()", &[]).unwrap_err();
        assert!(matches!(err, CompileError::Syntax { .. }) && err.to_string().contains("args"), "{err}");
    }

    fn run(script: &str, limits: &Limits, stop: StopFlag) -> Result<Dynamic, Box<EvalAltResult>> {
        let engine = build_engine(limits, RunBounds::new(stop, limits));
        engine.eval::<Dynamic>(script)
    }

    fn short() -> Limits {
        Limits { deadline: Duration::from_millis(500), ..Limits::default() }
    }

    #[test]
    fn ordinary_scripts_run() {
        let value = run("let a = [1, 2, 3]; a.map(|x| x * 2).reduce(|s, x| s + x, 0)", &short(), StopFlag::default());
        assert_eq!(value.unwrap().as_int().unwrap(), 12);
    }

    #[test]
    fn infinite_loop_ends_within_one_second() {
        let limits = Limits { max_operations: u64::MAX, ..short() };
        let started = Instant::now();
        let err = run("loop {}", &limits, StopFlag::default()).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
        assert!(matches!(*err, EvalAltResult::ErrorTerminated(ref t, _) if t.to_string() == DEADLINE), "{err}");
    }

    #[test]
    fn operation_limit_ends_busy_scripts() {
        let limits = Limits { max_operations: 10_000, ..short() };
        let err = run("let i = 0; while true { i += 1; }", &limits, StopFlag::default()).unwrap_err();
        assert!(matches!(*err, EvalAltResult::ErrorTooManyOperations(_)), "{err}");
    }

    #[test]
    fn stop_flag_ends_a_running_script() {
        let stop = StopFlag::default();
        let raiser = stop.clone();
        let limits = Limits { max_operations: u64::MAX, deadline: Duration::from_secs(30), ..Limits::default() };
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            raiser.stop();
        });
        let started = Instant::now();
        let err = run("loop {}", &limits, stop).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(1));
        assert!(matches!(*err, EvalAltResult::ErrorTerminated(ref t, _) if t.to_string() == CANCELLED), "{err}");
    }

    #[test]
    fn deep_recursion_is_refused() {
        let err = run("fn down(n) { down(n + 1) } down(0)", &short(), StopFlag::default()).unwrap_err();
        assert!(matches!(*err, EvalAltResult::ErrorStackOverflow(_)), "{err}");
    }

    #[test]
    fn huge_strings_are_refused() {
        let err = run("let s = \"x\"; loop { s += s; }", &short(), StopFlag::default()).unwrap_err();
        assert!(matches!(*err, EvalAltResult::ErrorDataTooLarge(..)), "{err}");
        let err = run("\"x\".pad(1_000_000_000, \"y\")", &short(), StopFlag::default()).unwrap_err();
        assert!(matches!(*err, EvalAltResult::ErrorDataTooLarge(..)), "{err}");
    }

    #[test]
    fn eval_and_undefined_functions_are_errors() {
        assert!(run("eval(\"1\")", &short(), StopFlag::default()).is_err());
        let err = run("flyToTheMoon(1)", &short(), StopFlag::default()).unwrap_err();
        assert!(err.to_string().contains("flyToTheMoon"), "{err}");
        let err = run("x + 1", &short(), StopFlag::default()).unwrap_err();
        assert!(err.to_string().contains('x'), "{err}");
    }
}
