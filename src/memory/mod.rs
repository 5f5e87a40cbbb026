//! The memory stream, in the manner of generative agents: each bot records what it perceives and does as memories
//! (chat it heard, players it met, blocks and chests it saw, attacks and deaths, task outcomes, facts its owners told
//! it, insights from reflection), each with the game time it was made and last recalled, an importance from 1 to 10
//! and an embedding. Recall ranks by recency, importance and relevance ([`recall`]); the LLM's answers (ratings,
//! reflection) are read in [`answers`]; places form a tree ([`places`]).
//!
//! One stream per bot, in its checkpoint folder: an append-only log ([`log`]) that is the truth, and a vector index
//! that rebuilds itself from it. Bounded: past the limit, low-scoring old observations are forgotten first, insights
//! last. This module does not watch the world or call the LLM: the app records what the bot sees, the agent asks the
//! LLM for ratings and reflections and hands the answers here.

pub mod answers;
pub mod importance;
mod index;
pub mod log;
pub mod places;
pub mod recall;

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    path::{Path, PathBuf},
    sync::Arc,
    time::Instant,
};

use serde::{Deserialize, Serialize};

use self::{
    index::VectorIndex,
    log::{Entry, Log},
};
use crate::skills::Embedder;
pub use recall::{Score, Weights};

/// The log's file name in the bot's memory folder.
pub const LOG_FILE: &str = "memories.jsonl";
/// Game ticks per second, minute and day.
pub const TICKS_PER_SECOND: u64 = 20;
pub const DAY: u64 = 24_000;
/// Memories embedded per batch when the index is rebuilt.
const EMBED_BATCH: usize = 256;
/// Candidates recall scores: the nearest by meaning, as many of the most recently recalled, and half as many of the
/// most important.
const CANDIDATES: usize = 128;

#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    #[error("{}: {cause}", path.display())]
    Io { path: PathBuf, cause: std::io::Error },
    #[error("cannot encode a memory: {0}")]
    Encode(String),
    #[error("the memory index failed: {0}")]
    Index(String),
    #[error("cannot embed a memory: {0}")]
    Embed(String),
}

/// The three kinds of memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Something that happened or was seen.
    Event,
    /// An insight or a plan.
    Thought,
    /// Something a player said.
    Chat,
}

/// What a memory is about, for the importance rules and for the planners that use it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Subject {
    /// A chat line from `from`.
    Heard {
        from: String,
    },
    /// A goal a player gave the bot (or its team): a request, rated by rule.
    Asked {
        by: String,
    },
    /// A player seen nearby.
    Met {
        player: String,
    },
    /// `count` blocks of one kind seen in one area (the memory's position is the nearest of them).
    Seen {
        block: String,
        count: u32,
    },
    /// A chest's contents when the bot last looked in (the memory's position is the chest).
    Chest {
        items: BTreeMap<String, u32>,
    },
    Hurt {
        by: String,
    },
    Died,
    /// A task or goal that ended.
    Task {
        ok: bool,
    },
    /// A fact an owner told the bot (`!remember`).
    Told {
        by: String,
    },
    /// An insight of reflection (its evidence is in the memory).
    Insight,
}

impl Subject {
    pub fn kind(&self) -> Kind {
        match self {
            Subject::Heard { .. } | Subject::Asked { .. } | Subject::Told { .. } => Kind::Chat,
            Subject::Insight => Kind::Thought,
            _ => Kind::Event,
        }
    }

    /// How long a memory of this kind lasts (game ticks), if it expires: chat after a week of game days, sightings
    /// of players after three.
    fn lasts(&self) -> Option<u64> {
        match self {
            Subject::Heard { .. } => Some(7 * DAY),
            Subject::Met { .. } => Some(3 * DAY),
            _ => None,
        }
    }
}

/// One memory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    pub id: u64,
    pub text: String,
    pub subject: Subject,
    /// When it was made and when it was last recalled (game ticks).
    pub at: u64,
    pub accessed: u64,
    /// 1 (an everyday chore) to 10 (a life-changing event).
    pub importance: u8,
    /// The importance is a placeholder until the LLM rates it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<u64>,
    /// The memories an insight rests on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pos: Option<[i32; 3]>,
    /// The biome where it happened, for naming places.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub biome: Option<String>,
    /// It replaced an older memory of the same thing (a sighting, a chest, a meeting): not news, so it does not count
    /// towards the next reflection.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub restated: bool,
}

impl Memory {
    pub fn new(id: u64, text: String, subject: Subject, at: u64, importance: u8) -> Self {
        Memory {
            id,
            text,
            subject,
            at,
            accessed: at,
            importance,
            provisional: false,
            expires: None,
            evidence: Vec::new(),
            pos: None,
            biome: None,
            restated: false,
        }
    }

    pub fn kind(&self) -> Kind {
        self.subject.kind()
    }

    fn expired(&self, now: u64) -> bool {
        self.expires.is_some_and(|end| end <= now)
    }
}

/// A memory to record.
#[derive(Clone, Debug)]
pub struct NewMemory {
    pub text: String,
    pub subject: Subject,
    pub pos: Option<[i32; 3]>,
    pub biome: Option<String>,
}

impl NewMemory {
    pub fn new(text: impl Into<String>, subject: Subject) -> Self {
        NewMemory { text: text.into(), subject, pos: None, biome: None }
    }

    pub fn at(mut self, pos: [i32; 3], biome: Option<String>) -> Self {
        self.pos = Some(pos);
        self.biome = biome;
        self
    }
}

/// The stream's settings (`[memory]` in the configuration).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Memories kept at most; past it the lowest-scoring observations go first.
    pub max_memories: usize,
    /// Importance gathered since the last reflection that makes the next one due.
    pub reflect_after: u32,
    /// Game ticks over which recency halves.
    pub half_life: u64,
    pub weights: Weights,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { max_memories: 100_000, reflect_after: 150, half_life: DAY, weights: Weights::default() }
    }
}

/// A recalled memory and how it scored.
#[derive(Clone, Debug)]
pub struct Recalled {
    pub memory: Memory,
    pub score: Score,
}

/// What opening a stream found worth a warning.
#[derive(Debug, Default)]
pub struct Opened {
    pub warnings: Vec<String>,
}

pub struct MemoryStream {
    dir: PathBuf,
    settings: Settings,
    memories: BTreeMap<u64, Memory>,
    /// (last recalled, id), for the recency candidates.
    by_access: BTreeSet<(u64, u64)>,
    /// (importance, id), for the most important candidates.
    by_importance: BTreeSet<(u8, u64)>,
    /// Sightings, chests and meetings by what they are about: a newer one with the same key replaces the older.
    replaceable: HashMap<Replaceable, u64>,
    next_id: u64,
    log: Log,
    index: Option<VectorIndex>,
    embedder: Option<Arc<Embedder>>,
    last_reflection: u64,
    spawn: Option<[i32; 3]>,
    /// The latest game time seen, and the wall clock then: the clock runs on by itself while the world's is unknown.
    clock: (u64, Instant),
}

impl MemoryStream {
    /// Opens the stream in `dir` (created if missing), reading its log back. Search by meaning starts once an
    /// embedder is attached ([`MemoryStream::attach`]); until then recall matches words.
    pub fn open(dir: &Path, settings: Settings) -> Result<(Self, Opened), MemoryError> {
        let (log, entries, damage) = Log::open(&dir.join(LOG_FILE))?;
        let mut stream = MemoryStream {
            dir: dir.to_owned(),
            settings,
            memories: BTreeMap::new(),
            by_access: BTreeSet::new(),
            by_importance: BTreeSet::new(),
            replaceable: HashMap::new(),
            next_id: 0,
            log,
            index: None,
            embedder: None,
            last_reflection: 0,
            spawn: None,
            clock: (0, Instant::now()),
        };
        let mut opened = Opened::default();
        if damage.torn {
            opened.warnings.push(format!(
                "{}: the last entry was cut off (a crash?) and is dropped",
                dir.join(LOG_FILE).display()
            ));
        }
        if !damage.bad_lines.is_empty() {
            opened.warnings.push(format!(
                "{}: {} damaged line(s) skipped",
                dir.join(LOG_FILE).display(),
                damage.bad_lines.len()
            ));
        }
        for entry in entries {
            stream.apply(entry);
        }
        let latest = stream.memories.values().map(|m| m.at.max(m.accessed)).max().unwrap_or(0);
        stream.clock = (latest.max(stream.last_reflection), Instant::now());
        Ok((stream, opened))
    }

    fn apply(&mut self, entry: Entry) {
        match entry {
            Entry::Add(memory) => {
                self.next_id = self.next_id.max(memory.id.saturating_add(1));
                self.insert(memory);
            }
            Entry::Touch { ids, at } => {
                for id in ids {
                    self.touch(id, at);
                }
            }
            Entry::Forget { ids } => {
                for id in ids {
                    self.remove(id);
                }
            }
            Entry::Rate { ratings } => {
                for (id, importance) in ratings {
                    if let Some(m) = self.memories.get_mut(&id) {
                        self.by_importance.remove(&(m.importance, id));
                        m.importance = importance.clamp(1, 10);
                        m.provisional = false;
                        self.by_importance.insert((m.importance, id));
                    }
                }
            }
            Entry::Reflected { at } => self.last_reflection = self.last_reflection.max(at),
            Entry::Spawn { pos } => self.spawn = Some(pos),
        }
    }

    fn insert(&mut self, memory: Memory) {
        self.by_access.insert((memory.accessed, memory.id));
        self.by_importance.insert((memory.importance, memory.id));
        if let Some(key) = Replaceable::of(&memory.subject, memory.pos) {
            self.replaceable.insert(key, memory.id);
        }
        if let Some(old) = self.memories.insert(memory.id, memory) {
            self.by_access.remove(&(old.accessed, old.id));
            self.by_importance.remove(&(old.importance, old.id));
        }
    }

    fn remove(&mut self, id: u64) -> Option<Memory> {
        let memory = self.memories.remove(&id)?;
        self.by_access.remove(&(memory.accessed, id));
        self.by_importance.remove(&(memory.importance, id));
        if let Some(key) = Replaceable::of(&memory.subject, memory.pos)
            && self.replaceable.get(&key) == Some(&id)
        {
            self.replaceable.remove(&key);
        }
        Some(memory)
    }

    fn touch(&mut self, id: u64, at: u64) {
        if let Some(m) = self.memories.get_mut(&id)
            && at > m.accessed
        {
            self.by_access.remove(&(m.accessed, id));
            m.accessed = at;
            self.by_access.insert((at, id));
        }
    }

    /// Starts search by meaning: opens the saved index, embeds what it lacks, drops what was forgotten. Returns what
    /// it did, for the log. Blocking (embedding): call it off the async workers.
    pub fn attach(&mut self, embedder: Arc<Embedder>) -> Result<String, MemoryError> {
        let (index, rebuilt) = VectorIndex::open(&self.dir, &embedder);
        let mut index = index?;
        let mut removed = 0;
        if index.len() > 0 {
            for id in 0..self.next_id {
                if !self.memories.contains_key(&id) && index.contains(id) {
                    index.remove(id)?;
                    removed += 1;
                }
            }
        }
        let missing: Vec<(u64, String)> =
            self.memories.values().filter(|m| !index.contains(m.id)).map(|m| (m.id, m.text.clone())).collect();
        for batch in missing.chunks(EMBED_BATCH) {
            let texts: Vec<&str> = batch.iter().map(|(_, text)| text.as_str()).collect();
            let vectors = embedder.embed(&texts).map_err(|e| MemoryError::Embed(e.to_string()))?;
            for ((id, _), vector) in batch.iter().zip(vectors) {
                index.add(*id, &vector)?;
            }
        }
        if !missing.is_empty() || removed > 0 {
            index.save()?;
        }
        self.index = Some(index);
        self.embedder = Some(embedder);
        let mut report = format!(
            "{} memories, {} embedded now, {removed} removed from the index",
            self.memories.len(),
            missing.len()
        );
        if let Some(why) = rebuilt.filter(|_| !self.memories.is_empty()) {
            report.push_str(&format!(" (index rebuilt: {why})"));
        }
        Ok(report)
    }

    /// Memory `id`'s embedding, once the model is attached (for comparisons that score every memory).
    pub fn vector(&self, id: u64) -> Option<Vec<f32>> {
        self.index.as_ref()?.vector(id)
    }

    /// Whether recall searches by meaning.
    pub fn has_embeddings(&self) -> bool {
        self.index.is_some()
    }

    /// The game time now: the world's clock when it is known (`world`), else the last time seen run on by the wall
    /// clock; never earlier than a time already seen.
    pub fn now(&mut self, world: Option<u64>) -> u64 {
        let (last, when) = self.clock;
        let run_on = last + when.elapsed().as_secs() * TICKS_PER_SECOND;
        let now = world.unwrap_or(run_on).max(last);
        if now != last {
            self.clock = (now, Instant::now());
        }
        now
    }

    /// Notes where the bot first joined, once: places are named from it.
    pub fn set_spawn(&mut self, pos: [i32; 3]) -> Result<(), MemoryError> {
        if self.spawn.is_none() {
            self.spawn = Some(pos);
            self.log.append(&Entry::Spawn { pos })?;
        }
        Ok(())
    }

    pub fn spawn(&self) -> [i32; 3] {
        self.spawn.unwrap_or([0, 64, 0])
    }

    /// Records `new` at game time `now` and returns its id. Importance comes from the rules, or is provisional until
    /// the LLM rates it. A sighting replaces the earlier one of the same kind in the same area, a chest's contents
    /// the earlier ones of that chest, a meeting the earlier one with that player.
    pub fn record(&mut self, new: NewMemory, now: u64) -> Result<u64, MemoryError> {
        let replaced: Vec<u64> = Replaceable::of(&new.subject, new.pos)
            .and_then(|key| self.replaceable.get(&key))
            .copied()
            .into_iter()
            .collect();
        self.forget_ids(&replaced)?;
        let id = self.next_id;
        self.next_id += 1;
        let rule = importance::by_rule(&new.subject);
        let mut memory = Memory::new(id, new.text, new.subject, now, rule.unwrap_or(importance::PROVISIONAL));
        memory.provisional = rule.is_none();
        memory.expires = memory.subject.lasts().map(|lasts| now + lasts);
        memory.pos = new.pos;
        memory.biome = new.biome;
        memory.restated = !replaced.is_empty();
        self.add(memory)?;
        Ok(id)
    }

    /// Records an insight resting on `evidence` (memory ids).
    pub fn record_insight(&mut self, text: &str, evidence: Vec<u64>, now: u64) -> Result<u64, MemoryError> {
        let weights: Vec<u8> = evidence.iter().filter_map(|id| self.memories.get(id)).map(|m| m.importance).collect();
        let id = self.next_id;
        self.next_id += 1;
        let mut memory =
            Memory::new(id, text.to_owned(), Subject::Insight, now, importance::insight_importance(&weights));
        memory.evidence = evidence;
        self.add(memory)?;
        Ok(id)
    }

    fn add(&mut self, memory: Memory) -> Result<(), MemoryError> {
        if memory.at > self.clock.0 {
            self.clock = (memory.at, Instant::now());
        }
        self.log.append(&Entry::Add(memory.clone()))?;
        let (id, text) = (memory.id, memory.text.clone());
        self.insert(memory);
        if let (Some(index), Some(embedder)) = (&mut self.index, &self.embedder) {
            // The log has it: a memory the model could not embed is still kept, and embedded at the next start.
            match embedder.embed(&[text.as_str()]) {
                Ok(vectors) => {
                    if let Some(vector) = vectors.first() {
                        index.add(id, vector)?;
                    }
                    index.save_if_due()?;
                }
                Err(err) => tracing::warn!("memory {id} is not searchable by meaning until the next start: {err}"),
            }
        }
        self.keep_bounded()?;
        self.compact_if_due()
    }

    /// Forgets past the limit: expired memories, then the lowest-scoring observations (importance times recency),
    /// insights only when nothing else is left. Frees 1 % more than needed, so this runs rarely.
    fn keep_bounded(&mut self) -> Result<(), MemoryError> {
        let max = self.settings.max_memories.max(1);
        if self.memories.len() <= max {
            return Ok(());
        }
        let now = self.clock.0;
        let excess = self.memories.len() - max + max / 100;
        let half_life = self.settings.half_life;
        let mut ranked: Vec<(bool, bool, f32, u64)> = self
            .memories
            .values()
            .map(|m| {
                let worth = f32::from(m.importance) * recall::recency(m.accessed, now, half_life);
                (!m.expired(now), m.kind() == Kind::Thought, worth, m.id)
            })
            .collect();
        ranked.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(a.2.total_cmp(&b.2)).then(a.3.cmp(&b.3)));
        let victims: Vec<u64> = ranked.into_iter().take(excess).map(|(_, _, _, id)| id).collect();
        self.forget_ids(&victims)
    }

    /// Rewrites the log once most of its entries no longer describe a live memory.
    fn compact_if_due(&mut self) -> Result<(), MemoryError> {
        if self.log.entries <= 2 * self.memories.len() + 1024 {
            return Ok(());
        }
        let now = self.clock.0;
        let mut entries: Vec<Entry> = self.spawn.map(|pos| Entry::Spawn { pos }).into_iter().collect();
        entries.push(Entry::Reflected { at: self.last_reflection });
        entries.extend(self.memories.values().filter(|m| !m.expired(now)).cloned().map(Entry::Add));
        self.log.rewrite(&entries)
    }

    fn forget_ids(&mut self, ids: &[u64]) -> Result<(), MemoryError> {
        if ids.is_empty() {
            return Ok(());
        }
        self.log.append(&Entry::Forget { ids: ids.to_vec() })?;
        for id in ids {
            self.remove(*id);
            if let Some(index) = &mut self.index {
                index.remove(*id)?;
            }
        }
        Ok(())
    }

    /// The `k` memories that best answer `query` at `now` (see [`recall`]), best first; each is marked recalled.
    /// Expired memories are left out.
    pub fn recall(&mut self, query: &str, now: u64, k: usize) -> Result<Vec<Recalled>, MemoryError> {
        let found = self.rank(query, now, k)?;
        let ids: Vec<u64> = found.iter().map(|r| r.memory.id).collect();
        if !ids.is_empty() {
            self.log.append(&Entry::Touch { ids: ids.clone(), at: now })?;
            for id in ids {
                self.touch(id, now);
            }
        }
        Ok(found)
    }

    /// As [`MemoryStream::recall`], without marking anything recalled.
    pub fn rank(&self, query: &str, now: u64, k: usize) -> Result<Vec<Recalled>, MemoryError> {
        let live = |m: &&Memory| !m.expired(now);
        let mut candidates: Vec<(&Memory, f32)> = Vec::new();
        let mut chosen = BTreeSet::new();
        match (&self.index, &self.embedder) {
            (Some(index), Some(embedder)) if !self.memories.is_empty() => {
                let query = embedder.embed(&[query]).map_err(|e| MemoryError::Embed(e.to_string()))?;
                let query = query.first().map(Vec::as_slice).unwrap_or_default();
                for (id, similarity) in index.search(query, CANDIDATES)? {
                    if let Some(m) = self.memories.get(&id).filter(live)
                        && chosen.insert(id)
                    {
                        candidates.push((m, similarity));
                    }
                }
                // The most recently recalled and the most important: either part can outweigh meaning.
                let recent = self.by_access.iter().rev().map(|(_, id)| *id).take(CANDIDATES);
                let important = self.by_importance.iter().rev().map(|(_, id)| *id).take(CANDIDATES / 2);
                for id in recent.chain(important) {
                    if let Some(m) = self.memories.get(&id).filter(live)
                        && chosen.insert(id)
                    {
                        let similarity = index.similarity(id, query).unwrap_or(0.0);
                        candidates.push((m, similarity));
                    }
                }
            }
            _ => {
                // No model: words shared with the query stand for meaning, over the most recently recalled.
                for (_, id) in self.by_access.iter().rev().take(20 * CANDIDATES) {
                    if let Some(m) = self.memories.get(id).filter(live) {
                        candidates.push((m, recall::word_overlap(query, &m.text)));
                    }
                }
            }
        }
        let ranked = recall::rank(&candidates, now, self.settings.half_life, self.settings.weights);
        Ok(ranked
            .into_iter()
            .take(k)
            .filter_map(|score| self.memories.get(&score.id).map(|m| Recalled { memory: m.clone(), score }))
            .collect())
    }

    /// Forgets every memory whose text holds all of `words` (case aside); returns them.
    pub fn forget_matching(&mut self, words: &str) -> Result<Vec<Memory>, MemoryError> {
        let words: Vec<String> = words.split_whitespace().map(str::to_lowercase).collect();
        if words.is_empty() {
            return Ok(Vec::new());
        }
        let matching: Vec<Memory> = self
            .memories
            .values()
            .filter(|m| {
                let text = m.text.to_lowercase();
                words.iter().all(|w| text.contains(w.as_str()))
            })
            .cloned()
            .collect();
        let ids: Vec<u64> = matching.iter().map(|m| m.id).collect();
        self.forget_ids(&ids)?;
        Ok(matching)
    }

    /// Memories still waiting for the LLM's rating, oldest first, at most `n`.
    pub fn unrated(&self, n: usize) -> Vec<(u64, String)> {
        self.memories.values().filter(|m| m.provisional).take(n).map(|m| (m.id, m.text.clone())).collect()
    }

    /// Stores the LLM's ratings.
    pub fn rate(&mut self, ratings: &[(u64, u8)]) -> Result<(), MemoryError> {
        let ratings: Vec<(u64, u8)> = ratings
            .iter()
            .filter(|(id, _)| self.memories.contains_key(id))
            .map(|(id, r)| (*id, (*r).clamp(1, 10)))
            .collect();
        if ratings.is_empty() {
            return Ok(());
        }
        self.log.append(&Entry::Rate { ratings: ratings.clone() })?;
        self.apply(Entry::Rate { ratings });
        Ok(())
    }

    /// Importance of the observations made since the last reflection (restated ones left out).
    pub fn gathered(&self) -> u32 {
        self.memories
            .values()
            .rev()
            .take_while(|m| m.at > self.last_reflection)
            .filter(|m| m.kind() != Kind::Thought && !m.restated)
            .map(|m| u32::from(m.importance))
            .sum()
    }

    /// Whether enough importance gathered since the last reflection for another.
    pub fn reflection_due(&self) -> bool {
        self.gathered() >= self.settings.reflect_after
    }

    /// Notes that a reflection happened at `now`.
    pub fn reflected(&mut self, now: u64) -> Result<(), MemoryError> {
        self.log.append(&Entry::Reflected { at: now })?;
        self.last_reflection = self.last_reflection.max(now);
        Ok(())
    }

    /// The `n` latest memories (expired ones left out), oldest first.
    pub fn recent(&self, n: usize, now: u64) -> Vec<&Memory> {
        let mut recent: Vec<&Memory> = self.memories.values().rev().filter(|m| !m.expired(now)).take(n).collect();
        recent.reverse();
        recent
    }

    pub fn get(&self, id: u64) -> Option<&Memory> {
        self.memories.get(&id)
    }

    pub fn len(&self) -> usize {
        self.memories.len()
    }

    pub fn is_empty(&self) -> bool {
        self.memories.is_empty()
    }

    /// The log's size on disk.
    pub fn log_bytes(&self) -> u64 {
        self.log.bytes
    }

    pub fn memories(&self) -> impl Iterator<Item = &Memory> {
        self.memories.values()
    }

    /// The live sightings, chests and meetings (the memories a newer one replaces), oldest first: looked up in
    /// their key index instead of going through every memory.
    fn replaceable_memories(&self) -> impl Iterator<Item = &Memory> {
        let mut ids: Vec<u64> = self.replaceable.values().copied().collect();
        ids.sort_unstable();
        ids.into_iter().filter_map(|id| self.memories.get(&id))
    }

    /// What the bot last saw in each chest it looked into: position, contents and when.
    pub fn chests(&self) -> Vec<([i32; 3], &BTreeMap<String, u32>, u64)> {
        self.replaceable_memories()
            .filter_map(|m| match (&m.subject, m.pos) {
                (Subject::Chest { items }, Some(pos)) => Some((pos, items, m.at)),
                _ => None,
            })
            .collect()
    }

    /// Where blocks of `block` were seen and not mined since: position, how many in that area, and when.
    pub fn sightings(&self, block: &str) -> Vec<([i32; 3], u32, u64)> {
        self.replaceable_memories()
            .filter_map(|m| match (&m.subject, m.pos) {
                (Subject::Seen { block: seen, count }, Some(pos)) if seen == block => Some((pos, *count, m.at)),
                _ => None,
            })
            .collect()
    }

    /// Forgets the sightings of `block` in the areas `cells` (the bot looked there again and found none).
    pub fn forget_sightings(&mut self, block: &str, cells: &[[i32; 3]]) -> Result<usize, MemoryError> {
        let mut gone: Vec<u64> = cells
            .iter()
            .filter_map(|cell| self.replaceable.get(&Replaceable::Seen(block.to_owned(), *cell)))
            .copied()
            .collect();
        gone.sort_unstable();
        gone.dedup();
        self.forget_ids(&gone)?;
        Ok(gone.len())
    }

    /// The tree of places the bot knows.
    pub fn places(&self) -> Vec<places::Region> {
        places::tree(self.memories.values(), self.spawn())
    }

    /// Saves the vector index now (the log needs no saving).
    pub fn save(&mut self) -> Result<(), MemoryError> {
        match &mut self.index {
            Some(index) => index.save(),
            None => Ok(()),
        }
    }
}

/// What a sighting, a chest or a meeting is about: a newer memory with the same key makes the older out of date.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Replaceable {
    /// A chest, by position.
    Chest([i32; 3]),
    /// Blocks of a kind, by area.
    Seen(String, [i32; 3]),
    /// A player, by lowercase name.
    Met(String),
}

impl Replaceable {
    fn of(subject: &Subject, pos: Option<[i32; 3]>) -> Option<Self> {
        match subject {
            Subject::Chest { .. } => pos.map(Replaceable::Chest),
            Subject::Seen { block, .. } => pos.map(|p| Replaceable::Seen(block.clone(), places::cell(p))),
            Subject::Met { player } => Some(Replaceable::Met(player.to_lowercase())),
            _ => None,
        }
    }
}

/// A block position as chat writes it: `4 64 9`.
pub fn pos_text(p: [i32; 3]) -> String {
    format!("{} {} {}", p[0], p[1], p[2])
}

/// How long ago, in words: `just now`, `40 s ago`, `5 min ago`, `3 h ago`, `2 days ago` (game time).
pub fn age_text(ticks: u64) -> String {
    let secs = ticks / TICKS_PER_SECOND;
    match secs {
        0..=4 => "just now".to_owned(),
        5..=59 => format!("{secs} s ago"),
        60..=3599 => format!("{} min ago", secs / 60),
        3600..=86_399 => format!("{} h ago", secs / 3600),
        _ => format!("{} days ago", secs / 86_400),
    }
}

#[cfg(test)]
mod tests;
