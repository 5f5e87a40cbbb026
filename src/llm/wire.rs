//! The chat-completions wire format: the request Wayfarer sends, and reading the endpoint's reply. Reading is pure
//! (text in, content and token counts or a reason out) and never panics on any body: it is property-tested and
//! fuzzed.

use serde::{Deserialize, Serialize};

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
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }

    pub fn add(&mut self, other: Usage) {
        // Counts come from the endpoint: a nonsense one must not overflow the meters.
        self.calls = self.calls.saturating_add(other.calls);
        self.prompt_tokens = self.prompt_tokens.saturating_add(other.prompt_tokens);
        self.completion_tokens = self.completion_tokens.saturating_add(other.completion_tokens);
    }
}

#[derive(Serialize)]
pub struct Request<'a> {
    pub model: &'a str,
    pub messages: &'a [Message],
    pub temperature: f32,
    pub max_tokens: u32,
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

/// The content and token counts of a chat completion's body, or what is wrong with it.
pub fn parse_completion(body: &str) -> Result<(String, Usage), String> {
    let completion: Completion = serde_json::from_str(body).map_err(|err| err.to_string())?;
    let content = completion
        .choices
        .into_iter()
        .next()
        .and_then(|c| c.message.content)
        .ok_or_else(|| "no choices[0].message.content".to_owned())?;
    let tokens = completion.usage.unwrap_or(TokenCounts { prompt_tokens: 0, completion_tokens: 0 });
    Ok((content, Usage { calls: 1, prompt_tokens: tokens.prompt_tokens, completion_tokens: tokens.completion_tokens }))
}
