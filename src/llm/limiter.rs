//! One rate limiter per endpoint, shared by every bot of the process, so fifty bots never stampede it.
//!
//! Requests are spaced: with R requests a minute configured, one leaves every 60/R seconds, so no minute (and, as
//! providers often enforce it, no second) sees more than its share. Tokens are counted over the last minute: a
//! request goes when the tokens sent in the last 60 s plus its own estimate (its prompt's characters / 4 plus its
//! `max_tokens`, as providers count it) fit the tokens per minute; its real count replaces the estimate when the
//! answer comes. The endpoint teaches it too: a 429's `Retry-After`, or a `x-ratelimit-remaining-*: 0` with its
//! reset, pauses every bot until then, and a `x-ratelimit-limit-*` lower than the configured rate is adopted.

use std::{
    collections::VecDeque,
    time::{Duration, Instant},
};

use parking_lot::{Mutex, MutexGuard};

/// What a response's headers say of the endpoint's limits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Headers {
    pub retry_after: Option<Duration>,
    pub limit_requests: Option<u64>,
    pub remaining_requests: Option<u64>,
    pub reset_requests: Option<Duration>,
    pub limit_tokens: Option<u64>,
    pub remaining_tokens: Option<u64>,
    pub reset_tokens: Option<Duration>,
}

impl Headers {
    /// Reads the headers by name (any case), with `get` returning a header's text.
    pub fn read(get: impl Fn(&str) -> Option<String>) -> Self {
        let number = |name: &str| get(name).and_then(|v| v.trim().parse::<u64>().ok());
        let wait = |name: &str| get(name).and_then(|v| super::wire::parse_wait(&v));
        let retry_after = get("retry-after-ms")
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|ms| ms.is_finite() && *ms >= 0.0 && *ms < 1e12)
            .map(|ms| Duration::from_secs_f64(ms / 1000.0))
            .or_else(|| wait("retry-after"));
        Self {
            retry_after,
            limit_requests: number("x-ratelimit-limit-requests"),
            remaining_requests: number("x-ratelimit-remaining-requests"),
            reset_requests: wait("x-ratelimit-reset-requests"),
            limit_tokens: number("x-ratelimit-limit-tokens"),
            remaining_tokens: number("x-ratelimit-remaining-tokens"),
            reset_tokens: wait("x-ratelimit-reset-tokens"),
        }
    }
}

/// No pause the endpoint asks for is taken longer than this (a misread header must not stop the bots for a day).
const LONGEST_PAUSE: Duration = Duration::from_secs(300);
const MINUTE: Duration = Duration::from_secs(60);

#[derive(Debug)]
struct State {
    requests_per_minute: Option<u64>,
    tokens_per_minute: Option<u64>,
    /// When the next request may leave (requests are spaced 60/R s apart).
    next_request: Instant,
    /// Tokens sent within the last minute: (when, tokens, id).
    tokens: VecDeque<(Instant, u64, u64)>,
    next_id: u64,
    /// No request leaves before this (a 429, or nothing remaining until a reset).
    paused_until: Option<Instant>,
}

/// The limiter.
#[derive(Debug)]
pub struct Limiter(Mutex<State>);

/// A request let through: its token estimate is replaced by the real count with [`Limiter::settle`].
#[derive(Clone, Copy, Debug)]
pub struct Pass(u64);

impl Limiter {
    pub fn new(requests_per_minute: Option<u32>, tokens_per_minute: Option<u32>) -> Self {
        Self(Mutex::new(State {
            requests_per_minute: requests_per_minute.map(u64::from),
            tokens_per_minute: tokens_per_minute.map(u64::from),
            next_request: Instant::now(),
            tokens: VecDeque::new(),
            next_id: 0,
            paused_until: None,
        }))
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.0.lock()
    }

    /// Lets a request of about `tokens` tokens through at `now`, or says how long to wait before asking again.
    pub fn try_pass(&self, tokens: u64, now: Instant) -> Result<Pass, Duration> {
        let mut state = self.lock();
        while state.tokens.front().is_some_and(|(at, _, _)| now.saturating_duration_since(*at) >= MINUTE) {
            state.tokens.pop_front();
        }
        let mut wait = Duration::ZERO;
        if let Some(until) = state.paused_until {
            wait = wait.max(until.saturating_duration_since(now));
        }
        if state.requests_per_minute.is_some() {
            wait = wait.max(state.next_request.saturating_duration_since(now));
        }
        if let Some(limit) = state.tokens_per_minute {
            let mut used: u64 = state.tokens.iter().map(|t| t.1).sum();
            // A request larger than a whole minute's tokens goes alone, when the minute is empty.
            let need = tokens.min(limit);
            for (at, spent, _) in &state.tokens {
                if used + need <= limit {
                    break;
                }
                used -= spent;
                wait = wait.max((*at + MINUTE).saturating_duration_since(now));
            }
        }
        if !wait.is_zero() {
            return Err(wait);
        }
        if let Some(rpm) = state.requests_per_minute {
            let spacing = MINUTE.div_f64(rpm.max(1) as f64);
            state.next_request = state.next_request.max(now) + spacing;
        }
        state.paused_until = None;
        state.next_id += 1;
        let id = state.next_id;
        if state.tokens_per_minute.is_some() {
            state.tokens.push_back((now, tokens, id));
        }
        Ok(Pass(id))
    }

    /// Waits until a request of about `tokens` tokens may go; returns how long it waited.
    pub async fn pass(&self, tokens: u64) -> (Pass, Duration) {
        let started = tokio::time::Instant::now();
        loop {
            match self.try_pass(tokens, Instant::now()) {
                Ok(pass) => return (pass, started.elapsed()),
                Err(wait) => tokio::time::sleep(wait).await,
            }
        }
    }

    /// The real token count of a request let through (it replaces the estimate).
    pub fn settle(&self, pass: Pass, tokens: u64) {
        if let Some(entry) = self.lock().tokens.iter_mut().find(|t| t.2 == pass.0) {
            entry.1 = tokens;
        }
    }

    /// Learns from a response's headers at `now`; `rate_limited` holds the wait for a 429 that has no `Retry-After`
    /// (the caller's backoff) when it was one. Returns the pause it set, if any.
    pub fn learn(&self, headers: &Headers, rate_limited: Option<Duration>, now: Instant) -> Option<Duration> {
        let mut guard = self.lock();
        let state = &mut *guard;
        for (limit, configured) in [
            (headers.limit_requests, &mut state.requests_per_minute),
            (headers.limit_tokens, &mut state.tokens_per_minute),
        ] {
            if let Some(limit) = limit.filter(|l| *l > 0)
                && configured.is_none_or(|c| limit < c)
            {
                *configured = Some(limit);
            }
        }
        let mut pause = None;
        if let Some(fallback) = rate_limited {
            pause = Some(headers.retry_after.unwrap_or(fallback));
        }
        for (remaining, reset) in
            [(headers.remaining_requests, headers.reset_requests), (headers.remaining_tokens, headers.reset_tokens)]
        {
            if remaining == Some(0)
                && let Some(reset) = reset
            {
                pause = Some(pause.unwrap_or_default().max(reset));
            }
        }
        let pause = pause?.min(LONGEST_PAUSE);
        let until = now + pause;
        state.paused_until = Some(state.paused_until.map_or(until, |u| u.max(until)));
        Some(pause)
    }

    /// The requests per minute in force (configured or learned).
    pub fn requests_per_minute(&self) -> Option<u64> {
        self.lock().requests_per_minute
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_spaced_to_the_rate() {
        let limiter = Limiter::new(Some(60), None);
        let t0 = Instant::now() + Duration::from_secs(1);
        assert!(limiter.try_pass(10, t0).is_ok());
        let wait = limiter.try_pass(10, t0).unwrap_err();
        assert_eq!(wait, Duration::from_secs(1));
        assert!(limiter.try_pass(10, t0 + Duration::from_secs(1)).is_ok());
        // 60 a minute at most, however many ask.
        let limiter = Limiter::new(Some(60), None);
        let mut passed = 0;
        for tenth in 0..600 {
            let now = t0 + Duration::from_millis(100 * tenth);
            for _ in 0..50 {
                passed += usize::from(limiter.try_pass(10, now).is_ok());
            }
        }
        assert_eq!(passed, 60);
    }

    #[test]
    fn tokens_per_minute_hold_requests_back_until_the_minute_moves_on() {
        let limiter = Limiter::new(None, Some(1000));
        let t0 = Instant::now();
        let first = limiter.try_pass(600, t0).unwrap();
        assert_eq!(limiter.try_pass(600, t0).unwrap_err(), Duration::from_secs(60));
        // The first answer cost less than estimated: the second fits.
        limiter.settle(first, 300);
        limiter.try_pass(600, t0 + Duration::from_secs(1)).unwrap();
        assert!(limiter.try_pass(200, t0 + Duration::from_secs(2)).is_err());
        // A request bigger than the whole minute goes alone once the minute is clear.
        let lone = Limiter::new(None, Some(100));
        lone.try_pass(5000, t0).unwrap();
        assert!(lone.try_pass(5000, t0 + Duration::from_secs(30)).is_err());
        lone.try_pass(5000, t0 + Duration::from_secs(60)).unwrap();
    }

    #[test]
    fn a_429_or_nothing_remaining_pauses_everyone() {
        let limiter = Limiter::new(None, None);
        let t0 = Instant::now();
        let headers = Headers { retry_after: Some(Duration::from_secs(7)), ..Headers::default() };
        assert_eq!(limiter.learn(&headers, Some(Duration::from_secs(1)), t0), Some(Duration::from_secs(7)));
        assert_eq!(limiter.try_pass(1, t0 + Duration::from_secs(2)).unwrap_err(), Duration::from_secs(5));
        limiter.try_pass(1, t0 + Duration::from_secs(7)).unwrap();

        let empty = Headers {
            remaining_requests: Some(0),
            reset_requests: Some(Duration::from_secs(20)),
            ..Headers::default()
        };
        assert_eq!(limiter.learn(&empty, None, t0), Some(Duration::from_secs(20)));
        let forever = Headers { retry_after: Some(Duration::from_secs(86_400)), ..Headers::default() };
        assert_eq!(limiter.learn(&forever, Some(Duration::from_secs(1)), t0), Some(LONGEST_PAUSE));
        assert_eq!(limiter.learn(&Headers::default(), None, t0), None);
    }

    #[test]
    fn a_lower_limit_from_the_endpoint_is_adopted() {
        let limiter = Limiter::new(Some(100), None);
        limiter.learn(&Headers { limit_requests: Some(500), ..Headers::default() }, None, Instant::now());
        assert_eq!(limiter.requests_per_minute(), Some(100));
        limiter.learn(&Headers { limit_requests: Some(30), ..Headers::default() }, None, Instant::now());
        assert_eq!(limiter.requests_per_minute(), Some(30));
        let headers = Headers::read(|name| match name {
            "retry-after-ms" => Some("1500".into()),
            "x-ratelimit-remaining-tokens" => Some("0".into()),
            "x-ratelimit-reset-tokens" => Some("6m0s".into()),
            _ => None,
        });
        assert_eq!(headers.retry_after, Some(Duration::from_millis(1500)));
        assert_eq!(headers.reset_tokens, Some(Duration::from_secs(360)));
    }
}
