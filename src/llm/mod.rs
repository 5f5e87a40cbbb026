//! One OpenAI-compatible chat-completions client for every LLM role.
//!
//! `POST {base_url}/chat/completions` is the one API OpenAI, Ollama (`http://localhost:11434/v1`), llama.cpp server
//! (`http://localhost:8080/v1`), vLLM (`http://localhost:8000/v1`), LM Studio (`http://localhost:1234/v1`) and
//! OpenRouter (`https://openrouter.ai/api/v1`) all serve. Each role may use its own model. Requests time out; 429,
//! 5xx, connection failures and cut-off or unreadable replies are retried with exponential backoff (capped), nothing
//! else is; every call's tokens are counted per role, for each bot and for the whole process.

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use crate::config::MAX_LLM_BACKOFF;

pub mod wire;
pub use wire::{Message, Usage};
use wire::Request;

#[cfg(test)]
#[path = "../../tests/support/fake_llm.rs"]
pub mod fake;

pub use crate::config::{LlmConfig, Role};

/// Why a call failed, after any retries.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("the LLM endpoint {url} could not be reached: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("the LLM endpoint did not answer within {0:?}")]
    Timeout(Duration),
    #[error("the LLM endpoint answered {status}: {body}")]
    Status { status: u16, body: String },
    /// A 200 reply that is not a whole chat completion (cut off, not JSON, no message); `body` is its start.
    #[error("the LLM endpoint's reply is not a chat completion ({reason}); it began: {body:?}")]
    Malformed { reason: String, body: String },
    #[error("the HTTP client cannot start: {0}")]
    Setup(String),
    #[error("no LLM is configured: start me with WAYFARER_LLM_URL (and WAYFARER_LLM_MODEL), or OPENAI_API_KEY for OpenAI")]
    NotConfigured,
}

impl LlmError {
    /// Worth trying again: rate limits, server errors, and failures to connect or answer in time.
    fn retryable(&self) -> bool {
        match self {
            // A cut-off or garbled body is a fault on the way, as a 5xx is; asking again usually gets a whole one.
            LlmError::Unreachable { .. } | LlmError::Timeout(_) | LlmError::Malformed { .. } => true,
            LlmError::Status { status, .. } => *status == 429 || *status >= 500,
            LlmError::Setup(_) | LlmError::NotConfigured => false,
        }
    }
}

/// A completion's text and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub content: String,
    pub usage: Usage,
}

/// Calls and tokens per role.
type Meter = Mutex<BTreeMap<Role, Usage>>;

/// The client. Every bot gets its own ([`Llm::for_bot`]): one connection pool and one process-wide total, and a
/// meter of its own so each bot's checkpoint counts only its own calls.
pub struct Llm {
    endpoint: Arc<Endpoint>,
    meter: Meter,
    /// False for [`Llm::disabled`]: every call fails at once with [`LlmError::NotConfigured`].
    enabled: bool,
}

/// What every bot's client shares.
struct Endpoint {
    config: LlmConfig,
    http: reqwest::Client,
    process: Meter,
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

fn add_to(meter: &Meter, role: Role, usage: Usage) {
    meter.lock().unwrap_or_else(|p| p.into_inner()).entry(role).or_default().add(usage);
}

fn read(meter: &Meter) -> BTreeMap<Role, Usage> {
    meter.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

impl Llm {
    pub fn new(config: LlmConfig) -> Result<Self, LlmError> {
        let http =
            reqwest::Client::builder().timeout(config.timeout).build().map_err(|err| LlmError::Setup(err.to_string()))?;
        let endpoint = Arc::new(Endpoint { config, http, process: Meter::default() });
        Ok(Self { endpoint, meter: Meter::default(), enabled: true })
    }

    /// A client for a bot with no LLM: what needs none (`!task` goals the game's facts plan, with the code they
    /// come with) still works, and every call fails at once saying how to configure one.
    pub fn disabled() -> Self {
        let endpoint = Arc::new(Endpoint { config: LlmConfig::default(), http: reqwest::Client::new(), process: Meter::default() });
        Self { endpoint, meter: Meter::default(), enabled: false }
    }

    /// Whether an LLM is configured (see [`Llm::disabled`]).
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// A client on the same endpoint, connection pool and process total, with a meter of its own.
    pub fn for_bot(&self) -> Self {
        Self { endpoint: self.endpoint.clone(), meter: Meter::default(), enabled: self.enabled }
    }

    pub fn config(&self) -> &LlmConfig {
        &self.endpoint.config
    }

    /// One completion for `role`, retried as the module says.
    pub async fn chat(&self, role: Role, messages: &[Message], temperature: f32) -> Result<Reply, LlmError> {
        if !self.enabled {
            return Err(LlmError::NotConfigured);
        }
        let mut attempt = 0;
        loop {
            match self.once(role, messages, temperature).await {
                Ok(reply) => {
                    add_to(&self.meter, role, reply.usage);
                    add_to(&self.endpoint.process, role, reply.usage);
                    return Ok(reply);
                }
                Err((err, retry_after)) if err.retryable() && attempt < self.config().retries => {
                    let wait = retry_wait(self.config().backoff, attempt, retry_after);
                    tracing::warn!("{} call failed ({err}); retrying in {:.1} s", role.name(), wait.as_secs_f64());
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
                Err((err, _)) => return Err(err),
            }
        }
    }

    async fn once(&self, role: Role, messages: &[Message], temperature: f32) -> Result<Reply, (LlmError, Option<Duration>)> {
        let config = self.config();
        let url = format!("{}/chat/completions", config.base_url.trim_end_matches('/'));
        let body = Request { model: config.model_for(role), messages, temperature, max_tokens: role.max_tokens() };
        let mut request = self.endpoint.http.post(&url).json(&body);
        if let Some(key) = &config.api_key {
            request = request.bearer_auth(key);
        }
        let started = Instant::now();
        let response = request.send().await.map_err(|err| (self.transport_error(&url, err), None))?;
        let status = response.status();
        let retry_after =
            response.headers().get(reqwest::header::RETRY_AFTER).and_then(|v| v.to_str().ok()).and_then(retry_after);
        let text = response.text().await.map_err(|err| (self.transport_error(&url, err), None))?;
        if !status.is_success() {
            return Err((LlmError::Status { status: status.as_u16(), body: bounded(&text, MAX_ERROR_BODY) }, retry_after));
        }
        let (content, usage) = wire::parse_completion(&text)
            .map_err(|reason| (LlmError::Malformed { reason, body: bounded(&text, MAX_ERROR_BODY) }, None))?;
        tracing::debug!(
            "{} call: {} ms, {} + {} tokens",
            role.name(),
            started.elapsed().as_millis(),
            usage.prompt_tokens,
            usage.completion_tokens
        );
        Ok(Reply { content, usage })
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
        read(&self.meter)
    }

    /// This client's calls and tokens so far, all roles together.
    pub fn total_usage(&self) -> Usage {
        sum(&self.usage())
    }

    /// Every bot's calls and tokens so far, all roles together.
    pub fn process_usage(&self) -> Usage {
        sum(&read(&self.endpoint.process))
    }
}

/// A `Retry-After` header's seconds, at most [`MAX_LLM_BACKOFF`] (a longer wait is cut to it, not ignored: retrying
/// sooner would only spend the retries inside the rate limit's window).
fn retry_after(header: &str) -> Option<Duration> {
    let secs = header.trim().parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0)?;
    Some(Duration::from_secs_f64(secs.min(MAX_LLM_BACKOFF.as_secs_f64())))
}

/// How long to wait before retry number `attempt + 1`: `Retry-After` when the endpoint sent one, else the backoff
/// doubled per attempt; never longer than [`MAX_LLM_BACKOFF`].
fn retry_wait(backoff: Duration, attempt: u32, retry_after: Option<Duration>) -> Duration {
    let doubled = backoff.saturating_mul(2u32.saturating_pow(attempt));
    retry_after.unwrap_or(doubled).min(MAX_LLM_BACKOFF)
}

fn sum(usage: &BTreeMap<Role, Usage>) -> Usage {
    let mut total = Usage::default();
    for one in usage.values() {
        total.add(*one);
    }
    total
}

#[cfg(test)]
mod tests;
