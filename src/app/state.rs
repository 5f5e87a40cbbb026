//! What the bots of one process share, and each bot's own state: its activity, its LLM meter, and whether it should
//! be learning (so learning picks up again after a reconnect).

use std::sync::Arc;

use parking_lot::{Mutex, MutexGuard};

use tokio::sync::{broadcast, mpsc};

use super::activity::Activity;
use crate::{
    agent::{
        goals::{self, GoalBook, Goals},
        learn::LearnReport,
        team::Monitor,
    },
    bot::BotHandle,
    chat::Owners,
    config::Config,
    llm::Llm,
    script::{Limits, library::ScriptLibrary},
    skills::SkillLibrary,
};

/// What every bot in the process shares.
pub struct Shared {
    pub config: Config,
    pub owners: Owners,
    /// Our own bots' names: their chat is never taken as a command.
    pub bot_names: Vec<String>,
    /// The scripts `!run` knows, kept current by a file watcher.
    pub scripts: Arc<ScriptLibrary>,
    /// The skill library: callable from every script, runnable by `!run`, searchable by `!skills`.
    pub skills: Arc<SkillLibrary>,
    /// The LLM endpoint, when one is configured (`!task`, `!learn`); each bot counts its own calls on it.
    pub llm: Option<Llm>,
    /// News for the owners (script and skill reloads), said in chat by the first bot.
    pub announcements: broadcast::Sender<String>,
    /// `wayfarer learn`: where a finished learning run is reported, so the process can end with its summary.
    pub learn_run: Option<LearnRun>,
    /// The bot of this process that leads its team now (`--role leader`, or the last one told `!lead`).
    leader: Mutex<Option<String>>,
    /// The latest chat lines the bots heard, for the dashboard.
    pub chat: ChatLog,
    /// What the dashboard asks of the bots' task set: commands typed in the page, and the bots' state to show
    /// (taken by the first bot to spawn).
    pub page_commands: PageCommands,
    /// The link to the fleet's store, when one is configured (`!status` says how it is).
    pub store_link: Arc<super::store_sync::StoreLink>,
    /// The language each owner is answered in.
    pub languages: super::language::Languages,
    /// Owners' words in other languages as English, kept across bots and restarts.
    pub translations: Arc<crate::agent::translate::Translations>,
}

/// One chat line as heard (or a command typed in the dashboard).
#[derive(Clone, Debug, serde::Serialize)]
pub struct ChatLine {
    /// Counts every line heard since start, so a page asks only for what it has not seen.
    pub seq: u64,
    /// Seconds since the Unix epoch.
    pub time: u64,
    /// The player who spoke; empty for the server's own lines.
    pub sender: String,
    pub text: String,
    /// Typed in the dashboard (as `sender`), not said in the game.
    pub page: bool,
    /// The bots that heard it.
    #[serde(skip)]
    heard_by: Vec<String>,
}

/// The latest [`CHAT_KEPT`] chat lines. Written once a line (not a tick), read when a page asks.
#[derive(Default)]
pub struct ChatLog(Mutex<(u64, std::collections::VecDeque<ChatLine>)>);

/// Chat lines kept for the dashboard.
pub const CHAT_KEPT: usize = 200;

/// How long after one bot heard a line another bot's hearing of the same words is taken as the same line.
const SAME_LINE_SECS: u64 = 5;

impl ChatLog {
    /// Keeps a line `hearer` heard (every bot hears the server's chat: a line another bot heard moments ago is not
    /// kept twice, so the log goes on while any bot is connected), or one typed in the page (`hearer` `None`).
    pub fn push(&self, hearer: Option<&str>, sender: &str, text: &str) {
        let time = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let mut log = self.0.lock();
        if let Some(hearer) = hearer {
            let heard = log.1.iter_mut().rev().take_while(|line| line.time + SAME_LINE_SECS >= time).find(|line| {
                !line.page && line.sender == sender && line.text == text && !line.heard_by.iter().any(|b| b == hearer)
            });
            if let Some(line) = heard {
                line.heard_by.push(hearer.to_owned());
                return;
            }
        }
        log.0 += 1;
        let line = ChatLine {
            seq: log.0,
            time,
            sender: sender.to_owned(),
            text: text.to_owned(),
            page: hearer.is_none(),
            heard_by: hearer.map(str::to_owned).into_iter().collect(),
        };
        if log.1.len() >= CHAT_KEPT {
            log.1.pop_front();
        }
        log.1.push_back(line);
    }

    /// The lines after `seq`, oldest first.
    pub fn since(&self, seq: u64) -> Vec<ChatLine> {
        let log = self.0.lock();
        log.1.iter().filter(|line| line.seq > seq).cloned().collect()
    }
}

/// Work the dashboard hands to the bots' local task set: a command typed in the page (it starts local tasks), or a
/// copy of the bots' state (azalea's entity queries take the world's lock twice, so from another thread they can
/// deadlock with a game tick waiting to write between the two).
pub type PageCommand = Box<dyn FnOnce() + Send>;

/// The way from the dashboard's handlers (any thread) to the bots' local task set.
pub struct PageCommands {
    pub sender: mpsc::UnboundedSender<PageCommand>,
    receiver: Mutex<Option<mpsc::UnboundedReceiver<PageCommand>>>,
}

impl Default for PageCommands {
    fn default() -> Self {
        let (sender, receiver) = mpsc::unbounded_channel();
        Self { sender, receiver: Mutex::new(Some(receiver)) }
    }
}

impl PageCommands {
    /// The receiving end, the first time it is asked for.
    pub fn take(&self) -> Option<mpsc::UnboundedReceiver<PageCommand>> {
        self.receiver.lock().take()
    }
}

/// `wayfarer learn`'s settings.
pub struct LearnRun {
    /// The bot that learns (the first); the run ends when its learning does.
    pub learner: String,
    pub iterations: usize,
    pub finished: mpsc::UnboundedSender<Finished>,
}

/// A learning run that ended, with how.
#[derive(Clone, Debug)]
pub struct Finished {
    pub bot: String,
    pub report: LearnReport,
    /// Why it ended early (`None` when every iteration ran or the curriculum stopped it).
    pub cut_short: Option<String>,
}

impl Shared {
    pub fn new(config: Config, scripts: Arc<ScriptLibrary>, skills: Arc<SkillLibrary>, llm: Option<Llm>) -> Self {
        let leader_here = config.team.leader_here.clone();
        let languages = super::language::Languages::new(
            config.languages.clone(),
            Some(config.checkpoint_dir.join("owner-languages.json")),
        );
        let translations =
            Arc::new(crate::agent::translate::Translations::open(&config.checkpoint_dir.join("translations.json")));
        Self {
            languages,
            translations,
            owners: Owners::new(config.owners.iter().cloned()),
            bot_names: config.bot_names(),
            config,
            scripts,
            skills,
            llm,
            announcements: broadcast::channel(64).0,
            learn_run: None,
            leader: Mutex::new(leader_here),
            chat: ChatLog::default(),
            page_commands: PageCommands::default(),
            store_link: Arc::default(),
        }
    }

    /// The bot of this process that leads, if one does.
    pub fn leader(&self) -> Option<String> {
        self.leader.lock().clone()
    }

    /// Makes `name` (one of this process's bots) the leader here.
    pub fn set_leader(&self, name: &str) {
        *self.leader.lock() = Some(name.to_owned());
    }

    /// Answers `player` through `bot`, as configured, in `player`'s language.
    pub fn replier(&self, bot: BotHandle, player: &str) -> super::reply::Replier {
        super::reply::Replier::new(bot, player, self.config.reply).in_language(self.languages.of(player))
    }

    /// Whether `bot` takes assignments from `sender` as it takes its owners' commands: `sender` is the leader the
    /// configuration names, or the bot leading in this process (never `bot` itself).
    pub fn takes_orders_from(&self, bot: &str, sender: &str) -> bool {
        if sender.eq_ignore_ascii_case(bot) {
            return false;
        }
        let named = |leader: Option<&str>| leader.is_some_and(|l| l.eq_ignore_ascii_case(sender));
        named(self.config.team.leader.as_deref()) || named(self.leader().as_deref())
    }

    /// The sandbox limits for one script run.
    pub fn script_limits(&self) -> Limits {
        Limits { deadline: self.config.script_time_limit, ..Limits::default() }
    }
}

/// Learning this bot was asked to do and has not finished: it resumes after a reconnect.
#[derive(Clone, Debug)]
pub struct Learning {
    /// Iterations still to run.
    pub left: usize,
    /// What the run did so far, across reconnects.
    pub report: LearnReport,
    /// Who asked (replies go to them).
    pub asked_by: String,
    /// Not yet started (the first start announces the run; a resumption says so instead).
    pub fresh: bool,
    /// Where its answers also go (an MCP caller following the learning to its end).
    pub tap: Option<tokio::sync::mpsc::UnboundedSender<String>>,
}

/// One bot's own state.
pub struct BotState {
    pub shared: Arc<Shared>,
    pub name: String,
    pub activity: Activity,
    /// This bot's LLM client (its own usage meter on the shared endpoint).
    pub llm: Option<Arc<Llm>>,
    learning: Mutex<Option<Learning>>,
    /// The team goal this bot leads, while it leads one.
    team: Mutex<Option<TeamLink>>,
    /// This bot's goals, plans and tasks (`goals.json` in its checkpoint folder).
    pub goals: Goals,
    /// This bot's memory stream (`memory/` in its checkpoint folder), unless memory is off.
    pub memory: Option<crate::agent::memory::Memories>,
    /// Counts the memory recorders started: an older one ends when a newer one starts.
    pub memory_generation: std::sync::atomic::AtomicU64,
    /// Counts owners' `!stop`s: what follows the world on its own (a team build's watch) ends at the next one.
    pub stops: std::sync::atomic::AtomicU64,
    /// The bot while it is connected (the dashboard reads it from its own threads).
    connected: Mutex<Option<BotHandle>>,
    /// The question the bot last asked an owner about a goal, while it waits for the answer.
    pub question: Arc<Mutex<Option<Asking>>>,
    /// The build last previewed (`!build … preview`), for the dashboard's map.
    pub preview: Mutex<Option<Preview>>,
    /// Tool calls MCP callers made of this bot (`!usage` counts them).
    pub mcp_calls: std::sync::atomic::AtomicU64,
}

/// A build previewed where it would stand: its footprint from above, for the dashboard's map.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Preview {
    pub name: String,
    /// The north-west corner of its footprint, and its width (x) and depth (z).
    pub x0: i32,
    pub z0: i32,
    pub width: i32,
    pub depth: i32,
    /// One character a column, rows north to south: `#` where it sets a block, a space where it sets none.
    pub cells: String,
}

/// A question about a goal, asked of `owner` at `asked`: their next line that answers it (yes, no, or the goal again
/// in other words) is taken as the answer.
#[derive(Clone, Debug)]
pub struct Asking {
    pub owner: String,
    pub question: crate::agent::reading::Question,
    pub asked: std::time::Instant,
}

/// How long a question waits for its answer.
pub const ANSWER_WAIT: std::time::Duration = std::time::Duration::from_secs(600);

/// A team goal under way, as the rest of the app reaches it: `!team status` reads the monitor, and members' chat
/// lines go to the leader's loop.
pub struct TeamLink {
    pub goal: String,
    pub started: std::time::Instant,
    pub monitor: Arc<Mutex<Monitor>>,
    /// Members' chat lines: (member, line).
    pub heard: mpsc::UnboundedSender<(String, String)>,
}

impl BotState {
    pub fn new(shared: Arc<Shared>, name: String) -> Self {
        let llm = shared.llm.as_ref().map(|llm| Arc::new(llm.for_bot()));
        let (book, warning) = GoalBook::open(shared.config.checkpoint_for(&name).join("goals.json"));
        if let Some(warning) = warning {
            tracing::warn!("{name}: {warning}");
        }
        let goals = Arc::new(Mutex::new(book));
        let memory = crate::agent::memory::open(&shared.config, &name);
        Self {
            shared,
            name,
            activity: Activity::default(),
            llm,
            learning: Mutex::new(None),
            team: Mutex::new(None),
            goals,
            memory,
            memory_generation: Default::default(),
            stops: Default::default(),
            connected: Mutex::new(None),
            question: Arc::default(),
            preview: Mutex::new(None),
            mcp_calls: Default::default(),
        }
    }

    /// The question this bot asked `owner` and still waits on, taken (answered once).
    pub fn take_question(&self, owner: &str) -> Option<crate::agent::reading::Question> {
        let mut question = self.question.lock();
        let asking = question.as_ref()?;
        if !asking.owner.eq_ignore_ascii_case(owner) {
            return None;
        }
        let waiting = asking.asked.elapsed() < ANSWER_WAIT;
        question.take().filter(|_| waiting).map(|asking| asking.question)
    }

    /// The bot, while it is connected.
    pub fn connected(&self) -> Option<BotHandle> {
        self.connected.lock().clone()
    }

    /// Notes the bot connected (`Some`) or gone (`None`).
    pub fn set_connected(&self, bot: Option<BotHandle>) {
        *self.connected.lock() = bot;
    }

    /// Stops the goal under way (an owner's `!stop`, another command), so it is not resumed after a restart.
    pub fn stop_goal(&self, why: &str) {
        goals::with(&self.goals, |book| book.stop_active(why));
    }

    pub fn team(&self) -> MutexGuard<'_, Option<TeamLink>> {
        self.team.lock()
    }

    pub fn learning(&self) -> MutexGuard<'_, Option<Learning>> {
        // Every write is one assignment: a panic elsewhere cannot leave it half-done.
        self.learning.lock()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_every_bot_hears_is_kept_once_and_a_repeat_twice() {
        let log = ChatLog::default();
        log.push(Some("Crew_1"), "Alice", "!status");
        log.push(Some("Crew_2"), "Alice", "!status");
        assert_eq!(log.since(0).len(), 1, "two bots heard one line");
        log.push(Some("Crew_1"), "Alice", "!status");
        assert_eq!(log.since(0).len(), 2, "the same bot hearing it again is a repeat");
        log.push(Some("Crew_2"), "Alice", "!status");
        log.push(Some("Crew_2"), "Bob", "hello");
        let lines: Vec<(String, String)> = log.since(0).into_iter().map(|l| (l.sender, l.text)).collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(lines[2], ("Bob".to_owned(), "hello".to_owned()), "heard by the second bot alone, still kept");
        log.push(None, "Alice", "Crew_1: !stop");
        log.push(None, "Alice", "Crew_1: !stop");
        let page: Vec<_> = log.since(3);
        assert_eq!(page.len(), 2, "page lines are never merged");
        assert!(page.iter().all(|l| l.page));
    }
}
