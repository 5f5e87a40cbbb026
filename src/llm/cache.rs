//! The reply cache: a deterministic request (temperature 0) asked again gets the answer it got before, with no
//! request. The key is a SHA-256 of everything that decides the answer: endpoint, model, messages, `max_tokens` and
//! stop sequences. Entries live in one JSON-lines file, appended as they come and read back at start, so the cache
//! outlives restarts; when the file grows past its bound it is rewritten with the most recently used half. A line
//! that does not read (a crash mid-write, an edit) is skipped. An answer cut at its `max_tokens` is kept as what it
//! is: asked again with the same limit, the model would cut it at the same place.

use std::{collections::HashMap, io::Write, path::PathBuf};

use parking_lot::{Mutex, MutexGuard};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Message, Usage};
use crate::config::CacheConfig;

/// One line of the file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Line {
    key: String,
    model: String,
    content: String,
    prompt_tokens: u64,
    completion_tokens: u64,
    /// Cut off at its `max_tokens`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    cut: bool,
}

/// A kept answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub content: String,
    /// What it cost when it was asked.
    pub usage: Usage,
    /// It was cut off at its `max_tokens`.
    pub cut: bool,
}

#[derive(Debug)]
struct Entry {
    line: Line,
    /// When it was last used (a counter): the most recently used entries survive a rewrite.
    used: u64,
    bytes: u64,
}

#[derive(Debug, Default)]
struct State {
    entries: HashMap<String, Entry>,
    clock: u64,
    /// The file's length as this process last knew it.
    bytes: u64,
}

/// The cache.
#[derive(Debug)]
pub struct ReplyCache {
    file: PathBuf,
    max_bytes: u64,
    state: Mutex<State>,
}

/// What a request is, for the cache.
pub fn key(
    base_url: &str,
    model: &str,
    messages: &[Message],
    max_tokens: u32,
    stop: &[&str],
    format: Option<&serde_json::Value>,
) -> String {
    let mut hash = Sha256::new();
    let mut request = serde_json::json!({
        "url": base_url.trim_end_matches('/'),
        "model": model,
        "messages": messages,
        "max_tokens": max_tokens,
        "stop": stop,
    });
    // Only when there is one, so the keys of answers kept before formats existed still match.
    if let Some(format) = format {
        request["response_format"] = format.clone();
    }
    hash.update(request.to_string().as_bytes());
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

impl ReplyCache {
    /// Reads the cache file (a missing one is an empty cache).
    pub fn open(config: &CacheConfig) -> Self {
        let mut state = State::default();
        match std::fs::read_to_string(&config.file) {
            Ok(text) => {
                let mut unreadable = 0;
                for raw in text.lines().filter(|l| !l.trim().is_empty()) {
                    match serde_json::from_str::<Line>(raw) {
                        Ok(line) => {
                            state.clock += 1;
                            let entry = Entry { used: state.clock, bytes: raw.len() as u64 + 1, line };
                            state.entries.insert(entry.line.key.clone(), entry);
                        }
                        Err(_) => unreadable += 1,
                    }
                }
                state.bytes = text.len() as u64;
                if unreadable > 0 {
                    tracing::warn!(
                        "{unreadable} line(s) of the LLM reply cache {} do not read; skipped",
                        config.file.display()
                    );
                }
                tracing::info!("LLM reply cache: {} answer(s) in {}", state.entries.len(), config.file.display());
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => {
                tracing::warn!("cannot read the LLM reply cache {}: {err}; starting it afresh", config.file.display())
            }
        }
        Self { file: config.file.clone(), max_bytes: config.max_bytes, state: Mutex::new(state) }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock()
    }

    /// The answer kept for `key`.
    pub fn get(&self, key: &str) -> Option<Kept> {
        let mut state = self.lock();
        state.clock += 1;
        let clock = state.clock;
        let entry = state.entries.get_mut(key)?;
        entry.used = clock;
        let line = &entry.line;
        let usage =
            Usage { calls: 1, prompt_tokens: line.prompt_tokens, completion_tokens: line.completion_tokens, millis: 0 };
        Some(Kept { content: line.content.clone(), usage, cut: line.cut })
    }

    /// Keeps an answer. A failure to write is logged; the answer stays cached in memory.
    pub fn put(&self, key: String, model: &str, kept: &Kept) {
        let line = Line {
            key: key.clone(),
            model: model.to_owned(),
            content: kept.content.clone(),
            prompt_tokens: kept.usage.prompt_tokens,
            completion_tokens: kept.usage.completion_tokens,
            cut: kept.cut,
        };
        let text = serde_json::to_string(&line).expect("cache lines serialize");
        let bytes = text.len() as u64 + 1;
        let mut state = self.lock();
        state.clock += 1;
        let used = state.clock;
        state.entries.insert(key, Entry { line, used, bytes });
        let appended = (|| {
            if let Some(dir) = self.file.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&self.file)?;
            writeln!(file, "{text}")
        })();
        match appended {
            Ok(()) => state.bytes += bytes,
            Err(err) => tracing::warn!("cannot write the LLM reply cache {}: {err}", self.file.display()),
        }
        if state.bytes > self.max_bytes {
            self.shrink(&mut state);
        }
    }

    /// Keeps the most recently used entries that fit in half the bound, and rewrites the file with them.
    fn shrink(&self, state: &mut State) {
        let mut entries: Vec<&Entry> = state.entries.values().collect();
        entries.sort_by_key(|e| std::cmp::Reverse(e.used));
        let mut kept = Vec::new();
        let mut bytes = 0;
        for entry in entries {
            if bytes + entry.bytes > self.max_bytes / 2 {
                break;
            }
            bytes += entry.bytes;
            kept.push(entry.line.key.clone());
        }
        state.entries.retain(|key, _| kept.contains(key));
        let mut text = String::new();
        let mut lines: Vec<&Entry> = state.entries.values().collect();
        lines.sort_by_key(|e| e.used);
        for entry in lines {
            text.push_str(&serde_json::to_string(&entry.line).expect("cache lines serialize"));
            text.push('\n');
        }
        // Whole or not at all: a crash leaves the old file or the new one, never half of one.
        match crate::files::write_atomically(&self.file, text.as_bytes()) {
            Ok(()) => {
                tracing::info!(
                    "LLM reply cache over its bound: kept the {} most recently used answers",
                    state.entries.len()
                );
                state.bytes = text.len() as u64;
            }
            Err(err) => tracing::warn!("cannot rewrite the LLM reply cache {}: {err}", self.file.display()),
        }
    }

    /// How many answers it holds.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(tag: &str, max_bytes: u64) -> CacheConfig {
        let file = std::env::temp_dir().join(format!("wayfarer-reply-cache-{tag}-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&file);
        CacheConfig { file, max_bytes }
    }

    #[test]
    fn answers_outlive_a_restart_and_bad_lines_are_skipped() {
        let config = config("restart", 1 << 20);
        let messages = [Message::user("Mine 1 oak_log")];
        let k = key("http://x/v1", "small", &messages, 700, &[], None);
        assert_ne!(k, key("http://x/v1", "small", &messages, 701, &[], None), "max_tokens is part of the request");
        assert_ne!(k, key("http://x/v1", "big", &messages, 700, &[], None));
        let format = serde_json::json!({"type": "json_schema"});
        assert_ne!(k, key("http://x/v1", "small", &messages, 700, &[], Some(&format)), "so is the answer's shape");
        let cache = ReplyCache::open(&config);
        assert!(cache.get(&k).is_none());
        let usage = Usage { calls: 1, prompt_tokens: 90, completion_tokens: 10, millis: 0 };
        cache.put(k.clone(), "small", &Kept { content: "fn mine() {}".into(), usage, cut: false });
        let mut file = std::fs::OpenOptions::new().append(true).open(&config.file).unwrap();
        writeln!(file, "{{\"key\": \"half a li").unwrap();
        let reopened = ReplyCache::open(&config);
        assert_eq!(reopened.len(), 1);
        let kept = reopened.get(&k).unwrap();
        assert_eq!((kept.content.as_str(), kept.usage.prompt_tokens, kept.cut), ("fn mine() {}", 90, false));
        let _ = std::fs::remove_file(&config.file);
    }

    #[test]
    fn the_file_stays_within_its_bound_keeping_what_was_used_last() {
        let config = config("bound", 2000);
        let cache = ReplyCache::open(&config);
        let usage = Usage { calls: 1, prompt_tokens: 1, completion_tokens: 1, millis: 0 };
        let first = key("u", "m", &[Message::user("first")], 1, &[], None);
        cache.put(first.clone(), "m", &Kept { content: "a".repeat(100), usage, cut: true });
        for i in 0..40 {
            cache.put(
                key("u", "m", &[Message::user(i.to_string())], 1, &[], None),
                "m",
                &Kept { content: "b".repeat(100), usage, cut: false },
            );
            // The first answer is asked for all the time: it stays.
            assert!(cache.get(&first).is_some_and(|kept| kept.cut), "after {i}");
        }
        let size = std::fs::metadata(&config.file).unwrap().len();
        assert!(size <= 2000, "{size} bytes");
        assert_eq!(ReplyCache::open(&config).len(), cache.len());
        let _ = std::fs::remove_file(&config.file);
    }
}
