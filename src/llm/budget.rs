//! Budgets: at most so many calls or tokens within an hour or a day, for each bot and for the whole process
//! (`[llm.budget]`, `--llm-budget`). A call is admitted against every budget at once, before it is sent, and its
//! tokens are added when its answer comes; a call that fails costs nothing. A spent budget names itself and says when
//! it refills: when enough of the window's oldest calls have left it.
//!
//! The ledgers are pure bookkeeping over instants they are given, so they are tested without waiting an hour.

use std::{
    collections::VecDeque,
    time::{Duration, Instant},
};

use parking_lot::{Mutex, MutexGuard};

use crate::config::{BudgetLimit, BudgetMeasure, BudgetScope};

/// The calls one spender (a bot, or the process) made within the longest window, oldest first.
#[derive(Debug, Default)]
pub struct Ledger(Mutex<VecDeque<Entry>>);

#[derive(Clone, Copy, Debug)]
struct Entry {
    at: Instant,
    tokens: u64,
    /// Which admission this is, so its tokens find it.
    id: u64,
}

/// An admitted call: its tokens are settled (or it is withdrawn) through this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ticket(u64);

/// A budget that is spent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spent {
    /// As configured: `bot_calls_per_hour`.
    pub key: String,
    pub limit: u64,
    pub measure: BudgetMeasure,
    /// How long until a call fits again.
    pub refills_in: Duration,
}

impl std::fmt::Display for Spent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.measure {
            BudgetMeasure::Calls => "call",
            BudgetMeasure::Tokens => "token",
        };
        write!(
            f,
            "the LLM budget {} ({}) is spent; it refills in {}",
            self.key,
            counted(self.limit, what),
            human(self.refills_in)
        )
    }
}

/// `1 call`, `2 calls`.
pub fn counted(n: u64, one: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {one}s") }
}

/// `45 s`, `12 min`, `3 h 5 min`.
pub fn human(wait: Duration) -> String {
    let secs = wait.as_secs_f64().ceil() as u64;
    match secs {
        0..=89 => format!("{secs} s"),
        90..=5399 => format!("{} min", secs.div_ceil(60)),
        _ => format!("{} h {} min", secs / 3600, (secs % 3600).div_ceil(60)),
    }
}

impl Ledger {
    fn lock(&self) -> MutexGuard<'_, VecDeque<Entry>> {
        // Every change is one push, pop or assignment: a panic cannot leave it half-done.
        self.0.lock()
    }

    /// Calls and tokens within `window` before `now`.
    pub fn used(&self, window: Duration, now: Instant) -> (u64, u64) {
        let entries = self.lock();
        let inside = entries.iter().filter(|e| now.saturating_duration_since(e.at) < window);
        inside.fold((0, 0), |(calls, tokens), e| (calls + 1, tokens.saturating_add(e.tokens)))
    }
}

/// Admits one call at `now` against `limits`, for the bot's `bot` ledger and the process's `process` one: either
/// every budget has room and the call is entered in both, or the first spent budget (the one that refills last) is
/// returned and nothing changes.
pub fn admit(bot: &Ledger, process: &Ledger, limits: &[BudgetLimit], now: Instant) -> Result<Ticket, Spent> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let longest = limits.iter().map(|l| l.window).max().unwrap_or(Duration::ZERO);
    let mut bot_entries = bot.lock();
    let mut process_entries = process.lock();
    for entries in [&mut *bot_entries, &mut *process_entries] {
        while entries.front().is_some_and(|e| now.saturating_duration_since(e.at) >= longest) {
            entries.pop_front();
        }
    }
    let spent = limits
        .iter()
        .filter_map(|limit| {
            let entries = match limit.scope {
                BudgetScope::Bot => &*bot_entries,
                BudgetScope::Process => &*process_entries,
            };
            refill(entries, limit, now).map(|refills_in| Spent {
                key: limit.key.clone(),
                limit: limit.limit,
                measure: limit.measure,
                refills_in,
            })
        })
        .max_by_key(|spent| spent.refills_in);
    if let Some(spent) = spent {
        return Err(spent);
    }
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if !limits.is_empty() {
        for entries in [&mut *bot_entries, &mut *process_entries] {
            entries.push_back(Entry { at: now, tokens: 0, id });
        }
    }
    Ok(Ticket(id))
}

/// Adds the tokens an admitted call used.
pub fn settle(ledgers: [&Ledger; 2], ticket: Ticket, tokens: u64) {
    for ledger in ledgers {
        if let Some(entry) = ledger.lock().iter_mut().rev().find(|e| e.id == ticket.0) {
            entry.tokens = tokens;
        }
    }
}

/// Takes back an admitted call that got no answer (it costs nothing).
pub fn withdraw(ledgers: [&Ledger; 2], ticket: Ticket) {
    for ledger in ledgers {
        ledger.lock().retain(|e| e.id != ticket.0);
    }
}

/// When `limit` is spent for these `entries` at `now`, how long until one more call fits.
fn refill(entries: &VecDeque<Entry>, limit: &BudgetLimit, now: Instant) -> Option<Duration> {
    let inside: Vec<&Entry> = entries.iter().filter(|e| now.saturating_duration_since(e.at) < limit.window).collect();
    let cost = |e: &Entry| match limit.measure {
        BudgetMeasure::Calls => 1,
        BudgetMeasure::Tokens => e.tokens,
    };
    let mut used: u64 = inside.iter().map(|e| cost(e)).fold(0, u64::saturating_add);
    if used < limit.limit {
        return None;
    }
    // The oldest calls leave the window first: the budget has room once enough of them have.
    for entry in &inside {
        used = used.saturating_sub(cost(entry));
        if used < limit.limit {
            return Some((entry.at + limit.window).saturating_duration_since(now));
        }
    }
    Some(limit.window)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(key: &str, scope: BudgetScope, measure: BudgetMeasure, window: u64, limit: u64) -> BudgetLimit {
        BudgetLimit { scope, measure, window: Duration::from_secs(window), limit, key: key.to_owned() }
    }

    #[test]
    fn calls_stop_at_the_limit_and_come_back_as_the_window_moves_on() {
        let (bot, process) = (Ledger::default(), Ledger::default());
        let limits = [limit("bot_calls_per_hour", BudgetScope::Bot, BudgetMeasure::Calls, 3600, 2)];
        let t0 = Instant::now();
        admit(&bot, &process, &limits, t0).unwrap();
        admit(&bot, &process, &limits, t0 + Duration::from_secs(600)).unwrap();
        let spent = admit(&bot, &process, &limits, t0 + Duration::from_secs(1200)).unwrap_err();
        assert_eq!(spent.key, "bot_calls_per_hour");
        assert_eq!(spent.refills_in, Duration::from_secs(2400), "when the first call leaves the hour");
        assert_eq!(spent.to_string(), "the LLM budget bot_calls_per_hour (2 calls) is spent; it refills in 40 min");
        admit(&bot, &process, &limits, t0 + Duration::from_secs(3600)).unwrap();
        assert!(admit(&bot, &process, &limits, t0 + Duration::from_secs(3700)).is_err());
    }

    #[test]
    fn tokens_count_once_settled_and_failed_calls_cost_nothing() {
        let (bot, process) = (Ledger::default(), Ledger::default());
        let limits = [limit("process_tokens_per_day", BudgetScope::Process, BudgetMeasure::Tokens, 86_400, 1000)];
        let t0 = Instant::now();
        let first = admit(&bot, &process, &limits, t0).unwrap();
        settle([&bot, &process], first, 600);
        let failed = admit(&bot, &process, &limits, t0 + Duration::from_secs(1)).unwrap();
        withdraw([&bot, &process], failed);
        let second = admit(&bot, &process, &limits, t0 + Duration::from_secs(2)).unwrap();
        settle([&bot, &process], second, 500);
        assert_eq!(process.used(Duration::from_secs(86_400), t0 + Duration::from_secs(3)), (2, 1100));
        let spent = admit(&bot, &process, &limits, t0 + Duration::from_secs(3)).unwrap_err();
        // 1100 used: once the 600 leave, 500 < 1000.
        assert_eq!(spent.refills_in, Duration::from_secs(86_397));
    }

    #[test]
    fn the_process_budget_is_shared_and_the_latest_refill_is_named() {
        let process = Ledger::default();
        let (alice, bob) = (Ledger::default(), Ledger::default());
        let limits = [
            limit("process_calls_per_hour", BudgetScope::Process, BudgetMeasure::Calls, 3600, 2),
            limit("bot_calls_per_day", BudgetScope::Bot, BudgetMeasure::Calls, 86_400, 1),
        ];
        let t0 = Instant::now();
        admit(&alice, &process, &limits, t0).unwrap();
        let spent = admit(&alice, &process, &limits, t0).unwrap_err();
        assert_eq!(spent.key, "bot_calls_per_day");
        admit(&bob, &process, &limits, t0).unwrap();
        let carol = Ledger::default();
        assert_eq!(admit(&carol, &process, &limits, t0).unwrap_err().key, "process_calls_per_hour");
    }

    #[test]
    fn waits_read_well() {
        assert_eq!(human(Duration::from_secs(45)), "45 s");
        assert_eq!(human(Duration::from_secs(700)), "12 min");
        assert_eq!(human(Duration::from_secs(3 * 3600 + 300)), "3 h 5 min");
    }
}
