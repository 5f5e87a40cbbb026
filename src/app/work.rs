//! The long-running things a bot does as its activity: a script or skill run, a `!task` goal, and learning — each
//! started, reported on when it ends, and ended by `!stop` (or the next activity), with the script in flight.

use std::{future::Future, sync::Arc};

use super::{
    reply::Replier,
    state::{BotState, Finished, Learning},
};
use crate::{
    agent::{
        act::{Agent, Shown},
        checkpoint::Checkpoint,
        goals::{self, Status},
        learn::LearnReport,
    },
    bot::BotHandle,
    primitives,
    script::{
        StopFlag,
        runner::{self, Entry},
    },
};

/// What `!task` (for a goal the game's facts cannot plan) and `!learn` answer when no LLM is configured.
pub const NO_LLM: &str = "I have no LLM to plan with. Start me with WAYFARER_LLM_URL (e.g. http://localhost:11434/v1 \
    for Ollama) and WAYFARER_LLM_MODEL, or OPENAI_API_KEY for OpenAI. Scripts and skills (!run, !skills) work without one.";

/// Raises a script's stop flag when dropped: ending an activity drops its future, which stops its script.
pub(super) struct StopOnDrop(pub(super) StopFlag);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Starts `work` as the bot's activity, labelled `label`, on an owner's command (the one `reply` answers): whatever
/// the bot was doing ends, learning included, and a panic in `work` is reported as `what` failing.
pub fn begin(state: &BotState, reply: &Replier, label: String, what: String, work: impl Future<Output = ()> + 'static) {
    let why = format!("{} gave another command", reply.to());
    abandon_learning(state, &why);
    state.stop_goal(&why);
    state.activity.start(label, work, reply.internal_error(what));
}

/// Starts script or skill `name` on its own thread as the bot's activity; reports in chat when it ends. Scripts come
/// first when a script and a skill share a name. A skill is called with the owner's words as typed values, checked
/// against what its parameters take.
pub fn run_script(bot: BotHandle, state: &BotState, reply: Replier, name: String, args: Vec<String>) {
    let shared = &state.shared;
    let prefix = &shared.config.prefix;
    let (ast, entry, code) = if let Some(script) = shared.scripts.get(&name) {
        (script.ast.clone(), Entry::Script { args }, script.source.clone())
    } else if let Some(skill) = shared.skills.get(&name) {
        match crate::skills::call_args(&skill, &args) {
            Ok(values) => {
                (Arc::new(rhai::AST::empty()), Entry::Function { name: name.clone(), args: values }, skill.code.clone())
            }
            Err(problem) => {
                reply.say(&format!("{problem}."));
                return;
            }
        }
    } else {
        let names = shared.scripts.names();
        let known = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
        reply.say(&format!(
            "No script or skill called {name}. Scripts: {known}; {} skills ({prefix}skills lists them).",
            shared.skills.len()
        ));
        return;
    };
    let stop = StopFlag::default();
    let (host, serve) = primitives::serve(bot);
    tokio::task::spawn_local(serve);
    let host: Arc<dyn crate::script::Host> = Arc::new(host);
    // A skill is a chain of skills that each look at what is there first: one that failed where the world may let
    // it through another way (a path, a refused spot) is run once more from what the bot has then.
    let tries = if matches!(entry, Entry::Function { .. }) { CHAIN_TRIES } else { 1 };
    let job = {
        let (name, library, limits, stop) =
            (name.clone(), Some(shared.skills.functions()), shared.script_limits(), stop.clone());
        move || runner::Job {
            name: name.clone(),
            ast: ast.clone(),
            library: library.clone(),
            entry: entry.clone(),
            limits: limits.clone(),
            stop: stop.clone(),
        }
    };
    let mut report = runner::spawn(job(), host.clone());
    reply.say(&format!("Running {name}."));
    state.activity.show(Shown::Code { name: name.clone(), code });
    let (label, what) = (format!("running {name}"), format!("run {name}"));
    let answer = reply.clone();
    let activity = state.activity.clone();
    begin(state, &reply, label, what, async move {
        let _stop_on_drop = StopOnDrop(stop.clone());
        for tried in 1..=tries {
            let Ok(done) = report.await else {
                answer.say(&format!("{name} ended without a report (its thread died)."));
                return;
            };
            if let runner::Outcome::Failed(failure) = &done.outcome {
                if tried < tries && !stop.is_stopped() && primitives::routable(&failure.message) {
                    answer.say(&format!(
                        "{}. Trying {name} again from what I have now: the world may let it through another way.",
                        summary(&done)
                    ));
                    report = runner::spawn(job(), host.clone());
                    continue;
                }
                activity.show(Shown::Failed(failure.to_string()));
            }
            answer.say(&summary(&done));
            return;
        }
    });
}

/// How many times `!run` runs a skill whose failure the world may route around (see [`primitives::routable`]).
const CHAIN_TRIES: u32 = 2;

/// `get_wood finished in 3.2 s: 4 (+4 oak_log)` or `get_wood failed at line 3 after 1.0 s: …`
pub fn summary(report: &runner::Report) -> String {
    let secs = report.elapsed.as_secs_f64();
    let change = report.inventory_change();
    match &report.outcome {
        runner::Outcome::Value(value) => {
            format!("{} finished in {secs:.1} s: {value} (inventory: {change})", report.name)
        }
        runner::Outcome::Failed(failure) => match failure.line {
            Some(line) => format!("{} failed at line {line} after {secs:.1} s: {}", report.name, failure.message),
            None => format!("{} failed after {secs:.1} s: {}", report.name, failure.message),
        },
    }
}

/// An agent for this bot, or `None` (after saying how to configure one) when no LLM is configured.
fn agent(bot: BotHandle, state: &BotState, reply: &Replier) -> Option<Agent> {
    let Some(llm) = state.llm.clone() else {
        reply.say(NO_LLM);
        return None;
    };
    Some(agent_with(bot, state, reply, llm))
}

/// An agent with `llm` (a disabled one for `!task` without an LLM: goals the game's facts plan still work).
pub(super) fn agent_with(bot: BotHandle, state: &BotState, reply: &Replier, llm: Arc<crate::llm::Llm>) -> Agent {
    let say = reply.clone();
    let (activity, shower) = (state.activity.clone(), state.activity.clone());
    let (question, owner) = (state.question.clone(), reply.to().to_owned());
    Agent {
        bot,
        llm,
        skills: state.shared.skills.clone(),
        limits: state.shared.script_limits(),
        stop: StopFlag::default(),
        say: Arc::new(move |line: &str| say.say(line)),
        relabel: Arc::new(move |label: String| activity.relabel(label)),
        show: Arc::new(move |shown| shower.show(shown)),
        ask: Arc::new(move |asked| {
            let owner = owner.clone();
            *question.lock() = Some(super::state::Asking { owner, question: asked, asked: std::time::Instant::now() });
        }),
        goal: Arc::default(),
        memory: state.memory.clone(),
        persona: state.shared.config.memory.persona.as_ref().and_then(|p| p.line()),
        plan_from_words: state.shared.config.plan_from_words,
    }
}

/// Plans and does `goal` as the bot's activity, as a new goal in its book; `!stop` ends it, the script in flight
/// included. A goal from the bot's leader is acknowledged (`Got it!`) and ends with what the bot carries, for the
/// leader's monitor.
pub fn start_task(bot: BotHandle, state: &BotState, reply: Replier, goal: String, from_leader: bool) {
    let why = format!("{} gave another command", reply.to());
    abandon_learning(state, &why);
    if from_leader {
        reply.say("Got it!");
    }
    // A job from the leader with a fleet store may be a goal handed on from another member: the store is asked
    // before the goal goes into the book, so the book never holds it twice.
    if from_leader && state.shared.config.store.is_some() {
        return run_goal_as_activity(bot, state, reply, goal, None, from_leader);
    }
    let id = goals::with(&state.goals, |book| book.add(&goal, reply.to()));
    run_goal_as_activity(bot, state, reply, goal, Some(id), from_leader);
}

/// Goal `goal` as a new goal in the book, asked by `asked_by`: the one the leader handed to this bot in the fleet's
/// store at `url`, when another member left it unfinished (its plans and how far they got come along, and the run
/// goes on from there); else a fresh one.
async fn add_or_take_over(
    me: &str,
    url: &str,
    goal: &str,
    asked_by: &str,
    goals: &goals::Goals,
    say: &dyn Fn(&str),
) -> u32 {
    let handed = super::goal_sync::handed_to(url, me, goal).await.unwrap_or_else(|why| {
        tracing::warn!("{me}: cannot look for a goal handed to me ({why}); starting {goal} afresh");
        None
    });
    let (id, taken) = goals::with(goals, |book| {
        let id = book.add(goal, asked_by);
        let taken = handed.map(|(key, from, stored)| (book.take_over(id, &key, &stored), key, from));
        (id, taken)
    });
    match taken {
        Some((Ok(taken), key, from)) => {
            let (done, all, reopened) = (taken.done, taken.all, taken.reopened);
            tracing::info!(
                "{me}: took over goal {key} ({goal}) from {from}: {done} of {all} tasks done, {reopened} to do again"
            );
            let again = match reopened {
                0 => String::new(),
                1 => format!(" (1 step it did is to do again: what it gathered went with {from})"),
                n => format!(" ({n} steps it did are to do again: what they gathered went with {from})"),
            };
            say(&format!("Taking over {goal} from {from}, as the goal book has it{again}."));
        }
        Some((Err(why), key, from)) => tracing::warn!("{me}: cannot take over goal {key} from {from}: {why}"),
        None => {}
    }
    id
}

/// Goes on with the goal a lost connection or a restart cut off, if there is one, as the bot's activity.
pub fn resume_goal(bot: BotHandle, state: &BotState) -> bool {
    // A team goal is its leader's to take up (`team::resume`), not one to plan alone.
    let newest = goals::with(&state.goals, |book| {
        let goal = book.goals().iter().rev().find(|g| g.status == Status::Active && !g.team)?;
        Some((goal.id, goal.text.clone(), goal.asked_by.clone()))
    });
    let Some((id, text, asked_by)) = newest else { return false };
    let from_leader =
        state.shared.takes_orders_from(&state.name, &asked_by) && !state.shared.owners.contains(&asked_by);
    tracing::info!("{}: going on with goal #{id} ({text}) for {asked_by}", state.name);
    let reply = state.shared.replier(bot.clone(), &asked_by);
    run_goal_as_activity(bot, state, reply, text, Some(id), from_leader);
    true
}

/// Runs goal `id` of the book as the bot's activity; with no `id`, a new goal added to the book first (see
/// [`add_or_take_over`]).
fn run_goal_as_activity(
    bot: BotHandle,
    state: &BotState,
    reply: Replier,
    goal: String,
    id: Option<u32>,
    from_leader: bool,
) {
    // Without an LLM, a goal the game's facts plan still runs; any other says how to configure one.
    let llm = state.llm.clone().unwrap_or_else(|| Arc::new(crate::llm::Llm::disabled()));
    let agent = agent_with(bot.clone(), state, &reply, llm);
    let stop = agent.stop.clone();
    let (label, what) = (format!("task {goal}"), goal.clone());
    let answer = reply.clone();
    let goals = state.goals.clone();
    let (crashed, say_crash) = (state.goals.clone(), reply.internal_error(what));
    let (store, me, asked_by) = (state.shared.config.store.clone(), state.name.clone(), reply.to().to_owned());
    let running = Arc::new(std::sync::atomic::AtomicU32::new(id.unwrap_or(0)));
    let run_id = running.clone();
    state.activity.start(
        label,
        async move {
            let _stop_on_drop = StopOnDrop(stop);
            let id = match (id, store) {
                (Some(id), _) => id,
                (None, Some(url)) => add_or_take_over(&me, &url, &goal, &asked_by, &goals, &*agent.say).await,
                (None, None) => goals::with(&goals, |book| book.add(&goal, &asked_by)),
            };
            run_id.store(id, std::sync::atomic::Ordering::SeqCst);
            crate::agent::task::run_goal(&agent, &goal, &goals, id).await;
            if from_leader {
                report_carrying(&bot, &answer);
            }
        },
        move |message| {
            // Not resumed after a restart: it would fail the same way.
            let id = running.load(std::sync::atomic::Ordering::SeqCst);
            goals::with(&crashed, |book| {
                book.finish(id, Status::Failed, Some(format!("an internal error: {message}")))
            });
            say_crash(message);
        },
    );
}

/// Starts learning for up to `iterations` tasks, as asked by `asked_by`; it resumes after a reconnect until done.
pub fn start_learning(
    bot: BotHandle,
    state: &Arc<BotState>,
    asked_by: &str,
    iterations: usize,
    tap: Option<tokio::sync::mpsc::UnboundedSender<String>>,
) {
    if state.llm.is_none() {
        let reply = state.shared.replier(bot, asked_by);
        match tap {
            Some(tap) => reply.tapped(tap).say(NO_LLM),
            None => reply.say(NO_LLM),
        }
        return finish_learning(state, LearnReport::default(), Some("no LLM is configured".to_owned()));
    }
    state.stop_goal(&format!("{asked_by} started learning"));
    // Asked again while learning: the new run goes on from what the old one did, so the summary keeps it.
    let report = state.learning().take().map(|old| old.report).unwrap_or_default();
    *state.learning() = Some(Learning { left: iterations, report, asked_by: asked_by.to_owned(), fresh: true, tap });
    resume_learning(bot, state);
}

/// Runs, or goes on with, the learning this bot was asked for (if any) as its activity, from its own checkpoint.
pub fn resume_learning(bot: BotHandle, state: &Arc<BotState>) {
    let Some(learning) = state.learning().clone() else { return };
    let reply = state.shared.replier(bot.clone(), &learning.asked_by);
    let reply = match learning.tap.clone() {
        Some(tap) => reply.tapped(tap),
        None => reply,
    };
    let Some(agent) = agent(bot, state, &reply) else { return };
    let dir = checkpoint_dir(state);
    let stop = agent.stop.clone();
    let (this, panicked) = (state.clone(), state.clone());
    let say_panic = reply.internal_error("learning");
    state.activity.start(
        "learning",
        async move {
            let _stop_on_drop = StopOnDrop(stop);
            let mut checkpoint = Checkpoint::open(dir);
            let so_far = learning.report.clone();
            if learning.fresh {
                if let Some(learning) = this.learning().as_mut() {
                    learning.fresh = false;
                }
                let done = checkpoint.tasks.completed.len();
                reply.say(&format!(
                    "Learning for up to {} tasks ({done} done before, checkpoint {}).",
                    learning.left,
                    checkpoint.dir().display()
                ));
            } else {
                reply.say(&format!("Learning again after the reconnect: {} more tasks to go.", learning.left));
            }
            let left = learning.left;
            let record = |report: &LearnReport| {
                let mut total = so_far.clone();
                total.absorb(report);
                if let Some(learning) = this.learning().as_mut() {
                    (learning.left, learning.report) = (left.saturating_sub(report.iterations), total);
                }
            };
            let report = crate::agent::learn::learn(&agent, &mut checkpoint, left, &record).await;
            let mut total = so_far.clone();
            total.absorb(&report);
            reply.say(&format!("Learning done: {}.", total.summary()));
            this.learning().take();
            finish_learning(&this, total, None);
        },
        move |message| {
            say_panic(message.clone());
            let report = panicked.learning().take().map(|l| l.report).unwrap_or_default();
            finish_learning(&panicked, report, Some(format!("an internal error: {message}")));
        },
    );
}

/// Ends any unfinished learning of this bot because of `why` (`!stop`, `!learn stop`, another command). Returns
/// whether there was any.
pub fn abandon_learning(state: &BotState, why: &str) -> bool {
    let Some(learning) = state.learning().take() else { return false };
    finish_learning(state, learning.report, Some(why.to_owned()));
    true
}

/// Tells `wayfarer learn` (if that is what runs, and this is its learner) that this bot's learning ended.
fn finish_learning(state: &BotState, report: LearnReport, cut_short: Option<String>) {
    if let Some(run) = &state.shared.learn_run
        && run.learner == state.name
    {
        let _ = run.finished.send(Finished { bot: state.name.clone(), report, cut_short });
    }
}

/// This bot's checkpoint folder. A checkpoint from before folders were per bot (its files straight in the
/// checkpoint folder) becomes the first bot's.
fn checkpoint_dir(state: &BotState) -> std::path::PathBuf {
    let config = &state.shared.config;
    let dir = config.checkpoint_for(&state.name);
    let first = state.shared.bot_names.first() == Some(&state.name);
    if first && !dir.exists() && config.checkpoint_dir.join("tasks.json").is_file() {
        let moved = std::fs::create_dir_all(&dir).and_then(|()| {
            for file in ["tasks.json", "qa.json", "events.jsonl"] {
                let from = config.checkpoint_dir.join(file);
                if from.exists() {
                    std::fs::rename(&from, dir.join(file))?;
                }
            }
            Ok(())
        });
        match moved {
            Ok(()) => {
                tracing::info!("moved the checkpoint in {} to {}", config.checkpoint_dir.display(), dir.display())
            }
            Err(err) => tracing::warn!("cannot move the old checkpoint into {}: {err}", dir.display()),
        }
    }
    dir
}

/// What a member says after finishing a job its leader gave: its inventory and equipment, for the monitor.
fn report_carrying(bot: &BotHandle, reply: &Replier) {
    let equipment: Vec<String> = primitives::observe::worn(bot).into_iter().map(|(_, item)| item).collect();
    let mut carried: Vec<(String, i32)> = primitives::items::carried(bot).into_iter().collect();
    carried.sort();
    reply.say(&crate::agent::team::carrying_line(&carried, &equipment));
}
