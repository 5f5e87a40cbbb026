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

/// Calls, tokens and time waited for answers, for one role or in total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub calls: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Milliseconds from the request to the answer, retries included (not the budget's or rate limit's wait).
    #[serde(default)]
    pub millis: u64,
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
        self.millis = self.millis.saturating_add(other.millis);
    }
}

#[derive(Serialize)]
pub struct Request<'a> {
    pub model: &'a str,
    pub messages: &'a [Message],
    pub temperature: f32,
    pub max_tokens: u32,
    /// Where the answer ends, when the format allows one (never sent empty: some servers refuse `"stop": []`).
    #[serde(skip_serializing_if = "<[&str]>::is_empty")]
    pub stop: &'a [&'a str],
    /// The shape the answer must have (`{"type": "json_schema", …}`), for the calls that ask for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_format: Option<&'a serde_json::Value>,
}

/// What a completion said, what it cost, and why it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub content: String,
    pub usage: Usage,
    /// `stop`, `length` (cut at `max_tokens`), … as the endpoint said; `None` when it did not say.
    pub finish_reason: Option<String>,
}

impl Answer {
    /// Whether the answer was cut off at the token limit.
    pub fn cut_at_limit(&self) -> bool {
        self.finish_reason.as_deref() == Some("length")
    }
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
    #[serde(default)]
    finish_reason: Option<String>,
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

/// The content, token counts and finish reason of a chat completion's body, or what is wrong with it.
pub fn parse_completion(body: &str) -> Result<Answer, String> {
    let completion: Completion = serde_json::from_str(body).map_err(|err| err.to_string())?;
    let choice = completion.choices.into_iter().next().ok_or_else(|| "no choices[0]".to_owned())?;
    let content = choice.message.content.ok_or_else(|| "no choices[0].message.content".to_owned())?;
    let tokens = completion.usage.unwrap_or(TokenCounts { prompt_tokens: 0, completion_tokens: 0 });
    let usage =
        Usage { calls: 1, prompt_tokens: tokens.prompt_tokens, completion_tokens: tokens.completion_tokens, millis: 0 };
    Ok(Answer { content, usage, finish_reason: choice.finish_reason })
}

/// A wait as rate-limit headers write it: seconds (`2`, `0.5`: `Retry-After`, `x-ratelimit-reset-*` of some
/// servers) or Go-style durations (`1s`, `6m0s`, `20ms`, `1h2m3.5s`: OpenAI's `x-ratelimit-reset-*`). `None` for
/// anything else, a negative or non-finite number included.
pub fn parse_wait(text: &str) -> Option<std::time::Duration> {
    let text = text.trim();
    if text.is_empty() || text.len() > 40 {
        return None;
    }
    let seconds = |n: f64| (n.is_finite() && (0.0..1e9).contains(&n)).then(|| std::time::Duration::from_secs_f64(n));
    if let Ok(n) = text.parse::<f64>() {
        return seconds(n);
    }
    let mut total = 0.0f64;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).filter(|&i| i > 0)?;
        let number: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let scale = match &rest[..unit_len] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 0.001,
            "us" | "µs" => 0.000_001,
            "ns" => 0.000_000_001,
            _ => return None,
        };
        total += number * scale;
        rest = &rest[unit_len..];
    }
    seconds(total)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn waits_read_as_servers_write_them() {
        assert_eq!(parse_wait("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_wait(" 0.5 "), Some(Duration::from_millis(500)));
        assert_eq!(parse_wait("1s"), Some(Duration::from_secs(1)));
        assert_eq!(parse_wait("6m0s"), Some(Duration::from_secs(360)));
        assert_eq!(parse_wait("20ms"), Some(Duration::from_millis(20)));
        assert_eq!(parse_wait("1h2m3.5s"), Some(Duration::from_secs_f64(3723.5)));
        for bad in ["", "-1", "NaN", "inf", "soon", "1x", "s", "1.2.3s", "1e99"] {
            assert_eq!(parse_wait(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_cut_off_answer_says_so() {
        let body = r#"{"choices":[{"message":{"content":"fn a() {"},"finish_reason":"length"}],"usage":{"prompt_tokens":9,"completion_tokens":16}}"#;
        let answer = parse_completion(body).unwrap();
        assert!(answer.cut_at_limit());
        assert_eq!(answer.usage.completion_tokens, 16);
        let whole = parse_completion(r#"{"choices":[{"message":{"content":"ok"}}]}"#).unwrap();
        assert!(!whole.cut_at_limit() && whole.finish_reason.is_none());
        assert_eq!(parse_completion(r#"{"choices":[]}"#).unwrap_err(), "no choices[0]");
    }
}
