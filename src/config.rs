//! One resolved configuration: defaults, then `wayfarer.toml`, then `WAYFARER_*` environment variables and flags.
//!
//! Everything is validated here, once; the rest of the program receives a [`Config`] and never reads flags, files or
//! the environment itself.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use serde::{Deserialize, Serialize};

/// The file read when `--config` is not given, if it exists in the working directory.
pub const DEFAULT_CONFIG_FILE: &str = "wayfarer.toml";
/// Minecraft's default server port.
pub const DEFAULT_PORT: u16 = 25565;
/// Offline player names are 3 to 16 characters of `A-Z a-z 0-9 _`.
const MAX_NAME_LEN: usize = 16;
/// More bots than this in one process is almost certainly a typo.
const MAX_BOTS: usize = 1000;

/// The longest script run the settings accept, and the default one.
const MAX_SCRIPT_SECS: u64 = 86_400;
pub const DEFAULT_SCRIPT_TIME: Duration = Duration::from_secs(600);
/// LLM retries beyond this only delay the failure a user needs to see.
const MAX_LLM_RETRIES: u32 = 10;
/// No wait between two LLM retries is longer than this, whatever the backoff or a `Retry-After` header says.
pub const MAX_LLM_BACKOFF: Duration = Duration::from_secs(30);
/// No role's answer may be allowed more tokens than this.
const MAX_ANSWER_TOKENS: i64 = 32_768;

/// How the bots authenticate with the server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthMode {
    /// No account: the server must run with `online-mode=false`.
    #[default]
    Offline,
    /// A Microsoft account, signed in with a device code the first time and cached afterwards.
    Microsoft,
}

impl std::str::FromStr for AuthMode {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "offline" => Ok(AuthMode::Offline),
            "microsoft" => Ok(AuthMode::Microsoft),
            _ => Err(format!("{text:?} is not an auth mode: use offline or microsoft")),
        }
    }
}

/// Where a bot's replies to chat commands go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReplyMode {
    /// Public chat, seen by everyone.
    #[default]
    Public,
    /// A private message (`/msg`) to the player who gave the command.
    Whisper,
}

impl std::str::FromStr for ReplyMode {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "public" => Ok(ReplyMode::Public),
            "whisper" => Ok(ReplyMode::Whisper),
            _ => Err(format!("{text:?} is not a reply mode: use public or whisper")),
        }
    }
}

/// What an LLM call is for. Each role can have its own model, and usage is counted per role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Curriculum,
    Action,
    Critic,
    Description,
    /// A team leader's planning: the next stage's assignments for its workers.
    Leader,
    /// The memory stream: rating what people said, and reflecting on recent memories.
    Memory,
}

impl Role {
    pub const ALL: [Role; 6] =
        [Role::Curriculum, Role::Action, Role::Critic, Role::Description, Role::Leader, Role::Memory];

    /// The most tokens one answer may have unless `[llm.max_tokens]` says otherwise: enough for the role's format (a
    /// plan or a verdict needs a few hundred, code a thousand or so), so a small model that rambles is cut off instead
    /// of waited on.
    pub fn default_max_tokens(self) -> u32 {
        match self {
            Role::Curriculum => 700,
            Role::Action => 1500,
            Role::Critic => 300,
            Role::Description => 200,
            Role::Leader => 700,
            Role::Memory => 500,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Role::Curriculum => "curriculum",
            Role::Action => "action",
            Role::Critic => "critic",
            Role::Description => "description",
            Role::Leader => "leader",
            Role::Memory => "memory",
        }
    }
}

/// Where and how to reach the LLM.
#[derive(Clone, Debug, PartialEq)]
pub struct LlmConfig {
    /// Up to and including `/v1`, e.g. `https://api.openai.com/v1`.
    pub base_url: String,
    pub api_key: Option<String>,
    /// The model for roles without their own.
    pub model: String,
    /// Per-role models.
    pub role_models: std::collections::BTreeMap<Role, String>,
    /// One request's time limit.
    pub timeout: Duration,
    /// Retries after the first attempt, for 429, 5xx, connection errors and cut-off or unreadable replies.
    pub retries: u32,
    /// The first retry's wait; each further retry waits twice as long (a `Retry-After` header wins), never more than
    /// [`MAX_LLM_BACKOFF`].
    pub backoff: Duration,
    /// The most tokens an answer may have, per role (every role has an entry).
    pub max_tokens: std::collections::BTreeMap<Role, u32>,
    /// Requests and tokens per minute the endpoint allows (`None`: not configured; headers may still teach them).
    pub requests_per_minute: Option<u32>,
    pub tokens_per_minute: Option<u32>,
    /// Calls and tokens a bot, and the whole process, may spend per hour and per day.
    pub budget: Vec<BudgetLimit>,
    /// Where answers to deterministic requests (temperature 0) are kept; `None` keeps none.
    pub cache: Option<CacheConfig>,
    /// Price per model, for the cost `!usage` shows.
    pub prices: std::collections::BTreeMap<String, Price>,
    /// How long a call runs before its caller is told it is slow (`Still thinking…`).
    pub slow_after: Duration,
}

/// The reply cache: one file, at most `max_bytes` long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    pub file: PathBuf,
    pub max_bytes: u64,
}

/// What a model costs, in money per million tokens (the currency is the user's: the price table says it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// Per million prompt tokens.
    pub input: f64,
    /// Per million completion tokens.
    pub output: f64,
}

/// Whose spending a budget limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BudgetScope {
    /// Each bot on its own.
    Bot,
    /// Every bot of the process together.
    Process,
}

/// What a budget counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BudgetMeasure {
    Calls,
    Tokens,
}

/// One budget: at most `limit` calls or tokens within any `window`, for one bot or the process. Its key names it as
/// the configuration does (`bot_calls_per_hour`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BudgetLimit {
    pub scope: BudgetScope,
    pub measure: BudgetMeasure,
    pub window: Duration,
    pub limit: u64,
    pub key: String,
}

/// The budget keys `[llm.budget]` and `--llm-budget` take, with their windows.
pub const BUDGET_KEYS: [(&str, BudgetScope, BudgetMeasure, Duration); 8] = {
    use BudgetMeasure::{Calls, Tokens};
    use BudgetScope::{Bot, Process};
    const HOUR: Duration = Duration::from_secs(3600);
    const DAY: Duration = Duration::from_secs(86_400);
    [
        ("bot_calls_per_hour", Bot, Calls, HOUR),
        ("bot_calls_per_day", Bot, Calls, DAY),
        ("bot_tokens_per_hour", Bot, Tokens, HOUR),
        ("bot_tokens_per_day", Bot, Tokens, DAY),
        ("process_calls_per_hour", Process, Calls, HOUR),
        ("process_calls_per_day", Process, Calls, DAY),
        ("process_tokens_per_hour", Process, Tokens, HOUR),
        ("process_tokens_per_day", Process, Tokens, DAY),
    ]
};

/// The default reply cache bound.
pub const DEFAULT_CACHE_MB: u64 = 64;

/// Reads budgets: `KEY=N` pairs (from `--llm-budget` or `WAYFARER_LLM_BUDGET`) over `[llm.budget]`'s, each checked,
/// the bad one named.
pub fn resolve_budget(
    file: &std::collections::BTreeMap<String, i64>,
    flags: &[String],
) -> Result<Vec<BudgetLimit>, ConfigError> {
    let mut chosen: std::collections::BTreeMap<String, (i64, &str)> =
        file.iter().map(|(key, value)| (key.clone(), (*value, "[llm.budget]"))).collect();
    for pair in flags.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(ConfigError::Llm(format!("budget {pair:?} is not KEY=NUMBER (e.g. bot_calls_per_hour=100)")));
        };
        let value = value.trim().replace('_', "").parse::<i64>().map_err(|_| {
            ConfigError::Llm(format!("budget {}: {:?} is not a whole number", key.trim(), value.trim()))
        })?;
        chosen.insert(key.trim().to_owned(), (value, "--llm-budget"));
    }
    let mut limits = Vec::new();
    for (key, (value, source)) in chosen {
        let Some((name, scope, measure, window)) = BUDGET_KEYS.iter().find(|k| k.0 == key) else {
            let known: Vec<&str> = BUDGET_KEYS.iter().map(|k| k.0).collect();
            return Err(ConfigError::Llm(format!("unknown budget {key:?} in {source}: use {}", known.join(", "))));
        };
        if value < 1 {
            return Err(ConfigError::Llm(format!(
                "budget {name} = {value} in {source}: use a whole number of at least 1 (leave it out for no limit)"
            )));
        }
        limits.push(BudgetLimit {
            scope: *scope,
            measure: *measure,
            window: *window,
            limit: value as u64,
            key: name.to_string(),
        });
    }
    Ok(limits)
}

impl Default for LlmConfig {
    fn default() -> Self {
        Self {
            base_url: "https://api.openai.com/v1".to_owned(),
            api_key: None,
            model: "gpt-4o-mini".to_owned(),
            role_models: std::collections::BTreeMap::new(),
            // A local model on a CPU can take a minute and more before its first token: five minutes a request.
            timeout: Duration::from_secs(300),
            retries: 3,
            backoff: Duration::from_secs(1),
            max_tokens: Role::ALL.iter().map(|role| (*role, role.default_max_tokens())).collect(),
            requests_per_minute: None,
            tokens_per_minute: None,
            budget: Vec::new(),
            cache: None,
            prices: std::collections::BTreeMap::new(),
            slow_after: Duration::from_secs(30),
        }
    }
}

impl LlmConfig {
    pub fn model_for(&self, role: Role) -> &str {
        self.role_models.get(&role).map_or(&self.model, String::as_str)
    }

    /// The most tokens `role`'s answers may have.
    pub fn max_tokens_for(&self, role: Role) -> u32 {
        self.max_tokens.get(&role).copied().unwrap_or_else(|| role.default_max_tokens())
    }

    /// The price of `model`, when the price table has it.
    pub fn price_of(&self, model: &str) -> Option<Price> {
        self.prices.get(model).copied()
    }
}

/// Settings given on the command line or in `WAYFARER_*` variables, before they are checked: each one, when present,
/// wins over `wayfarer.toml`.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub server: Option<String>,
    pub username: Option<String>,
    pub auth: Option<AuthMode>,
    pub owners: Vec<String>,
    pub bots: Option<usize>,
    pub prefix: Option<String>,
    pub reply: Option<ReplyMode>,
    pub scripts: Option<PathBuf>,
    pub skills: Option<PathBuf>,
    pub models: Option<PathBuf>,
    pub llm_url: Option<String>,
    pub llm_model: Option<String>,
    pub llm_key: Option<String>,
    /// `KEY=N` budgets (`--llm-budget`, `WAYFARER_LLM_BUDGET`), over `[llm.budget]`.
    pub llm_budget: Vec<String>,
    pub checkpoint: Option<PathBuf>,
    /// `--role`: `leader` makes the first bot lead the others (and any `--worker`s).
    pub role: Option<TeamRole>,
    /// `--leader`: the bot whose assignments these bots take, besides their owners'.
    pub leader: Option<String>,
    /// `--worker`: bots of other processes this process's leader hands work to.
    pub workers: Vec<String>,
    /// `--no-memory`: the bots keep no memory stream.
    pub no_memory: bool,
    /// `--no-plan-from-words`: the LLM plans and writes the code of every goal the game's facts do not cover.
    pub no_plan_from_words: bool,
    /// `--dashboard ADDR`: serve the live page there.
    pub dashboard: Option<String>,
    /// The dashboard's token (`WAYFARER_DASHBOARD_TOKEN`).
    pub dashboard_token: Option<String>,
    /// The configuration file; `None` reads `./wayfarer.toml` when it exists.
    pub config: Option<PathBuf>,
}

/// Why a configuration could not be resolved. Each message names the setting and the source it came from.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {cause}")]
    Read { path: PathBuf, cause: std::io::Error },
    #[error("invalid config file {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("invalid server address {address:?}: {reason}")]
    Server { address: String, reason: String },
    #[error("invalid username {name:?}: {reason}")]
    Username { name: String, reason: String },
    #[error("invalid owner name {name:?}: player names are 1 to 16 letters, digits or _")]
    Owner { name: String },
    #[error("invalid bot count {count}: {reason}")]
    Bots { count: usize, reason: String },
    #[error("invalid command prefix {prefix:?}: {reason}")]
    Prefix { prefix: String, reason: String },
    #[error("invalid script_time_limit_secs = {0}: use 1 to 86400 seconds")]
    ScriptTime(u64),
    #[error("invalid reconnect delays: {reason}")]
    Reconnect { reason: String },
    #[error("invalid LLM setting: {0}")]
    Llm(String),
    #[error("invalid team setting: {0}")]
    Team(String),
    #[error("invalid [memory] setting: {0}")]
    Memory(String),
    #[error("invalid dashboard setting: {0}")]
    Dashboard(String),
}

/// A server to join, as the user wrote it (the host is resolved, with SRV records, when connecting).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerAddress {
    pub host: String,
    pub port: u16,
}

impl ServerAddress {
    /// Parses `HOST`, `HOST:PORT`, `[V6]` or `[V6]:PORT`.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let fail = |reason: &str| ConfigError::Server { address: text.to_owned(), reason: reason.to_owned() };
        let text = text.trim();
        if text.is_empty() {
            return Err(fail("it is empty"));
        }
        let (host, port) = if let Some(rest) = text.strip_prefix('[') {
            let (host, after) = rest.split_once(']').ok_or_else(|| fail("missing ] after an IPv6 address"))?;
            match after {
                "" => (host, None),
                _ => (host, Some(after.strip_prefix(':').ok_or_else(|| fail("expected :PORT after ]"))?)),
            }
        } else {
            match text.rsplit_once(':') {
                Some((host, _)) if host.contains(':') => return Err(fail("write IPv6 addresses as [ADDRESS]:PORT")),
                Some((host, port)) => (host, Some(port)),
                None => (text, None),
            }
        };
        if host.is_empty() {
            return Err(fail("the host is empty"));
        }
        let port = match port {
            None => DEFAULT_PORT,
            Some(port) => match port.parse::<u16>() {
                Ok(0) | Err(_) => return Err(fail("the port must be a number from 1 to 65535")),
                Ok(port) => port,
            },
        };
        Ok(Self { host: host.to_owned(), port })
    }
}

impl std::fmt::Display for ServerAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.host.contains(':') {
            write!(f, "[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{}:{}", self.host, self.port)
        }
    }
}

/// Reconnection policy: the delay starts at `initial` and doubles after each failed attempt, up to `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    pub initial: Duration,
    pub max: Duration,
}

impl Backoff {
    /// The delay before reconnect attempt number `attempt` (1 = the first after a disconnect).
    pub fn delay(&self, attempt: u32) -> Duration {
        let factor = 1u32.checked_shl(attempt.saturating_sub(1)).unwrap_or(u32::MAX);
        self.initial.saturating_mul(factor).min(self.max)
    }
}

impl Default for Backoff {
    fn default() -> Self {
        Self { initial: Duration::from_secs(1), max: Duration::from_secs(30) }
    }
}

/// Everything a run needs, validated.
#[derive(Clone, Debug)]
pub struct Config {
    pub server: ServerAddress,
    /// The base name: the player name itself with one bot, `NAME_1..NAME_N` with several.
    pub username: String,
    pub auth: AuthMode,
    /// Players allowed to command the bots (compared case-insensitively, as Minecraft names are).
    pub owners: Vec<String>,
    pub bots: usize,
    pub prefix: String,
    pub reply: ReplyMode,
    pub reconnect: Backoff,
    /// Where `!run` finds scripts.
    pub scripts_dir: PathBuf,
    /// The longest a script run may take, primitives included.
    pub script_time_limit: Duration,
    /// The skill library's folder (skills and their search index).
    pub skills_dir: PathBuf,
    /// Where the embedding model and ONNX Runtime are (`make models` fills it).
    pub models_dir: PathBuf,
    /// The LLM, when one is configured (an endpoint URL or an API key); `!task` and learning need it.
    pub llm: Option<LlmConfig>,
    /// Where learning keeps its completed and failed tasks, question cache and event log: one folder per bot inside.
    pub checkpoint_dir: PathBuf,
    /// The reflexes that are on.
    pub reflexes: Reflexes,
    /// Who leads and who works, when the bots form a team.
    pub team: TeamConfig,
    /// Each bot's memory stream.
    pub memory: MemoryConfig,
    /// The live web page (`--dashboard ADDR`), when asked for.
    pub dashboard: Option<DashboardConfig>,
    /// Whether goals and steps that change the world in words the bot reads (`build a wall of cobblestone 3 long and
    /// 2 high`, `put 4 planks into the chest`) get their plan and code from those words, before any LLM is asked.
    /// Off, the LLM plans and writes them: to measure what a model does alone.
    pub plan_from_words: bool,
}

/// The dashboard: where it listens, the token a request must carry, and whose commands the page's are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DashboardConfig {
    pub address: std::net::SocketAddr,
    /// Needed by every request; always set for an address other than loopback (generated at start unless given).
    pub token: Option<String>,
    /// The owner the page's commands count as.
    pub owner: Option<String>,
}

impl DashboardConfig {
    /// Whether the page is served to this machine only.
    pub fn is_loopback(&self) -> bool {
        self.address.ip().is_loopback()
    }
}

impl Default for Config {
    /// The configuration with nothing set: one offline bot `Wayfarer` joining `localhost:25565`, no owners.
    fn default() -> Self {
        Self::merge(Overrides::default(), FileConfig::default()).expect("the defaults are valid")
    }
}

impl Config {
    /// The player names of the bots this configuration starts.
    pub fn bot_names(&self) -> Vec<String> {
        if self.bots == 1 {
            vec![self.username.clone()]
        } else {
            (1..=self.bots).map(|i| format!("{}_{i}", self.username)).collect()
        }
    }

    /// Where bot `name` keeps its learning checkpoint.
    pub fn checkpoint_for(&self, name: &str) -> PathBuf {
        self.checkpoint_dir.join(name)
    }

    /// Resolves flags (which already carry their environment variables) over the config file over defaults.
    pub fn resolve(args: Overrides) -> Result<Self, ConfigError> {
        let file = match &args.config {
            Some(path) => FileConfig::load(path)?,
            None if Path::new(DEFAULT_CONFIG_FILE).is_file() => FileConfig::load(Path::new(DEFAULT_CONFIG_FILE))?,
            None => FileConfig::default(),
        };
        Self::merge(args, file)
    }

    /// Resolves `overrides` over the configuration file's text (`wayfarer.toml`) over defaults.
    pub fn from_toml(text: &str, overrides: Overrides) -> Result<Self, ConfigError> {
        let path = overrides.config.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_CONFIG_FILE));
        let file = toml::from_str(text).map_err(|e| ConfigError::Parse { path, message: e.to_string() })?;
        Self::merge(overrides, file)
    }

    fn merge(args: Overrides, file: FileConfig) -> Result<Self, ConfigError> {
        let server = ServerAddress::parse(args.server.as_deref().or(file.server.as_deref()).unwrap_or("localhost"))?;
        let username = args.username.or(file.username).unwrap_or_else(|| "Wayfarer".to_owned());
        let auth = args.auth.or(file.auth).unwrap_or_default();
        let owners = if args.owners.is_empty() { file.owners } else { args.owners };
        let owners: Vec<String> = owners.iter().map(|o| o.trim().to_owned()).filter(|o| !o.is_empty()).collect();
        let bots = args.bots.or(file.bots).unwrap_or(1);
        let prefix = args.prefix.or(file.prefix).unwrap_or_else(|| "!".to_owned());
        let reply = args.reply.or(file.reply).unwrap_or_default();
        let reconnect = file.reconnect.unwrap_or_default().resolve()?;
        let scripts_dir = args.scripts.or(file.scripts_dir).unwrap_or_else(|| PathBuf::from("scripts"));
        let skills_dir = args.skills.or(file.skills_dir).unwrap_or_else(|| PathBuf::from("skills"));
        let models_dir = args.models.or(file.models_dir).unwrap_or_else(default_models_dir);
        let checkpoint_dir = args.checkpoint.or(file.checkpoint_dir).unwrap_or_else(default_checkpoint_dir);
        let mut file_llm = file.llm.unwrap_or_default();
        // Budgets are checked even with no LLM configured, so a typo is found before the LLM is.
        let budget = resolve_budget(&std::mem::take(&mut file_llm.budget), &args.llm_budget)?;
        let llm = resolve_llm(args.llm_url, args.llm_model, args.llm_key, file_llm)?.map(|mut llm| {
            llm.budget = budget;
            if let Some(cache) = &mut llm.cache
                && cache.file.as_os_str().is_empty()
            {
                cache.file = checkpoint_dir.join("llm-replies.jsonl");
            }
            llm
        });
        let script_time_limit = match file.script_time_limit_secs {
            Some(secs) if !(1..=MAX_SCRIPT_SECS).contains(&secs) => return Err(ConfigError::ScriptTime(secs)),
            Some(secs) => Duration::from_secs(secs),
            None => DEFAULT_SCRIPT_TIME,
        };

        for owner in &owners {
            if !is_player_name(owner, 1) {
                return Err(ConfigError::Owner { name: owner.clone() });
            }
        }
        if bots == 0 || bots > MAX_BOTS {
            return Err(ConfigError::Bots { count: bots, reason: format!("use 1 to {MAX_BOTS}") });
        }
        if prefix.is_empty() || prefix.chars().any(char::is_whitespace) || prefix.starts_with('/') {
            return Err(ConfigError::Prefix {
                prefix,
                reason: "it must be non-empty, contain no spaces and not start with / (server commands)".to_owned(),
            });
        }
        match auth {
            AuthMode::Offline => {
                // The longest generated name is the one that must fit.
                let longest = if bots == 1 { username.clone() } else { format!("{username}_{bots}") };
                if !is_player_name(&longest, 3) {
                    return Err(ConfigError::Username {
                        name: longest,
                        reason: "offline player names are 3 to 16 letters, digits or _ (with --bots N the name gets \
                                 a _N suffix)"
                            .to_owned(),
                    });
                }
            }
            AuthMode::Microsoft if bots > 1 => {
                return Err(ConfigError::Bots {
                    count: bots,
                    reason: "one Microsoft account is one player; use --auth offline for several bots".to_owned(),
                });
            }
            AuthMode::Microsoft if username.trim().is_empty() => {
                return Err(ConfigError::Username {
                    name: username,
                    reason: "give the Microsoft account's e-mail address".to_owned(),
                });
            }
            AuthMode::Microsoft => {}
        }
        let team = resolve_team(args.role, args.leader, args.workers, file.team.unwrap_or_default(), &username, bots)?;
        let memory = resolve_memory(file.memory.unwrap_or_default(), args.no_memory)?;
        let dashboard =
            resolve_dashboard(args.dashboard, args.dashboard_token, file.dashboard.unwrap_or_default(), &owners)?;
        Ok(Self {
            team,
            memory,
            dashboard,
            reflexes: file.reflexes.unwrap_or_default(),
            server,
            username,
            auth,
            owners,
            bots,
            prefix,
            reply,
            reconnect,
            scripts_dir,
            script_time_limit,
            skills_dir,
            models_dir,
            llm,
            checkpoint_dir,
            plan_from_words: file.plan_from_words.unwrap_or(true) && !args.no_plan_from_words,
        })
    }
}

/// True if `name` is a valid Minecraft player name of at least `min_len` characters.
pub fn is_player_name(name: &str, min_len: usize) -> bool {
    (min_len..=MAX_NAME_LEN).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `wayfarer.toml` as written by a user. Unknown keys are errors, so a typo never goes unnoticed.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    pub server: Option<String>,
    pub username: Option<String>,
    pub auth: Option<AuthMode>,
    #[serde(default)]
    pub owners: Vec<String>,
    pub bots: Option<usize>,
    pub prefix: Option<String>,
    pub reply: Option<ReplyMode>,
    pub reconnect: Option<FileBackoff>,
    pub scripts_dir: Option<PathBuf>,
    pub script_time_limit_secs: Option<u64>,
    pub skills_dir: Option<PathBuf>,
    pub models_dir: Option<PathBuf>,
    pub llm: Option<FileLlm>,
    pub checkpoint_dir: Option<PathBuf>,
    pub reflexes: Option<Reflexes>,
    pub team: Option<FileTeam>,
    pub memory: Option<FileMemory>,
    pub dashboard: Option<FileDashboard>,
    pub plan_from_words: Option<bool>,
}

/// `[dashboard]` in `wayfarer.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileDashboard {
    /// `127.0.0.1:8080`; the page is served only when this (or `--dashboard`) is set.
    pub address: Option<String>,
    /// The token requests must carry (`?token=` or `Authorization: Bearer`); one is made at start when the address
    /// is not loopback and none is set.
    pub token: Option<String>,
    /// The owner the page's commands count as [default: the first owner].
    pub owner: Option<String>,
}

/// Which of the bot's reflexes are on (`[reflexes]` in wayfarer.toml; every one is on unless set to false).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Reflexes {
    /// Eat when food is 14 or less, or when hurt and not full; best food first.
    pub eat: bool,
    /// Hit back at a monster within reach, with the best weapon carried.
    pub defend: bool,
    /// Run from a creeper within 6 blocks, from three monsters within 8, and from monsters when health is 6 or less
    /// (a lone zombie or spider is fought instead).
    pub flee: bool,
    /// Head for air when breath runs low under water.
    pub breathe: bool,
    /// Get out of lava and fire.
    pub escape_fire: bool,
    /// After a death, say so, and go back for the dropped items when it is safe.
    pub recover: bool,
    /// Hungry (food below 18) and carrying no food: kill a farm animal within 12 blocks for its meat.
    pub hunt: bool,
    /// At night in the open with monsters about: dig in three blocks, close the hole overhead, wait for morning.
    pub shelter: bool,
}

impl Default for Reflexes {
    fn default() -> Self {
        Self {
            eat: true,
            defend: true,
            flee: true,
            breathe: true,
            escape_fire: true,
            recover: true,
            hunt: true,
            shelter: true,
        }
    }
}

/// A bot's part in a team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TeamRole {
    /// Takes team goals (`!team GOAL`) from the owners and hands the work out.
    Leader,
    /// Takes assignments from the owners and from its leader.
    Worker,
}

impl std::str::FromStr for TeamRole {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "leader" => Ok(TeamRole::Leader),
            "worker" => Ok(TeamRole::Worker),
            _ => Err(format!("{text:?} is not a team role: use leader or worker")),
        }
    }
}

/// `[memory]` in `wayfarer.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileMemory {
    pub enabled: Option<bool>,
    pub max_memories: Option<usize>,
    pub reflect_after: Option<u32>,
    pub half_life_days: Option<f64>,
    pub recency_weight: Option<f32>,
    pub importance_weight: Option<f32>,
    pub relevance_weight: Option<f32>,
    pub persona: Option<Persona>,
}

/// Who the bot is, for the curriculum's choices (`[memory.persona]`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Persona {
    #[serde(default)]
    pub name: String,
    /// A few words: `careful, curious`.
    #[serde(default)]
    pub traits: String,
    /// What it likes to do: `mining and building`.
    #[serde(default)]
    pub likes: String,
}

impl Persona {
    /// One line for a prompt, or `None` when nothing is set.
    pub fn line(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.name.trim().is_empty() {
            parts.push(format!("You are {}.", self.name.trim()));
        }
        if !self.traits.trim().is_empty() {
            parts.push(format!("You are {}.", self.traits.trim()));
        }
        if !self.likes.trim().is_empty() {
            parts.push(format!("You like {}.", self.likes.trim()));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// Each bot's memory stream, resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryConfig {
    pub enabled: bool,
    /// Memories kept per bot; past it low-scoring old observations are forgotten first.
    pub max_memories: usize,
    /// Importance gathered since the last reflection that makes the next one due.
    pub reflect_after: u32,
    /// Game days over which a memory's recency halves.
    pub half_life_days: f64,
    /// Recall's weights: recency, importance, relevance.
    pub weights: [f32; 3],
    pub persona: Option<Persona>,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        MemoryConfig {
            enabled: true,
            max_memories: 100_000,
            reflect_after: 150,
            half_life_days: 1.0,
            weights: [0.5, 2.0, 3.0],
            persona: None,
        }
    }
}

/// `[memory]` checked: sizes and weights in range, `--no-memory` over `enabled`.
/// The dashboard, if asked for: an address that parses, a token a URL can carry, an owner who is one.
fn resolve_dashboard(
    address: Option<String>,
    token: Option<String>,
    file: FileDashboard,
    owners: &[String],
) -> Result<Option<DashboardConfig>, ConfigError> {
    let Some(text) = address.or(file.address) else { return Ok(None) };
    let address = text.trim().parse::<std::net::SocketAddr>().map_err(|_| {
        ConfigError::Dashboard(format!(
            "address {text:?} is not IP:PORT (e.g. 127.0.0.1:8080, or 0.0.0.0:8080 with a token)"
        ))
    })?;
    let token = token.or(file.token).filter(|t| !t.is_empty());
    if let Some(token) = &token
        && (token.len() < 8 || !token.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    {
        return Err(ConfigError::Dashboard(
            "the token must be at least 8 letters, digits, - or _ (it goes in the page's URL)".to_owned(),
        ));
    }
    let owner = match file.owner {
        Some(owner) => match owners.iter().find(|o| o.eq_ignore_ascii_case(&owner)) {
            Some(found) => Some(found.clone()),
            None => {
                return Err(ConfigError::Dashboard(format!(
                    "owner = {owner:?} is not one of the owners ({})",
                    if owners.is_empty() { "none configured".to_owned() } else { owners.join(", ") }
                )));
            }
        },
        None => owners.first().cloned(),
    };
    Ok(Some(DashboardConfig { address, token, owner }))
}

fn resolve_memory(file: FileMemory, no_memory: bool) -> Result<MemoryConfig, ConfigError> {
    let default = MemoryConfig::default();
    let max_memories = file.max_memories.unwrap_or(default.max_memories);
    if !(100..=10_000_000).contains(&max_memories) {
        return Err(ConfigError::Memory(format!("max_memories = {max_memories}: use 100 to 10000000")));
    }
    let reflect_after = file.reflect_after.unwrap_or(default.reflect_after);
    if !(10..=100_000).contains(&reflect_after) {
        return Err(ConfigError::Memory(format!("reflect_after = {reflect_after}: use 10 to 100000")));
    }
    let half_life_days = file.half_life_days.unwrap_or(default.half_life_days);
    if !(half_life_days.is_finite() && (0.01..=1000.0).contains(&half_life_days)) {
        return Err(ConfigError::Memory(format!("half_life_days = {half_life_days}: use 0.01 to 1000 game days")));
    }
    let weights = [
        ("recency_weight", file.recency_weight, default.weights[0]),
        ("importance_weight", file.importance_weight, default.weights[1]),
        ("relevance_weight", file.relevance_weight, default.weights[2]),
    ]
    .map(|(key, value, fallback)| (key, value.unwrap_or(fallback)));
    if let Some((key, value)) = weights.iter().find(|(_, w)| !(w.is_finite() && (0.0..=100.0).contains(w))) {
        return Err(ConfigError::Memory(format!("{key} = {value}: use 0 to 100")));
    }
    if weights.iter().all(|(_, w)| *w == 0.0) {
        return Err(ConfigError::Memory("the three weights are 0: recall could not rank anything".to_owned()));
    }
    Ok(MemoryConfig {
        enabled: file.enabled.unwrap_or(true) && !no_memory,
        max_memories,
        reflect_after,
        half_life_days,
        weights: weights.map(|(_, w)| w),
        persona: file.persona.filter(|p| p.line().is_some()),
    })
}

/// `[team]` in `wayfarer.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileTeam {
    pub role: Option<TeamRole>,
    pub leader: Option<String>,
    #[serde(default)]
    pub workers: Vec<String>,
    /// A worker that says nothing for this long while it has an assignment has failed it.
    pub silent_after_secs: Option<u64>,
}

/// Who leads and who works, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamConfig {
    /// The bot of this process that leads at start (the first, with `role = "leader"`).
    pub leader_here: Option<String>,
    /// The bot whose assignments this process's bots take: the configured leader, else the one leading here.
    pub leader: Option<String>,
    /// Bots of other processes the leader here hands work to (this process's other bots are its workers anyway).
    pub workers: Vec<String>,
    /// How long a worker with an assignment may say nothing before the leader counts the assignment failed.
    pub silent_after: Duration,
}

impl Default for TeamConfig {
    fn default() -> Self {
        Self { leader_here: None, leader: None, workers: Vec::new(), silent_after: DEFAULT_SILENT_AFTER }
    }
}

/// How long a worker may be silent on an assignment by default: long enough to mine a stack of logs.
const DEFAULT_SILENT_AFTER: Duration = Duration::from_secs(300);

/// `--role`/`--leader`/`--worker` over `[team]`, checked: names must be player names, and a leader configured from
/// elsewhere cannot be one of this process's own bots unless it is the one leading here.
fn resolve_team(
    role: Option<TeamRole>,
    leader: Option<String>,
    workers: Vec<String>,
    file: FileTeam,
    username: &str,
    bots: usize,
) -> Result<TeamConfig, ConfigError> {
    let role = role.or(file.role);
    let leader = leader.or(file.leader).map(|l| l.trim().to_owned()).filter(|l| !l.is_empty());
    let workers = if workers.is_empty() { file.workers } else { workers };
    let workers: Vec<String> = workers.iter().map(|w| w.trim().to_owned()).filter(|w| !w.is_empty()).collect();
    for name in leader.iter().chain(&workers) {
        if !is_player_name(name, 1) {
            return Err(ConfigError::Team(format!("{name:?} is not a player name (1 to 16 letters, digits or _)")));
        }
    }
    let silent_after = match file.silent_after_secs {
        Some(secs) if !(5..=86_400).contains(&secs) => {
            return Err(ConfigError::Team(format!("silent_after_secs = {secs}: use 5 to 86400 seconds")));
        }
        Some(secs) => Duration::from_secs(secs),
        None => DEFAULT_SILENT_AFTER,
    };
    let first = if bots == 1 { username.to_owned() } else { format!("{username}_1") };
    let leader_here = (role == Some(TeamRole::Leader)).then(|| first.clone());
    if let (Some(here), Some(other)) = (&leader_here, &leader)
        && !here.eq_ignore_ascii_case(other)
    {
        return Err(ConfigError::Team(format!(
            "this process's first bot {here} leads (role = leader), so it cannot also take orders from {other}"
        )));
    }
    if leader_here.is_none() && !workers.is_empty() {
        return Err(ConfigError::Team("workers are for a leader: add --role leader (or role = \"leader\")".to_owned()));
    }
    let leader = leader.or_else(|| leader_here.clone());
    Ok(TeamConfig { leader_here, leader, workers, silent_after })
}

/// `$XDG_CACHE_HOME/wayfarer/models`, or `~/.cache/wayfarer/models`: where `make models` puts the embedding model.
pub fn default_models_dir() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("wayfarer").join("models")
}

/// `$XDG_STATE_HOME/wayfarer/checkpoint`, or `~/.local/state/wayfarer/checkpoint`.
fn default_checkpoint_dir() -> PathBuf {
    let state = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local").join("state")))
        .unwrap_or_else(|| PathBuf::from(".wayfarer-state"));
    state.join("wayfarer").join("checkpoint")
}

/// `[llm]` in `wayfarer.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileLlm {
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// Per-role models: `[llm.models] action = "…"`.
    #[serde(default)]
    pub models: std::collections::BTreeMap<Role, String>,
    pub timeout_secs: Option<u64>,
    pub retries: Option<u32>,
    /// Per-role answer limits: `[llm.max_tokens] action = 2000`.
    #[serde(default)]
    pub max_tokens: std::collections::BTreeMap<Role, i64>,
    pub requests_per_minute: Option<i64>,
    pub tokens_per_minute: Option<i64>,
    /// `[llm.budget] bot_calls_per_hour = 100`, … (see [`BUDGET_KEYS`]).
    #[serde(default)]
    pub budget: std::collections::BTreeMap<String, i64>,
    /// Keep answers to deterministic requests (default true).
    pub cache: Option<bool>,
    /// Where [default: `llm-replies.jsonl` in the checkpoint folder].
    pub cache_file: Option<PathBuf>,
    /// The cache file's bound, in megabytes [default: 64].
    pub cache_max_mb: Option<i64>,
    /// `[llm.prices."gpt-4o-mini"] input = 0.15, output = 0.60`: per million tokens.
    #[serde(default)]
    pub prices: std::collections::BTreeMap<String, Price>,
}

/// The LLM settings: `--llm-url`/`WAYFARER_LLM_URL`, `--llm-model`/`WAYFARER_LLM_MODEL` and `OPENAI_API_KEY` over
/// `[llm]`. Configured when an endpoint or a key is given; a key alone means OpenAI.
fn resolve_llm(
    url: Option<String>,
    model: Option<String>,
    key: Option<String>,
    file: FileLlm,
) -> Result<Option<LlmConfig>, ConfigError> {
    let api_key = key.filter(|k| !k.trim().is_empty());
    let base_url = url.filter(|u| !u.trim().is_empty()).or(file.base_url);
    if base_url.is_none() && api_key.is_none() {
        return Ok(None);
    }
    let defaults = LlmConfig::default();
    let base_url = base_url.unwrap_or(defaults.base_url);
    if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
        return Err(ConfigError::Llm(format!("the endpoint {base_url:?} must start with http:// or https://")));
    }
    let timeout = match file.timeout_secs {
        Some(secs) if !(1..=3600).contains(&secs) => {
            return Err(ConfigError::Llm(format!("timeout_secs = {secs}: use 1 to 3600 seconds")));
        }
        Some(secs) => Duration::from_secs(secs),
        None => defaults.timeout,
    };
    let host = base_url.split_once("://").map_or("", |(_, rest)| rest).split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() || base_url.chars().any(char::is_whitespace) {
        return Err(ConfigError::Llm(format!(
            "the endpoint {base_url:?} is not a URL (e.g. http://localhost:11434/v1)"
        )));
    }
    let retries = file.retries.unwrap_or(defaults.retries);
    if retries > MAX_LLM_RETRIES {
        return Err(ConfigError::Llm(format!("retries = {retries}: use 0 to {MAX_LLM_RETRIES}")));
    }
    let model = model.filter(|m| !m.trim().is_empty()).or(file.model).unwrap_or(defaults.model);
    let models = std::iter::once(&model).chain(file.models.values());
    if let Some(bad) = models.into_iter().find(|m| m.trim().is_empty() || m.chars().any(char::is_control)) {
        return Err(ConfigError::Llm(format!("the model name {bad:?} is empty or has control characters")));
    }
    let mut max_tokens = defaults.max_tokens;
    for (role, limit) in &file.max_tokens {
        if !(16..=MAX_ANSWER_TOKENS).contains(limit) {
            return Err(ConfigError::Llm(format!(
                "max_tokens.{} = {limit}: use 16 to {MAX_ANSWER_TOKENS} tokens",
                role.name()
            )));
        }
        max_tokens.insert(*role, *limit as u32);
    }
    let per_minute = |value: Option<i64>, key: &str| match value {
        None => Ok(None),
        Some(n) if (1..=100_000_000).contains(&n) => Ok(Some(n as u32)),
        Some(n) => Err(ConfigError::Llm(format!("{key} = {n}: use a whole number from 1 (leave it out for no limit)"))),
    };
    let requests_per_minute = per_minute(file.requests_per_minute, "requests_per_minute")?;
    let tokens_per_minute = per_minute(file.tokens_per_minute, "tokens_per_minute")?;
    let cache = match (file.cache.unwrap_or(true), file.cache_max_mb) {
        (_, Some(mb)) if !(1..=100_000).contains(&mb) => {
            return Err(ConfigError::Llm(format!("cache_max_mb = {mb}: use 1 to 100000 megabytes")));
        }
        (false, _) => None,
        // An empty path is filled in with the checkpoint folder's file.
        (true, mb) => Some(CacheConfig {
            file: file.cache_file.unwrap_or_default(),
            max_bytes: mb.map_or(DEFAULT_CACHE_MB, |mb| mb as u64) * 1024 * 1024,
        }),
    };
    for (model, price) in &file.prices {
        let fine = |x: f64| x.is_finite() && (0.0..=1_000_000.0).contains(&x);
        if !fine(price.input) || !fine(price.output) {
            return Err(ConfigError::Llm(format!(
                "prices.{model:?}: input and output are prices per million tokens, 0 or more"
            )));
        }
    }
    Ok(Some(LlmConfig {
        base_url,
        api_key,
        model,
        role_models: file.models,
        timeout,
        retries,
        backoff: defaults.backoff,
        max_tokens,
        requests_per_minute,
        tokens_per_minute,
        budget: Vec::new(),
        cache,
        prices: file.prices,
        slow_after: defaults.slow_after,
    }))
}

/// `[reconnect]` in `wayfarer.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileBackoff {
    pub initial_delay_secs: Option<f64>,
    pub max_delay_secs: Option<f64>,
}

impl FileBackoff {
    fn resolve(self) -> Result<Backoff, ConfigError> {
        let default = Backoff::default();
        let secs = |value: Option<f64>, fallback: Duration, key: &str| match value {
            None => Ok(fallback),
            Some(s) if s.is_finite() && (0.05..=3600.0).contains(&s) => Ok(Duration::from_secs_f64(s)),
            Some(s) => Err(ConfigError::Reconnect { reason: format!("{key} = {s} is outside 0.05..=3600 seconds") }),
        };
        let initial = secs(self.initial_delay_secs, default.initial, "initial_delay_secs")?;
        let max = secs(self.max_delay_secs, default.max.max(initial), "max_delay_secs")?;
        if max < initial {
            return Err(ConfigError::Reconnect {
                reason: "max_delay_secs is smaller than initial_delay_secs".to_owned(),
            });
        }
        Ok(Backoff { initial, max })
    }
}

impl FileConfig {
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|cause| ConfigError::Read { path: path.to_owned(), cause })?;
        toml::from_str(&text).map_err(|e| ConfigError::Parse { path: path.to_owned(), message: e.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merge(args: Overrides, file: &str) -> Result<Config, ConfigError> {
        Config::merge(args, toml::from_str(file).expect("test file parses"))
    }

    /// An error's cause is in its message once: `{:#}` (as `main` prints errors) does not repeat it.
    #[test]
    fn a_read_errors_cause_is_printed_once() {
        let err = FileConfig::load(Path::new("/nonexistent/wayfarer.toml")).unwrap_err();
        let text = format!("{:#}", anyhow::Error::from(err));
        assert_eq!(text.matches("No such file").count(), 1, "{text}");
    }

    /// The example file sets every key that has a default to that default, so as it stands it changes nothing; the
    /// keys it leaves commented out are real keys too.
    #[test]
    fn the_example_file_parses_and_holds_the_defaults() {
        let example = include_str!("docs/wayfarer.example.toml");
        let with_llm = || Overrides { llm_url: Some("http://localhost:8012/v1".into()), ..Default::default() };
        let from_example = Config::from_toml(example, with_llm()).expect("the example parses");
        let defaults = Config::from_toml("", with_llm()).unwrap();
        assert_eq!(format!("{from_example:#?}"), format!("{defaults:#?}"));
        let is_key = |name: &str| {
            name.chars().all(|c| c.is_ascii_lowercase() || c == '_') || (name.starts_with('"') && name.ends_with('"'))
        };
        let uncommented: Vec<&str> = example
            .lines()
            .map(|line| match line.strip_prefix("# ") {
                Some(rest) if rest.split_once(" = ").is_some_and(|(name, _)| is_key(name)) => rest,
                _ => line,
            })
            .collect();
        let uncommented = uncommented.join("\n");
        assert!(uncommented.contains("\nowners = [") && uncommented.contains("\naddress = "), "{uncommented}");
        if let Err(err) = toml::from_str::<FileConfig>(&uncommented) {
            panic!("a commented-out key of the example is not a key: {err}");
        }
    }

    #[test]
    fn memory_settings_resolve_and_bad_ones_are_named() {
        let config = merge(Overrides::default(), "").unwrap();
        assert_eq!(config.memory, MemoryConfig::default());
        let file = "[memory]\nmax_memories = 5000\nreflect_after = 50\nrelevance_weight = 1.5\n\
                    [memory.persona]\nname = \"Pip\"\nlikes = \"mining for iron\"";
        let config = merge(Overrides::default(), file).unwrap();
        assert_eq!((config.memory.max_memories, config.memory.reflect_after), (5000, 50));
        assert_eq!(config.memory.weights, [0.5, 2.0, 1.5]);
        assert_eq!(config.memory.persona.unwrap().line().unwrap(), "You are Pip. You like mining for iron.");
        assert!(!merge(Overrides { no_memory: true, ..Default::default() }, "").unwrap().memory.enabled);
        let err = |file: &str| merge(Overrides::default(), file).unwrap_err().to_string();
        assert!(err("[memory]\nmax_memories = 5").contains("max_memories = 5: use 100"));
        assert!(err("[memory]\nrecency_weight = -1").contains("recency_weight = -1"));
        assert!(
            err("[memory]\nrecency_weight = 0\nimportance_weight = 0\nrelevance_weight = 0").contains("three weights")
        );
        assert!(err("[memory]\nhalf_life_days = 0").contains("half_life_days"));
    }

    #[test]
    fn dashboard_settings_resolve_and_bad_ones_are_named() {
        assert_eq!(merge(Overrides::default(), "").unwrap().dashboard, None, "off unless asked for");
        let asked = |address: &str, file: &str| {
            let owners = vec!["Alice".to_owned(), "Bob".to_owned()];
            merge(Overrides { dashboard: Some(address.to_owned()), owners, ..Default::default() }, file)
        };
        let config = asked("127.0.0.1:8080", "").unwrap().dashboard.unwrap();
        assert!(config.is_loopback());
        assert_eq!((config.token, config.owner.as_deref()), (None, Some("Alice")), "the first owner by default");
        let config =
            asked("0.0.0.0:9000", "[dashboard]\ntoken = \"s3cret-token\"\nowner = \"bob\"").unwrap().dashboard.unwrap();
        assert!(!config.is_loopback());
        assert_eq!((config.token.as_deref(), config.owner.as_deref()), (Some("s3cret-token"), Some("Bob")));
        let from_file =
            merge(Overrides::default(), "[dashboard]\naddress = \"[::1]:8080\"").unwrap().dashboard.unwrap();
        assert!(from_file.is_loopback());
        let err = |address: &str, file: &str| asked(address, file).unwrap_err().to_string();
        assert!(err("localhost", "").contains("is not IP:PORT"));
        assert!(
            err("127.0.0.1:8080", "[dashboard]\nowner = \"Mallory\"").contains("not one of the owners (Alice, Bob)")
        );
        assert!(err("127.0.0.1:8080", "[dashboard]\ntoken = \"a b\"").contains("at least 8 letters"));
        assert!(
            toml::from_str::<FileConfig>("[dashboard]\nport = 1")
                .unwrap_err()
                .to_string()
                .contains("unknown field `port`")
        );
    }

    #[test]
    fn teams_resolve_and_bad_settings_are_named() {
        let config = merge(
            Overrides {
                role: Some(TeamRole::Leader),
                bots: Some(3),
                username: Some("Crew".into()),
                ..Default::default()
            },
            "",
        )
        .unwrap();
        assert_eq!(
            (config.team.leader_here.as_deref(), config.team.leader.as_deref()),
            (Some("Crew_1"), Some("Crew_1"))
        );
        assert_eq!(config.team.silent_after, Duration::from_secs(300));
        let config = merge(Overrides::default(), "[team]\nleader = \"Boss\"\nsilent_after_secs = 60").unwrap();
        assert_eq!((config.team.leader_here, config.team.leader.as_deref()), (None, Some("Boss")));
        assert_eq!(config.team.silent_after, Duration::from_secs(60));
        let config =
            merge(Overrides { workers: vec!["Crew".into()], ..Default::default() }, "[team]\nrole = \"leader\"")
                .unwrap();
        assert_eq!(
            (config.team.leader_here.as_deref(), config.team.workers.as_slice()),
            (Some("Wayfarer"), &["Crew".to_owned()][..])
        );
        let err = |args: Overrides, file: &str| merge(args, file).unwrap_err().to_string();
        assert!(
            err(Overrides { leader: Some("a b".into()), ..Default::default() }, "")
                .contains("\"a b\" is not a player name")
        );
        assert!(
            err(Overrides { workers: vec!["Crew".into()], ..Default::default() }, "").contains("add --role leader")
        );
        assert!(
            err(Overrides { role: Some(TeamRole::Leader), leader: Some("Boss".into()), ..Default::default() }, "")
                .contains("cannot also take orders from Boss")
        );
        assert!(err(Overrides::default(), "[team]\nsilent_after_secs = 1").contains("silent_after_secs = 1"));
        assert!(toml::from_str::<FileConfig>("[team]\nrole = \"boss\"").is_err());
        assert_eq!("Leader".parse::<TeamRole>(), Ok(TeamRole::Leader));
        assert!("chief".parse::<TeamRole>().unwrap_err().contains("use leader or worker"));
    }

    #[test]
    fn defaults_need_nothing() {
        let config = merge(Overrides::default(), "").unwrap();
        assert_eq!(config.server, ServerAddress { host: "localhost".into(), port: 25565 });
        assert_eq!(config.bot_names(), ["Wayfarer"]);
        assert_eq!(config.auth, AuthMode::Offline);
        assert_eq!(config.prefix, "!");
        assert!(config.owners.is_empty());
        assert_eq!(config.scripts_dir, PathBuf::from("scripts"));
        assert_eq!(config.script_time_limit, Duration::from_secs(600));
        assert_eq!(config.checkpoint_for("Wayfarer_2"), config.checkpoint_dir.join("Wayfarer_2"), "one folder per bot");
    }

    #[test]
    fn flags_override_file() {
        let args = Overrides {
            server: Some("mc.example.org:25570".into()),
            owners: vec!["Alice".into()],
            ..Default::default()
        };
        let config = merge(args, "server = \"other\"\nowners = [\"Bob\"]\nusername = \"Scout\"\nbots = 3").unwrap();
        assert_eq!(config.server.to_string(), "mc.example.org:25570");
        assert_eq!(config.owners, ["Alice"]);
        assert_eq!(config.bot_names(), ["Scout_1", "Scout_2", "Scout_3"]);
    }

    #[test]
    fn llm_settings_resolve_from_flags_env_and_file() {
        let none = |file| resolve_llm(None, None, None, file).unwrap();
        assert_eq!(none(FileLlm::default()), None, "no endpoint and no key: no LLM");
        let openai = resolve_llm(None, None, Some("sk-1".into()), FileLlm::default()).unwrap().unwrap();
        assert_eq!((openai.base_url.as_str(), openai.model.as_str()), ("https://api.openai.com/v1", "gpt-4o-mini"));
        assert_eq!(openai.api_key.as_deref(), Some("sk-1"));

        let file: FileConfig = toml::from_str(
            "[llm]\nbase_url = \"http://localhost:11434/v1\"\nmodel = \"qwen2.5-coder\"\ntimeout_secs = 300\n\
             [llm.models]\ncritic = \"llama3.2\"\n",
        )
        .unwrap();
        let ollama = none(file.llm.unwrap()).unwrap();
        assert_eq!(ollama.base_url, "http://localhost:11434/v1");
        assert_eq!(ollama.api_key, None);
        assert_eq!((ollama.model_for(Role::Action), ollama.model_for(Role::Critic)), ("qwen2.5-coder", "llama3.2"));
        assert_eq!(ollama.timeout, Duration::from_secs(300));

        let flag = resolve_llm(
            Some("http://127.0.0.1:8080/v1".into()),
            Some("local".into()),
            None,
            FileLlm { base_url: Some("http://elsewhere/v1".into()), ..FileLlm::default() },
        )
        .unwrap()
        .unwrap();
        assert_eq!((flag.base_url.as_str(), flag.model.as_str()), ("http://127.0.0.1:8080/v1", "local"), "flags win");

        let err = resolve_llm(Some("localhost:1234".into()), None, None, FileLlm::default()).unwrap_err();
        assert!(err.to_string().contains("must start with http:// or https://"), "{err}");
        let err = toml::from_str::<FileConfig>("[llm.models]\nplanner = \"x\"").unwrap_err();
        assert!(err.to_string().contains("unknown variant `planner`"), "{err}");
    }

    #[test]
    fn nonsense_llm_settings_are_refused_at_start() {
        let url = |u: &str| resolve_llm(Some(u.into()), None, None, FileLlm::default());
        for bad in ["http://", "https:///v1", "http://local host/v1"] {
            assert!(url(bad).unwrap_err().to_string().contains("is not a URL"), "{bad}");
        }
        let file = |text: &str| toml::from_str::<FileConfig>(text).unwrap().llm.unwrap();
        let err = resolve_llm(Some("http://x/v1".into()), None, None, file("[llm]\nretries = 1000")).unwrap_err();
        assert!(err.to_string().contains("retries = 1000: use 0 to 10"), "{err}");
        let err = resolve_llm(Some("http://x/v1".into()), None, None, file("[llm]\ntimeout_secs = 0")).unwrap_err();
        assert!(err.to_string().contains("timeout_secs = 0"), "{err}");
        let err = resolve_llm(Some("http://x/v1".into()), None, None, file("[llm]\nmodel = \" \"")).unwrap_err();
        assert!(err.to_string().contains("model name"), "{err}");
        let err = resolve_llm(Some("http://x/v1".into()), None, None, file("[llm.models]\ncritic = \"\"")).unwrap_err();
        assert!(err.to_string().contains("model name"), "{err}");
    }

    #[test]
    fn budgets_limits_cache_and_prices_resolve() {
        let text = "[llm]\nbase_url = \"http://localhost:8080/v1\"\nrequests_per_minute = 60\ncache_max_mb = 8\n\
                    [llm.max_tokens]\naction = 2000\n\
                    [llm.budget]\nbot_calls_per_hour = 100\nprocess_tokens_per_day = 2_000_000\n\
                    [llm.prices.\"gpt-4o-mini\"]\ninput = 0.15\noutput = 0.6\n";
        let args = Overrides {
            llm_budget: vec!["bot_calls_per_hour=20".into(), " bot_tokens_per_day = 50_000 ".into()],
            checkpoint: Some(PathBuf::from("/state")),
            ..Overrides::default()
        };
        let llm = merge(args, text).unwrap().llm.unwrap();
        assert_eq!((llm.max_tokens_for(Role::Action), llm.max_tokens_for(Role::Critic)), (2000, 300));
        assert_eq!(llm.requests_per_minute, Some(60));
        let budget: Vec<(&str, u64, u64)> =
            llm.budget.iter().map(|b| (b.key.as_str(), b.limit, b.window.as_secs())).collect();
        assert_eq!(
            budget,
            [
                ("bot_calls_per_hour", 20, 3600),
                ("bot_tokens_per_day", 50_000, 86_400),
                ("process_tokens_per_day", 2_000_000, 86_400)
            ],
            "the flag wins over the file, key by key"
        );
        let cache = llm.cache.clone().unwrap();
        assert_eq!((cache.file, cache.max_bytes), (PathBuf::from("/state/llm-replies.jsonl"), 8 << 20));
        assert_eq!(llm.price_of("gpt-4o-mini"), Some(Price { input: 0.15, output: 0.6 }));
        let off = merge(Overrides::default(), "[llm]\nbase_url = \"http://x/v1\"\ncache = false").unwrap();
        assert_eq!(off.llm.unwrap().cache, None);
    }

    #[test]
    fn bad_budget_settings_are_refused_at_start_naming_the_key() {
        let flag = |pair: &str| merge(Overrides { llm_budget: vec![pair.into()], ..Overrides::default() }, "");
        let err = |result: Result<Config, ConfigError>| result.unwrap_err().to_string();
        assert!(
            err(flag("bot_calls_per_minute=5"))
                .contains("unknown budget \"bot_calls_per_minute\" in --llm-budget: use bot_calls_per_hour")
        );
        assert!(err(flag("bot_calls_per_hour")).contains("is not KEY=NUMBER"));
        assert!(err(flag("bot_calls_per_hour=lots")).contains("bot_calls_per_hour: \"lots\" is not a whole number"));
        assert!(
            err(flag("process_tokens_per_day=0"))
                .contains("budget process_tokens_per_day = 0 in --llm-budget: use a whole number of at least 1")
        );
        let file = |text: &str| err(merge(Overrides::default(), text));
        assert!(file("[llm.budget]\nbot_calls_per_hour = -3").contains("bot_calls_per_hour = -3 in [llm.budget]"));
        assert!(file("[llm.budget]\ncalls = 3").contains("unknown budget \"calls\" in [llm.budget]"));
        let with_llm = |rest: &str| file(&format!("[llm]\nbase_url = \"http://x/v1\"\n{rest}"));
        assert!(with_llm("requests_per_minute = 0").contains("requests_per_minute = 0"));
        assert!(with_llm("cache_max_mb = 0").contains("cache_max_mb = 0"));
        assert!(with_llm("[llm.max_tokens]\naction = 5").contains("max_tokens.action = 5: use 16 to 32768"));
        assert!(with_llm("[llm.prices.x]\ninput = -1\noutput = 1").contains("prices.\"x\""));
        let float = Config::from_toml("[llm.budget]\nbot_calls_per_hour = 1.5", Overrides::default()).unwrap_err();
        assert!(
            float.to_string().contains("bot_calls_per_hour") && float.to_string().contains("expected i64"),
            "{float}"
        );
    }

    #[test]
    fn auth_and_reply_modes_parse_from_words() {
        assert_eq!("Microsoft".parse::<AuthMode>(), Ok(AuthMode::Microsoft));
        assert_eq!("whisper".parse::<ReplyMode>(), Ok(ReplyMode::Whisper));
        assert!("loud".parse::<ReplyMode>().unwrap_err().contains("use public or whisper"));
    }

    #[test]
    fn unknown_file_key_is_an_error() {
        let err = toml::from_str::<FileConfig>("sever = \"x\"").unwrap_err();
        assert!(err.to_string().contains("unknown field `sever`"), "{err}");
    }

    #[test]
    fn server_addresses() {
        assert_eq!(ServerAddress::parse("example.org").unwrap().port, 25565);
        assert_eq!(ServerAddress::parse("127.0.0.1:4000").unwrap().port, 4000);
        assert_eq!(ServerAddress::parse("[::1]:4000").unwrap(), ServerAddress { host: "::1".into(), port: 4000 });
        assert_eq!(ServerAddress::parse("[::1]:4000").unwrap().to_string(), "[::1]:4000");
        for bad in ["", "host:", "host:0", "host:70000", "host:abc", "::1", ":25565", "[::1"] {
            assert!(ServerAddress::parse(bad).is_err(), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn swarm_names_must_fit_sixteen_characters() {
        let args = Overrides { username: Some("FifteenCharName".into()), bots: Some(3), ..Default::default() };
        let err = merge(args, "").unwrap_err();
        assert!(err.to_string().contains("FifteenCharName_3"), "{err}");
    }

    #[test]
    fn microsoft_auth_is_one_bot() {
        let args = Overrides { auth: Some(AuthMode::Microsoft), bots: Some(2), ..Default::default() };
        assert!(matches!(merge(args, ""), Err(ConfigError::Bots { .. })));
    }

    #[test]
    fn bad_owner_and_prefix_are_rejected() {
        let args = Overrides { owners: vec!["not a name".into()], ..Default::default() };
        assert!(matches!(merge(args, ""), Err(ConfigError::Owner { .. })));
        let args = Overrides { prefix: Some("/".into()), ..Default::default() };
        assert!(matches!(merge(args, ""), Err(ConfigError::Prefix { .. })));
    }

    #[test]
    fn backoff_doubles_up_to_max() {
        let b = Backoff { initial: Duration::from_secs(1), max: Duration::from_secs(10) };
        let delays: Vec<u64> = (1..=6).map(|a| b.delay(a).as_secs()).collect();
        assert_eq!(delays, [1, 2, 4, 8, 10, 10]);
        assert_eq!(b.delay(200), Duration::from_secs(10));
    }

    #[test]
    fn reconnect_section_is_validated() {
        let config = merge(Overrides::default(), "[reconnect]\ninitial_delay_secs = 0.5\nmax_delay_secs = 4").unwrap();
        assert_eq!(config.reconnect.initial, Duration::from_millis(500));
        assert!(merge(Overrides::default(), "[reconnect]\ninitial_delay_secs = 9\nmax_delay_secs = 4").is_err());
    }
}
