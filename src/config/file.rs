//! `wayfarer.toml` as written: the serde mirror of the file, every key optional, unknown keys refused.

use super::*;

/// `wayfarer.toml` as written by a user. Unknown keys are errors, so a typo never goes unnoticed.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    pub server: Option<String>,
    pub username: Option<String>,
    pub auth: Option<AuthMode>,
    #[serde(default)]
    pub owners: Vec<String>,
    /// `[languages]`: `Alice = "fr"`, the language a player is answered in.
    #[serde(default)]
    pub languages: std::collections::BTreeMap<String, String>,
    pub bots: Option<usize>,
    pub prefix: Option<String>,
    pub reply: Option<ReplyMode>,
    pub reconnect: Option<FileBackoff>,
    pub scripts_dir: Option<PathBuf>,
    pub script_time_limit_secs: Option<u64>,
    pub skills_dir: Option<PathBuf>,
    pub blueprints_dir: Option<PathBuf>,
    pub models_dir: Option<PathBuf>,
    pub llm: Option<FileLlm>,
    pub checkpoint_dir: Option<PathBuf>,
    pub reflexes: Option<Reflexes>,
    pub team: Option<FileTeam>,
    pub memory: Option<FileMemory>,
    pub dashboard: Option<FileDashboard>,
    pub plan_from_words: Option<bool>,
    pub store: Option<FileStore>,
}

/// `[store]` in `wayfarer.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileStore {
    /// `postgres://wf@db.example:5432/wayfarer`: the fleet's shared skill library.
    pub url: Option<String>,
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

/// `[reconnect]` in `wayfarer.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileBackoff {
    pub initial_delay_secs: Option<f64>,
    pub max_delay_secs: Option<f64>,
}

impl FileBackoff {
    pub(super) fn resolve(self) -> Result<Backoff, ConfigError> {
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
