//! The search index: one usearch (HNSW, cosine, f32) vector per skill description, persisted in `skills/index/`
//! with a manifest naming the model, the dimension and, per skill, its key and a hash of the text embedded.
//!
//! The manifest makes the index self-checking: an index built by another model or dimension, a file that will not
//! load, or one whose size disagrees with the manifest is rebuilt from the skills; a skill whose description changed
//! since it was embedded is re-embedded; a skill that is gone is removed.

use std::{
    collections::{BTreeMap, HashMap},
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize};
use usearch::{Index, IndexOptions, MetricKind, ScalarKind};

use super::{Embedder, SkillError};

/// The index files, inside the skills folder.
pub const INDEX_DIR: &str = "index";
const VECTORS_FILE: &str = "skills.usearch";
const MANIFEST_FILE: &str = "manifest.json";
/// Descriptions embedded per batch when (re)building.
const BATCH: usize = 256;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    model: String,
    dimensions: usize,
    next_key: u64,
    entries: BTreeMap<String, Entry>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Entry {
    key: u64,
    /// FNV-1a of the embedded text.
    hash: String,
}

/// What opening or syncing the index did, for the log.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SyncReport {
    /// Why the whole index was rebuilt, if it was.
    pub rebuilt: Option<String>,
    pub embedded: usize,
    pub removed: usize,
}

pub struct SkillIndex {
    dir: PathBuf,
    index: Index,
    manifest: Manifest,
    names: HashMap<u64, String>,
}

impl SkillIndex {
    /// Opens the index in `skills_dir/index` and brings it up to date with `skills` (name → description), embedding
    /// whatever is new or changed. Never fails because of what is on disk: a bad index is rebuilt.
    pub fn open(
        skills_dir: &Path,
        embedder: &Embedder,
        skills: &BTreeMap<String, String>,
    ) -> Result<(Self, SyncReport), SkillError> {
        let dir = skills_dir.join(INDEX_DIR);
        let (mut index, reason) = match Self::load(&dir, embedder) {
            Ok(index) => (index, None),
            Err(reason) => (Self::empty(dir, embedder)?, Some(reason)),
        };
        let mut report = index.sync(embedder, skills)?;
        report.rebuilt = reason;
        if report.rebuilt.is_some() || report.embedded > 0 || report.removed > 0 {
            index.save()?;
        }
        Ok((index, report))
    }

    /// Throws the stored index away and embeds every skill again.
    pub fn rebuild(
        skills_dir: &Path,
        embedder: &Embedder,
        skills: &BTreeMap<String, String>,
    ) -> Result<(Self, SyncReport), SkillError> {
        let mut index = Self::empty(skills_dir.join(INDEX_DIR), embedder)?;
        let mut report = index.sync(embedder, skills)?;
        report.rebuilt = Some("asked to".to_owned());
        index.save()?;
        Ok((index, report))
    }

    fn empty(dir: PathBuf, embedder: &Embedder) -> Result<Self, SkillError> {
        let index = new_index(embedder.dimensions())?;
        let manifest =
            Manifest { model: embedder.model_id(), dimensions: embedder.dimensions(), ..Manifest::default() };
        Ok(Self { dir, index, manifest, names: HashMap::new() })
    }

    /// The stored index, or why it cannot be used.
    fn load(dir: &Path, embedder: &Embedder) -> Result<Self, String> {
        let manifest: Manifest = read_manifest(&dir.join(MANIFEST_FILE))?;
        if manifest.model != embedder.model_id() || manifest.dimensions != embedder.dimensions() {
            return Err(format!(
                "it was built by {} ({} dimensions), not {}",
                manifest.model,
                manifest.dimensions,
                embedder.model_id()
            ));
        }
        let vectors_path = dir.join(VECTORS_FILE);
        let index = new_index(manifest.dimensions).map_err(|err| err.to_string())?;
        index
            .load(&vectors_path.to_string_lossy())
            .map_err(|err| format!("{} does not load ({err})", vectors_path.display()))?;
        if index.size() != manifest.entries.len() || index.dimensions() != manifest.dimensions {
            return Err(format!(
                "{} holds {} vectors but the manifest lists {}",
                vectors_path.display(),
                index.size(),
                manifest.entries.len()
            ));
        }
        let names = manifest.entries.iter().map(|(name, entry)| (entry.key, name.clone())).collect();
        Ok(Self { dir: dir.to_owned(), index, manifest, names })
    }

    /// Embeds new and changed descriptions and drops skills that are gone. Does not save.
    pub fn sync(&mut self, embedder: &Embedder, skills: &BTreeMap<String, String>) -> Result<SyncReport, SkillError> {
        let mut report = SyncReport::default();
        let gone: Vec<String> =
            self.manifest.entries.keys().filter(|name| !skills.contains_key(*name)).cloned().collect();
        for name in gone {
            self.remove(&name)?;
            report.removed += 1;
        }
        let stale: Vec<(&String, &String)> = skills
            .iter()
            .filter(|(name, text)| self.manifest.entries.get(*name).is_none_or(|e| e.hash != fnv1a(text)))
            .collect();
        for batch in stale.chunks(BATCH) {
            let texts: Vec<&str> = batch.iter().map(|(_, text)| text.as_str()).collect();
            let vectors = embedder.embed(&texts)?;
            for ((name, text), vector) in batch.iter().zip(vectors) {
                self.insert(name, text, &vector)?;
                report.embedded += 1;
            }
        }
        Ok(report)
    }

    /// Adds or replaces one skill's vector.
    pub fn insert(&mut self, name: &str, text: &str, vector: &[f32]) -> Result<(), SkillError> {
        if self.manifest.entries.contains_key(name) {
            self.remove(name)?;
        }
        let key = self.manifest.next_key;
        self.manifest.next_key += 1;
        if self.index.size() + 1 > self.index.capacity() {
            let grown = (self.index.capacity() * 2).max(64);
            self.index.reserve(grown).map_err(index_error)?;
        }
        self.index.add(key, vector).map_err(index_error)?;
        self.manifest.entries.insert(name.to_owned(), Entry { key, hash: fnv1a(text) });
        self.names.insert(key, name.to_owned());
        Ok(())
    }

    pub fn remove(&mut self, name: &str) -> Result<bool, SkillError> {
        let Some(entry) = self.manifest.entries.remove(name) else { return Ok(false) };
        self.names.remove(&entry.key);
        self.index.remove(entry.key).map_err(index_error)?;
        Ok(true)
    }

    /// Whether `name` is indexed with exactly `text`.
    pub fn is_current(&self, name: &str, text: &str) -> bool {
        self.manifest.entries.get(name).is_some_and(|e| e.hash == fnv1a(text))
    }

    pub fn len(&self) -> usize {
        self.manifest.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.manifest.entries.is_empty()
    }

    /// The `k` nearest skills to a query vector, best first, with cosine similarity (1 = same direction).
    pub fn search(&self, query: &[f32], k: usize) -> Result<Vec<(String, f32)>, SkillError> {
        if self.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let matches = self.index.search(query, k).map_err(index_error)?;
        Ok(matches
            .keys
            .iter()
            .zip(&matches.distances)
            .filter_map(|(key, distance)| self.names.get(key).map(|name| (name.clone(), 1.0 - distance)))
            .collect())
    }

    /// Writes the vectors, then the manifest, each through a temporary file and a rename.
    pub fn save(&self) -> Result<(), SkillError> {
        std::fs::create_dir_all(&self.dir).map_err(|cause| SkillError::Io { path: self.dir.clone(), cause })?;
        let vectors = self.dir.join(VECTORS_FILE);
        let temporary = self.dir.join(format!(".{VECTORS_FILE}.tmp"));
        self.index.save(&temporary.to_string_lossy()).map_err(index_error)?;
        crate::files::replace_with(&temporary, &vectors).map_err(|cause| SkillError::Io { path: vectors, cause })?;
        let manifest = serde_json::to_string_pretty(&self.manifest).expect("the manifest serializes");
        let path = self.dir.join(MANIFEST_FILE);
        crate::files::write_atomically(&path, manifest.as_bytes()).map_err(|cause| SkillError::Io { path, cause })
    }
}

fn new_index(dimensions: usize) -> Result<Index, SkillError> {
    cosine_index(dimensions, ScalarKind::F32, 64).map_err(index_error)
}

/// A saved index's manifest, or why it cannot be read: missing (`there was none`), unreadable, or damaged.
pub fn read_manifest<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Err("there was none".to_owned()),
        Err(err) => return Err(format!("{}: {err}", path.display())),
    };
    serde_json::from_str(&text).map_err(|err| format!("{} is damaged ({err})", path.display()))
}

/// An empty usearch index for unit vectors compared by cosine, stored as `quantization`, with room for `reserve`:
/// the one kind of index Wayfarer keeps (skills here, memories in [`crate::memory`]).
pub fn cosine_index(dimensions: usize, quantization: ScalarKind, reserve: usize) -> Result<Index, String> {
    let options = IndexOptions {
        dimensions,
        metric: MetricKind::Cos,
        quantization,
        connectivity: 0,
        expansion_add: 0,
        expansion_search: 0,
        multi: false,
    };
    let index = Index::new(&options).map_err(|e| e.to_string())?;
    index.reserve(reserve).map_err(|e| e.to_string())?;
    Ok(index)
}

fn index_error(err: impl std::fmt::Display) -> SkillError {
    SkillError::Index(err.to_string())
}

/// FNV-1a, 64 bits, as hex: stable across runs and platforms (unlike `DefaultHasher`).
fn fnv1a(text: &str) -> String {
    let hash = text
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_is_stable() {
        assert_eq!(fnv1a(""), "cbf29ce484222325");
        assert_eq!(fnv1a("a"), "af63dc4c8601ec8c");
    }
}
