//! The skill library: Rhai functions with one-line descriptions, kept as files in `skills/`, compiled into one
//! function library every script can call, and searchable by meaning with local embeddings and a usearch index.
//!
//! The code half works without the model: skills load, run (`!run`), hot-reload and can be added or removed. Search
//! needs the embedding model ([`SkillLibrary::enable_search`]); until it is enabled, [`SkillLibrary::retrieve`] says
//! why it is off. Embedding and searching are CPU work: async callers use `spawn_blocking`.

mod embed;
pub mod import;
mod index;
pub mod lexical;
mod store;
pub mod text;

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::Arc,
};

pub use embed::{EmbedError, Embedder, FETCH_COMMAND, MODEL_ID};
pub use index::{INDEX_DIR, SkillIndex, SyncReport, cosine_index, read_manifest};
use parking_lot::{Mutex, RwLock};
use rhai::AST;
use store::ReadError;
pub use store::{Skill, call_args, skill_name, utc_now, valid_name, write_atomically};
pub use text::{ParamKind, SkillMeta, clean_description, indexed_description, search_text};
use text::{free_name, rename_identifier};

pub use crate::config::default_models_dir;

#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    #[error("{path}: {cause}", path = path.display())]
    Io { path: PathBuf, cause: std::io::Error },
    #[error("skill {name} does not compile{}: {reason}", line.map(|l| format!(" (line {l})")).unwrap_or_default())]
    Compile { name: String, line: Option<usize>, reason: String },
    #[error("{0}")]
    Invalid(String),
    #[error("there is no skill called {0}")]
    Unknown(String),
    #[error("skill search is off: {0}")]
    SearchOff(String),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error("the skill index failed: {0}")]
    Index(String),
}

/// What loading or reloading did, for the log and for owners in chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkillEvent {
    Loaded {
        name: String,
    },
    Removed {
        name: String,
    },
    /// Loaded, but its description is longer than the index takes: the index embeds the start of it.
    Trimmed {
        name: String,
        reason: String,
    },
    /// `kept` is true when an earlier good version stays in use.
    Failed {
        file: String,
        line: Option<usize>,
        message: String,
        kept: bool,
    },
}

impl SkillEvent {
    /// Whether the owner should hear of it as a problem.
    pub fn is_warning(&self) -> bool {
        matches!(self, SkillEvent::Trimmed { .. } | SkillEvent::Failed { .. })
    }
}

impl std::fmt::Display for SkillEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkillEvent::Loaded { name } => write!(f, "skill {name} loaded"),
            SkillEvent::Removed { name } => write!(f, "skill {name} removed"),
            SkillEvent::Trimmed { name, reason } => {
                write!(f, "skill {name} loaded; its description was trimmed for search because {reason}")
            }
            SkillEvent::Failed { file, line, message, kept } => {
                write!(f, "skills/{file}")?;
                if let Some(line) = line {
                    write!(f, " line {line}")?;
                }
                write!(f, ": {message}; skipped")?;
                if *kept {
                    write!(f, " (the previous version stays in use)")?;
                }
                Ok(())
            }
        }
    }
}

/// A skill to add.
#[derive(Clone, Debug)]
pub struct NewSkill {
    /// The name of its main `fn`, which the code must define.
    pub name: String,
    pub code: String,
    pub description: String,
    pub task: String,
}

/// What to do when a skill of the same name exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnCollision {
    /// Keep both: the new one becomes `nameV2` (or V3…), its `fn` renamed to match.
    KeepBoth,
    /// The new one takes the name; its version is one more than the old one's.
    Replace,
}

/// One search result.
#[derive(Clone, Debug)]
pub struct Match {
    pub skill: Arc<Skill>,
    /// How well it matches, 0..=1: reciprocal rank fusion of the search by meaning and the search by words, scaled so
    /// that the first in both scores 1.
    pub score: f32,
}

struct Loaded {
    skills: BTreeMap<String, Arc<Skill>>,
    functions: Arc<AST>,
    lexical: lexical::Lexical,
}

/// Which halves of the search [`SkillLibrary::retrieve_by`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchMode {
    /// Meaning, words and the action asked for, fused by reciprocal rank (what [`SkillLibrary::retrieve`] does).
    Hybrid,
    /// Meaning and words fused, without the action.
    MeaningAndWords,
    /// Embeddings only.
    Meaning,
    /// BM25 over the widened query only.
    Words,
}

/// Reciprocal rank fusion's constant: a skill ranked r in a list adds 1 / (RRF_K + r).
const RRF_K: f32 = 60.0;
/// What the asked-for action multiplies a fused score by.
const ACTION_LIFT: f32 = 1.15;
/// What a skill named after only things the request asks for multiplies its fused score by.
const THINGS_LIFT: f32 = 1.1;
/// How many candidates each half of the search offers the fusion (at least; more when more are asked for).
pub const CANDIDATES: usize = 40;

enum Search {
    Off(String),
    /// Loaded by the first search that needs it, from this models folder.
    Lazy(PathBuf),
    Ready {
        embedder: Arc<Embedder>,
        index: Mutex<SkillIndex>,
    },
}

pub struct SkillLibrary {
    dir: PathBuf,
    loaded: RwLock<Loaded>,
    search: RwLock<Search>,
    /// Adds, removes and reloads happen one at a time.
    writing: Mutex<()>,
}

impl SkillLibrary {
    /// Loads every skill in `dir` (which need not exist). Search starts off; see [`Self::enable_search`].
    pub fn open(dir: impl Into<PathBuf>) -> (Self, Vec<SkillEvent>) {
        let library = Self {
            dir: dir.into(),
            loaded: RwLock::new(Loaded {
                skills: BTreeMap::new(),
                functions: Arc::new(AST::empty()),
                lexical: lexical::Lexical::new([]),
            }),
            search: RwLock::new(Search::Off("the embedding model has not been loaded".to_owned())),
            writing: Mutex::new(()),
        };
        let mut names: Vec<String> = std::fs::read_dir(&library.dir)
            .map(|entries| entries.filter_map(|e| skill_name(&e.ok()?.path())).collect())
            .unwrap_or_default();
        names.sort();
        names.dedup();
        let mut skills = BTreeMap::new();
        let mut events = Vec::new();
        for name in names {
            match store::read(&library.dir, &name) {
                Ok(skill) => {
                    events.push(loaded(&skill));
                    skills.insert(name, Arc::new(skill));
                }
                Err(ReadError::Gone) => {} // a .json without its .rhai: nothing to load
                Err(ReadError::Invalid { file, line, reason }) => {
                    events.push(SkillEvent::Failed { file, line, message: reason, kept: false })
                }
            }
        }
        let texts: Vec<(String, String)> = skills.values().map(|s| (s.name.clone(), s.search_text())).collect();
        let lexical = lexical::Lexical::new(texts.iter().map(|(name, text)| (name.as_str(), text.as_str())));
        *library.loaded.write() = Loaded { functions: merge(&skills), skills, lexical };
        (library, events)
    }

    /// Loads the embedding model from `models_dir` and opens (or rebuilds) the index. Blocking, ~0.3 s plus the time
    /// to embed skills the index lacks. On error, search stays off and says why.
    pub fn enable_search(&self, models_dir: &Path) -> Result<SyncReport, SkillError> {
        match Embedder::load(models_dir) {
            Ok(embedder) => self.enable_search_with(Arc::new(embedder)),
            Err(err) => {
                *self.search.write() = Search::Off(err.to_string());
                Err(err.into())
            }
        }
    }

    /// As [`Self::enable_search`], with a model already loaded.
    pub fn enable_search_with(&self, embedder: Arc<Embedder>) -> Result<SyncReport, SkillError> {
        let _writing = self.writing.lock();
        let opened = SkillIndex::open(&self.dir, &embedder, &self.search_texts());
        self.finish_enabling(embedder, opened)
    }

    /// Throws the index away and embeds every skill again (`wayfarer skills reindex`).
    pub fn reindex(&self, embedder: Arc<Embedder>) -> Result<SyncReport, SkillError> {
        let _writing = self.writing.lock();
        let rebuilt = SkillIndex::rebuild(&self.dir, &embedder, &self.search_texts());
        self.finish_enabling(embedder, rebuilt)
    }

    fn finish_enabling(
        &self,
        embedder: Arc<Embedder>,
        opened: Result<(SkillIndex, SyncReport), SkillError>,
    ) -> Result<SyncReport, SkillError> {
        let mut search = self.search.write();
        match opened {
            Ok((index, report)) => {
                *search = Search::Ready { embedder, index: Mutex::new(index) };
                Ok(report)
            }
            Err(err) => {
                *search = Search::Off(err.to_string());
                Err(err)
            }
        }
    }

    /// Search loads the model from `models_dir` the first time it is needed, and tries again on every search until
    /// it succeeds (so `make models` while the bot runs is enough). Keeps an idle bot small and its start fast.
    pub fn search_lazily(&self, models_dir: PathBuf) {
        let mut search = self.search.write();
        if !matches!(*search, Search::Ready { .. }) {
            *search = Search::Lazy(models_dir);
        }
    }

    /// Whether the model is loaded and the index open.
    pub fn search_ready(&self) -> bool {
        matches!(*self.search.read(), Search::Ready { .. })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn get(&self, name: &str) -> Option<Arc<Skill>> {
        self.loaded.read().skills.get(name).cloned()
    }

    /// Every skill, by name.
    pub fn list(&self) -> Vec<Arc<Skill>> {
        self.loaded.read().skills.values().cloned().collect()
    }

    pub fn len(&self) -> usize {
        self.loaded.read().skills.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every skill's functions in one library, for [`crate::script::runner::Job::library`].
    pub fn functions(&self) -> Arc<AST> {
        self.loaded.read().functions.clone()
    }

    /// The `k` skills that best match `query`, best first: the nearest in meaning (embeddings) and the ones sharing its
    /// words (BM25 over names and descriptions, the query widened by Minecraft names and players' words), fused by
    /// reciprocal rank. Both halves read the query with the names of the things it describes without naming them
    /// (`glossary.txt`: "something to tell the time" is a clock). Blocking.
    pub fn retrieve(&self, query: &str, k: usize) -> Result<Vec<Match>, SkillError> {
        self.retrieve_by(query, k, SearchMode::Hybrid)
    }

    /// As [`Self::retrieve`], by meaning or by words alone when asked (to measure what each half brings).
    pub fn retrieve_by(&self, query: &str, k: usize, mode: SearchMode) -> Result<Vec<Match>, SkillError> {
        self.load_search_if_lazy()?;
        let search = self.search.read();
        let (embedder, index) = match &*search {
            Search::Ready { embedder, index } => (embedder, index),
            Search::Off(reason) => return Err(SkillError::SearchOff(reason.clone())),
            Search::Lazy(_) => return Err(SkillError::SearchOff("the embedding model is not loaded".to_owned())),
        };
        let pool = k.max(CANDIDATES);
        // A misspelled word is read as the library's word it misses, by both halves.
        let spelled = self.loaded.read().lexical.spelled(query, |word| embedder.knows_word(word)).into_owned();
        let query = spelled.as_str();
        let mut lists = Vec::new();
        if mode != SearchMode::Words {
            let vector = embedder.embed_one(&lexical::glossed(query))?;
            lists.push(index.lock().search(&vector, pool)?);
        }
        let loaded = self.loaded.read();
        if mode != SearchMode::Meaning {
            lists.push(loaded.lexical.search(query, pool));
        }
        let fused = if mode == SearchMode::Hybrid {
            let things = loaded.lexical.asked_stems(query);
            rank(&lists, &loaded.lexical.asked(query), |name| loaded.lexical.names_only_asked(&things, name), k)
        } else {
            rank(&lists, &[], |_| false, k)
        };
        drop(loaded);
        Ok(fused.into_iter().filter_map(|(name, score)| Some(Match { skill: self.get(&name)?, score })).collect())
    }

    /// The embedding model, only when search has loaded it already (never loads it).
    pub fn loaded_embedder(&self) -> Option<Arc<Embedder>> {
        match &*self.search.read() {
            Search::Ready { embedder, .. } => Some(embedder.clone()),
            _ => None,
        }
    }

    /// The embedding model search uses (loading it first if search is lazy), for other text to embed alike.
    pub fn embedder(&self) -> Result<Arc<Embedder>, SkillError> {
        self.load_search_if_lazy()?;
        match &*self.search.read() {
            Search::Ready { embedder, .. } => Ok(embedder.clone()),
            Search::Off(reason) => Err(SkillError::SearchOff(reason.clone())),
            Search::Lazy(_) => Err(SkillError::SearchOff("the embedding model is not loaded".to_owned())),
        }
    }

    fn load_search_if_lazy(&self) -> Result<(), SkillError> {
        let lazy = match &*self.search.read() {
            Search::Lazy(models_dir) => Some(models_dir.clone()),
            _ => None,
        };
        if let Some(models_dir) = lazy {
            let enabled = self.enable_search(&models_dir);
            self.search_lazily(models_dir);
            if let Err(err) = enabled {
                return Err(SkillError::SearchOff(err.to_string()));
            }
        }
        Ok(())
    }

    /// Adds a skill: validates it, writes its files, and makes it callable and searchable. Returns the stored skill,
    /// whose name is `nameV2` (…) when the name was taken and `on_collision` is [`OnCollision::KeepBoth`].
    pub fn add(&self, new: NewSkill, on_collision: OnCollision) -> Result<Arc<Skill>, SkillError> {
        self.add_as(new, on_collision, None)
    }

    /// As [`Self::add`], keeping the version and creation date the skill had where it came from (a shared store),
    /// when `origin` gives them.
    pub fn add_as(
        &self,
        new: NewSkill,
        on_collision: OnCollision,
        origin: Option<(u32, String)>,
    ) -> Result<Arc<Skill>, SkillError> {
        valid_name(&new.name).map_err(SkillError::Invalid)?;
        let description = new.description.split_whitespace().collect::<Vec<_>>().join(" ");
        if description.is_empty() {
            return Err(SkillError::Invalid("the description is empty".to_owned()));
        }

        let _writing = self.writing.lock();
        let existing = self.get(&new.name);
        let (name, code, version) = match (&existing, on_collision) {
            (None, _) => (new.name.clone(), new.code.clone(), 1),
            (Some(old), OnCollision::Replace) => (new.name.clone(), new.code.clone(), old.meta.version + 1),
            (Some(_), OnCollision::KeepBoth) => {
                let name = free_name(&new.name, |candidate| {
                    self.get(candidate).is_some() || self.dir.join(format!("{candidate}.rhai")).exists()
                });
                let code = rename_identifier(&new.code, &new.name, &name);
                (name, code, 1)
            }
        };
        // As the file will hold it, so the watcher sees our own write as nothing new.
        let code = format!("{}\n", code.trim_end());
        let (functions, params) = store::compile(&name, &code).map_err(|(reason, line)| SkillError::Compile {
            name: new.name.clone(),
            line,
            reason,
        })?;
        let (version, created) = match origin {
            Some((version, created)) if version > 0 && !created.is_empty() => (version, created),
            Some((version, _)) if version > 0 => (version, store::utc_now()),
            _ => (version, store::utc_now()),
        };
        let meta = SkillMeta { description, task: new.task.trim().to_owned(), created, version };
        let skill = Arc::new(Skill { name, code, meta, params, functions });
        store::write(&self.dir, &skill)?;
        self.install(skill.clone())?;
        Ok(skill)
    }

    /// Adds `new` under its own name, replacing a skill of that name if there is one (its version goes up by one).
    pub fn replace(&self, new: NewSkill) -> Result<Arc<Skill>, SkillError> {
        self.add(new, OnCollision::Replace)
    }

    /// Removes a skill's files, its functions and its vector.
    pub fn remove(&self, name: &str) -> Result<(), SkillError> {
        let _writing = self.writing.lock();
        if self.get(name).is_none() {
            return Err(SkillError::Unknown(name.to_owned()));
        }
        store::delete(&self.dir, name)?;
        self.uninstall(name)
    }

    /// Brings one skill up to date with its files after `path` changed. `None` if `path` is not a skill file or
    /// nothing changed.
    pub fn reload(&self, path: &Path) -> Option<SkillEvent> {
        let name = skill_name(path)?;
        let _writing = self.writing.lock();
        match store::read(&self.dir, &name) {
            Ok(skill) => {
                if let Some(old) = self.get(&name)
                    && old.code == skill.code
                    && old.meta == skill.meta
                {
                    return None; // our own write, seen again by the watcher
                }
                let event = loaded(&skill);
                match self.install(Arc::new(skill)) {
                    Ok(()) => Some(event),
                    Err(err) => Some(SkillEvent::Failed {
                        file: format!("{name}.json"),
                        line: None,
                        message: err.to_string(),
                        kept: true,
                    }),
                }
            }
            Err(ReadError::Gone) => {
                self.get(&name)?;
                match self.uninstall(&name) {
                    Ok(()) => Some(SkillEvent::Removed { name }),
                    Err(err) => Some(SkillEvent::Failed {
                        file: format!("{name}.rhai"),
                        line: None,
                        message: err.to_string(),
                        kept: false,
                    }),
                }
            }
            Err(ReadError::Invalid { file, line, reason }) => {
                Some(SkillEvent::Failed { file, line, message: reason, kept: self.get(&name).is_some() })
            }
        }
    }

    /// Puts a loaded skill in the library and the index (re-embedding only a changed description).
    fn install(&self, skill: Arc<Skill>) -> Result<(), SkillError> {
        let text = skill.search_text();
        let name = skill.name.clone();
        {
            let mut loaded = self.loaded.write();
            loaded.skills.insert(name.clone(), skill);
            loaded.functions = merge(&loaded.skills);
            loaded.lexical.upsert(&name, &text);
        }
        if let Search::Ready { embedder, index } = &*self.search.read() {
            let mut index = index.lock();
            if !index.is_current(&name, &text) {
                let vector = embedder.embed_one(&text)?;
                index.insert(&name, &text, &vector)?;
                index.save()?;
            }
        }
        Ok(())
    }

    fn uninstall(&self, name: &str) -> Result<(), SkillError> {
        {
            let mut loaded = self.loaded.write();
            loaded.skills.remove(name);
            loaded.functions = merge(&loaded.skills);
            loaded.lexical.remove(name);
        }
        if let Search::Ready { index, .. } = &*self.search.read() {
            let mut index = index.lock();
            if index.remove(name)? {
                index.save()?;
            }
        }
        Ok(())
    }

    fn search_texts(&self) -> BTreeMap<String, String> {
        self.list().iter().map(|skill| (skill.name.clone(), skill.search_text())).collect()
    }
}

/// The ranking [`SkillLibrary::retrieve`] gives from its lists (by meaning, by words): fused by reciprocal rank, then
/// the skills whose name starts with an action `asked` for ([`lexical::Lexical::asked`]: `make` → craft…, `put
/// down` → place…) lifted a little: enough to win between near-equals, not to raise one that matches nothing else,
/// nor above one that comes first in every list; and, among those doing an action asked for (any, when the request
/// names none), those named after only things the request asks for (`only_asked`: "one melon" is `collectMelon`,
/// not `collectMelonSeeds`). The best `k`.
pub fn rank(
    lists: &[Vec<(String, f32)>],
    asked: &[&str],
    only_asked: impl Fn(&str) -> bool,
    k: usize,
) -> Vec<(String, f32)> {
    let fused = fuse(lists, k.max(CANDIDATES));
    // (first in every list, lifted score, name): the one first in every list stays first.
    let mut lifted: Vec<(bool, f32, String)> = fused
        .into_iter()
        .map(|(name, score)| {
            let action = asked.contains(&lexical::action_of(&name).as_str());
            let mut lifted = score;
            if action {
                lifted *= ACTION_LIFT;
            }
            if (action || asked.is_empty()) && only_asked(&name) {
                lifted *= THINGS_LIFT;
            }
            (score >= 1.0, lifted, name)
        })
        .collect();
    lifted.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
    let mut fused: Vec<(String, f32)> = lifted.into_iter().map(|(_, score, name)| (name, score.min(1.0))).collect();
    fused.truncate(k);
    fused
}

/// Reciprocal rank fusion of ranked lists of names: the `k` best, each scored by the sum over the lists of
/// 1 / (RRF_K + rank), scaled so that first in every list scores 1. Ties keep the order of first appearance.
fn fuse(lists: &[Vec<(String, f32)>], k: usize) -> Vec<(String, f32)> {
    let mut scores: Vec<(String, f32)> = Vec::new();
    for list in lists {
        for (rank, (name, _)) in list.iter().enumerate() {
            let add = 1.0 / (RRF_K + rank as f32 + 1.0);
            match scores.iter_mut().find(|(seen, _)| seen == name) {
                Some((_, score)) => *score += add,
                None => scores.push((name.clone(), add)),
            }
        }
    }
    let best = lists.len() as f32 / (RRF_K + 1.0);
    scores.sort_by(|a, b| b.1.total_cmp(&a.1));
    scores.truncate(k);
    scores.into_iter().map(|(name, score)| (name, score / best)).collect()
}

/// The event for a skill that loaded: trimmed when its description is longer than the index takes.
fn loaded(skill: &Skill) -> SkillEvent {
    match indexed_description(&skill.meta.description).1 {
        Some(reason) => SkillEvent::Trimmed { name: skill.name.clone(), reason },
        None => SkillEvent::Loaded { name: skill.name.clone() },
    }
}

/// All skills' functions in one AST.
fn merge(skills: &BTreeMap<String, Arc<Skill>>) -> Arc<AST> {
    let mut all = AST::empty();
    for skill in skills.values() {
        all.combine(skill.functions.clone());
    }
    Arc::new(all)
}

#[cfg(test)]
pub(crate) mod tests;
