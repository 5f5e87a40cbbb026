//! The LLM's settings: the endpoint and models, answer limits per role, budgets, the reply cache and prices.

use super::*;

/// LLM retries beyond this only delay the failure a user needs to see.
const MAX_LLM_RETRIES: u32 = 10;
/// No wait between two LLM retries is longer than this, whatever the backoff or a `Retry-After` header says.
pub const MAX_LLM_BACKOFF: Duration = Duration::from_secs(30);
/// No role's answer may be allowed more tokens than this.
const MAX_ANSWER_TOKENS: i64 = 32_768;

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
    /// Reading an owner's words in another language as English: a goal, a skill search, a question to memory.
    Translate,
}

impl Role {
    pub const ALL: [Role; 7] =
        [Role::Curriculum, Role::Action, Role::Critic, Role::Description, Role::Leader, Role::Memory, Role::Translate];

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
            Role::Translate => 150,
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
            Role::Translate => "translate",
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

/// The LLM settings: `--llm-url`/`WAYFARER_LLM_URL`, `--llm-model`/`WAYFARER_LLM_MODEL` and `OPENAI_API_KEY` over
/// `[llm]`. Configured when an endpoint or a key is given; a key alone means OpenAI.
pub(super) fn resolve_llm(
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
