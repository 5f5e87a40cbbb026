//! The application: what Wayfarer does with its bots. It turns owners' chat lines into commands and carries them out,
//! keeps each bot's state (activity, learning, LLM meter), runs the task and learning lifecycles, dispatches the
//! command line's subcommands, and keeps scripts and skills hot-reloaded.
//!
//! Modules form one order, each using only those before it: config, chat → bot → script → primitives → skills,
//! llm → memory → agent → app. Nothing below this layer knows it exists. Within it, `state` (with `activity`) is
//! the leaf every other file uses; `work` runs activities, `team` leads with them, `commands` starts both, and the
//! dashboard and the command line sit on top.

mod activity;
mod build;
pub mod cli;
mod commands;
mod dashboard;
mod goal_sync;
mod language;
mod mcp;
mod memory;
mod reply;
mod skills_cli;
mod skills_store;
mod state;
mod store_sync;
mod team;
mod watch;
mod work;

use std::sync::Arc;

use tokio::sync::{broadcast, mpsc};

pub use activity::Activity;
pub use commands::{inventory_line, status_line};
pub use reply::Replier;
use state::{BotState, Finished, LearnRun, Shared};
pub use work::{NO_LLM, summary};

use crate::{
    agent::learn::LearnReport,
    bot::{self, BotError, BotHandle, Brain, Member},
    chat::{Command, parse_line},
    config::{Config, ReplyMode},
    llm::{Llm, LlmError},
    script::library::{LoadEvent, ScriptLibrary},
    skills::{SkillEvent, SkillLibrary},
};

/// Why a run could not start or ended with an error.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Bot(#[from] BotError),
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error(transparent)]
    Dashboard(#[from] dashboard::DashboardError),
    #[error("learning needs an LLM: set WAYFARER_LLM_URL (and WAYFARER_LLM_MODEL), or OPENAI_API_KEY for OpenAI")]
    NoLlm,
    #[error("invalid [store] setting: {0}")]
    Store(#[from] crate::store::StoreError),
}

/// Joins the configured server with every bot and serves the owners' commands until the process is stopped.
pub async fn run(config: Config) -> Result<(), AppError> {
    let (shared, _watchers) = prepare(config, None).await?;
    let page = bind_dashboard(&shared).await?;
    let (address, members) = join(&shared).await?;
    serve_dashboard(page, &shared, &members);
    bot::run_swarm(&shared.config, &address, members.into_iter().map(|(m, _)| m).collect()).await?;
    Ok(())
}

/// `wayfarer mcp`: joins as `run` does and serves the Model Context Protocol on standard input and output for the
/// client that started the process; ends when the client closes them (or the bots stop).
pub async fn mcp(config: Config) -> Result<(), AppError> {
    let (shared, _watchers) = prepare(config, None).await?;
    let page = bind_dashboard(&shared).await?;
    let (address, members) = join(&shared).await?;
    serve_dashboard(page, &shared, &members);
    let fleet = mcp::Fleet::new(shared.clone(), members.iter().map(|(_, state)| state.clone()).collect(), "stdio");
    let swarm = bot::run_swarm(&shared.config, &address, members.into_iter().map(|(m, _)| m).collect());
    tokio::select! {
        ended = swarm => ended?,
        served = mcp::serve_stdio(fleet) => match served {
            Ok(()) => tracing::info!("the MCP client closed the session"),
            Err(why) => tracing::warn!("{why}"),
        },
    }
    Ok(())
}

/// `wayfarer learn`: joins, and the first bot learns for `iterations` tasks (resuming after reconnects); the run ends
/// when learning ends, however it ends, with the summary on standard output.
pub async fn learn(config: Config, iterations: usize) -> Result<LearnReport, AppError> {
    if config.llm.is_none() {
        return Err(AppError::NoLlm);
    }
    let (finished_tx, mut finished) = mpsc::unbounded_channel();
    let learner = config.bot_names().into_iter().next().unwrap_or_default();
    let run = LearnRun { learner: learner.clone(), iterations, finished: finished_tx };
    let (shared, _watchers) = prepare(config, Some(run)).await?;
    let page = bind_dashboard(&shared).await?;
    let (address, members) = join(&shared).await?;
    serve_dashboard(page, &shared, &members);
    let learner_state = members.first().map(|(_, state)| state.clone());
    let so_far = move || learner_state.as_ref().and_then(|s| s.learning().as_ref().map(|l| l.report.clone()));
    let swarm = bot::run_swarm(&shared.config, &address, members.into_iter().map(|(m, _)| m).collect());
    let mut swarm = std::pin::pin!(swarm);
    let cut = |why: &str| Finished {
        bot: learner.clone(),
        report: so_far().unwrap_or_default(),
        cut_short: Some(why.to_owned()),
    };
    let finished = tokio::select! {
        ended = &mut swarm => {
            let why = match &ended {
                Ok(()) => "the bots stopped".to_owned(),
                Err(err) => err.to_string(),
            };
            let Finished { report, cut_short, .. } = cut(&why);
            println!("Learning ended early ({}): {}", cut_short.unwrap_or_default(), report.summary());
            ended?;
            return Ok(report);
        }
        done = finished.recv() => done.unwrap_or_else(|| cut("the learner is gone")),
        _ = tokio::signal::ctrl_c() => cut("interrupted (Ctrl-C)"),
    };
    let Finished { bot, report, cut_short } = finished;
    // The last chat lines ("Learning done: …", "Stopped learning") go out with the swarm's next ticks.
    let _ = tokio::time::timeout(std::time::Duration::from_millis(500), &mut swarm).await;
    match cut_short {
        Some(why) => println!("Learning ended early ({why}): {}", report.summary()),
        None => println!("{}", report.summary()),
    }
    tracing::info!("{bot} finished learning");
    Ok(report)
}

/// What both kinds of run set up: the libraries (with their hot reload) and the shared state.
async fn prepare(
    config: Config,
    learn_run: Option<LearnRun>,
) -> Result<(Arc<Shared>, Vec<notify::RecommendedWatcher>), AppError> {
    if let Some(url) = &config.store {
        crate::store::check_url(url)?;
    }
    if config.owners.is_empty() {
        tracing::warn!("no owners configured: every chat command will be ignored (add --owner PLAYER)");
    }
    let scripts = Arc::new(open_scripts(&config));
    let skills = Arc::new(open_skills(&config));
    let llm = config.llm.clone().map(Llm::new).transpose()?;
    let mut shared = Shared::new(config, scripts, skills, llm);
    shared.learn_run = learn_run;
    let shared = Arc::new(shared);
    let mut watchers = Vec::new();
    let scripts_news = reporter(&shared, "Scripts", |e: &LoadEvent| matches!(e, LoadEvent::Failed { .. }));
    match watch::watch_scripts(&shared.scripts, scripts_news) {
        Ok(watcher) => watchers.push(watcher),
        Err(err) => tracing::warn!("script files will not hot-reload: {err}"),
    }
    match watch::watch_skills(&shared.skills, reporter(&shared, "Skills", SkillEvent::is_warning)) {
        Ok(watcher) => watchers.push(watcher),
        Err(err) => tracing::warn!("skill files will not hot-reload: {err}"),
    }
    if let Some(url) = shared.config.store.clone() {
        let origin = format!("{} on {}", shared.bot_names.join(", "), store_sync::host_name());
        tokio::spawn(store_sync::keep_in_step(
            url,
            shared.skills.clone(),
            shared.store_link.clone(),
            shared.announcements.clone(),
            origin,
        ));
    }
    Ok((shared, watchers))
}

/// Logs a reload event (a warning when `is_warning` says so) and passes it on to the owners, as `Kind: event`.
fn reporter<E: std::fmt::Display + 'static>(
    shared: &Shared,
    kind: &'static str,
    is_warning: fn(&E) -> bool,
) -> impl Fn(E) + Send + 'static {
    let news = shared.announcements.clone();
    move |event| {
        if is_warning(&event) {
            tracing::warn!("{event}");
        } else {
            tracing::info!("{event}");
        }
        let _ = news.send(format!("{kind}: {event}"));
    }
}

/// Listens for the dashboard, when one is configured (before joining: a port in use is said at once).
async fn bind_dashboard(shared: &Shared) -> Result<Option<dashboard::Bound>, AppError> {
    match &shared.config.dashboard {
        Some(config) => Ok(Some(dashboard::bind(config).await?)),
        None => Ok(None),
    }
}

/// Serves the page, with the MCP endpoint (`/mcp`) beside it.
fn serve_dashboard(page: Option<dashboard::Bound>, shared: &Arc<Shared>, members: &[(Member, Arc<BotState>)]) {
    if let Some(page) = page {
        let bots: Vec<Arc<BotState>> = members.iter().map(|(_, state)| state.clone()).collect();
        let fleet = mcp::Fleet::new(shared.clone(), bots.clone(), "http");
        let endpoint = mcp::router(fleet, page.address, page.mcp_token.clone());
        dashboard::serve(page, shared.clone(), bots, endpoint);
    }
}

/// Checks the server is there, and makes each bot's state.
async fn join(
    shared: &Arc<Shared>,
) -> Result<(azalea::protocol::address::ResolvedAddr, Vec<(Member, Arc<BotState>)>), AppError> {
    let address = bot::preflight(&shared.config.server).await?;
    let members = shared
        .bot_names
        .iter()
        .map(|name| {
            let state = Arc::new(BotState::new(shared.clone(), name.clone()));
            let brain: Arc<dyn Brain> = Arc::new(AppBrain(state.clone()));
            (Member { name: name.clone(), brain }, state)
        })
        .collect::<Vec<(Member, Arc<BotState>)>>();
    if let Some(url) = shared.config.store.clone() {
        let books: Vec<_> = members.iter().map(|(_, state)| (state.name.clone(), state.goals.clone())).collect();
        goal_sync::recover(&url, &books).await;
        tokio::spawn(goal_sync::keep_goals(url, books, shared.store_link.clone(), shared.announcements.clone()));
    }
    Ok((address, members))
}

fn open_scripts(config: &Config) -> ScriptLibrary {
    let (scripts, loaded) = ScriptLibrary::open(&config.scripts_dir);
    for event in &loaded {
        match event {
            LoadEvent::Failed { .. } => tracing::warn!("{event}"),
            _ => tracing::debug!("{event}"),
        }
    }
    tracing::info!("{} script(s) in {}", scripts.names().len(), config.scripts_dir.display());
    scripts
}

/// Loads the skills' code. Search loads the embedding model when it is first needed (an idle bot stays small and
/// joins at once); a missing model is reported now. Skills run with `!run` either way.
fn open_skills(config: &Config) -> SkillLibrary {
    let (skills, loaded) = SkillLibrary::open(&config.skills_dir);
    for event in &loaded {
        if event.is_warning() {
            tracing::warn!("{event}");
        } else {
            tracing::debug!("{event}");
        }
    }
    tracing::info!("{} skill(s) in {}", skills.len(), config.skills_dir.display());
    if let Err(err) = crate::skills::Embedder::check(&config.models_dir) {
        tracing::warn!("skill search will not work until the model is there: {err}");
    }
    skills.search_lazily(config.models_dir.clone());
    skills
}

/// One bot's events, handled by the app.
struct AppBrain(Arc<BotState>);

impl Brain for AppBrain {
    fn spawned(&self, bot: BotHandle, again: bool) {
        let state = &self.0;
        let shared = &state.shared;
        state.set_connected(Some(bot.clone()));
        bot.set_blueprints(crate::blueprint::Folder::new(&shared.config.blueprints_dir));
        // Commands typed in the dashboard or called over MCP are carried out on this task set (the first bot to
        // spawn starts that).
        if let Some(commands) = shared.page_commands.take() {
            tokio::task::spawn_local(dashboard::carry_out(commands));
        }
        // The body's reflexes, once per connection (a respawn keeps them running).
        tokio::task::spawn_local(crate::primitives::reflex::drive(bot.clone(), shared.config.reflexes));
        // What the bot perceives goes into its memory; a newer recorder replaces the one before.
        let generation = state.memory_generation.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        tokio::task::spawn_local(memory::record(bot.clone(), state.clone(), generation));
        let first_bot = shared.bot_names.first() == Some(&state.name);
        if !again && first_bot {
            tokio::task::spawn_local(announce(bot.clone(), shared.clone()));
            if let Some(run) = &shared.learn_run {
                let asked_by = shared.config.owners.first().cloned().unwrap_or_default();
                work::start_learning(bot, state, &asked_by, run.iterations, None);
                return;
            }
        }
        // Learning or a goal cut off by a disconnect or a restart goes on.
        if state.activity.describe() == "idle" {
            if state.learning().is_some() {
                work::resume_learning(bot, state);
            } else if !team::resume(bot.clone(), state) {
                work::resume_goal(bot, state);
            }
        }
    }

    fn heard(&self, bot: BotHandle, sender: Option<String>, content: String) {
        let state = &self.0;
        let shared = &state.shared;
        if shared.config.dashboard.is_some() {
            shared.chat.push(Some(&state.name), sender.as_deref().unwrap_or_default(), &content);
        }
        let Some(sender) = sender else { return };
        // The player name, as the server knows it (with Microsoft auth the configured name is the account e-mail).
        let me = bot.name();
        if sender.eq_ignore_ascii_case(&me) {
            return;
        }
        // A team this bot leads hears its members.
        if let Some(link) = state.team().as_ref()
            && team::members(state).iter().any(|m| m.eq_ignore_ascii_case(&sender))
        {
            let _ = link.heard.send((sender.clone(), content.clone()));
        }
        // Another bot's chat is never a command, unless it is this bot's leader handing out work.
        let from_leader = shared.takes_orders_from(&me, &sender);
        let our_bot = shared.bot_names.iter().any(|name| name.eq_ignore_ascii_case(&sender));
        let parsed = parse_line(&content, &shared.config.prefix);
        if !our_bot || from_leader {
            memory::heard(
                state,
                &bot,
                &sender,
                &content,
                parsed.as_ref().filter(|line| line.is_for(&me)).map(|l| &l.command),
            );
        }
        if !from_leader && our_bot {
            return;
        }
        let Some(line) = parsed else {
            if shared.owners.contains(&sender) {
                answered(bot, state, &sender, &content);
            }
            return;
        };
        if !line.is_for(&me) {
            return;
        }
        if !shared.owners.contains(&sender) && !from_leader {
            tracing::debug!("{} ignores a command from {sender}, who is not an owner: {content:?}", state.name);
            return;
        }
        if shared.owners.contains(&sender) {
            // What an owner writes after the command word says which language to answer them in.
            shared.languages.heard_command(&sender, &content, &shared.config.prefix);
        }
        match line.command {
            Ok(command) => {
                // A command is no answer: a question still waiting is dropped.
                state.take_question(&sender);
                commands::execute(bot, state, &sender, command)
            }
            Err(hint) => {
                tracing::info!("{}: malformed command from {sender}: {content:?}", state.name);
                shared.replier(bot, &sender).say(&hint.to_string());
            }
        }
    }

    fn disconnected(&self) {
        // Whatever the bot was doing cannot go on; learning it was asked for resumes when it is back.
        self.0.set_connected(None);
        self.0.activity.cancel();
    }

    fn died(&self, bot: BotHandle) {
        memory::died(&self.0, &bot);
    }
}

/// An owner's plain line, heard while the bot waits on its question to them about a goal: `yes` does what the bot
/// could read of the goal, `no` leaves it, and the goal again in other words (`no, make it 3 by 3`, or words with a
/// verb the reader knows) is taken as the goal. Other chat leaves the question waiting.
fn answered(bot: BotHandle, state: &Arc<BotState>, owner: &str, line: &str) {
    use crate::agent::vocab;
    let Some(question) = state.take_question(owner) else { return };
    let keep_waiting = |question| {
        *state.question.lock() =
            Some(state::Asking { owner: owner.to_owned(), question, asked: std::time::Instant::now() })
    };
    let task = |goal: String| commands::execute(bot.clone(), state, owner, Command::Task { goal });
    match vocab::answer(line) {
        Some(vocab::Answer { rest, .. }) if !rest.is_empty() => task(rest),
        Some(vocab::Answer { yes: true, .. }) => match question.guess {
            Some(guess) => task(guess),
            None => {
                state.shared.replier(bot.clone(), owner).say(&format!(
                    "Tell me \"{}\" again in other words, with sizes as numbers (3 by 3, 4 high, 2 deep).",
                    question.goal
                ));
                keep_waiting(question);
            }
        },
        Some(vocab::Answer { yes: false, .. }) => {
            state.shared.replier(bot.clone(), owner).say(&format!("All right, I will leave \"{}\".", question.goal));
        }
        None if vocab::asks_a_change(line, crate::agent::act::is_game_id) => task(line.to_owned()),
        None => keep_waiting(question),
    }
}

/// Says the owners' news in chat for as long as the run lasts (only the first bot does this).
async fn announce(bot: BotHandle, shared: Arc<Shared>) {
    let mut news = shared.announcements.subscribe();
    loop {
        match news.recv().await {
            Ok(line) => match shared.config.reply {
                ReplyMode::Public => Replier::new(bot.clone(), "", ReplyMode::Public).say(&line),
                ReplyMode::Whisper => {
                    for owner in &shared.config.owners {
                        Replier::new(bot.clone(), owner, ReplyMode::Whisper).say(&line);
                    }
                }
            },
            Err(broadcast::error::RecvError::Lagged(missed)) => tracing::warn!("{missed} announcements were dropped"),
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}
