//! Carrying out owners' chat commands on one bot, and answering them.
//!
//! Quick commands answer at once; movements run as the bot's [`Activity`] so `!stop` (or the next movement) can end
//! them, and they answer again when they finish.

use std::{sync::Arc, time::Duration};

use azalea::{BlockPos, Vec3};

use super::{BotHandle, BotState, activity::Activity, handle::fmt_pos};
use crate::{
    chat::{Command, MAX_CHAT_LEN, help_text, split_for_chat},
    config::ReplyMode,
    primitives,
    script::{StopFlag, runner},
};

/// How many item kinds `!status` lists before summarising the rest.
const STATUS_ITEMS: usize = 5;
/// How many skills `!skills WORDS` shows.
const SKILL_MATCHES: usize = 5;
/// How close `!come` and `!follow` get to the player.
const NEAR_PLAYER: f32 = 2.0;
/// How often `!follow` looks where its player went.
const FOLLOW_POLL: Duration = Duration::from_millis(250);

/// Answers the player who gave a command: publicly or by `/msg`, as configured, cut to fit chat.
#[derive(Clone)]
pub struct Replier {
    bot: BotHandle,
    to: String,
    mode: ReplyMode,
}

impl Replier {
    pub fn new(bot: BotHandle, to: impl Into<String>, mode: ReplyMode) -> Self {
        Self { bot, to: to.into(), mode }
    }

    pub fn say(&self, text: &str) {
        match self.mode {
            ReplyMode::Public => split_for_chat(text, MAX_CHAT_LEN).iter().for_each(|line| self.bot.chat(line)),
            ReplyMode::Whisper => {
                let head = format!("/msg {} ", self.to);
                for line in split_for_chat(text, MAX_CHAT_LEN - head.len() + 1) {
                    self.bot.chat(&format!("{head}{line}"));
                }
            }
        }
    }
}

/// Runs `command`, given by `speaker`, on `bot`.
pub fn execute(bot: BotHandle, state: &BotState, speaker: &str, command: Command) {
    let reply = Replier::new(bot.clone(), speaker, state.shared.config.reply);
    let prefix = &state.shared.config.prefix;
    tracing::info!("{} obeys {speaker}: {command:?}", bot.name());
    match command {
        Command::Help { topic } => reply.say(&help_text(topic.as_deref(), prefix)),
        Command::Status => reply.say(&status_line(&bot, &state.activity)),
        Command::Inventory => reply.say(&inventory_line(&bot.items())),
        Command::Stop => {
            let stopped = state.activity.cancel();
            bot.stop_all();
            reply.say(&match stopped {
                Some(label) => format!("Stopped {label}."),
                None => "I wasn't doing anything.".to_owned(),
            });
        }
        Command::Goto(target) => {
            let own = BlockPos::from(bot.position());
            let block = BlockPos::new(target.x.resolve(own.x), target.y.resolve(own.y), target.z.resolve(own.z));
            let label = format!("going to {} {} {}", block.x, block.y, block.z);
            let distance = bot.position().distance_to(Vec3::new(block.x as f64 + 0.5, block.y as f64, block.z as f64 + 0.5));
            reply.say(&format!("Going to {} {} {} ({distance:.0} blocks away).", block.x, block.y, block.z));
            let activity = state.activity.clone();
            activity.start(label, async move {
                match bot.goto_block(block).await {
                    Ok(()) => reply.say(&format!("Arrived at {} {} {}.", block.x, block.y, block.z)),
                    Err(err) => reply.say(&format!("{err}.")),
                }
            });
        }
        Command::Come => {
            let Some(position) = bot.player_position(speaker) else {
                reply.say(&format!("I can't see you, {speaker}. Tell me where with {prefix}goto X Y Z."));
                return;
            };
            let speaker = speaker.to_owned();
            state.activity.start(format!("coming to {speaker}"), async move {
                match bot.goto_near(position, NEAR_PLAYER).await {
                    Ok(()) => reply.say(&format!("I'm here, {speaker}.")),
                    Err(err) => reply.say(&format!("{err}.")),
                }
            });
        }
        Command::Scripts => {
            let names = state.shared.scripts.names();
            reply.say(&if names.is_empty() {
                format!("No scripts yet: put NAME.rhai files in {}.", state.shared.scripts.dir().display())
            } else {
                format!("Scripts: {}. Run one with {prefix}run NAME.", names.join(", "))
            });
        }
        Command::Run { name, args } => run_script(bot, state, reply, name, args),
        Command::Skills { query: None } => {
            let skills = state.shared.skills.list();
            reply.say(&if skills.is_empty() {
                format!("No skills yet: put NAME.rhai + NAME.json files in {}.", state.shared.skills.dir().display())
            } else {
                let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
                format!(
                    "Skills ({}): {}. Find one with {prefix}skills WORDS, run one with {prefix}run NAME.",
                    names.len(),
                    names.join(", ")
                )
            });
        }
        Command::Task { goal } => start_task(bot, state, reply, goal),
        Command::Learn { start: true, iterations } => start_learning(bot, state, reply, iterations, false),
        Command::Learn { start: false, .. } => {
            let stopped = state.activity.cancel();
            bot.stop_all();
            reply.say(&match stopped {
                Some(label) if label.starts_with("learning") || label.starts_with("task ") => {
                    "Stopped learning; what I learned is kept.".to_owned()
                }
                Some(label) => format!("I was not learning; stopped {label}."),
                None => "I was not learning.".to_owned(),
            });
        }
        Command::Skills { query: Some(query) } => {
            let skills = state.shared.skills.clone();
            tokio::task::spawn_local(async move {
                let asked = query.clone();
                let found = tokio::task::spawn_blocking(move || skills.retrieve(&asked, SKILL_MATCHES)).await;
                reply.say(&match found {
                    Ok(Ok(found)) if found.is_empty() => "I have no skills yet.".to_owned(),
                    Ok(Ok(found)) => {
                        let listed: Vec<String> =
                            found.iter().map(|m| format!("{} {:.2}", m.skill.signature(), m.score)).collect();
                        format!("Skills for \"{query}\": {}", listed.join(", "))
                    }
                    Ok(Err(err)) => sentence(&err.to_string()),
                    Err(_) => "The skill search failed (see the log).".to_owned(),
                });
            });
        }
        Command::Follow { player } => {
            let seen = bot.player_position(&player).is_some();
            reply.say(&if seen {
                format!("Following {player}. Say {prefix}stop to stop.")
            } else {
                format!("I can't see {player} yet; I'll follow once they are in view. Say {prefix}stop to stop.")
            });
            state.activity.start(format!("following {player}"), follow(bot, player));
        }
    }
}

/// Starts script or skill `name` on its own thread as the bot's activity; reports in chat when it ends. Scripts
/// come first when a script and a skill share a name.
fn run_script(bot: BotHandle, state: &BotState, reply: Replier, name: String, args: Vec<String>) {
    let shared = &state.shared;
    let prefix = &shared.config.prefix;
    let (ast, args) = if let Some(script) = shared.scripts.get(&name) {
        (script.ast.clone(), args)
    } else if let Some(skill) = shared.skills.get(&name) {
        let call = match crate::skills::call_source(&skill, &args) {
            Ok(call) => call,
            Err(problem) => return reply.say(&format!("{problem}.")),
        };
        match rhai::Engine::new_raw().compile(&call) {
            Ok(ast) => (Arc::new(ast), Vec::new()),
            Err(err) => return reply.say(&format!("Cannot call {name}: {err}.")),
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
    let job = runner::Job {
        name: name.clone(),
        ast,
        library: Some(shared.skills.functions()),
        args,
        limits: shared.config.script_limits.clone(),
        stop: stop.clone(),
    };
    let report = runner::spawn(job, Arc::new(host));
    reply.say(&format!("Running {name}."));
    state.activity.start(format!("running {name}"), async move {
        // Ending the activity (`!stop`, another command) drops this future, which stops the script.
        let _stop_on_drop = StopOnDrop(stop);
        match report.await {
            Ok(report) => reply.say(&summary(&report)),
            Err(_) => reply.say(&format!("{name} ended without a report (its thread died).")),
        }
    });
}

/// What `!task` answers when no LLM is configured.
pub const NO_LLM: &str = "I have no LLM to plan with. Start me with WAYFARER_LLM_URL (e.g. http://localhost:11434/v1 \
    for Ollama) and WAYFARER_LLM_MODEL, or OPENAI_API_KEY for OpenAI. Scripts and skills (!run, !skills) work without one.";

/// Learns on its own as the bot's activity, resuming from the checkpoint, until `iterations` tasks are done or it is
/// stopped; `exit` ends the process afterwards (`wayfarer learn`).
pub fn start_learning(bot: BotHandle, state: &BotState, reply: Replier, iterations: Option<usize>, exit: bool) {
    let Some(agent) = agent(bot, state, &reply) else { return };
    let iterations = iterations.unwrap_or(crate::agent::learn::DEFAULT_ITERATIONS);
    let dir = state.shared.config.checkpoint_dir.clone();
    let stop = agent.stop.clone();
    state.activity.start("learning", async move {
        let _stop_on_drop = StopOnDrop(stop);
        let mut checkpoint = crate::agent::checkpoint::Checkpoint::open(dir);
        let done = checkpoint.tasks.completed.len();
        reply.say(&format!(
            "Learning for up to {iterations} tasks ({done} done before, checkpoint {}).",
            checkpoint.dir().display()
        ));
        let report = crate::agent::learn::learn(&agent, &mut checkpoint, iterations).await;
        reply.say(&format!("Learning done: {}.", report.summary()));
        if exit {
            println!("{}", report.summary());
            std::process::exit(0);
        }
    });
}

/// An agent for this bot, or `None` (after saying how to configure one) when no LLM is configured.
fn agent(bot: BotHandle, state: &BotState, reply: &Replier) -> Option<crate::agent::act::Agent> {
    let shared = &state.shared;
    let Some(llm) = shared.llm.clone() else {
        reply.say(NO_LLM);
        return None;
    };
    let say = reply.clone();
    Some(crate::agent::act::Agent {
        bot,
        llm,
        skills: shared.skills.clone(),
        limits: shared.config.script_limits.clone(),
        stop: StopFlag::default(),
        activity: state.activity.clone(),
        say: Arc::new(move |line: &str| say.say(line)),
    })
}

/// Plans and does `goal` as the bot's activity; `!stop` ends it, the script in flight included.
fn start_task(bot: BotHandle, state: &BotState, reply: Replier, goal: String) {
    let Some(agent) = agent(bot, state, &reply) else { return };
    let stop = agent.stop.clone();
    state.activity.start(format!("task {goal}"), async move {
        let _stop_on_drop = StopOnDrop(stop);
        crate::agent::task::run_goal(&agent, &goal).await;
    });
}

/// Raises a script's stop flag when dropped.
struct StopOnDrop(StopFlag);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// `get_wood finished in 3.2 s: 4 (+4 oak_log)` or `get_wood failed at line 3 after 1.0 s: …`
pub fn summary(report: &runner::Report) -> String {
    let secs = report.elapsed.as_secs_f64();
    let change = report.inventory_change();
    match &report.outcome {
        runner::Outcome::Value(value) => format!("{} finished in {secs:.1} s: {value} (inventory: {change})", report.name),
        runner::Outcome::Failed(failure) => match failure.line {
            Some(line) => format!("{} failed at line {line} after {secs:.1} s: {}", report.name, failure.message),
            None => format!("{} failed after {secs:.1} s: {}", report.name, failure.message),
        },
    }
}

/// Keeps within reach of `player` until the activity is ended.
async fn follow(bot: BotHandle, player: String) {
    let mut heading_for: Option<Vec3> = None;
    loop {
        if let Some(target) = bot.player_position(&player) {
            let far = bot.position().distance_to(target) > f64::from(NEAR_PLAYER) + 1.0;
            let moved = heading_for.is_none_or(|goal| goal.distance_to(target) > 1.5);
            if far && moved {
                bot.start_toward(target, NEAR_PLAYER);
                heading_for = Some(target);
            } else if !far {
                heading_for = None;
            }
        }
        tokio::time::sleep(FOLLOW_POLL).await;
    }
}

/// `At 0.5 64.0 0.5 in overworld | health 20, food 20 | carrying 3 dirt | idle`
pub fn status_line(bot: &BotHandle, activity: &Activity) -> String {
    let status = bot.status();
    let carrying = if status.items.is_empty() {
        "carrying nothing".to_owned()
    } else {
        let mut shown: Vec<String> =
            status.items.iter().take(STATUS_ITEMS).map(|(name, count)| format!("{count} {name}")).collect();
        if status.items.len() > STATUS_ITEMS {
            shown.push(format!("{} more kinds", status.items.len() - STATUS_ITEMS));
        }
        format!("carrying {}", shown.join(", "))
    };
    format!(
        "At {} in {} | health {}/20, food {}/20 | {carrying} | {}",
        fmt_pos(status.position),
        status.dimension,
        trim_float(status.health),
        status.food,
        activity.describe()
    )
}

/// `Inventory: 12 oak_log, 3 dirt` or `Inventory: empty`.
pub fn inventory_line(items: &[(String, i32)]) -> String {
    if items.is_empty() {
        return "Inventory: empty".to_owned();
    }
    let listed: Vec<String> = items.iter().map(|(name, count)| format!("{count} {name}")).collect();
    format!("Inventory: {}", listed.join(", "))
}

/// `skill search is off: …` → `Skill search is off: ….`
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
    let end = if text.ends_with('.') { "" } else { "." };
    format!("{first}{}{end}", chars.as_str())
}

/// `20` for 20.0, `19.5` for 19.5.
fn trim_float(value: f32) -> String {
    let text = format!("{value:.1}");
    text.strip_suffix(".0").map(str::to_owned).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inventory_lines() {
        assert_eq!(inventory_line(&[]), "Inventory: empty");
        assert_eq!(inventory_line(&[("oak_log".into(), 12), ("dirt".into(), 3)]), "Inventory: 12 oak_log, 3 dirt");
    }

    #[test]
    fn health_shows_halves_only_when_present() {
        assert_eq!(trim_float(20.0), "20");
        assert_eq!(trim_float(19.5), "19.5");
    }
}
