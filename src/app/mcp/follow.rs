//! A tool call carried out as the command line an owner would type, and followed: the bot's answers as they are
//! said, the activity it started, and the goal it put in its book, to the goal's end.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use rmcp::{
    Peer, RoleServer,
    model::{ProgressNotificationParam, ProgressToken},
};
use serde::Serialize;
use tokio::sync::mpsc;

use super::Fleet;
use crate::{
    agent::goals::{self, Status},
    app::{dashboard::view, state::BotState},
    chat::parse_line,
};

/// How often a followed command is looked at.
const POLL: Duration = Duration::from_millis(250);
/// A command that started nothing lasting is over once the bot has said something and then nothing for this long.
const QUIET: Duration = Duration::from_millis(2500);
/// How long a command that should answer at once may take to say its answer.
const ANSWER_WAIT: Duration = Duration::from_secs(60);
/// Progress is sent at least this often while a goal runs (clients reset their timeout on it).
const HEARTBEAT: Duration = Duration::from_secs(10);

/// How long a command is followed.
#[derive(Clone, Copy, Debug)]
pub enum Until {
    /// Its first answer (with what follows it at once).
    Said,
    /// The end of the activity it starts (a walk, a skill run, learning), followed at most `most`.
    Ends { most: Duration },
    /// The end of the goal it puts in the book; with `wait: false`, the goal's handle as soon as it is there.
    Goal { wait: bool, most: Duration },
}

/// Where a tool call's progress goes: the caller's progress token on its session, when it sent one.
pub struct Progress {
    peer: Peer<RoleServer>,
    token: Option<ProgressToken>,
    sent: f64,
    last: Instant,
}

impl Progress {
    pub fn new(peer: Peer<RoleServer>, token: Option<ProgressToken>) -> Self {
        Self { peer, token, sent: 0.0, last: Instant::now() }
    }

    /// Sends `message`, at `percent` when it is known. The value sent only ever grows (as the protocol asks): a
    /// plan made again at a lower percentage says so in the message.
    async fn send(&mut self, percent: Option<f64>, message: &str) {
        let Some(token) = &self.token else { return };
        let value = percent.unwrap_or(self.sent).clamp(0.0, 100.0).max(self.sent + 0.01).min(100.0);
        self.sent = value;
        self.last = Instant::now();
        let note = ProgressNotificationParam::new(token.clone(), value).with_total(100.0).with_message(message);
        if let Err(err) = self.peer.notify_progress(note).await {
            tracing::debug!("an MCP progress notification was not delivered: {err}");
        }
    }
}

/// What a followed command came to.
#[derive(Debug, Default, Serialize)]
pub struct Outcome {
    /// The bot's answers, in the order said.
    pub said: Vec<String>,
    /// The goal the command put in the book, as it stands at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<GoalOutcome>,
    /// The question the bot asked about the goal instead of starting it (answer with the goal in other words).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// Still running when the call stopped following it.
    pub running: bool,
    /// A build's score as the world shows it at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GoalOutcome {
    /// The handle: `!goal drop N`, the `goals` resource and `status` know the goal by it.
    pub id: u32,
    pub text: String,
    /// `completed`, `failed`, `stopped`, `dropped`, or `active`/`pending` while it runs.
    pub status: &'static str,
    /// Why it ended (the world's verdict, the failure, who stopped it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Steps of the current plan done, of all.
    pub done: usize,
    pub all: usize,
    /// The step under way, with its tracker's bar: `Mine 3 cobblestone (1/3 cobblestone)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
}

impl GoalOutcome {
    pub fn finished(&self) -> bool {
        !matches!(self.status, "active" | "pending")
    }

    pub fn succeeded(&self) -> bool {
        self.status == Status::Completed.name()
    }

    fn percent(&self) -> Option<f64> {
        (self.all > 0).then(|| self.done as f64 * 100.0 / self.all as f64)
    }

    fn line(&self) -> String {
        let step = self.step.as_deref().map_or_else(String::new, |s| format!("; now: {s}"));
        format!("goal #{} {}: {}/{} steps{step}", self.id, self.status, self.done, self.all)
    }
}

/// Where the bot stood before the command: its activity's count and the newest goal in its book.
struct Before {
    generation: u64,
    goal: u32,
}

/// What one look at the bot shows.
struct Look {
    running: bool,
    started: bool,
    thinking: bool,
    goal: Option<GoalOutcome>,
    question: Option<String>,
}

/// Carries out `line` (a chat command line) on `bot` for the fleet's caller and follows it as `until` says, sending
/// what happens to `progress`. An error is a line that is no command, or a bot that is not connected.
pub async fn command(
    fleet: &Fleet,
    bot: &Arc<BotState>,
    line: String,
    until: Until,
    progress: &mut Progress,
) -> Result<Outcome, String> {
    let prefix = fleet.shared.config.prefix.clone();
    let addressed = parse_line(&line, &prefix).ok_or_else(|| format!("{line:?} is not a command"))?;
    let command = addressed.command.map_err(|hint| hint.to_string())?;
    let (tap, mut heard) = mpsc::unbounded_channel();
    let (state, caller, said) = (bot.clone(), fleet.caller.clone(), line.clone());
    let before = fleet
        .on_bots(move || {
            let Some(handle) = state.connected() else {
                return Err(format!("{} is not connected now; try again when it is back", state.name));
            };
            // Remembered and shown as the same words typed in the dashboard are.
            crate::app::memory::heard(&state, &handle, &caller, &said, Some(&Ok(command.clone())));
            state.shared.chat.push(None, &caller, &format!("{}: {said}", state.name));
            let before = Before {
                generation: state.activity.generation(),
                goal: goals::with(&state.goals, |book| book.goals().iter().map(|g| g.id).max().unwrap_or(0)),
            };
            let reply = state.shared.replier(handle.clone(), &caller).tapped(tap);
            crate::app::commands::execute_answering(handle, &state, &caller, command, reply);
            Ok(before)
        })
        .await??;
    fleet.count(bot, &line);

    let started = Instant::now();
    let most = match until {
        Until::Said => ANSWER_WAIT,
        Until::Ends { most } => most,
        Until::Goal { most, .. } => most,
    };
    let mut outcome = Outcome::default();
    let mut last_said = started;
    let mut shown: Option<GoalOutcome> = None;
    loop {
        while let Ok(text) = heard.try_recv() {
            progress.send(None, &text).await;
            outcome.said.push(text);
            last_said = Instant::now();
        }
        let look = look(fleet, bot, &before, &fleet.caller).await?;
        if let Some(goal) = &look.goal
            && shown.as_ref() != Some(goal)
        {
            progress.send(goal.percent(), &goal.line()).await;
            shown = Some(goal.clone());
        } else if progress.last.elapsed() >= HEARTBEAT && look.running {
            let line = shown.as_ref().map_or_else(|| "still working".to_owned(), GoalOutcome::line);
            progress.send(None, &line).await;
        }
        let quiet = !outcome.said.is_empty() && last_said.elapsed() >= QUIET && !look.running && !look.thinking;
        let done = match until {
            Until::Said => !outcome.said.is_empty() && last_said.elapsed() >= POLL * 2,
            Until::Ends { .. } => (look.started && !look.running) || (!look.started && quiet),
            Until::Goal { wait, .. } => match &look.goal {
                Some(goal) => !wait || goal.finished(),
                None => look.question.is_some() || quiet,
            },
        };
        outcome.goal = look.goal;
        outcome.question = look.question;
        if done {
            // What is said as it ends comes with it.
            tokio::time::sleep(POLL).await;
            outcome.said.extend(std::iter::from_fn(|| heard.try_recv().ok()));
            outcome.running = look.running;
            return Ok(outcome);
        }
        if started.elapsed() >= most {
            outcome.running = true;
            return Ok(outcome);
        }
        tokio::time::sleep(POLL).await;
    }
}

/// The bot's activity, the goal the command added (the newest after `before`, asked by `caller`), and a question
/// it waits on.
async fn look(fleet: &Fleet, bot: &Arc<BotState>, before: &Before, caller: &str) -> Result<Look, String> {
    let (state, after, from, caller) = (bot.clone(), before.goal, before.generation, caller.to_owned());
    fleet
        .on_bots(move || {
            let generation = state.activity.generation();
            let thinking = state.llm.as_ref().is_some_and(|llm| llm.waiting().is_some());
            let question =
                state.question.lock().as_ref().filter(|asking| asking.owner.eq_ignore_ascii_case(&caller)).map(
                    |asking| match &asking.question.guess {
                        Some(guess) => format!("Did you mean \"{guess}\"? (about \"{}\")", asking.question.goal),
                        None => format!("How should \"{}\" be read? Say it in other words.", asking.question.goal),
                    },
                );
            let goal = goals::with(&state.goals, |book| {
                book.goals()
                    .iter()
                    .filter(|g| g.id > after && g.asked_by.eq_ignore_ascii_case(&caller))
                    .max_by_key(|g| g.id)
                    .cloned()
            });
            let goal = goal.map(|goal| {
                // The bars are the dashboard's: the step under way with what its tracker counts.
                let shown = view::bot(&state).goal.filter(|g| g.id == goal.id);
                let step = shown.as_ref().and_then(|g| {
                    let task = g
                        .tasks
                        .iter()
                        .find(|t| t.status == "active")
                        .or_else(|| g.tasks.iter().find(|t| t.status == "pending"))?;
                    Some(match &task.bar {
                        Some(bar) => {
                            format!("{} ({}/{} {}, {} %)", task.task, bar.current, bar.target, bar.what, bar.percent)
                        }
                        None => task.task.clone(),
                    })
                });
                let (done, all) = goal.progress();
                GoalOutcome {
                    id: goal.id,
                    text: goal.text.clone(),
                    status: goal.status.name(),
                    reason: goal.reason.clone(),
                    done,
                    all,
                    step,
                }
            });
            Look { running: state.activity.runs(generation), started: generation > from, thinking, goal, question }
        })
        .await
}
