//! One resolved configuration: defaults, then `wayfarer.toml`, then `WAYFARER_*` environment variables and flags.
//!
//! Everything is validated here, once; the rest of the program receives a [`Config`] and never reads flags, files or
//! the environment itself.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use serde::{Deserialize, Serialize};

mod file;
mod language;
mod llm;
mod memory;
mod team;

pub use file::*;
pub use language::Lang;
pub use llm::*;
pub use memory::*;
pub use team::*;

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

/// How the bots authenticate with the server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum AuthMode {
    /// No account: the server must run with `online-mode=false`.
    #[default]
    Offline,
    /// A Microsoft account, signed in with a device code the first time and cached afterwards.
    Microsoft,
}

/// Where a bot's replies to chat commands go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ReplyMode {
    /// Public chat, seen by everyone.
    #[default]
    Public,
    /// A private message (`/msg`) to the player who gave the command.
    Whisper,
}

/// Settings given on the command line or in `WAYFARER_*` variables, before they are checked: each one, when present,
/// wins over `wayfarer.toml`. These are `wayfarer run`'s (and `learn`'s) flags: each flag, its variable and its help
/// are defined here once.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Overrides {
    /// Server to join: HOST or HOST:PORT (port defaults to 25565) [default: localhost]
    #[arg(long, short, env = "WAYFARER_SERVER", value_name = "HOST[:PORT]")]
    pub server: Option<String>,

    /// Player name (offline auth) or Microsoft account e-mail (microsoft auth) [default: Wayfarer]
    #[arg(long, short, env = "WAYFARER_USERNAME", value_name = "NAME")]
    pub username: Option<String>,

    /// How to log in: `offline` for servers with online-mode=false, `microsoft` for real accounts [default: offline]
    #[arg(long, env = "WAYFARER_AUTH", value_name = "offline|microsoft", ignore_case = true)]
    pub auth: Option<AuthMode>,

    /// A player allowed to command the bots; repeat the flag for several (env: comma-separated)
    #[arg(long = "owner", env = "WAYFARER_OWNERS", value_delimiter = ',', value_name = "PLAYER")]
    pub owners: Vec<String>,

    /// The language a player is answered in: en, vi, fr, zh, de or es; repeat for several (env: comma-separated)
    /// [default: learned from what each owner writes, English until then]
    #[arg(
        long = "owner-language",
        env = "WAYFARER_OWNER_LANGUAGES",
        value_delimiter = ',',
        value_name = "PLAYER=LANG"
    )]
    pub owner_languages: Vec<String>,

    /// Run N bots in one process, named NAME_1..NAME_N [default: 1]
    #[arg(long, env = "WAYFARER_BOTS", value_name = "N")]
    pub bots: Option<usize>,

    /// What chat commands start with [default: !]
    #[arg(long, env = "WAYFARER_PREFIX", value_name = "TEXT")]
    pub prefix: Option<String>,

    /// Where replies go: `public` chat, or `whisper` (/msg) to the player who asked [default: public]
    #[arg(long, env = "WAYFARER_REPLY", value_name = "public|whisper", ignore_case = true)]
    pub reply: Option<ReplyMode>,

    /// Folder of hand-written Rhai scripts for `!run`, reloaded when files change [default: scripts]
    #[arg(long, env = "WAYFARER_SCRIPTS", value_name = "DIR")]
    pub scripts: Option<PathBuf>,

    /// Skill library folder: NAME.rhai + NAME.json per skill, reloaded when files change [default: skills]
    #[arg(long, env = "WAYFARER_SKILLS", value_name = "DIR")]
    pub skills: Option<PathBuf>,

    /// Folder of blueprints for `!build NAME` (.txt, .nbt, .schem) [default: skills/blueprints]
    #[arg(long, env = "WAYFARER_BLUEPRINTS", value_name = "DIR")]
    pub blueprints: Option<PathBuf>,

    /// Folder with the embedding model and ONNX Runtime, filled by `make models` [default: ~/.cache/wayfarer/models]
    #[arg(long, env = "WAYFARER_MODELS", value_name = "DIR")]
    pub models: Option<PathBuf>,

    /// OpenAI-compatible endpoint for `!task`, up to /v1 (Ollama: http://localhost:11434/v1) [default: OpenAI's when
    /// OPENAI_API_KEY is set]
    #[arg(long, env = "WAYFARER_LLM_URL", value_name = "URL")]
    pub llm_url: Option<String>,

    /// Model name at that endpoint [default: gpt-4o-mini]
    #[arg(long, env = "WAYFARER_LLM_MODEL", value_name = "MODEL")]
    pub llm_model: Option<String>,

    /// An LLM budget, KEY=N: bot_ or process_, calls_ or tokens_, per_hour or per_day (e.g. bot_calls_per_hour=100);
    /// repeat the flag for several (env: comma-separated). Spent, LLM work pauses until it refills
    #[arg(long = "llm-budget", env = "WAYFARER_LLM_BUDGET", value_delimiter = ',', value_name = "KEY=N")]
    pub llm_budget: Vec<String>,

    /// Folder where learning keeps, in one folder per bot, its tasks, question cache and event log [default:
    /// ~/.local/state/wayfarer/checkpoint]
    #[arg(long, env = "WAYFARER_CHECKPOINT", value_name = "DIR")]
    pub checkpoint: Option<PathBuf>,

    /// Team role: `leader` makes the first bot lead the others (and any --worker) on `!team GOAL` [default: none]
    #[arg(long, env = "WAYFARER_ROLE", value_name = "leader|worker", ignore_case = true)]
    pub role: Option<TeamRole>,

    /// A bot whose assignments these bots take, as they take their owners' commands
    #[arg(long, env = "WAYFARER_LEADER", value_name = "BOT")]
    pub leader: Option<String>,

    /// A bot of another process that this leader hands work to; repeat for several (env: comma-separated)
    #[arg(long = "worker", env = "WAYFARER_WORKERS", value_delimiter = ',', value_name = "BOT")]
    pub workers: Vec<String>,

    /// Keep no memory stream (what the bot saw, heard and did; `!recall`) [default: kept, per bot, in the checkpoint
    /// folder]
    #[arg(long, env = "WAYFARER_NO_MEMORY")]
    pub no_memory: bool,

    /// Let the LLM plan and write the code of every goal the game's facts do not cover, even those whose words say
    /// what to do (`build a wall of cobblestone 3 long and 2 high`, `put 4 planks into the chest`): to measure a
    /// model alone [default: such goals are planned from their words]
    #[arg(long, env = "WAYFARER_NO_PLAN_FROM_WORDS")]
    pub no_plan_from_words: bool,

    /// The fleet's shared skill library, in PostgreSQL: postgres://USER@HOST:PORT/DB (or libpq's `host=… port=…`)
    /// [default: the skills folder alone]
    #[arg(long, env = "WAYFARER_STORE", value_name = "URL")]
    pub store: Option<String>,

    /// Serve the live dashboard (a web page to watch and command the bots) at [IP:]PORT: a port alone (8080) is on
    /// this machine only (127.0.0.1); any address other than loopback needs a token (WAYFARER_DASHBOARD_TOKEN, or one
    /// is made and printed at start)
    #[arg(long, env = "WAYFARER_DASHBOARD", value_name = "[IP:]PORT")]
    pub dashboard: Option<String>,

    /// The dashboard's token (read from the environment only, so it stays out of the process list)
    #[arg(skip = std::env::var("WAYFARER_DASHBOARD_TOKEN").ok())]
    pub dashboard_token: Option<String>,

    /// API key for the endpoint (read from the environment only)
    #[arg(skip = std::env::var("OPENAI_API_KEY").ok())]
    pub llm_key: Option<String>,

    /// Configuration file [default: ./wayfarer.toml when it exists]
    #[arg(long, short, env = "WAYFARER_CONFIG", value_name = "FILE")]
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
    #[error("invalid owner language in {origin}: {message}")]
    Language { origin: String, message: String },
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
    /// The language each player named here is answered in, by lower-case name; the others' is learned from what they
    /// write.
    pub languages: std::collections::BTreeMap<String, Lang>,
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
    /// Where `!build NAME` finds blueprints.
    pub blueprints_dir: PathBuf,
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
    /// The fleet's shared store (`[store] url`), when one is configured.
    pub store: Option<String>,
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
        let languages = language::resolve_languages(&file.languages, &args.owner_languages)?;
        let bots = args.bots.or(file.bots).unwrap_or(1);
        let prefix = args.prefix.or(file.prefix).unwrap_or_else(|| "!".to_owned());
        let reply = args.reply.or(file.reply).unwrap_or_default();
        let reconnect = file.reconnect.unwrap_or_default().resolve()?;
        let scripts_dir = args.scripts.or(file.scripts_dir).unwrap_or_else(|| PathBuf::from("scripts"));
        let skills_dir = args.skills.or(file.skills_dir).unwrap_or_else(|| PathBuf::from("skills"));
        let blueprints_dir =
            args.blueprints.or(file.blueprints_dir).unwrap_or_else(|| PathBuf::from("skills/blueprints"));
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
        // Checked as a connection string when the store is first used (`crate::store::check_url`): this layer knows
        // no PostgreSQL.
        let store = args.store.or(file.store.and_then(|s| s.url)).filter(|url| !url.trim().is_empty());
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
            languages,
            bots,
            prefix,
            reply,
            reconnect,
            scripts_dir,
            script_time_limit,
            skills_dir,
            blueprints_dir,
            models_dir,
            llm,
            checkpoint_dir,
            plan_from_words: file.plan_from_words.unwrap_or(true) && !args.no_plan_from_words,
            store,
        })
    }
}

/// True if `name` is a valid Minecraft player name of at least `min_len` characters.
pub fn is_player_name(name: &str, min_len: usize) -> bool {
    (min_len..=MAX_NAME_LEN).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Which of the bot's reflexes are on (`[reflexes]` in wayfarer.toml; every one is on unless set to false).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Reflexes {
    /// Eat when food is 14 or less, or when hurt and not full; best food first.
    pub eat: bool,
    /// Hit back at a monster within reach, and charge a skeleton in sight within 15 blocks when carrying a weapon,
    /// with the best weapon carried.
    pub defend: bool,
    /// Run from a creeper within 6 blocks, from three monsters within 8, and from monsters when health is 6 or less
    /// (a lone zombie or spider is fought instead when the bot carries a weapon).
    pub flee: bool,
    /// Outnumbered (two monsters within 8, zombies among them) and carrying three dirt or stone blocks: build a
    /// three-block pillar and fight from its top, out of a zombie's reach, instead of running.
    pub perch: bool,
    /// Head for air when breath runs low under water.
    pub breathe: bool,
    /// Get out of lava and fire.
    pub escape_fire: bool,
    /// After a death, say so, and go back for the dropped items when it is safe.
    pub recover: bool,
    /// Hungry (food below 18) and carrying no food: kill a farm animal within 12 blocks for its meat.
    pub hunt: bool,
    /// At night in the open with monsters about: dig in three blocks, close the hole overhead, wait for morning (not
    /// during a `killMob` hunt).
    pub shelter: bool,
    /// Hurt (health 10 or less) with a monster in sight within 12 blocks: dig in, close the hole overhead and wait
    /// there until healed (when food lets health come back).
    pub hide: bool,
}

impl Default for Reflexes {
    fn default() -> Self {
        Self {
            eat: true,
            defend: true,
            flee: true,
            perch: true,
            breathe: true,
            escape_fire: true,
            recover: true,
            hunt: true,
            shelter: true,
            hide: true,
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
    // A port alone (`8080`, `:8080`) is on this machine only: loopback unless an address is given.
    let trimmed = text.trim();
    let port_only = trimmed.strip_prefix(':').unwrap_or(trimmed).parse::<u16>().ok();
    let address = match port_only {
        Some(port) => std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        None => trimmed.parse::<std::net::SocketAddr>().map_err(|_| {
            ConfigError::Dashboard(format!(
                "address {text:?} is not PORT or IP:PORT (e.g. 8080 for this machine only, or 0.0.0.0:8080 with a \
                 token)"
            ))
        })?,
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn merge(args: Overrides, file: &str) -> Result<Config, ConfigError> {
        Config::merge(args, toml::from_str(file).expect("test file parses"))
    }

    /// The defaults the flags' help states are the ones a run gets, and the configuration reference says the same:
    /// each default is defined once (in the resolver) and checked where it is quoted.
    #[test]
    fn the_help_and_the_reference_state_the_real_defaults() {
        use clap::CommandFactory;
        #[derive(clap::Parser)]
        struct Run {
            #[command(flatten)]
            overrides: Overrides,
        }
        let defaults =
            Config::from_toml("", Overrides { llm_url: Some("http://x/v1".into()), ..Default::default() }).unwrap();
        let llm = defaults.llm.as_ref().unwrap();
        let expected = [
            ("server", defaults.server.host.clone()),
            ("username", defaults.username.clone()),
            ("auth", format!("{:?}", defaults.auth).to_lowercase()),
            ("bots", defaults.bots.to_string()),
            ("prefix", defaults.prefix.clone()),
            ("reply", format!("{:?}", defaults.reply).to_lowercase()),
            ("scripts", defaults.scripts_dir.display().to_string()),
            ("skills", defaults.skills_dir.display().to_string()),
            ("blueprints", defaults.blueprints_dir.display().to_string()),
            ("llm_model", llm.model.clone()),
        ];
        let command = Run::command();
        let reference = include_str!("../docs/configuration.md");
        for (id, value) in expected {
            let arg = command.get_arguments().find(|a| a.get_id() == id).unwrap_or_else(|| panic!("no flag {id}"));
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            assert!(
                help.ends_with(&format!("[default: {value}]")),
                "--{id}'s help: {help:?}, but the default is {value}"
            );
            let flag = format!("`--{}", arg.get_long().unwrap());
            let row =
                reference.lines().find(|l| l.starts_with(&format!("| {flag}"))).unwrap_or_else(|| panic!("{flag}"));
            let last = row.trim_end_matches('|').rsplit('|').next().unwrap().trim();
            assert!(last.contains(&value), "configuration.md says {last:?} for {flag}, but the default is {value}");
        }
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
        let example = include_str!("../docs/wayfarer.example.toml");
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
    fn the_store_resolves_from_flag_or_file() {
        assert_eq!(merge(Overrides::default(), "").unwrap().store, None, "the folder alone unless asked for");
        let from_file = merge(Overrides::default(), "[store]\nurl = \"postgres://wf@db/fleet\"").unwrap();
        assert_eq!(from_file.store.as_deref(), Some("postgres://wf@db/fleet"));
        let flag = Overrides { store: Some("host=/tmp/pg port=5433 user=wf".into()), ..Default::default() };
        let config = merge(flag, "[store]\nurl = \"postgres://wf@db/fleet\"").unwrap();
        assert_eq!(config.store.as_deref(), Some("host=/tmp/pg port=5433 user=wf"), "the flag wins");
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
        assert!(err("localhost", "").contains("is not PORT or IP:PORT"));
        // A port alone is this machine only.
        for port in ["8080", ":8080", " 8080 "] {
            let config = asked(port, "").unwrap().dashboard.unwrap();
            assert_eq!(config.address, "127.0.0.1:8080".parse().unwrap(), "{port:?}");
        }
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
        assert_eq!(<TeamRole as clap::ValueEnum>::from_str("Leader", true), Ok(TeamRole::Leader));
        assert!(<TeamRole as clap::ValueEnum>::from_str("chief", true).is_err());
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
        assert_eq!(<AuthMode as clap::ValueEnum>::from_str("Microsoft", true), Ok(AuthMode::Microsoft));
        assert_eq!(<ReplyMode as clap::ValueEnum>::from_str("whisper", true), Ok(ReplyMode::Whisper));
        assert!(<ReplyMode as clap::ValueEnum>::from_str("loud", true).is_err());
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
