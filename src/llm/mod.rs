//! One OpenAI-compatible chat-completions client for every LLM role.
//!
//! `POST {base_url}/chat/completions` is the one API OpenAI, Ollama (`http://localhost:11434/v1`), llama.cpp server
//! (`http://localhost:8080/v1`), vLLM (`http://localhost:8000/v1`), LM Studio (`http://localhost:1234/v1`) and
//! OpenRouter (`https://openrouter.ai/api/v1`) all serve. Each role may use its own model. Requests time out; 429,
//! 5xx and connection failures are retried with exponential backoff, nothing else is; every call's tokens are
//! counted per role.

use std::{
    collections::BTreeMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use serde::{Deserialize, Serialize};

pub mod fake;

/// What a call is for. Each role can have its own model, and usage is counted per role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Curriculum,
    Action,
    Critic,
    Description,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Curriculum, Role::Action, Role::Critic, Role::Description];

    pub fn name(self) -> &'static str {
        match self {
            Role::Curriculum => "curriculum",
            Role::Action => "action",
            Role::Critic => "critic",
            Role::Description => "description",
        }
    }
}

/// Where and how to reach the model.
#[derive(Clone, Debug, PartialEq)]
pub struct LlmConfig {
    /// Up to and including `/v1`, e.g. `https://api.openai.com/v1`.
    pub base_url: String,
    pub api_key: Option<String>,
    /// The model for roles without their own.
    pub model: String,
    /// Per-role models.
    pub role_models: BTreeMap<Role, String>,
    /// One request's time limit.
    pub timeout: Duration,
    /// Retries after the first attempt, for 429, 5xx and connection errors.
    pub retries: u32,
    /// The first retry's wait; each further retry waits twice as long (a `Retry-After` header wins).
    pub backoff: Duration,
}

impl Default for LlmConfig {
    fn default() -> Self {
        Self {
            base_url: "https://api.openai.com/v1".to_owned(),
            api_key: None,
            model: "gpt-4o-mini".to_owned(),
            role_models: BTreeMap::new(),
            timeout: Duration::from_secs(120),
            retries: 3,
            backoff: Duration::from_secs(1),
        }
    }
}

impl LlmConfig {
    pub fn model_for(&self, role: Role) -> &str {
        self.role_models.get(&role).map_or(&self.model, String::as_str)
    }
}

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn system(content: impl Into<String>) -> Self {
        Self { role: "system".to_owned(), content: content.into() }
    }

    pub fn user(content: impl Into<String>) -> Self {
        Self { role: "user".to_owned(), content: content.into() }
    }
}

/// Calls and tokens, for one role or in total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub calls: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl Usage {
    pub fn total_tokens(&self) -> u64 {
        self.prompt_tokens + self.completion_tokens
    }

    fn add(&mut self, other: Usage) {
        self.calls += other.calls;
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
    }
}

/// Why a call failed, after any retries.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("the LLM endpoint {url} could not be reached: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("the LLM endpoint did not answer within {0:?}")]
    Timeout(Duration),
    #[error("the LLM endpoint answered {status}: {body}")]
    Status { status: u16, body: String },
    #[error("the LLM endpoint's reply is not a chat completion: {0}")]
    Malformed(String),
}

impl LlmError {
    /// Worth trying again: rate limits, server errors, and failures to connect or answer in time.
    fn retryable(&self) -> bool {
        match self {
            LlmError::Unreachable { .. } | LlmError::Timeout(_) => true,
            LlmError::Status { status, .. } => *status == 429 || *status >= 500,
            LlmError::Malformed(_) => false,
        }
    }
}

/// A completion's text and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub content: String,
    pub usage: Usage,
}

/// The client. Cheap to share (`Arc`); usage counts are kept inside.
pub struct Llm {
    config: LlmConfig,
    http: reqwest::Client,
    usage: Mutex<BTreeMap<Role, Usage>>,
}

impl std::fmt::Debug for Llm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Llm").field("base_url", &self.config.base_url).field("model", &self.config.model).finish()
    }
}

#[derive(Serialize)]
struct Request<'a> {
    model: &'a str,
    messages: &'a [Message],
    temperature: f32,
}

#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<TokenCounts>,
}

#[derive(Deserialize)]
struct Choice {
    message: ChoiceMessage,
}

#[derive(Deserialize)]
struct ChoiceMessage {
    #[serde(default)]
    content: Option<String>,
}

#[derive(Deserialize)]
struct TokenCounts {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

/// The longest error body quoted back.
const MAX_ERROR_BODY: usize = 300;

impl Llm {
    pub fn new(config: LlmConfig) -> Self {
        let http = reqwest::Client::builder().timeout(config.timeout).build().expect("the HTTP client builds");
        Self { config, http, usage: Mutex::new(BTreeMap::new()) }
    }

    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// One completion for `role`, retried as the module says.
    pub async fn chat(&self, role: Role, messages: &[Message], temperature: f32) -> Result<Reply, LlmError> {
        let mut attempt = 0;
        loop {
            match self.once(role, messages, temperature).await {
                Ok(reply) => {
                    self.usage.lock().unwrap_or_else(|p| p.into_inner()).entry(role).or_default().add(reply.usage);
                    return Ok(reply);
                }
                Err((err, retry_after)) if err.retryable() && attempt < self.config.retries => {
                    let wait = retry_after.unwrap_or(self.config.backoff * 2u32.saturating_pow(attempt));
                    tracing::warn!("{} call failed ({err}); retrying in {:.1} s", role.name(), wait.as_secs_f64());
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
                Err((err, _)) => return Err(err),
            }
        }
    }

    async fn once(&self, role: Role, messages: &[Message], temperature: f32) -> Result<Reply, (LlmError, Option<Duration>)> {
        let url = format!("{}/chat/completions", self.config.base_url.trim_end_matches('/'));
        let body = Request { model: self.config.model_for(role), messages, temperature };
        let mut request = self.http.post(&url).json(&body);
        if let Some(key) = &self.config.api_key {
            request = request.bearer_auth(key);
        }
        let started = Instant::now();
        let response = request.send().await.map_err(|err| (self.transport_error(&url, err), None))?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|secs| secs.is_finite() && *secs >= 0.0 && *secs <= 120.0)
            .map(Duration::from_secs_f64);
        let text = response.text().await.map_err(|err| (self.transport_error(&url, err), None))?;
        if !status.is_success() {
            let body: String = text.chars().take(MAX_ERROR_BODY).collect();
            return Err((LlmError::Status { status: status.as_u16(), body }, retry_after));
        }
        let completion: Completion = serde_json::from_str(&text).map_err(|err| (LlmError::Malformed(err.to_string()), None))?;
        let content = completion
            .choices
            .into_iter()
            .next()
            .and_then(|c| c.message.content)
            .ok_or_else(|| (LlmError::Malformed("no choices[0].message.content".to_owned()), None))?;
        let tokens = completion.usage.unwrap_or(TokenCounts { prompt_tokens: 0, completion_tokens: 0 });
        tracing::debug!("{} call: {} ms, {} + {} tokens", role.name(), started.elapsed().as_millis(), tokens.prompt_tokens, tokens.completion_tokens);
        Ok(Reply {
            content,
            usage: Usage { calls: 1, prompt_tokens: tokens.prompt_tokens, completion_tokens: tokens.completion_tokens },
        })
    }

    fn transport_error(&self, url: &str, err: reqwest::Error) -> LlmError {
        if err.is_timeout() {
            LlmError::Timeout(self.config.timeout)
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

    /// Calls and tokens so far, per role.
    pub fn usage(&self) -> BTreeMap<Role, Usage> {
        self.usage.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Calls and tokens so far, all roles together.
    pub fn total_usage(&self) -> Usage {
        let mut total = Usage::default();
        for usage in self.usage().values() {
            total.add(*usage);
        }
        total
    }
}

#[cfg(test)]
mod tests;
