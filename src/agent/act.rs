//! Doing one task with the LLM, Voyager's inner loop: the action agent writes a Rhai function (shown the primitives
//! and the five skills nearest the task), the function runs in the sandbox, the task's tracker judges the result (the
//! LLM critic only when there is no tracker), and up to four attempts each get the last code, what went wrong (error
//! and line, chat, inventory change) and the critique. A success enters the skill library with the description the
//! action agent wrote beside its code (one call fewer than Voyager's separate description call; the description role
//! is asked only when that line is missing).
//!
//! The world has the last word. Every attempt's world diff ([`WorldDiff`]: what the server says the bot's actions
//! changed) goes to the critic and to those watching; a critic's "success" on a step whose verb changes the world
//! stands only when the diff shows that change ([`effect::unshown`]), code that threw is never a success of the
//! critic's, and code enters the library only when a tracker confirmed it, or the critic did with a diff that fits
//! the step — never code that changed nothing.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

pub use super::plan::TaskSpec;
use super::{
    check,
    diff::WorldDiff,
    effect::{self, Asked, Effect},
    extract, focus, naming,
    plan::{Verdict, parse_verdict},
    prompts, text,
    tracker::{Point, Snapshot, Tracker},
};
use crate::{
    bot::{BotHandle, MAX_AIR, Status},
    llm::{Llm, LlmError, Message, Notice, Reply, Role, Usage},
    primitives,
    script::{Limits, StopFlag, runner},
    skills::{NewSkill, OnCollision, SkillLibrary},
};

/// Voyager's limit, kept: runs in the world per task.
pub const MAX_ATTEMPTS: usize = 4;
/// Answers per task caught before the world ([`check`]) that do not use up one of the [`MAX_ATTEMPTS`].
pub const MAX_CAUGHT: usize = 4;

/// How the answers of this process fared before and in the world (the check's worth, for `!usage` and benches).
#[derive(Debug, Default)]
pub struct Checks {
    /// Answers with no code, code that does not compile or calls that do not resolve: sent back, never run.
    pub caught: AtomicU64,
    /// Answers run in the world.
    pub ran: AtomicU64,
    /// Of those, runs that ended in an error of the code itself (a missing function, a wrong type), not the world's.
    pub broken: AtomicU64,
    /// Answers that repeated code the task had already run and seen fall short: sent back, never run again.
    pub repeated: AtomicU64,
}

pub static CHECKS: Checks = Checks {
    caught: AtomicU64::new(0),
    ran: AtomicU64::new(0),
    broken: AtomicU64::new(0),
    repeated: AtomicU64::new(0),
};

impl Checks {
    /// `Code answers: 5 sent back before the world, 3 run in it (1 broke on its own code).`, once there are any, with
    /// `2 repeats of code that had fallen short, sent back.` after it when there were some.
    pub fn line(&self) -> Option<String> {
        let [caught, ran, broken, repeated] =
            [&self.caught, &self.ran, &self.broken, &self.repeated].map(|n| n.load(Ordering::Relaxed));
        (caught + ran + repeated > 0).then(|| {
            let repeats = match repeated {
                0 => String::new(),
                1 => " 1 repeat of code that had fallen short, sent back.".to_owned(),
                n => format!(" {n} repeats of code that had fallen short, sent back."),
            };
            format!(
                "Code answers: {caught} sent back before the world, {ran} run in it ({broken} broke on its own \
                 code).{repeats}"
            )
        })
    }
}

/// Whether two answers are the same code, spaces and line breaks aside.
fn same_code(a: &str, b: &str) -> bool {
    let code = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    code(a) == code(b)
}

/// What a script may call: the sandbox's registered functions (Rhai's and the game's) and `library`'s.
pub fn known(library: Option<&rhai::AST>) -> check::Known {
    let signatures = crate::script::bindings::signatures();
    check::Known::new(signatures.iter().map(|s| (s.name.as_str(), s.params.as_slice())), library)
        .with_names(&GAME_NAMES)
}

/// The game's names of blocks, items and mobs.
pub fn game_names() -> &'static check::GameNames {
    &GAME_NAMES
}

/// Every block, item and mob the game (26.1) has, by the names the game functions take.
static GAME_NAMES: std::sync::LazyLock<check::GameNames> = std::sync::LazyLock::new(|| {
    use azalea::registry::{
        Registry,
        builtin::{BlockKind, EntityKind, ItemKind},
    };
    fn all<R: Registry>(to_str: fn(&R) -> &'static str) -> BTreeSet<String> {
        (0..).map_while(R::from_u32).map(|r| to_str(&r).trim_start_matches("minecraft:").to_owned()).collect()
    }
    let blocks = all::<BlockKind>(BlockKind::to_str);
    let placeable =
        blocks.iter().cloned().chain(crate::primitives::PLACED_AS.iter().map(|(item, _)| (*item).to_owned()));
    check::GameNames {
        placeable: placeable.collect(),
        blocks,
        items: all::<ItemKind>(ItemKind::to_str),
        mobs: all::<EntityKind>(EntityKind::to_str),
    }
});

/// Whether a run's error is the code's own fault, one the check before the world is meant to catch.
pub fn is_code_error(message: &str) -> bool {
    const CODE_ERRORS: &[&str] = &[
        "Function not found",
        "Data type incorrect",
        "Output type incorrect",
        "Variable not found",
        "Property not found",
        "Unknown property",
        "Indexing not supported",
        "out of bounds",
        "For loop expects",
        "Cannot modify a constant",
        "is not a function",
    ];
    CODE_ERRORS.iter().any(|error| message.contains(error))
}

/// Skills shown to the action agent.
pub const RETRIEVED_SKILLS: usize = 5;
/// How many times more skills are searched for one of the step's kind when the nearest few have none.
const WIDER: usize = 3;
/// Temperature for writing code; the critic and planners use 0.
const ACTION_TEMPERATURE: f32 = 0.0;
/// Temperatures for the answers after one, two or more answers in a row were caught before the world. At 0 a small
/// model answers a prompt that changed only in its advice with the same code again (a 1.5B model wrote one function
/// seven times over, told each time it repeated an attempt that fell short); sampling gets it to write something
/// else. An answer that ran in the world sets it back to [`ACTION_TEMPERATURE`].
const RESAMPLE_TEMPERATURES: [f32; 2] = [0.6, 0.9];

/// The temperature for an action answer after `caught` answers in a row were sent back before the world.
fn action_temperature(caught: usize) -> f32 {
    match caught {
        0 => ACTION_TEMPERATURE,
        n => RESAMPLE_TEMPERATURES[(n - 1).min(RESAMPLE_TEMPERATURES.len() - 1)],
    }
}

/// How a task ended.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskOutcome {
    /// Done; the name of the skill it added to the library, if one was added, and the library's skills the code
    /// that did it called (none for code planned from the game's facts).
    Succeeded {
        skill: Option<String>,
        used: Vec<String>,
    },
    Failed {
        reason: String,
    },
    /// `!stop` (or the end of the activity) ended it.
    Stopped,
}

/// What a run shows to those watching the bot.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// A run starts: the function called and the code it is in.
    Code { name: String, code: String },
    /// A run failed: where and why (`line 3: There is no block called oak_planks_x`).
    Failed(String),
    /// The mobs killed so far in the task under way, by kind (none as a task begins; after each run).
    Kills(BTreeMap<String, u32>),
    /// What the last run changed in the world, in words ([`WorldDiff`]'s).
    Changes(String),
}

/// How the world judged one attempt.
struct Judged {
    success: bool,
    /// Whether a tracker (not the critic) said so.
    by_tracker: bool,
    critique: String,
    /// How far the tracker counts the task done, in percent, when a tracker judged it.
    percent: Option<u32>,
}

impl Judged {
    /// Not done, as the world (no tracker, no critic) shows: the code threw, or the world shows no such thing.
    fn not_done(critique: String) -> Self {
        Judged { success: false, by_tracker: false, critique, percent: None }
    }
}

/// Everything one bot needs to act on tasks.
#[derive(Clone)]
pub struct Agent {
    pub bot: BotHandle,
    pub llm: Arc<Llm>,
    pub skills: Arc<SkillLibrary>,
    pub limits: Limits,
    pub stop: StopFlag,
    /// Called with progress lines meant for the owner (tracker progress after each attempt).
    pub say: Arc<dyn Fn(&str)>,
    /// Called with what the agent is doing now, for `!status`.
    pub relabel: Arc<dyn Fn(String)>,
    /// Called with the code each run starts and how a run failed, for those watching (the dashboard).
    pub show: Arc<dyn Fn(Shown)>,
    /// Called with the question the agent asked its owner about a goal, to hear the answer.
    pub ask: Arc<dyn Fn(super::reading::Question)>,
    /// The goal's status line while the agent works on a goal (`Goal: … Progress 2/7 …`), shown in its prompts.
    pub goal: Arc<parking_lot::Mutex<Option<String>>>,
    /// The bot's memory stream, when it keeps one: outcomes go in, the planners are shown what is relevant.
    pub memory: Option<super::memory::Memories>,
    /// Who the bot is (`[memory.persona]`), for the curriculum.
    pub persona: Option<String>,
    /// Whether changes of the world named in words the bot reads are planned and coded from them (see `deeds`).
    pub plan_from_words: bool,
}

impl Agent {
    /// Tries `spec` up to [`MAX_ATTEMPTS`] times.
    pub async fn attempt_task(&self, spec: &TaskSpec) -> TaskOutcome {
        let start = self.snapshot(spec.tracker.as_ref(), &BTreeMap::new(), None).await;
        self.attempt_task_since(spec, start).await
    }

    /// As [`Agent::attempt_task`], with the tracker counting from `start` (a task taken up again after a restart
    /// counts what it made before it).
    pub async fn attempt_task_since(&self, spec: &TaskSpec, start: Snapshot) -> TaskOutcome {
        let mut kills: BTreeMap<String, u32> = BTreeMap::new();
        (self.show)(Shown::Kills(kills.clone()));
        let (mut last_code, mut feedback, mut critique) = (String::new(), String::new(), String::new());
        let mut last_reason = String::from("no attempt was made");
        // A step planned from the game's facts comes with code: it runs first, and the LLM is asked only if it
        // falls short (shown that code and what went wrong).
        if let Some(code) = &spec.code {
            match self.run_known_code(spec, code, &start, &mut kills).await {
                Known::Done { used } => return TaskOutcome::Succeeded { skill: None, used },
                Known::Stopped => return TaskOutcome::Stopped,
                Known::Short { code, ran, critique: said, reason } => {
                    // With no LLM to write other code, the known code's own failure is the task's.
                    if !self.llm.is_enabled() {
                        return TaskOutcome::Failed { reason };
                    }
                    (last_code, feedback, critique, last_reason) = (code, ran, said, reason);
                }
            }
        }
        // Code that ran in the world in this task and got it no further, with why (code that made some progress,
        // two planks of four into a chest, may rightly run again).
        let mut tried: Vec<(String, String)> = Vec::new();
        // The most of the task the tracker has counted done so far, in percent.
        let mut best = spec.tracker.as_ref().map(|tracker| tracker.progress(&start, &start).percent());
        let (mut attempt, mut caught) = (1, 0);
        // Answers caught before the world since the last one that ran.
        let mut caught_in_a_row = 0;
        let mut unnamed_sent_back = false;
        let things = super::recipes::task_things(&spec.task).unwrap_or_default();
        let (task_carried, task_found) = (things.gets, things.block);
        while attempt <= MAX_ATTEMPTS {
            if self.stop.is_stopped() {
                return TaskOutcome::Stopped;
            }
            (self.relabel)(format!("task {}: attempt {attempt}/{MAX_ATTEMPTS}", spec.task));
            let messages = match self.action_messages(spec, &last_code, &feedback, &critique).await {
                Ok(messages) => messages,
                Err(reason) => return TaskOutcome::Failed { reason },
            };
            let about = format!("the code for {}", spec.task);
            // An answer that cannot run is caught here and costs an LLM call, not one of the world attempts (up to
            // MAX_CAUGHT of them in a task; after that each takes an attempt, so a model that never writes runnable
            // code still ends).
            let temperature = action_temperature(caught_in_a_row);
            let mut caught_before_the_world = |advice: String, code: Option<String>, repeat: bool| {
                caught += 1;
                caught_in_a_row += 1;
                if repeat { &CHECKS.repeated } else { &CHECKS.caught }.fetch_add(1, Ordering::Relaxed);
                tracing::info!(
                    "task {:?}, attempt {attempt}: caught before the world ({caught} in this task): {advice}",
                    spec.task
                );
                (last_code, feedback, critique) = (code.unwrap_or_default(), advice.clone(), String::new());
                last_reason = advice;
                if caught > MAX_CAUGHT {
                    attempt += 1;
                }
            };
            if temperature != ACTION_TEMPERATURE {
                tracing::debug!("task {:?}: asking at temperature {temperature} after a caught answer", spec.task);
            }
            let reply = match self.ask(Role::Action, &about, &messages, temperature).await {
                Ok(reply) => reply.content,
                // Code cut off at the limit does not compile: the next attempt is told to write less.
                Err(LlmError::CutOff { max_tokens, .. }) => {
                    let advice = format!(
                        "Your reply was cut off at its limit of {max_tokens} tokens before the code ended. Write a \
                         shorter function (call the skills you are shown), with no explanation before the code."
                    );
                    caught_before_the_world(advice, None, false);
                    last_reason = format!("the action answer was cut off at its limit of {max_tokens} tokens");
                    continue;
                }
                Err(err) => return TaskOutcome::Failed { reason: llm_failure(&err) },
            };
            let written_description = extract::description(&reply);
            let known = self
                .known()
                .with_in_sight(in_sight(&self.bot).await)
                .with_carried(self.bot.status().items.into_iter().map(|(name, _)| name))
                .with_task_things(task_carried.clone(), task_found.clone());
            let program = match extract::program(&reply, &known) {
                Ok(program) => program,
                Err(unfit) => {
                    caught_before_the_world(unfit.advice, unfit.code, false);
                    continue;
                }
            };
            // Code that names nowhere the thing its step places, stores, gives or goes to cannot do it (the local model
            // answered `Place 1 chest` with the skills it had learned, a crafting table's and cobblestone's).
            let called: Vec<(String, String)> = self
                .library_calls(&program)
                .into_iter()
                .filter_map(|name| self.skills.get(&name).map(|skill| (name, skill.code.clone())))
                .collect();
            // Once a task: should the model insist, the world judges its code (a name this check misreads must not
            // keep good code from running).
            let own: Vec<&str> = program.ast.iter_functions().map(|f| f.name).collect();
            if !unnamed_sent_back && let Some(advice) = unnamed_thing(&spec.task, &program.code, &own, &called) {
                unnamed_sent_back = true;
                caught_before_the_world(advice, Some(program.code), false);
                continue;
            }
            // The same code again would do the same again: the model is told so, not the world asked twice.
            if let Some((_, fell_short)) = tried.iter().find(|(code, _)| same_code(code, &program.code)) {
                let advice = format!(
                    "That code is the same as an attempt that already ran in this task and fell short \
                     ({fell_short}). It would do the same again: write different code for the task \"{}\", calling \
                     the primitive or skill that does exactly what it asks.",
                    spec.task
                );
                let fell_short = fell_short.clone();
                caught_before_the_world(advice, Some(program.code), true);
                // Should the task end here, it failed for what the world showed, not for the repeat.
                last_reason = fell_short;
                continue;
            }
            if !program.mended.is_empty() {
                tracing::info!("task {:?}, attempt {attempt}: mended {}", spec.task, program.mended.join(", "));
            }
            attempt += 1;
            caught_in_a_row = 0;
            let mark = (self.bot.changes_mark(), self.bot.position());
            let deaths = self.bot.deaths();
            let report = match self.run(&program, None).await {
                Some(report) => report,
                None => return TaskOutcome::Stopped,
            };
            if self.stop.is_stopped() {
                return TaskOutcome::Stopped;
            }
            CHECKS.ran.fetch_add(1, Ordering::Relaxed);
            if let runner::Outcome::Failed(failure) = &report.outcome
                && is_code_error(&failure.message)
            {
                CHECKS.broken.fetch_add(1, Ordering::Relaxed);
                tracing::info!("task {:?}: code that cannot run reached the world: {failure}", spec.task);
            }
            count_kills(&mut kills, &report.kills, &self.show);
            let diff = self.world_diff(mark, &report);
            let mut ran = format!("{}\nWhat the world shows changed: {diff}.", describe_run(&report, &program.code));
            let after = self.bot.deaths();
            if after.count > deaths.count {
                ran.push_str(&died_during(&crate::bot::fmt_block(after.last.into())));
            }
            let now = self.snapshot(spec.tracker.as_ref(), &kills, Some(start.feet())).await;
            let judged = match self.judge(spec, attempt, (&start, &now), &report, &diff, &ran).await {
                Ok(judged) => judged,
                Err(reason) => return TaskOutcome::Failed { reason },
            };
            if judged.success {
                let skill = self.learn(spec, &program, written_description, &report, &diff, judged.by_tracker).await;
                let used = self.library_calls(&program);
                if !used.is_empty() {
                    tracing::info!("task {:?} was done calling the library's {}", spec.task, used.join(", "));
                }
                return TaskOutcome::Succeeded { skill, used };
            }
            last_reason = match &report.outcome {
                runner::Outcome::Failed(failure) => failure.to_string(),
                runner::Outcome::Value(_) if !judged.critique.is_empty() => judged.critique.clone(),
                runner::Outcome::Value(_) => "the task was not done".to_owned(),
            };
            let gained = match judged.percent {
                Some(percent) => best.is_none_or(|b| percent > b),
                None => !diff.is_empty(),
            };
            best = best.max(judged.percent);
            if !gained {
                tried.push((program.code.clone(), last_reason.clone()));
            }
            (last_code, feedback, critique) = (program.code, ran, judged.critique);
        }
        TaskOutcome::Failed { reason: last_reason }
    }

    /// What the run since `mark` (the change log's mark and where the bot stood) changed in the world, shown to
    /// those watching and logged.
    fn world_diff(&self, mark: (u64, azalea::Vec3), report: &runner::Report) -> WorldDiff {
        let mut diff = self.changes_since(mark);
        diff.items = report.inventory_deltas();
        tracing::info!("{}'s run changed: {diff}", report.name);
        (self.show)(Shown::Changes(diff.to_string()));
        diff
    }

    /// What the bot changed in the world since `mark` (the change log's mark and where the bot stood): blocks,
    /// containers, handovers and where it went (items are a run's report's to add).
    pub fn changes_since(&self, mark: (u64, azalea::Vec3)) -> WorldDiff {
        let changed = self.bot.changes_since(mark.0);
        let (from, to) = (mark.1, self.bot.position());
        let mut diff = WorldDiff::new(changed.blocks, [from.x, from.y, from.z], [to.x, to.y, to.z]);
        diff.containers = changed.containers;
        diff.given = changed.given;
        diff.undone = changed.undone;
        diff
    }

    /// Why the world as it is now does not stand where `asked` says (beside a named block, the bot walled in, the
    /// chest named), when it does not (see [`effect::unplaced`]).
    pub fn misplaced(&self, asked: &Asked, diff: &WorldDiff) -> Option<String> {
        let feet = azalea::BlockPos::from(self.bot.position());
        effect::unplaced(asked, diff, |p| primitives::observe::block_name(&self.bot, p), [feet.x, feet.y, feet.z])
    }

    /// Judges an attempt by the step's tracker, or else by the critic held to the world: code that threw is not a
    /// success of the critic's, and a step whose verb changes the world needs the diff to show that change.
    async fn judge(
        &self,
        spec: &TaskSpec,
        attempt: usize,
        (start, now): (&Snapshot, &Snapshot),
        report: &runner::Report,
        diff: &WorldDiff,
        ran: &str,
    ) -> Result<Judged, String> {
        // Read loosely: these checks only fail a step, and a step's words the reader does not account for in full
        // (an LLM's) still say a change of the world the diff must show.
        let asked = asked_loosely(&spec.task);
        // Blocks placed beside another (`next to the stone block`) are looked for in the world as it is now.
        let misplaced = || asked.as_ref().and_then(|asked| self.misplaced(asked, diff));
        if let Some(tracker) = &spec.tracker {
            let progress = tracker.progress(start, now);
            (self.say)(&format!("{} ({}%)", progress, progress.percent()));
            (self.relabel)(format!("task {}: attempt {attempt}/{MAX_ATTEMPTS}, {progress}", spec.task));
            if progress.done
                && let Some(why) = misplaced()
            {
                tracing::info!("task {:?}: its tracker is done, but the world shows {why}", spec.task);
                return Ok(Judged {
                    success: false,
                    by_tracker: true,
                    critique: text::capitalised(&why) + ".",
                    percent: Some(progress.percent()),
                });
            }
            let critique = if progress.done {
                String::new()
            } else {
                let instead = match tracker {
                    Tracker::Craft { item, .. } | Tracker::Inventory { item, .. } => now.instead_of(start, item),
                    _ => None,
                };
                match instead {
                    Some(instead) => format!("The task is not done yet: {progress}; {instead}."),
                    None => format!("The task is not done yet: {progress}."),
                }
            };
            return Ok(Judged {
                success: progress.done,
                by_tracker: true,
                critique,
                percent: Some(progress.percent()),
            });
        }
        if let runner::Outcome::Failed(failure) = &report.outcome {
            // No critic can make code that threw a success.
            return Ok(Judged::not_done(format!("The code failed: {failure}.")));
        }
        if let Some(why) = asked.as_ref().and_then(|asked| effect::unshown(asked, diff)).or_else(misplaced) {
            // The critic is not asked: the world already says no.
            tracing::info!("task {:?}: the world shows {why}", spec.task);
            return Ok(Judged::not_done(text::capitalised(&why) + "."));
        }
        if asked.is_none() && diff.is_empty() && !words_only(&spec.task) {
            let why = "nothing changed in the world: no block, container, item or handover, and I stayed where I was";
            tracing::info!("task {:?}: {why}", spec.task);
            return Ok(Judged::not_done(text::capitalised(why) + "."));
        }
        let verdict = self.critic(spec, ran, &report.chat).await?;
        Ok(Judged { success: verdict.success, by_tracker: false, critique: verdict.critique, percent: None })
    }

    /// The library's skills `program` called (its own functions aside).
    fn library_calls(&self, program: &extract::Program) -> Vec<String> {
        let own: BTreeSet<&str> = program.ast.iter_functions().map(|f| f.name).collect();
        super::check::called(&program.ast)
            .into_iter()
            .filter(|name| !own.contains(name.as_str()) && self.skills.get(name).is_some())
            .collect()
    }

    /// Runs the code a fact-based step came with, and judges it by the step's tracker.
    async fn run_known_code(
        &self,
        spec: &TaskSpec,
        code: &str,
        start: &Snapshot,
        kills: &mut BTreeMap<String, u32>,
    ) -> Known {
        // Named apart from the library's skill for the task, which the code may well call.
        let name = super::naming::name_for_task(&spec.task);
        let name = if self.skills.get(&name).is_some() { format!("{name}Now") } else { name };
        let text = format!("fn {name}() {{\n{}\n}}", text::indent(code));
        let known = self.known();
        let program = match extract::program(&format!("```rhai\n{text}\n```"), &known) {
            Ok(program) => program,
            Err(why) => {
                tracing::warn!("the code planned for {:?} does not compile: {why}", spec.task);
                let reason = why.advice;
                return Known::Short { code: String::new(), ran: String::new(), critique: String::new(), reason };
            }
        };
        (self.relabel)(format!("task {}: known steps", spec.task));
        let mark = (self.bot.changes_mark(), self.bot.position());
        // A step the inventory judges ends the moment the world shows it done: a hunt's loop otherwise goes on
        // until the call under way returns, and a bot that dies meanwhile loses what the step had gathered.
        let finish = spec.tracker.as_ref().filter(|t| t.judged_by_inventory()).map(|t| (t, start));
        let Some(report) = self.run(&program, finish).await else { return Known::Stopped };
        self.world_diff(mark, &report);
        if self.stop.is_stopped() {
            return Known::Stopped;
        }
        count_kills(kills, &report.kills, &self.show);
        let now = self.snapshot(spec.tracker.as_ref(), kills, Some(start.feet())).await;
        let Some(tracker) = &spec.tracker else {
            // A step with nothing to count (placing a block) is done when its code runs through.
            return match &report.outcome {
                runner::Outcome::Value(_) => Known::Done { used: self.library_calls(&program) },
                runner::Outcome::Failed(failure) => Known::Short {
                    code: text,
                    ran: describe_run(&report, &program.code),
                    critique: String::new(),
                    reason: failure.to_string(),
                },
            };
        };
        let progress = tracker.progress(start, &now);
        (self.say)(&format!("{} ({}%)", progress, progress.percent()));
        if progress.done {
            tracing::info!("task {:?} done by its planned code, no LLM call", spec.task);
            return Known::Done { used: self.library_calls(&program) };
        }
        let reason = match &report.outcome {
            runner::Outcome::Failed(failure) => failure.to_string(),
            runner::Outcome::Value(_) => format!("the task is not done yet: {progress}"),
        };
        Known::Short {
            code: text,
            ran: describe_run(&report, &program.code),
            critique: format!("The task is not done yet: {progress}."),
            reason,
        }
    }

    /// The calls that do a crafting task from what the bot carries now: crafts, and the library's skills learned
    /// for what is missing ([`super::recipes::craft_calls`]).
    async fn craft_calls(&self, task: &str) -> Option<Vec<String>> {
        if !task.trim_start().to_lowercase().starts_with("craft ") {
            return None;
        }
        let near = primitives::observe::block_kinds_near(&self.bot, 16, 24).await;
        let carried = primitives::items::carried(&self.bot);
        let getters = super::recipes::Getter::in_library(&self.skills.list());
        let table_near = near.iter().any(|b| b == "crafting_table");
        let calls = super::recipes::craft_calls(task, &carried, table_near, &getters)?;
        tracing::info!("task {task:?} is done by: {}", calls.join("; "));
        Some(calls)
    }

    /// The action agent's prompt: rules, primitives and retrieved skills; then the task, what the bot sees and the
    /// last attempt.
    async fn action_messages(
        &self,
        spec: &TaskSpec,
        last_code: &str,
        feedback: &str,
        critique: &str,
    ) -> Result<Vec<Message>, String> {
        // After a failure, what the error says is missing joins the query, so the helper skills for it come back.
        let missing = missing_things(feedback);
        let query = format!("{} {} {missing}", spec.task, spec.context);
        let kind = focus::of_task(&spec.task, is_game_id);
        let (skills, example, call) = self.retrieved_skills(&query, &spec.task, kind).await;
        // Else a craft of what the bot carries is done by the game's craft calls.
        let (calls, by) = match call {
            Some(call) => (vec![call], "one call of a skill you have"),
            None => match self.craft_calls(&spec.task).await {
                Some(calls) if calls.len() == 1 => (calls, "one call"),
                Some(calls) => (calls, "these calls, in this order"),
                None => (Vec::new(), ""),
            },
        };
        let statements: Vec<String> = calls.iter().map(|call| format!("{call};")).collect();
        // An answer that did not make the calls the step is done with is told them again with what went wrong:
        // shown the call beside the skill, the local model passed the skill a position six times.
        // Shown too when the answer made them and more: told `craftItem("spruce_button", 1)` with a plank carried, the
        // local model crafted planks first (no log carried) in five answers of one task, each making the call.
        let made: Vec<&str> = last_code.lines().map(str::trim).filter(|l| l.ends_with(';')).collect();
        let made_them = statements.iter().all(|s| made.contains(&s.as_str()));
        let feedback = if !feedback.is_empty() && !calls.is_empty() && made != statements {
            let only = if made_them { ", and nothing else" } else { "" };
            format!("{feedback}\nThis task is done by {by}: `{}`{only}", statements.join(" "))
        } else {
            feedback.to_owned()
        };
        // A thing the error says is missing that a skill learned for it gets: told to call that skill first. Three
        // tasks of one learning run called the learned `craftSprucePlanks()` with no log carried, and never the
        // learned `mineSpruceLog()` before it.
        let feedback = match getters_of(&missing, &self.skills.list(), last_code).as_slice() {
            [] => feedback,
            getters => {
                let told: Vec<String> = getters.iter().map(|(call, thing)| format!("`{call}` gets {thing}")).collect();
                format!("{feedback}\nA skill you have gets what is missing: {}. Call it first.", told.join("; "))
            }
        };
        let feedback = feedback.as_str();
        // The functions the step's kind needs, and those the example calls, are documented.
        let case = focus::case(&spec.task, is_game_id);
        let mut needed: Vec<&str> = focus::needed(kind, case);
        needed.extend(crate::script::bindings::FUNCTIONS.iter().filter(|f| example.contains(&format!("{f}("))));
        // The answer's function is named for the task, so a model that copies the format names it well; not as a
        // skill it has (the model would write that skill again, not call it).
        let name = naming::name_for_task(&spec.task);
        let name = if self.skills.get(&name).is_some() { format!("{name}Now") } else { name };
        // A step the library does in one call its words give is answered with that call: the local model, shown the
        // skill's code and the call beside it, copied the code with the wrong block put in, or passed positions.
        let body = if statements.is_empty() { "// ...".to_owned() } else { statements.join("\n    ") };
        let format = prompts::render("action_response_format", &[("name", &name), ("body", &body)])
            .map_err(|e| e.to_string())?;
        let system = prompts::render(
            "action_template",
            &[
                ("primitives", &prompts::primitives_doc_for(&format!("{} {}", spec.task, spec.context), &needed, case)),
                ("skills", &skills),
                ("response_format", &format),
            ],
        )
        .map_err(|e| e.to_string())?;
        let or_none = |text: &str| if text.is_empty() { "none".to_owned() } else { text.to_owned() };
        // Read before the observation is awaited: the lock is not held across it.
        let goal = self.goal.lock().clone().unwrap_or_else(|| "none".to_owned());
        let user = prompts::render(
            "action_task",
            &[
                ("task", &spec.task),
                ("context", &or_none(&spec.context)),
                ("goal", &goal),
                ("observation", &observation(&self.bot).await),
                (
                    "last_code",
                    &if last_code.is_empty() { "none".to_owned() } else { format!("```rhai\n{last_code}\n```") },
                ),
                ("feedback", &or_none(feedback)),
                ("critique", &or_none(critique)),
            ],
        )
        .map_err(|e| e.to_string())?;
        Ok(vec![Message::system(system), Message::user(user)])
    }

    /// The skills nearest `query` for a step of `kind`: those doing the same kind of work first, one of them as code
    /// (a worked example, [`focus::example`]), the others by signature and description (they can be called as they
    /// are); `none yet` when there are none or search is off. Also the example's code (empty when none is shown), and
    /// the call of a skill that does the step, when its words give every value ([`focus::step_call`]).
    async fn retrieved_skills(&self, query: &str, task: &str, kind: focus::Kind) -> (String, String, Option<String>) {
        let skills = self.skills.clone();
        let query = query.to_owned();
        let found = tokio::task::spawn_blocking(move || skills.retrieve(&query, RETRIEVED_SKILLS * WIDER)).await;
        let mut found = match found {
            Ok(Ok(found)) if !found.is_empty() => found,
            Ok(Err(err)) => {
                tracing::warn!("no skills shown to the action agent: {err}");
                return ("none yet".to_owned(), String::new(), None);
            }
            _ => return ("none yet".to_owned(), String::new(), None),
        };
        // The nearest few, and if none of them does the step's kind of work in its shape, the nearest that does from a
        // wider search: "make a 2 by 2 floor of oak planks" found five skills crafting planks and not `buildFloor`.
        let fits = |m: &crate::skills::Match| {
            focus::of_skill(&m.skill.name) == kind && focus::shape_fits(task, &m.skill.meta.description, is_game_id)
        };
        let wider = found.split_off(found.len().min(RETRIEVED_SKILLS));
        if kind != focus::Kind::Other
            && !found.iter().any(fits)
            && let Some(fitting) = wider.into_iter().find(|m| fits(m))
        {
            found.pop();
            found.insert(0, fitting);
        }
        // Those of the step's kind first, in the order search found them.
        found.sort_by_key(|m| focus::of_skill(&m.skill.name) != kind);
        // Of those building the shape the step builds, if it builds one (a line's skill shown for a pillar was
        // copied into a line).
        let fits_shape = |m: &crate::skills::Match| focus::shape_fits(task, &m.skill.meta.description, is_game_id);
        // The first fitting skill the step's words give every value of is shown first, called with them, and no
        // skill's code is: shown `placeCraftingTable`'s code above the call `placeBlockNextTo("crafting_table",
        // "stone")`, the model copied that code and placed the table anywhere.
        let called = found.iter().enumerate().filter(|(_, m)| fits_shape(m)).find_map(|(i, m)| {
            focus::step_call(task, &m.skill.name, &m.skill.params, is_game_id).map(|call| (i, call))
        });
        let called = called.map(|(i, call)| {
            let skill = found.remove(i);
            found.insert(0, skill);
            (0, call)
        });
        let fitting: Vec<usize> = (0..found.len()).filter(|&i| fits_shape(&found[i])).collect();
        let shown = match called {
            // Not its code: the answer's form holds the call, and the code was copied with the wrong block put in.
            Some(_) => None,
            None => focus::example(
                kind,
                fitting.iter().map(|&i| (found[i].skill.name.as_str(), found[i].skill.code.as_str())),
            )
            .map(|j| fitting[j]),
        };
        let text = found
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let line =
                    format!("// {}: {}", m.skill.signature(), focus::short_description(&m.skill.meta.description));
                let line = if Some(i) == shown { format!("{line}\n{}", m.skill.code.trim_end()) } else { line };
                match &called {
                    Some((at, call)) if *at == i => format!("{line}\n// This task is done by calling: {call};"),
                    _ => line,
                }
            })
            .collect::<Vec<_>>()
            .join("\n\n");
        (text, shown.map(|i| found[i].skill.code.clone()).unwrap_or_default(), called.map(|(_, call)| call))
    }

    /// What code may call: the game's functions, Rhai's and the library's skills, with the kinds of the skills'
    /// parameters their code shows.
    fn known(&self) -> check::Known {
        let mut known = known(Some(&self.skills.functions()));
        for skill in self.skills.list() {
            known.learn_kinds(&skill.name, &skill.params, &skill.functions);
        }
        known
    }

    /// Runs the program's main function in the sandbox, with every skill callable, until it returns, throws or is
    /// stopped; `None` if it could not start. With a `finish` line (a tracker the inventory judges, counted from a
    /// snapshot), the run is also ended as soon as the world shows the tracker done.
    async fn run(&self, program: &extract::Program, finish: Option<(&Tracker, &Snapshot)>) -> Option<runner::Report> {
        (self.show)(Shown::Code { name: program.main.clone(), code: program.code.clone() });
        let (host, serve) = primitives::serve(self.bot.clone());
        let serving = tokio::task::spawn_local(serve);
        // The run's own flag: raised by the owner's `!stop` (the agent's flag) or at the finish line.
        let stop = if finish.is_some() { StopFlag::default() } else { self.stop.clone() };
        let job = runner::Job {
            name: program.main.clone(),
            ast: Arc::new(program.ast.clone()),
            library: Some(self.skills.functions()),
            entry: runner::Entry::Function { name: program.main.clone(), args: Vec::new() },
            limits: self.limits.clone(),
            stop: stop.clone(),
        };
        let running = runner::spawn(job, Arc::new(host));
        let finished = std::cell::Cell::new(false);
        let watch = async {
            let Some((tracker, start)) = finish else { return std::future::pending().await };
            let mut checked = tokio::time::Instant::now();
            loop {
                tokio::time::sleep(STOP_POLL).await;
                if self.stop.is_stopped() {
                    stop.stop();
                } else if checked.elapsed() >= FINISH_POLL {
                    checked = tokio::time::Instant::now();
                    let now = self.snapshot(None, &BTreeMap::new(), None).await;
                    if tracker.progress(start, &now).done {
                        tracing::info!("{}: the world shows its step done; ending the code early", program.main);
                        finished.set(true);
                        stop.stop();
                        return std::future::pending().await;
                    }
                }
            }
        };
        let report = tokio::select! {
            report = running => report.ok()?,
            never = watch => never,
        };
        // A stopped call may still be finishing the item moves it began in a chest; the next step waits for them.
        if tokio::time::timeout(SERVE_DRAIN, serving).await.is_err() {
            tracing::warn!(
                "{}: the call {} stopped had not ended {SERVE_DRAIN:?} later",
                self.bot.name(),
                program.main
            );
        }
        if let runner::Outcome::Failed(failure) = &report.outcome
            && !finished.get()
        {
            (self.show)(Shown::Failed(failure.to_string()));
        }
        Some(report)
    }

    /// The LLM critic, for tasks without a tracker. An unreadable verdict is asked for once more, with the reason.
    async fn critic(&self, spec: &TaskSpec, ran: &str, chat: &[String]) -> Result<Verdict, String> {
        let system = prompts::render("critic", &[]).map_err(|e| e.to_string())?;
        let user = prompts::render(
            "critic_task",
            &[
                ("task", &spec.task),
                ("context", &spec.context),
                ("observation", &observation(&self.bot).await),
                ("result", ran),
                ("chat", &if chat.is_empty() { "nothing".to_owned() } else { chat.join(" | ") }),
            ],
        )
        .map_err(|e| e.to_string())?;
        let messages = vec![Message::system(system), Message::user(user)];
        let schema = super::plan::verdict_schema();
        let verdict =
            ask_usable_shaped(self, Role::Critic, "the verdict", messages, Some(&schema), parse_verdict, |problem| {
                format!(
                    "That was not the JSON object asked for ({problem}). Answer with only {{\"reasoning\": …, \
                 \"success\": true or false, \"critique\": …}}."
                )
            })
            .await
            .map_err(|err| match err {
                Unusable::Llm(failure) => failure,
                Unusable::Answer(_) => "the critic's answers were not valid JSON twice".to_owned(),
            })?;
        tracing::info!("critic on {:?}: success {} ({})", spec.task, verdict.success, verdict.reasoning);
        Ok(verdict)
    }

    /// Adds the successful program to the skill library under a meaningful name (see [`naming`]), described by
    /// the action agent's own `Description:` line or, when it wrote none (or one about the code rather than what it
    /// does), by the description role. Not added: code the world does not vouch for ([`unlearnable`]), a program
    /// that only calls one skill (that skill is the answer), a
    /// near-copy of a skill the library has (that one is reused, or replaced by a new version if it has the same
    /// name), and one that used up or made things its task does not account for. Returns the skill's name.
    async fn learn(
        &self,
        spec: &TaskSpec,
        program: &extract::Program,
        written: Option<String>,
        report: &runner::Report,
        diff: &WorldDiff,
        by_tracker: bool,
    ) -> Option<String> {
        if let Some(why) = unlearnable(spec, report, diff, by_tracker) {
            tracing::info!("the code for {:?} is not kept as a skill: {why}", spec.task);
            return None;
        }
        let library = &self.skills;
        if let Some(called) = naming::only_calls(&program.code, &program.main, |n| library.get(n).is_some()) {
            tracing::info!("task {:?} was done by the skill {called} alone; nothing new to learn", spec.task);
            return None;
        }
        if let Some(stray) = stray_effects(spec, report) {
            tracing::info!("the code for {:?} is not kept as a skill: it also did {stray}", spec.task);
            (self.say)(&format!("Not keeping that code as a skill: besides {}, it changed {stray}.", spec.task));
            return None;
        }
        // The library's skill named for this very task does it already: a second one beside it is a copy in all
        // but its code (an answer that defines that skill anew replaces it instead).
        let for_task = naming::name_for_task(&spec.task);
        if program.main != for_task && library.get(&for_task).is_some() {
            tracing::info!("the library's {for_task} does {:?} already; not keeping another skill for it", spec.task);
            return None;
        }
        let name = naming::choose_name(&program.main, &spec.task, |n| library.get(n).map(|s| s.meta.task.clone()));
        let code = crate::skills::text::rename_identifier(&program.code, &program.main, &name);
        let copy = library
            .list()
            .into_iter()
            .map(|old| (naming::code_similarity(&code, &name, &old.code, &old.name), old))
            .filter(|(similarity, _)| *similarity >= naming::SAME_CODE)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let on_collision = match copy {
            Some((_, old)) if old.name == name => OnCollision::Replace,
            Some((similarity, old)) => {
                tracing::info!(
                    "the code for {:?} is {:.0} % the same as the skill {}; reusing that",
                    spec.task,
                    similarity * 100.0,
                    old.name
                );
                return None;
            }
            None => OnCollision::KeepBoth,
        };
        let written = written.filter(|d| crate::skills::clean_description(d).is_ok());
        let description = match naming::usable_description(written.as_deref(), &program.main) {
            Some(description) => description,
            None => self.describe(spec, program).await?,
        };
        let new = NewSkill { name, code, description, task: spec.task.clone() };
        let skills = self.skills.clone();
        match tokio::task::spawn_blocking(move || skills.add(new, on_collision)).await {
            Ok(Ok(skill)) => {
                tracing::info!("learned skill {} (version {}) for {:?}", skill.name, skill.meta.version, spec.task);
                Some(skill.name.clone())
            }
            Ok(Err(err)) => {
                tracing::warn!("the skill for {:?} was not saved: {err}", spec.task);
                None
            }
            Err(_) => None,
        }
    }

    /// A description from the description role.
    async fn describe(&self, spec: &TaskSpec, program: &extract::Program) -> Option<String> {
        let system = prompts::render("skill_description", &[]).ok()?;
        let user = prompts::render("skill_description_task", &[("task", &spec.task), ("code", &program.code)]).ok()?;
        let messages = [Message::system(system), Message::user(user)];
        Some(match self.ask(Role::Description, "the skill's description", &messages, 0.0).await {
            Ok(reply)
                if crate::skills::clean_description(&reply.content).is_ok()
                    && naming::usable_description(Some(&reply.content), &program.main).is_some() =>
            {
                reply.content
            }
            Ok(reply) => {
                tracing::warn!("unusable skill description {:?}; using the task instead", reply.content);
                naming::description_from_task(&spec.task)
            }
            Err(err) => {
                tracing::warn!("no skill description ({err}); using the task instead");
                naming::description_from_task(&spec.task)
            }
        })
    }

    /// Asks the LLM for `about` (`the plan`, `the code for Mine 2 oak_log`), telling the owner once when the answer
    /// is slow and when a spent budget pauses the call (which then waits for it to refill); `!status` shows the wait.
    pub async fn ask(
        &self,
        role: Role,
        about: &str,
        messages: &[Message],
        temperature: f32,
    ) -> Result<Reply, LlmError> {
        self.ask_shaped(role, about, messages, temperature, None).await
    }

    /// [`Agent::ask`] for an answer held to `schema` (a JSON schema) where the endpoint takes one.
    pub async fn ask_shaped(
        &self,
        role: Role,
        about: &str,
        messages: &[Message],
        temperature: f32,
        schema: Option<&serde_json::Value>,
    ) -> Result<Reply, LlmError> {
        let notice = |notice: Notice| match notice {
            Notice::Slow(after) => (self.say)(&format!("Still thinking about {about} ({} s)…", after.as_secs())),
            Notice::Paused(spent) => {
                let spent = spent.to_string();
                let mut chars = spent.chars();
                let first = chars.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
                (self.say)(&format!(
                    "{first}{}. I'll go on with {about} then; scripts, skills and other commands work meanwhile.",
                    chars.as_str()
                ));
            }
        };
        self.llm.chat_shaped(role, messages, temperature, schema, &notice).await
    }

    /// Records `new` in the bot's memory, if it keeps one.
    pub fn remember(&self, new: crate::memory::NewMemory) {
        if let Some(memory) = &self.memory {
            super::memory::record_later(memory, &self.bot, new);
        }
    }

    /// Records how a task or goal ended.
    pub fn remember_outcome(&self, task: &str, failure: Option<&str>) {
        let pos = azalea::BlockPos::from(self.bot.position());
        let at = [pos.x, pos.y, pos.z];
        let text = match failure {
            None => format!("I did the task {task} (at {} {} {})", at[0], at[1], at[2]),
            Some(reason) => format!("I failed the task {task} at {} {} {}: {reason}", at[0], at[1], at[2]),
        };
        self.remember(crate::memory::NewMemory::new(text, crate::memory::Subject::Task { ok: failure.is_none() }));
    }

    /// The memory stream's LLM work, between tasks: a batch of ratings when a batch is waiting, and a reflection when
    /// one is due (not after a rating that failed). Failures are logged; they never stop the caller.
    pub async fn memory_work(&self) {
        let Some(memory) = &self.memory else { return };
        if !self.llm.is_enabled() {
            return;
        }
        let now = super::memory::now(memory, &self.bot).await;
        let full_batch = |waiting| waiting >= crate::memory::importance::BATCH;
        match super::memory::llm_round(&self.llm, memory, &self.skills, now, full_batch).await {
            Ok(insights) if !insights.is_empty() => tracing::info!("reflected: {}", insights.join("; ")),
            Ok(_) => {}
            Err(err) => tracing::info!("memory work: {err}"),
        }
    }

    /// The memories most relevant to `query`, one per line with their age, or `none` (or no memory is kept).
    pub async fn memories_about(&self, query: &str, k: usize) -> String {
        match &self.memory {
            Some(memory) => {
                super::memory::record_observed(&self.bot, memory).await;
                super::memory::load_model(memory, &self.skills).await;
                let now = super::memory::now(memory, &self.bot).await;
                super::memory::relevant(memory, query, now, k).await
            }
            None => "none".to_owned(),
        }
    }

    /// What the trackers see now: inventory, position, `kills` so far, what the bot stands on and has handed over,
    /// and the blocks, boxes of the world and containers `tracker` asks about, for a step that began with the bot's
    /// feet at `start` (now, when `None`). Containers are looked into by opening them.
    pub async fn snapshot(
        &self,
        tracker: Option<&Tracker>,
        kills: &BTreeMap<String, u32>,
        start: Option<Point>,
    ) -> Snapshot {
        let bot = &self.bot;
        let inventory = bot.items().into_iter().map(|(name, count)| (name, i64::from(count))).collect();
        let p = bot.position();
        let name = |pos: azalea::BlockPos| {
            primitives::observe::block_kind(bot, pos)
                .map(|kind| kind.to_string().trim_start_matches("minecraft:").to_owned())
        };
        let blocks = tracker
            .map(|t| t.positions())
            .unwrap_or_default()
            .into_iter()
            .filter_map(|[x, y, z]| Some(([x, y, z], name(azalea::BlockPos::new(x, y, z))?)))
            .collect();
        let mut snapshot =
            Snapshot { inventory, position: [p.x, p.y, p.z], kills: kills.clone(), blocks, ..Snapshot::default() };
        let below = azalea::BlockPos::from(p - azalea::Vec3::new(0.0, 0.01, 0.0));
        snapshot.below = name(below).map(|b| ([below.x, below.y, below.z], b));
        snapshot.given = bot.given_totals();
        let Some(tracker) = tracker else { return snapshot };
        let start = start.unwrap_or(snapshot.feet());
        snapshot.areas =
            tracker.boxes(start).into_iter().map(|(min, max)| primitives::observe::area(bot, min, max)).collect();
        for (centre, radius) in tracker.container_places(start) {
            let r = radius as i32;
            let chest = |p: &azalea::BlockPos| matches!(name(*p).as_deref(), Some("chest" | "trapped_chest"));
            let mut chests: Vec<azalea::BlockPos> = (-r..=r)
                .flat_map(|x| {
                    (-r..=r).flat_map(move |y| {
                        (-r..=r).map(move |z| azalea::BlockPos::new(centre[0] + x, centre[1] + y, centre[2] + z))
                    })
                })
                .filter(chest)
                .collect();
            chests.sort_by_key(|c| (c.x - centre[0]).pow(2) + (c.y - centre[1]).pow(2) + (c.z - centre[2]).pow(2));
            for chest in chests.into_iter().take(MAX_CONTAINERS_LOOKED_INTO) {
                match primitives::container_contents(bot, chest).await {
                    Ok(items) => {
                        snapshot.containers.insert([chest.x, chest.y, chest.z], items);
                    }
                    Err(err) => {
                        tracing::info!("could not look into the chest at {} {} {}: {err}", chest.x, chest.y, chest.z)
                    }
                }
            }
        }
        snapshot
    }
}

/// How long a run's end waits for the call it stopped to finish what it must (item moves in an open chest).
const SERVE_DRAIN: std::time::Duration = std::time::Duration::from_secs(12);
/// How often a run with a finish line passes the owner's `!stop` on to its own flag.
const STOP_POLL: std::time::Duration = std::time::Duration::from_millis(50);
/// How often a run with a finish line counts the inventory against it.
const FINISH_POLL: std::time::Duration = std::time::Duration::from_millis(500);

/// The most containers a tracker's check opens.
const MAX_CONTAINERS_LOOKED_INTO: usize = 4;

/// What `task` asks of the world, read with the game's ids, every word that carries meaning accounted for: what is
/// planned, tracked and claimed comes from this reading only.
pub fn asked_of(task: &str) -> Option<Asked> {
    effect::asked(task, is_game_id)
}

/// What `task` asks of the world as far as its words are understood (see [`effect::loosely`]): for checks that only
/// fail a step.
pub fn asked_loosely(task: &str) -> Option<Asked> {
    effect::loosely(task, is_game_id)
}

/// How `task`'s words read with the game's ids, or why they do not (see `reading::Unread`).
pub fn reading_of(task: &str) -> Result<Asked, super::reading::Unread> {
    super::reading::read(task, is_game_id)
}

/// Whether `task`'s words ask only a walk to whoever said them (`come here`, `come over to me`), in English.
pub fn walks_to_speaker(task: &str) -> bool {
    match reading_of(task) {
        Err(unread) => {
            unread.effect == Some(Effect::Go)
                && unread.partial.is_none()
                && !unread.words.is_empty()
                && unread.words.iter().all(|w| w == "me" || w == "here")
        }
        Ok(_) => false,
    }
}

/// `toss me 8 cobble` with whoever said it in the place of `me`, when the words hand things over to no one else:
/// `toss Alice 8 cobble`, which names whom the world must show holding them. `None` for any other words.
pub fn handed_to_speaker(task: &str, speaker: &str) -> Option<String> {
    // Read whole, or whole but for `all` of the thing (`can i have all ur apples`: counted when the goal starts).
    let read = |task: &str| match reading_of(task) {
        Ok(asked) => Some(asked),
        Err(unread) if unread.words == ["all"] => unread.partial.map(|asked| *asked),
        Err(_) => None,
    };
    let asked = read(task)?;
    if asked.effect != Effect::Give || asked.player.is_some() {
        return None;
    }
    let mut words: Vec<String> = task.split_whitespace().map(str::to_owned).collect();
    let bare = |w: &str| w.trim_end_matches([',', '.', '!', '?']).to_lowercase();
    match words.iter().position(|w| bare(w) == "me" || bare(w) == "gimme") {
        // `gimme 3 bread`: give whoever asked.
        Some(me) => {
            words[me] = if bare(&words[me]) == "gimme" { format!("give {speaker}") } else { speaker.to_owned() }
        }
        // `can i have 3 bread`: the reader's own words say `give me`.
        None => {
            words = super::vocab::words(task, crate::config::Lang::En, is_game_id).words;
            let me = words.iter().position(|w| w == "me")?;
            words[me] = speaker.to_owned();
        }
    }
    let named = words.join(" ");
    read(&named).is_some_and(|read| read.player.as_deref() == Some(speaker)).then_some(named)
}

/// Whether `name` is a block or item the game has.
pub fn is_game_id(name: &str) -> bool {
    /// What smelting makes, by name: looked up for every word a goal reader reads.
    static SMELTED: std::sync::LazyLock<std::collections::HashSet<String>> =
        std::sync::LazyLock::new(|| crate::primitives::facts::facts().smelting.values().cloned().collect());
    let facts = crate::primitives::facts::facts();
    super::recipes::known_item(name)
        || facts.crafting.contains_key(name)
        || SMELTED.contains(name)
        || facts.smelting.contains_key(name)
}

/// Verbs of steps that only talk or change what the bot holds: the world diff cannot see them done, so an empty one
/// does not fail them (and nothing is learned from them).
const WORDS_ONLY: &[&str] = &[
    "say", "tell", "greet", "ask", "announce", "report", "chat", "reply", "answer", "equip", "wear", "hold", "wait",
    "look",
];

fn words_only(task: &str) -> bool {
    task.split_whitespace().next().is_some_and(|verb| WORDS_ONLY.contains(&verb.to_lowercase().as_str()))
}

/// Why code that succeeded is not to be kept as a skill, if it is not: it threw; it changed nothing in the world;
/// or the critic (no tracker) said success but the diff does not fit the step.
fn unlearnable(spec: &TaskSpec, report: &runner::Report, diff: &WorldDiff, by_tracker: bool) -> Option<String> {
    if let runner::Outcome::Failed(failure) = &report.outcome {
        return Some(format!("it threw ({failure}), though the world shows the task done"));
    }
    if diff.is_empty() {
        return Some("it changed nothing in the world".to_owned());
    }
    if !by_tracker && !effect::fits(asked_loosely(&spec.task).as_ref(), diff) {
        return Some(format!("no tracker confirmed it, and what it changed ({diff}) does not fit the step"));
    }
    None
}

/// Adds a run's `killed` mobs to the task's `kills`, and shows the count when it grew.
fn count_kills(kills: &mut BTreeMap<String, u32>, killed: &[String], show: &Arc<dyn Fn(Shown)>) {
    for mob in killed {
        *kills.entry(mob.clone()).or_default() += 1;
    }
    if !killed.is_empty() {
        show(Shown::Kills(kills.clone()));
    }
}

/// How the code a fact-based step came with did.
enum Known {
    /// Done; the library's skills the code called.
    Done {
        used: Vec<String>,
    },
    Stopped,
    /// Not done: the code as run, how the run went, the tracker's critique and the reason in a line.
    Short {
        code: String,
        ran: String,
        critique: String,
        reason: String,
    },
}

/// What an attempt's errors say is missing, as words for skill search: `I cannot make X because I need: 2 more
/// stick` → `stick`; `I need at least a stone_pickaxe to mine iron_ore` → `stone_pickaxe`; no crafting table or
/// furnace → `crafting_table` / `furnace`.
fn missing_things(feedback: &str) -> String {
    let mut things: Vec<String> = Vec::new();
    let word_after = |text: &str, marker: &str| -> Vec<String> {
        text.match_indices(marker)
            .filter_map(|(i, _)| {
                text[i + marker.len()..]
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .find(|w| !w.is_empty())
            })
            .map(str::to_owned)
            .collect()
    };
    use crate::primitives::facts::{MISSING_ITEMS, MISSING_TOOL, no_station_near};
    for (i, _) in feedback.match_indices(MISSING_ITEMS) {
        let list = &feedback[i + MISSING_ITEMS.len()..];
        let list = list.split(['.', '\n', ';']).next().unwrap_or_default();
        // Each part reads `2 more stick`, perhaps followed by `(or …)` alternatives.
        for part in list.split(", ") {
            if let Some(item) = part.split_whitespace().nth(2) {
                things.push(item.to_owned());
            }
        }
    }
    things.extend(word_after(feedback, &format!("{MISSING_TOOL} a ")));
    things.extend(word_after(feedback, &format!("{MISSING_TOOL} an ")));
    for station in ["crafting_table", "furnace"] {
        if feedback.contains(&no_station_near(station)) {
            things.push(station.to_owned());
        }
    }
    things.dedup();
    things.join(" ")
}

/// What a run changed that `spec`'s task does not account for, when the task names an item or block the facts
/// know: things used up that are not on the way to it, and things crafted that are not. Picked-up extras (saplings,
/// seeds) are not counted: walking over them is no fault of the code; nor are the cheap blocks walks build with
/// (dirt, cobblestone, …).
fn stray_effects(spec: &TaskSpec, report: &runner::Report) -> Option<String> {
    let wood = "oak";
    let related = super::recipes::related_items(&super::recipes::parse_goal(&spec.task, wood)?)?;
    let crafted = |name: &str| crate::primitives::facts::facts().crafting.contains_key(name);
    let noticed: Vec<(String, i64)> = report
        .inventory_deltas()
        .into_iter()
        .filter(|(name, delta)| (*delta < 0 || crafted(name)) && !crate::bot::moves::is_scaffold(name))
        // Food eaten is the hunger reflex's, not the code's.
        .filter(|(name, delta)| !(*delta < 0 && crate::bot::reflex::FOODS.contains(&name.as_str())))
        // What a mob drops was picked up where the reflexes fought it (an arrow from a skeleton), not crafted.
        .filter(|(name, delta)| !(*delta > 0 && mob_drop(name)))
        .collect();
    naming::side_effects(&noticed, &related)
}

/// Whether some mob drops `item` when killed.
fn mob_drop(item: &str) -> bool {
    crate::primitives::facts::facts().mob_loot.values().any(|loot| loot.iter().any(|(drop, _)| drop == item))
}

/// How a run ended, for the next prompt: the value or the error with its line, the chat, the inventory change.
fn describe_run(report: &runner::Report, code: &str) -> String {
    let mut text = match &report.outcome {
        runner::Outcome::Value(value) => format!("The function finished and returned {value}."),
        runner::Outcome::Failed(failure) => {
            let text = failing_line(failure, code);
            let mut hint = nothing_passed(&failure.message, text).unwrap_or_default();
            // A throw of the code's own (often copied from an example): a test it wrote, not the game's refusal.
            if text.is_some_and(throws) {
                hint.push_str(
                    " That error is the code's own `throw`, a test it wrote, not the game's: leave the test out if \
                     the task does not need what it looks for.",
                );
            }
            match (failure.line, text) {
                (Some(line), Some(text)) => {
                    format!("The function failed at line {line}, `{text}`: {}.{hint}", failure.message)
                }
                (Some(line), None) => format!("The function failed at line {line}: {}.{hint}", failure.message),
                (None, _) => format!("The function failed: {}.{hint}", failure.message),
            }
        }
    };
    if !report.chat.is_empty() {
        text.push_str(&format!("\nIt said: {}", report.chat.join(" | ")));
    }
    if !report.printed.is_empty() {
        text.push_str(&format!("\nIt printed: {}", report.printed.join(" | ")));
    }
    text.push_str(&format!("\nInventory change: {}.", report.inventory_change()));
    text
}

/// What an attempt's report says when the bot died while the code ran: the failure that follows a death (nothing
/// carried, far from the work) is not the code's fault alone.
fn died_during(place: &str) -> String {
    format!(
        "\nI died during this attempt at {place} and came back to life at my spawn point with nothing: what I carried \
         was dropped where I died. Start again from what I have now."
    )
}

/// What Rhai's `Function not found: getItemFromChest ((), map)` means when a value it lists is `()`: the call that
/// made that value found nothing (`findBlock` with no such block near). The local model read the bare message as
/// a wrong name and sent the same code six times over.
fn nothing_passed(message: &str, line: Option<&str>) -> Option<String> {
    let (_, signature) = message.split_once("Function not found: ")?;
    let (name, values) = signature.split_once(" (")?;
    if !values.contains("()") {
        return None;
    }
    let found = line.and_then(|text| text.split_once("findBlock(\"")).and_then(|(_, rest)| rest.split_once('"'));
    Some(match found {
        Some((block, _)) => format!(
            " A value passed to {name} is () (nothing): `findBlock(\"{block}\", …)` found no {block} that near. Do \
             the task without one, or get or place one first; `if found == () {{ … }}` tells."
        ),
        None => format!(
            " A value passed to {name} is () (nothing): the call that gave it found nothing; test `if value == () \
             {{ … }}` before passing it on."
        ),
    })
}

/// Whether a line of code holds a `throw` statement: the word outside its strings (`chat("I throw it")` does not).
fn throws(line: &str) -> bool {
    let mut outside = String::with_capacity(line.len());
    let (mut quote, mut escaped) = (None, false);
    for c in line.chars() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '`' => {
                quote = Some(c);
                outside.push(' ');
            }
            None => outside.push(c),
        }
    }
    outside.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|word| word == "throw")
}

/// The line of `code` a failure happened on, to show the model with the error: only when the line is one of `code`'s
/// own, that is when every function the error came through (`in NAME: …`) is a primitive or defined in `code` (a
/// skill of the library counts its lines in its own code).
fn failing_line<'a>(failure: &runner::Failure, code: &'a str) -> Option<&'a str> {
    let line = failure.line?;
    let mut rest = failure.message.as_str();
    while let Some(after) = rest.strip_prefix("in ") {
        let (name, tail) = after.split_once(": ")?;
        let own = code.contains(&format!("fn {name}("));
        if !own && !crate::script::bindings::FUNCTIONS.contains(&name) {
            return None;
        }
        rest = tail;
    }
    code.lines().nth(line.checked_sub(1)?).map(str::trim).filter(|text| !text.is_empty())
}

/// The game's names of what the bot sees: the blocks near it (as [`observation`] lists them) and the mobs in sight.
async fn in_sight(bot: &BotHandle) -> Vec<String> {
    let mut names = primitives::observe::block_kinds_near(bot, 16, 24).await;
    // `chicken (24 blocks)`
    names.extend(
        primitives::observe::entities_near(bot, 32.0, 8)
            .into_iter()
            .filter_map(|seen| seen.split(" (").next().map(str::to_owned)),
    );
    names
}

/// Why `code` cannot do `task`, a step placing, storing or giving a thing, or going to a block: it names that thing
/// nowhere, neither in its own text (a string, a map's key, a skill's name such as `placeChest`; not the names of its
/// `own` functions) nor in the code of a library skill it calls (`called`: names and code). `None` when it does, or
/// the step is of another kind. (Asked to walk to the diamond block, the local model walked to a spot it made up.)
pub fn unnamed_thing(task: &str, code: &str, own: &[&str], called: &[(String, String)]) -> Option<String> {
    let asked = asked_of(task)?;
    let thing = asked.thing.as_deref()?;
    // The item that places the block, where its name differs (`carrot` plants `carrots`).
    let item = primitives::item_placing(thing).unwrap_or(thing);
    let n = asked.count.unwrap_or(1);
    let (verb, example) = match asked.effect {
        Effect::Place => ("places", format!("placeItem(\"{item}\")")),
        Effect::Store => ("stores", format!("depositItemIntoChest(chest, #{{{item}: {n}}})")),
        Effect::Give => ("gives", format!("giveItem(\"{}\", \"{item}\", {n})", asked.player.as_deref()?)),
        // A block to go to, not a spot: found first, by its own name (`wheat`, not the seeds that plant it).
        Effect::Go if asked.at.is_none() && super::recipes::is_block(thing) => {
            let found = format!("findBlock(\"{thing}\", 32)");
            let stand = ["stand", "onto", "climb"].iter().any(|w| task.to_lowercase().contains(w));
            ("goes to", if stand { format!("standOn({found})") } else { format!("goTo({found}, 2)") })
        }
        Effect::Dig | Effect::Go => return None,
    };
    let item = if asked.effect == Effect::Go { thing } else { item };
    // Any wood of the thing will do (`oak_planks` asked, birch carried): its name without the wood's.
    let woodless = super::recipes::WOODS.iter().find_map(|wood| item.strip_prefix(&format!("{wood}_"))).unwrap_or(item);
    let spellings = [woodless.to_owned(), woodless.replace('_', "")];
    let names = |text: &str| {
        let text = text.to_lowercase();
        spellings.iter().any(|spelling| text.contains(spelling.as_str()))
    };
    // The answer's own functions are named for the step (`placeChest`): their names say nothing of what they call.
    let text: String = code
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|word| !own.contains(word))
        .collect::<Vec<_>>()
        .join(" ");
    if names(&text) || called.iter().any(|(_, code)| names(code)) {
        return None;
    }
    Some(format!(
        "The code never names {item}, so it cannot do \"{task}\": the step {verb} {item}. Call a function with \
         it, such as {example}."
    ))
}

/// What the bot sees, for prompts.
pub async fn observation(bot: &BotHandle) -> String {
    let status = bot.status();
    let p = status.position;
    let items = items_text(&status.items);
    let blocks = primitives::observe::block_kinds_near(bot, 16, 24).await;
    let or_none = |list: Vec<String>| if list.is_empty() { "none".to_owned() } else { list.join(", ") };
    // Voyager's words for a chest whose contents the bot has not seen.
    let chests: Vec<String> = primitives::observe::chests_near(bot, 16.0, 5)
        .await
        .into_iter()
        .map(|at| format!("{at} (unknown items inside)"))
        .collect();
    let slots = primitives::items::inventory_slots(bot);
    let used = slots.get(9..=44).map_or(0, |s| s.iter().filter(|stack| !stack.is_empty()).count());
    format!(
        "Position: {:.1} {:.1} {:.1} in the {} ({} biome)\nHealth: {}/20, food: {}/20\n{}Equipment: {}\n\
         Inventory ({used}/36): {items}\nNearby blocks: {}\nNearby entities: {}\nNearby chests: {}",
        p.x,
        p.y,
        p.z,
        status.dimension,
        primitives::observe::biome(bot).unwrap_or_else(|| "unknown".to_owned()),
        status.health,
        status.food,
        dangers_text(&status),
        primitives::observe::equipment(bot),
        or_none(blocks),
        or_none(primitives::observe::entities_near(bot, 32.0, 8)),
        or_none(chests),
    )
}

/// The time, and what threatens the bot, a line each (empty lines left out): `Time: day 0 19:30 night`,
/// `Air: 120/300`, `Hostile mobs: zombie 8m, skeleton 15m`.
pub fn dangers_text(status: &Status) -> String {
    let mut text = String::new();
    if let Some(clock) = &status.clock {
        text.push_str(&format!("Time: {}\n", clock.describe()));
    }
    if status.air < MAX_AIR {
        text.push_str(&format!("Air: {}/{MAX_AIR}\n", status.air.max(0)));
    }
    if !status.hostiles.is_empty() {
        let near: Vec<String> = status.hostiles.iter().take(5).map(|(kind, d)| format!("{kind} {d:.0}m")).collect();
        text.push_str(&format!("Hostile mobs: {}\n", near.join(", ")));
    }
    text
}

/// `3 oak_log, 1 stick`, or `empty`.
pub fn items_text(items: &[(String, i32)]) -> String {
    if items.is_empty() {
        return "empty".to_owned();
    }
    items.iter().map(|(name, count)| format!("{count} {name}")).collect::<Vec<_>>().join(", ")
}

/// Why [`ask_usable`] got nothing usable.
#[derive(Debug)]
pub enum Unusable<E = String> {
    /// The call itself failed (after the client's retries), in words.
    Llm(String),
    /// Both answers were unusable; the second one's reason.
    Answer(E),
}

/// Asks `role` for `about` (see [`Agent::ask`]) and parses the answer with `parse`. An unusable answer (one cut off
/// at its token limit included) is sent back once with `correction(reason)` appended to the conversation, so the
/// second try knows what was wrong (Voyager repeats the same prompt instead).
pub async fn ask_usable<T, E: From<String> + std::fmt::Display>(
    agent: &Agent,
    role: Role,
    about: &str,
    messages: Vec<Message>,
    parse: impl Fn(&str) -> Result<T, E>,
    correction: impl Fn(&str) -> String,
) -> Result<T, Unusable<E>> {
    ask_usable_shaped(agent, role, about, messages, None, parse, correction).await
}

/// [`ask_usable`] with the answer held to `schema` where the endpoint takes one (and checked by `parse` either way).
pub async fn ask_usable_shaped<T, E: From<String> + std::fmt::Display>(
    agent: &Agent,
    role: Role,
    about: &str,
    mut messages: Vec<Message>,
    schema: Option<&serde_json::Value>,
    parse: impl Fn(&str) -> Result<T, E>,
    correction: impl Fn(&str) -> String,
) -> Result<T, Unusable<E>> {
    let mut tries = 0;
    loop {
        tries += 1;
        let (content, parsed) = match agent.ask_shaped(role, about, &messages, 0.0, schema).await {
            Ok(reply) => {
                let parsed = parse(&reply.content);
                (reply.content, parsed)
            }
            Err(LlmError::CutOff { max_tokens, content, .. }) => (
                content,
                Err(E::from(format!(
                    "it was cut off at its limit of {max_tokens} tokens before it ended; answer much shorter"
                ))),
            ),
            Err(err) => return Err(Unusable::Llm(llm_failure(&err))),
        };
        match parsed {
            Ok(parsed) => return Ok(parsed),
            Err(why) if tries == 2 => return Err(Unusable::Answer(why)),
            Err(why) => {
                tracing::info!("unusable {} answer: {why}", role.name());
                messages.push(Message { role: "assistant".to_owned(), content });
                messages.push(Message::user(correction(&why.to_string())));
            }
        }
    }
}

fn llm_failure(err: &LlmError) -> String {
    format!("the LLM failed: {err}")
}

/// Calls and tokens between two totals.
pub fn usage_since(before: Usage, now: Usage) -> Usage {
    Usage {
        calls: now.calls.saturating_sub(before.calls),
        prompt_tokens: now.prompt_tokens.saturating_sub(before.prompt_tokens),
        completion_tokens: now.completion_tokens.saturating_sub(before.completion_tokens),
        millis: now.millis.saturating_sub(before.millis),
    }
}

/// The library's skills that get a thing `missing` names (as [`missing_things`] reads an error), with that thing,
/// each once, and none `code` calls already: `mineSpruceLog()` for "I need: 1 more spruce_log". Read from the task
/// each skill was learned for ([`super::recipes::Getter`]: `Mine 1 spruce_log` gets spruce_log); a skill with no
/// task is left to the search.
fn getters_of(missing: &str, library: &[Arc<crate::skills::Skill>], code: &str) -> Vec<(String, String)> {
    let missing: Vec<&str> = missing.split_whitespace().collect();
    super::recipes::Getter::in_library(library)
        .into_iter()
        .filter(|getter| missing.contains(&getter.gets.as_str()) && !code.contains(&format!("{}(", getter.name)))
        .filter_map(|getter| {
            let skill = library.iter().find(|skill| skill.name == getter.name)?;
            Some((skill.signature(), getter.gets))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn things_tossed_to_me_go_to_whoever_asked() {
        assert_eq!(handed_to_speaker("toss me 8 cobble", "Alice").as_deref(), Some("toss Alice 8 cobble"));
        assert_eq!(handed_to_speaker("give me 3 bread pls", "Bob").as_deref(), Some("give Bob 3 bread pls"));
        // `can i have …`: the reader's `give me`; `all ur apples`: counted when the goal starts.
        for (goal, named) in
            [("can i have 3 bread", "give Bob 3 bread"), ("can i have all ur apples?", "give Bob all ur apples")]
        {
            assert_eq!(handed_to_speaker(goal, "Bob").as_deref(), Some(named), "{goal:?}");
        }
        // Someone else named, or nothing handed over: as said.
        assert_eq!(handed_to_speaker("give 3 bread to Dave", "Alice"), None);
        assert_eq!(handed_to_speaker("put dirt next to me", "Alice"), None);
    }

    #[test]
    fn come_here_and_come_to_me_are_a_walk_to_the_speaker() {
        for goal in ["come here", "come over here to me", "can you come to me please", "go to me"] {
            assert!(walks_to_speaker(goal), "{goal:?}");
        }
        for goal in ["go over there", "go to the furnace", "put dirt next to me", "come to the gold block"] {
            assert!(!walks_to_speaker(goal), "{goal:?}");
        }
    }

    /// The local model's answer to `Place 1 chest` from an empty library that had learned a table's skill and a
    /// cobblestone one: caught, and told what to call. Code that names the thing anywhere passes.
    #[test]
    fn code_that_never_names_what_its_step_places_is_caught() {
        let skills = [
            ("placeCraftingTable".to_owned(), "fn placeCraftingTable() { placeItem(\"crafting_table\"); }".to_owned()),
            ("mineCobblestone".to_owned(), "fn mineCobblestone() { mineBlock(\"cobblestone\", 1); }".to_owned()),
            ("storeItemsInChest".to_owned(), "fn storeItemsInChest(item, count) { }".to_owned()),
        ];
        let code = "fn placeChest() {\n    placeCraftingTable();\n    mineCobblestone();\n}";
        let advice = unnamed_thing("Place 1 chest", code, &["placeChest"], &skills[..2]).unwrap();
        assert!(advice.starts_with("The code never names chest, so it cannot do \"Place 1 chest\""), "{advice}");
        assert!(advice.contains("placeItem(\"chest\")"), "{advice}");
        // Named in a string, a map's key, a called skill's name or its code: passes.
        assert_eq!(unnamed_thing("Place 1 chest", "fn a() { placeItem(\"chest\"); }", &["a"], &[]), None);
        let store = "Store 4 oak_planks in the chest";
        assert_eq!(
            unnamed_thing(
                store,
                "fn a() { depositItemIntoChest(findBlock(\"chest\"), #{oak_planks: 4}); }",
                &["a"],
                &[]
            ),
            None
        );
        assert!(
            unnamed_thing(store, "fn a() { storeItemsInChest(); }", &["a"], &skills[2..])
                .unwrap()
                .contains("#{oak_planks: 4}")
        );
        // Any wood will do; the item that plants a crop is its name.
        assert_eq!(unnamed_thing(store, "fn a() { depositItemIntoChest(c, #{birch_planks: 4}); }", &["a"], &[]), None);
        assert_eq!(unnamed_thing("Place 3 carrots", "fn a() { placeItem(\"carrot\", p); }", &["a"], &[]), None);
        assert!(unnamed_thing("Place 3 carrots", "fn a() { }", &["a"], &[]).unwrap().contains("placeItem(\"carrot\""));
        assert_eq!(
            unnamed_thing("Place 1 crafting_table", "fn a() { placeCraftingTable(); }", &["a"], &skills[..1]),
            None
        );
        // A block to go to is found, not made up; a spot to go to is named by its numbers.
        let walk = "Go stand on diamond_block";
        let made_up = unnamed_thing(walk, "fn a() { standOn(vec3(10, 64, 10)); }", &["a"], &[]).unwrap();
        assert!(made_up.contains("standOn(findBlock(\"diamond_block\", 32))"), "{made_up}");
        assert_eq!(unnamed_thing(walk, "fn a() { standOn(findBlock(\"diamond_block\")); }", &["a"], &[]), None);
        assert_eq!(unnamed_thing("Go stand on -7 64 -7", "fn a() { goTo(vec3(-7, 64, -7)); }", &["a"], &[]), None);
        let spot = "Go stand on the gold_block at -4 63 4";
        assert_eq!(unnamed_thing(spot, "fn a() { standOn(vec3(-4, 63, 4)); }", &["a"], &[]), None, "a spot is named");
        // The block's own name, not the item planting it; a walk that does not stand is shown one that does not.
        let wheat = unnamed_thing("Go to the wheat", "fn a() { goTo(vec3(1, 64, 1)); }", &["a"], &[]).unwrap();
        assert!(wheat.contains("never names wheat,") && wheat.contains("goTo(findBlock(\"wheat\", 32), 2)"), "{wheat}");
        assert_eq!(unnamed_thing("Go to the wheat", "fn a() { goTo(findBlock(\"wheat\")); }", &["a"], &[]), None);
        // Not a block: a mob, an item.
        assert_eq!(unnamed_thing("Go to the chicken", "fn a() { goTo(vec3(1, 64, 1)); }", &["a"], &[]), None);
        let give =
            unnamed_thing("Give 3 bread to Bob", "fn a() { giveItem(\"Bob\", \"apple\", 3); }", &["a"], &[]).unwrap();
        assert!(give.contains("giveItem(\"Bob\", \"bread\", 3)"), "{give}");
        // Digging names positions, not kinds: never caught here; nor are steps of no world verb. A block gone to by
        // numbers alone is sent back (once a task: numbers that were right still reach the world after it).
        assert_eq!(
            unnamed_thing("Clear the tall grass around you", "fn a() { digBlock(vec3(2, 64, 2)); }", &["a"], &[]),
            None
        );
        assert!(unnamed_thing("Go stand on gold_block", "fn a() { standOn(vec3(-5, 63, 5)); }", &["a"], &[]).is_some());
        assert_eq!(unnamed_thing("Mine 3 oak_log", "fn a() { }", &["a"], &[]), None);
    }

    #[test]
    fn code_that_differs_only_in_spacing_is_the_same_answer() {
        let ran = "fn mineDirt() {\n    mineWoodLog(1);\n}";
        assert!(same_code(ran, "fn mineDirt() { mineWoodLog( 1 ); }"));
        assert!(!same_code(ran, "fn mineDirt() {\n    mineBlock(\"dirt\", 1);\n}"));
    }

    #[test]
    fn the_answers_line_counts_repeats_sent_back() {
        let checks = Checks::default();
        assert_eq!(checks.line(), None);
        checks.caught.store(2, Ordering::Relaxed);
        checks.ran.store(3, Ordering::Relaxed);
        assert_eq!(
            checks.line().as_deref(),
            Some("Code answers: 2 sent back before the world, 3 run in it (0 broke on its own code).")
        );
        checks.repeated.store(2, Ordering::Relaxed);
        assert!(checks.line().unwrap().ends_with("code). 2 repeats of code that had fallen short, sent back."));
    }

    #[test]
    fn a_failed_run_shows_the_line_that_failed() {
        let code = "fn helper() {\n    mineBlock(\"oak_log\", 1);\n}\nfn getWood() {\n    helper();\n    craftItem(\"stick\", 4);\n}";
        let failed = |message: &str, line: Option<usize>| runner::Report {
            name: "getWood".into(),
            outcome: runner::Outcome::Failed(runner::Failure { message: message.to_owned(), line }),
            chat: Vec::new(),
            printed: Vec::new(),
            kills: Vec::new(),
            inventory_before: Vec::new(),
            inventory_after: Vec::new(),
            elapsed: std::time::Duration::ZERO,
        };
        // A primitive called from the code: the call's line.
        let said = describe_run(&failed("in craftItem: I have no planks", Some(6)), code);
        assert!(said.starts_with("The function failed at line 6, `craftItem(\"stick\", 4);`: in craftItem"), "{said}");
        // Through a helper the code defines: the helper's line.
        let said = describe_run(&failed("in helper: in mineBlock: no oak_log near", Some(2)), code);
        assert!(said.contains("line 2, `mineBlock(\"oak_log\", 1);`"), "{said}");
        // Through a skill of the library: its lines are its own code's, so none is shown.
        let said = describe_run(&failed("in mineWoodLog: in mineBlock: no oak_log near", Some(3)), code);
        assert!(said.starts_with("The function failed at line 3: in mineWoodLog"), "{said}");
        assert_eq!(describe_run(&failed("boom", None), code).lines().next(), Some("The function failed: boom."));
        // A value that is nothing: what found nothing is named.
        let chest = "fn f() {\n    getItemFromChest(findBlock(\"chest\", 32), #{spruce_log: 1});\n}";
        let said = describe_run(&failed("Function not found: getItemFromChest ((), map)", Some(2)), chest);
        assert!(said.contains("`findBlock(\"chest\", …)` found no chest that near"), "{said}");
        let said = describe_run(&failed("Function not found: goTo ((), i64)", Some(5)), code);
        assert!(said.contains("A value passed to goTo is () (nothing)"), "{said}");
        let own = "fn f() {\n    let t = findBlock(\"crafting_table\", 32);\n    if t == () { throw \"no crafting table nearby\"; }\n}";
        let said = describe_run(&failed("no crafting table nearby", Some(3)), own);
        assert!(said.contains("the code's own `throw`"), "{said}");
        let words = "fn f() {\n    let t = 1;\n    chat(\"I throw it\"); placeItem(\"dirt\", t);\n}";
        let said = describe_run(&failed("in placeItem: no dirt carried", Some(3)), words);
        assert!(said.contains("line 3") && !said.contains("own `throw`"), "{said}");
        let said = describe_run(&failed("Function not found: digBlokc (Vec3)", Some(5)), code);
        assert!(!said.contains("(nothing)"), "{said}");
    }

    #[test]
    fn stray_effects_are_what_the_task_does_not_account_for() {
        let items = |list: &[(&str, i64)]| list.iter().map(|(n, c)| ((*n).to_owned(), *c)).collect::<Vec<_>>();
        let report = |before: &[(&str, i64)], after: &[(&str, i64)]| runner::Report {
            name: "x".into(),
            outcome: runner::Outcome::Value("()".into()),
            chat: Vec::new(),
            printed: Vec::new(),
            kills: Vec::new(),
            inventory_before: items(before),
            inventory_after: items(after),
            elapsed: std::time::Duration::ZERO,
        };
        let spec = |task: &str| TaskSpec { task: task.to_owned(), context: String::new(), tracker: None, code: None };
        // Planks made while asked for logs.
        let planks = report(&[("oak_log", 1)], &[("oak_log", 1), ("oak_planks", 4)]);
        assert_eq!(stray_effects(&spec("Mine 2 oak_log"), &planks).as_deref(), Some("+4 oak_planks"));
        // Dirt a pillar used, saplings walked over, a porkchop eaten when hungry: not the code's doing.
        let incidental = report(
            &[("dirt", 3), ("porkchop", 2)],
            &[("dirt", 1), ("oak_log", 2), ("oak_sapling", 1), ("porkchop", 1)],
        );
        assert_eq!(stray_effects(&spec("Mine 2 oak_log"), &incidental), None);
        // Wood used for a smoker, whose recipe takes any log, wood or stripped log, is on the way.
        let smoker = report(&[("furnace", 1), ("spruce_wood", 3)], &[("smoker", 1), ("spruce_wood", 2)]);
        assert_eq!(stray_effects(&spec("Craft 1 smoker"), &smoker), None);
        // The slabs a barrel's batch made more of than it took are on the way, in whatever wood.
        let barrel = report(&[("spruce_planks", 1)], &[("barrel", 1), ("spruce_log", 1), ("spruce_slab", 4)]);
        assert_eq!(stray_effects(&spec("Craft 1 barrel"), &barrel), None);
        // Logs used up on the way to a pickaxe are on the way.
        let pickaxe = report(&[("oak_log", 3)], &[("wooden_pickaxe", 1), ("oak_planks", 3)]);
        assert_eq!(stray_effects(&spec("Craft 1 wooden_pickaxe"), &pickaxe), None);
        // A task the facts cannot read is not judged.
        assert_eq!(stray_effects(&spec("Build a shelter"), &planks), None);
        // An arrow and flesh picked up where the reflexes killed a skeleton and a zombie are not made by the code;
        // arrows made from flint and feathers are.
        let fought = report(&[("dirt", 2)], &[("dirt", 4), ("spruce_log", 1), ("arrow", 1), ("rotten_flesh", 3)]);
        assert_eq!(stray_effects(&spec("Mine 1 spruce_log"), &fought), None);
        let fletched = report(&[("flint", 1), ("feather", 1), ("stick", 1)], &[("spruce_log", 1), ("arrow", 4)]);
        assert!(stray_effects(&spec("Mine 1 spruce_log"), &fletched).is_some_and(|s| s.contains("flint")));
    }

    #[test]
    fn a_skill_learned_for_what_is_missing_is_named() {
        let skill = crate::skills::Skill::learned_for;
        let library = [
            skill("craftSprucePlanks", &[], "Craft 1 spruce_planks"),
            skill("mineSpruceLog", &[], "Mine 1 spruce_log"),
            skill("mineSpruceLogs", &["count"], "Mine 3 spruce_log"),
            skill("mineCoalOre", &[], "Mine 1 coal_ore"),
            skill("mineWoodLog", &["count"], ""),
        ];
        let failed = "The function failed at line 2: in craftSprucePlanks: I cannot make spruce_planks because I \
                      need: 1 more spruce_log.";
        let code = "fn craftSpruceBoat() {\n  craftSprucePlanks();\n  craftItem(\"spruce_boat\", 1);\n}";
        let getters = getters_of(&missing_things(failed), &library, code);
        assert_eq!(getters, [("mineSpruceLog()".to_owned(), "spruce_log".to_owned())]);
        // A mined block's skill gets its drop; code that calls the getter already is not told it.
        let no_coal = "I cannot make torch because I need: 1 more coal";
        assert_eq!(getters_of(&missing_things(no_coal), &library, "")[0].0, "mineCoalOre()");
        assert!(getters_of(&missing_things(no_coal), &library, "mineCoalOre();").is_empty());
        assert!(getters_of(&missing_things("It said: hello"), &library, "").is_empty());
    }

    #[test]
    fn what_an_error_says_is_missing_goes_to_skill_search() {
        let feedback = "The function failed at line 3: I cannot make stone_pickaxe because I need: 2 more cobblestone, 1 more stick.";
        assert_eq!(missing_things(feedback), "cobblestone stick");
        assert_eq!(missing_things("failed: I need at least a stone_pickaxe to mine iron_ore"), "stone_pickaxe");
        let no_table = "I cannot make bucket because there is no crafting_table within 48 blocks that I can get to";
        assert_eq!(missing_things(no_table), "crafting_table");
        assert_eq!(missing_things("It said: hello"), "");
        let alternatives = "line 2: I cannot make stone_pickaxe because I need: 3 more cobblestone (or blackstone or \
                            cobbled_deepslate), 2 more stick; or smelt x to get it";
        assert_eq!(missing_things(alternatives), "cobblestone stick");
    }

    #[test]
    fn finds_json_in_prose() {
        let verdict = parse_verdict("Sure!\n```json\n{\"reasoning\": \"r\", \"success\": true}\n```").unwrap();
        assert!(verdict.success && verdict.critique.is_empty());
        assert!(parse_verdict("no").unwrap_err().contains("no JSON object"));
        assert!(parse_verdict("{\"reasoning\": 1}").unwrap_err().contains("invalid type"));
        let verdict = parse_verdict("{draft} {\"success\": false, \"critique\": \"mine {more}\"} [end]").unwrap();
        assert_eq!(verdict.critique, "mine {more}");
    }
}
