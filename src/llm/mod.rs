//! One OpenAI-compatible chat-completions client for every LLM role.
//!
//! `POST {base_url}/chat/completions` is the one API OpenAI, Ollama (`http://localhost:11434/v1`), llama.cpp server
//! (`http://localhost:8080/v1`), vLLM (`http://localhost:8000/v1`), LM Studio (`http://localhost:1234/v1`) and
//! OpenRouter (`https://openrouter.ai/api/v1`) all serve. Each role may use its own model.
//!
//! What a call goes through, in order:
//! - the reply cache ([`cache`]): a deterministic request (temperature 0) asked before is answered from it (an answer
//!   that was cut at its limit, again as one);
//! - the budgets ([`budget`]): a spent one pauses the call until it refills, saying so through the caller's
//!   [`Notice`]s;
//! - the endpoint's rate limiter ([`limiter`]), shared by every bot of the process;
//! - the request, with `max_tokens` for its role and stop sequences where the format allows. 429, 5xx, connection
//!   failures and cut-off or unreadable bodies are retried with exponential backoff, nothing else is, and all the
//!   attempts of one call share one time limit. An answer cut at `max_tokens` is unusable and says so.
//!
//! Every call's calls, tokens and cache hits are counted per role and per task, for each bot and for the process.

use std::{
    collections::BTreeMap,
    sync::Arc,
    time::{Duration, Instant},
};

use parking_lot::{Mutex, MutexGuard};

use crate::config::MAX_LLM_BACKOFF;

pub mod budget;
pub mod cache;
pub mod limiter;
pub mod wire;
use budget::{Ledger, Spent};
use wire::Request;
pub use wire::{Message, Usage};

#[cfg(test)]
#[path = "../../tests/support/fake_llm.rs"]
pub mod fake;

pub use crate::config::{LlmConfig, Price, Role};

/// Why a call failed, after any retries.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("the LLM endpoint {url} could not be reached: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("the LLM endpoint did not answer within {}", budget::human(*.0))]
    Timeout(Duration),
    #[error("the LLM endpoint answered {status}: {body}")]
    Status { status: u16, body: String },
    /// A 200 reply that is not a whole chat completion (cut off, not JSON, no message); `body` is its start.
    #[error("the LLM endpoint's reply is not a chat completion ({reason}); it began: {body:?}")]
    Malformed { reason: String, body: String },
    /// The answer reached its role's `max_tokens` before it ended: whatever it was writing is incomplete.
    #[error("the {} answer was cut off at its limit of {max_tokens} tokens (max_tokens.{} in [llm] sets it)", role.name(), role.name())]
    CutOff { role: Role, max_tokens: u32, content: String },
    #[error("the HTTP client cannot start: {0}")]
    Setup(String),
    #[error(
        "no LLM is configured: start me with WAYFARER_LLM_URL (and WAYFARER_LLM_MODEL), or OPENAI_API_KEY for OpenAI"
    )]
    NotConfigured,
}

impl LlmError {
    /// Worth trying again: rate limits, server errors, and failures to connect or answer in time.
    fn retryable(&self) -> bool {
        match self {
            // A cut-off or garbled body is a fault on the way, as a 5xx is; asking again usually gets a whole one.
            LlmError::Unreachable { .. } | LlmError::Timeout(_) | LlmError::Malformed { .. } => true,
            LlmError::Status { status, .. } => *status == 429 || *status >= 500,
            // The same request would be cut at the same place.
            LlmError::CutOff { .. } | LlmError::Setup(_) | LlmError::NotConfigured => false,
        }
    }
}

/// A completion's text and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub content: String,
    pub usage: Usage,
    /// Answered from the reply cache: no request was made and nothing was spent.
    pub cached: bool,
}

/// What a call tells its caller while it waits.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// The endpoint has not answered after this long (said once per call).
    Slow(Duration),
    /// A budget is spent: the call waits until it refills.
    Paused(Spent),
}

/// Tasks whose use `!usage` remembers, per meter.
const TASKS_KEPT: usize = 12;

/// Calls, tokens and cache hits, per role and per task.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub roles: BTreeMap<Role, Usage>,
    /// Answers from the reply cache, per role (not in `roles`: they cost nothing).
    pub cached: BTreeMap<Role, u64>,
    /// The latest tasks' use, oldest first.
    pub tasks: Vec<(String, BTreeMap<Role, Usage>)>,
}

impl Tally {
    fn add(&mut self, role: Role, task: &str, usage: Usage) {
        self.roles.entry(role).or_default().add(usage);
        let entry = match self.tasks.iter().position(|(t, _)| t == task) {
            Some(i) => &mut self.tasks[i].1,
            None => {
                if self.tasks.len() >= TASKS_KEPT {
                    self.tasks.remove(0);
                }
                self.tasks.push((task.to_owned(), BTreeMap::new()));
                &mut self.tasks.last_mut().expect("just pushed").1
            }
        };
        entry.entry(role).or_default().add(usage);
    }

    /// All roles together.
    pub fn total(&self) -> Usage {
        sum(&self.roles)
    }

    pub fn cache_hits(&self) -> u64 {
        self.cached.values().sum()
    }
}

type Meter = Mutex<Tally>;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every write is a whole update under the lock: a panic elsewhere cannot leave one half-done.
    mutex.lock()
}

/// What a bot's client is waiting for, for `!status`.
#[derive(Clone, Debug)]
enum Waiting {
    Answer { role: Role, since: Instant },
    RateLimit { role: Role, since: Instant },
    Budget { spent: Spent, since: Instant },
}

/// The client. Every bot gets its own ([`Llm::for_bot`]): one connection pool, rate limiter, reply cache and
/// process-wide total, and a meter and budget ledger of its own.
pub struct Llm {
    endpoint: Arc<Endpoint>,
    meter: Meter,
    ledger: Ledger,
    waiting: Mutex<Option<Waiting>>,
    /// What the calls are for now (`!usage` counts per task).
    task: Mutex<String>,
    /// False for [`Llm::disabled`]: every call fails at once with [`LlmError::NotConfigured`].
    enabled: bool,
}

/// What every bot's client shares.
struct Endpoint {
    config: LlmConfig,
    http: reqwest::Client,
    process: Meter,
    ledger: Ledger,
    limiter: limiter::Limiter,
    cache: Option<cache::ReplyCache>,
    /// The schemas' top-level types (`object`, `array`) the endpoint refused in a `response_format`: later answers of
    /// that kind are asked in words only (OpenAI takes an object at the top, llama.cpp's server also an array).
    formats_refused: Mutex<std::collections::BTreeSet<String>>,
}

impl std::fmt::Debug for Llm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let config = &self.endpoint.config;
        f.debug_struct("Llm").field("base_url", &config.base_url).field("model", &config.model).finish()
    }
}

/// The longest error body quoted back.
const MAX_ERROR_BODY: usize = 300;

/// The first `max` characters of `text` (never cut inside a character).
fn bounded(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// Where a role's answer ends, when its format says: a description is prose, never code.
fn stop_sequences(role: Role) -> &'static [&'static str] {
    match role {
        Role::Description => &["```"],
        Role::Curriculum | Role::Action | Role::Critic | Role::Leader | Role::Memory | Role::Translate => &[],
    }
}

/// Clears the client's waiting state when the call ends, however it ends (a `!stop` drops it mid-wait).
struct WaitGuard<'a>(&'a Mutex<Option<Waiting>>);

impl WaitGuard<'_> {
    fn set(&self, waiting: Waiting) {
        *lock(self.0) = Some(waiting);
    }
}

impl Drop for WaitGuard<'_> {
    fn drop(&mut self) {
        *lock(self.0) = None;
    }
}

/// One request's failure, with what the response said of the endpoint's limits.
type Failure = (LlmError, Option<limiter::Headers>);

impl Llm {
    pub fn new(config: LlmConfig) -> Result<Self, LlmError> {
        // Each attempt gets what is left of the call's time limit; this is the outer bound.
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|err| LlmError::Setup(err.to_string()))?;
        let limiter = limiter::Limiter::new(config.requests_per_minute, config.tokens_per_minute);
        let cache = config.cache.as_ref().map(cache::ReplyCache::open);
        let endpoint = Arc::new(Endpoint {
            config,
            http,
            process: Meter::default(),
            ledger: Ledger::default(),
            limiter,
            cache,
            formats_refused: Default::default(),
        });
        Ok(Self::on(endpoint, true))
    }

    fn on(endpoint: Arc<Endpoint>, enabled: bool) -> Self {
        Self {
            endpoint,
            meter: Meter::default(),
            ledger: Ledger::default(),
            waiting: Mutex::new(None),
            task: Mutex::new(String::new()),
            enabled,
        }
    }

    /// A client for a bot with no LLM: what needs none (`!task` goals the game's facts plan, with the code they
    /// come with) still works, and every call fails at once saying how to configure one.
    pub fn disabled() -> Self {
        let config = LlmConfig::default();
        let limiter = limiter::Limiter::new(None, None);
        let endpoint = Endpoint {
            config,
            http: reqwest::Client::new(),
            process: Meter::default(),
            ledger: Ledger::default(),
            limiter,
            cache: None,
            formats_refused: Default::default(),
        };
        Self::on(Arc::new(endpoint), false)
    }

    /// Whether an LLM is configured (see [`Llm::disabled`]).
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// A client on the same endpoint, connection pool, rate limiter, cache and process total, with a meter and
    /// budget ledger of its own.
    pub fn for_bot(&self) -> Self {
        Self::on(self.endpoint.clone(), self.enabled)
    }

    pub fn config(&self) -> &LlmConfig {
        &self.endpoint.config
    }

    /// Names what the next calls are for (a `!task` goal, a learning task): `!usage` counts per task.
    pub fn begin_task(&self, task: &str) {
        *lock(&self.task) = task.to_owned();
    }

    /// One completion for `role`, as the module says; waits quietly when a budget is spent.
    pub async fn chat(&self, role: Role, messages: &[Message], temperature: f32) -> Result<Reply, LlmError> {
        self.chat_watched(role, messages, temperature, &|_| {}).await
    }

    /// [`Llm::chat`], telling `notice` when the answer is slow (after `slow_after`, once) and when a budget pauses it.
    pub async fn chat_watched(
        &self,
        role: Role,
        messages: &[Message],
        temperature: f32,
        notice: &impl Fn(Notice),
    ) -> Result<Reply, LlmError> {
        self.call(role, messages, temperature, None, notice).await
    }

    /// [`Llm::chat`] for an answer that is one JSON value of `schema`'s shape: the endpoint is asked to hold the answer
    /// to the schema (`response_format`, as OpenAI's API and llama.cpp's server take it). An endpoint that refuses
    /// the field (a 400 or 422) is asked again without it, and from then on only in words; the caller checks the
    /// answer either way.
    pub async fn chat_json(
        &self,
        role: Role,
        messages: &[Message],
        temperature: f32,
        schema: &serde_json::Value,
    ) -> Result<Reply, LlmError> {
        self.chat_shaped(role, messages, temperature, Some(schema), &|_| {}).await
    }

    /// [`Llm::chat_watched`] with the answer held to `schema` when there is one, as [`Llm::chat_json`] says.
    pub async fn chat_shaped(
        &self,
        role: Role,
        messages: &[Message],
        temperature: f32,
        schema: Option<&serde_json::Value>,
        notice: &impl Fn(Notice),
    ) -> Result<Reply, LlmError> {
        let root = schema.and_then(|schema| schema["type"].as_str()).unwrap_or("object").to_owned();
        if let Some(schema) = schema
            && !lock(&self.endpoint.formats_refused).contains(&root)
        {
            let format = serde_json::json!({
                "type": "json_schema",
                "json_schema": { "name": "answer", "schema": schema },
            });
            match self.call(role, messages, temperature, Some(&format), notice).await {
                Err(LlmError::Status { status: 400 | 422, body }) => {
                    tracing::warn!(
                        "the endpoint refused a response_format ({body}); asking for an {root} in words only"
                    );
                    lock(&self.endpoint.formats_refused).insert(root);
                }
                answered => return answered,
            }
        }
        self.call(role, messages, temperature, None, notice).await
    }

    async fn call(
        &self,
        role: Role,
        messages: &[Message],
        temperature: f32,
        format: Option<&serde_json::Value>,
        notice: &impl Fn(Notice),
    ) -> Result<Reply, LlmError> {
        if !self.enabled {
            return Err(LlmError::NotConfigured);
        }
        let config = self.config();
        let (model, max_tokens, stop) = (config.model_for(role), config.max_tokens_for(role), stop_sequences(role));
        let key = (temperature == 0.0 && self.endpoint.cache.is_some())
            .then(|| cache::key(&config.base_url, model, messages, max_tokens, stop, format));
        if let (Some(cache), Some(key)) = (&self.endpoint.cache, &key)
            && let Some(kept) = cache.get(key)
        {
            tracing::debug!(
                "{} answer from the reply cache ({} tokens not spent)",
                role.name(),
                kept.usage.total_tokens()
            );
            for meter in [&self.meter, &self.endpoint.process] {
                *lock(meter).cached.entry(role).or_default() += 1;
            }
            if kept.cut {
                return Err(LlmError::CutOff { role, max_tokens, content: kept.content });
            }
            return Ok(Reply { content: kept.content, usage: Usage::default(), cached: true });
        }
        let waiting = WaitGuard(&self.waiting);
        let ticket = loop {
            match budget::admit(&self.ledger, &self.endpoint.ledger, &config.budget, Instant::now()) {
                Ok(ticket) => break ticket,
                Err(spent) => {
                    tracing::warn!("{} call paused: {spent}", role.name());
                    waiting.set(Waiting::Budget { spent: spent.clone(), since: Instant::now() });
                    let wait = spent.refills_in + Duration::from_millis(50);
                    notice(Notice::Paused(spent));
                    tokio::time::sleep(wait).await;
                }
            }
        };
        let ledgers = [&self.ledger, &self.endpoint.ledger];
        let asked = Instant::now();
        let call = self.attempts(role, model, messages, temperature, max_tokens, stop, format, &waiting);
        let mut call = std::pin::pin!(call);
        let answered = tokio::select! {
            answered = &mut call => answered,
            () = tokio::time::sleep(config.slow_after) => {
                notice(Notice::Slow(config.slow_after));
                call.await
            }
        };
        match answered {
            Ok(answer) => {
                let millis = u64::try_from(asked.elapsed().as_millis()).unwrap_or(u64::MAX);
                self.count(role, Usage { millis, ..answer.usage });
                budget::settle(ledgers, ticket, answer.usage.total_tokens());
                let kept = cache::Kept { cut: answer.cut_at_limit(), content: answer.content, usage: answer.usage };
                if let (Some(cache), Some(key)) = (&self.endpoint.cache, key) {
                    cache.put(key, model, &kept);
                }
                if kept.cut {
                    return Err(LlmError::CutOff { role, max_tokens, content: kept.content });
                }
                Ok(Reply { content: kept.content, usage: kept.usage, cached: false })
            }
            Err(err) => {
                budget::withdraw(ledgers, ticket);
                Err(err)
            }
        }
    }

    fn count(&self, role: Role, usage: Usage) {
        let task = lock(&self.task).clone();
        for meter in [&self.meter, &self.endpoint.process] {
            lock(meter).add(role, &task, usage);
        }
    }

    /// The request and its retries, within the configured time limit for all of them together.
    #[allow(clippy::too_many_arguments)]
    async fn attempts(
        &self,
        role: Role,
        model: &str,
        messages: &[Message],
        temperature: f32,
        max_tokens: u32,
        stop: &[&str],
        response_format: Option<&serde_json::Value>,
        waiting: &WaitGuard<'_>,
    ) -> Result<wire::Answer, LlmError> {
        let config = self.config();
        let body = Request { model, messages, temperature, max_tokens, stop, response_format };
        let prompt_chars: usize = messages.iter().map(|m| m.content.len()).sum();
        let estimate = prompt_chars as u64 / 4 + u64::from(max_tokens);
        let mut deadline: Option<Instant> = None;
        let mut attempt = 0;
        loop {
            waiting.set(Waiting::RateLimit { role, since: Instant::now() });
            let (pass, waited) = self.endpoint.limiter.pass(estimate).await;
            if waited > Duration::from_millis(100) {
                tracing::debug!("{} call waited {:.1} s for the rate limit", role.name(), waited.as_secs_f64());
            }
            // The time limit starts with the first request, not in the queue before it.
            let deadline = *deadline.get_or_insert_with(|| Instant::now() + config.timeout);
            let left = deadline.saturating_duration_since(Instant::now());
            waiting.set(Waiting::Answer { role, since: Instant::now() });
            let result = if left.is_zero() {
                Err((LlmError::Timeout(config.timeout), None))
            } else {
                self.once(role, &body, left).await
            };
            match result {
                Ok((answer, headers)) => {
                    self.endpoint.limiter.settle(pass, answer.usage.total_tokens());
                    self.endpoint.limiter.learn(&headers, None, Instant::now());
                    return Ok(answer);
                }
                Err((err, headers)) => {
                    let retry_after = headers.as_ref().and_then(|h| h.retry_after);
                    let backoff = retry_wait(config.backoff, attempt, None);
                    // A 429 holds every bot back (for its Retry-After, else this call's backoff).
                    let rate_limited = matches!(err, LlmError::Status { status: 429, .. }).then_some(backoff);
                    let paused =
                        headers.as_ref().and_then(|h| self.endpoint.limiter.learn(h, rate_limited, Instant::now()));
                    let wait = retry_wait(config.backoff, attempt, retry_after.or(paused));
                    let err = match err {
                        // A timeout means the whole call's time is up.
                        LlmError::Timeout(_) => LlmError::Timeout(config.timeout),
                        err => err,
                    };
                    let time_left = deadline.saturating_duration_since(Instant::now());
                    if !err.retryable() || attempt >= config.retries || wait >= time_left {
                        return Err(err);
                    }
                    tracing::warn!("{} call failed ({err}); retrying in {:.1} s", role.name(), wait.as_secs_f64());
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
            }
        }
    }

    async fn once(
        &self,
        role: Role,
        body: &Request<'_>,
        time_left: Duration,
    ) -> Result<(wire::Answer, limiter::Headers), Failure> {
        let config = self.config();
        let url = format!("{}/chat/completions", config.base_url.trim_end_matches('/'));
        let mut request = self.endpoint.http.post(&url).json(body).timeout(time_left);
        if let Some(key) = &config.api_key {
            request = request.bearer_auth(key);
        }
        let started = Instant::now();
        let response = request.send().await.map_err(|err| (self.transport_error(&url, err), None))?;
        let status = response.status();
        let headers = limiter::Headers::read(|name| {
            response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
        });
        let text = response.text().await.map_err(|err| (self.transport_error(&url, err), Some(headers.clone())))?;
        if !status.is_success() {
            let err = LlmError::Status { status: status.as_u16(), body: bounded(&text, MAX_ERROR_BODY) };
            return Err((err, Some(headers)));
        }
        let answer = wire::parse_completion(&text).map_err(|reason| {
            (LlmError::Malformed { reason, body: bounded(&text, MAX_ERROR_BODY) }, Some(headers.clone()))
        })?;
        tracing::info!(
            "{} call: {} ms, {} + {} tokens{}",
            role.name(),
            started.elapsed().as_millis(),
            answer.usage.prompt_tokens,
            answer.usage.completion_tokens,
            if answer.cut_at_limit() { ", cut off at max_tokens" } else { "" }
        );
        Ok((answer, headers))
    }

    fn transport_error(&self, url: &str, err: reqwest::Error) -> LlmError {
        if err.is_timeout() {
            LlmError::Timeout(self.config().timeout)
        } else {
            let mut reason = err.to_string();
            let mut source = std::error::Error::source(&err);
            while let Some(inner) = source {
                reason = format!("{reason}: {inner}");
                source = inner.source();
            }
            LlmError::Unreachable { url: url.to_owned(), reason }
        }
    }

    /// This client's (this bot's) calls and tokens so far, per role.
    pub fn usage(&self) -> BTreeMap<Role, Usage> {
        lock(&self.meter).roles.clone()
    }

    /// This client's calls and tokens so far, all roles together.
    pub fn total_usage(&self) -> Usage {
        sum(&self.usage())
    }

    /// Every bot's calls and tokens so far, all roles together.
    pub fn process_usage(&self) -> Usage {
        lock(&self.endpoint.process).total()
    }

    /// This bot's tally (roles, cache hits, tasks).
    pub fn tally(&self) -> Tally {
        lock(&self.meter).clone()
    }

    /// Every bot's tally together.
    pub fn process_tally(&self) -> Tally {
        lock(&self.endpoint.process).clone()
    }

    /// What `usage` cost per the price table, or `None` when a model it used has no price.
    pub fn cost(&self, usage: &BTreeMap<Role, Usage>) -> Option<f64> {
        let config = self.config();
        usage.iter().filter(|(_, u)| u.calls > 0).try_fold(0.0, |total, (role, u)| {
            let price = config.price_of(config.model_for(*role))?;
            Some(total + (u.prompt_tokens as f64 * price.input + u.completion_tokens as f64 * price.output) / 1e6)
        })
    }

    /// What this bot's client is waiting for, in words (`None` when no call is under way).
    pub fn waiting(&self) -> Option<String> {
        let waiting = lock(&self.waiting).clone()?;
        let secs = |since: Instant| since.elapsed().as_secs();
        Some(match waiting {
            Waiting::Answer { role, since } => {
                format!("waiting {} s for the LLM's {} answer", secs(since), role.name())
            }
            Waiting::RateLimit { role, since } => {
                format!("waiting {} s for the LLM rate limit ({} call)", secs(since), role.name())
            }
            Waiting::Budget { spent, since } => {
                let left = spent.refills_in.saturating_sub(since.elapsed());
                format!("paused: the LLM budget {} is spent, it refills in {}", spent.key, budget::human(left))
            }
        })
    }
}

/// How long to wait before retry number `attempt + 1`: `Retry-After` when the endpoint sent one, else the backoff
/// doubled per attempt; never longer than [`MAX_LLM_BACKOFF`] (a longer `Retry-After` is cut to it, not ignored:
/// the rate limiter holds every bot back until then anyway).
fn retry_wait(backoff: Duration, attempt: u32, retry_after: Option<Duration>) -> Duration {
    let doubled = backoff.saturating_mul(2u32.saturating_pow(attempt));
    retry_after.unwrap_or(doubled).min(MAX_LLM_BACKOFF)
}

/// Every role's use together.
pub fn sum(usage: &BTreeMap<Role, Usage>) -> Usage {
    let mut total = Usage::default();
    for one in usage.values() {
        total.add(*one);
    }
    total
}

#[cfg(test)]
mod tests;
