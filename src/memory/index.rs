//! The memories' vectors: a usearch index (cosine, stored as f16 to halve its size), keyed by memory id, saved now
//! and then beside the log with a small manifest. It rebuilds itself: at start, memories the saved index lacks (added
//! since it was saved) are embedded again, ids it holds that were forgotten are removed, and an index that will not
//! load, or was built by another model, is built afresh from the log.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use serde::{Deserialize, Serialize};
use usearch::{Index, ScalarKind};

use super::MemoryError;
use crate::skills::Embedder;

const VECTORS_FILE: &str = "memories.usearch";
const MANIFEST_FILE: &str = "memories.index.json";
/// The index is saved when this many vectors changed and [`SAVE_EVERY`] passed since the last save.
const SAVE_AFTER_CHANGES: usize = 64;
const SAVE_EVERY: Duration = Duration::from_secs(60);

#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    model: String,
    dimensions: usize,
    size: usize,
}

pub struct VectorIndex {
    dir: PathBuf,
    index: Index,
    model: String,
    changed: usize,
    saved: Instant,
}

impl VectorIndex {
    /// The saved index in `dir`, or an empty one and why the saved one could not be used.
    pub fn open(dir: &Path, embedder: &Embedder) -> (Result<Self, MemoryError>, Option<String>) {
        match Self::load(dir, embedder) {
            Ok(index) => (Ok(index), None),
            Err(why) => (Self::empty(dir, embedder.model_id(), embedder.dimensions()), Some(why)),
        }
    }

    fn empty(dir: &Path, model: String, dimensions: usize) -> Result<Self, MemoryError> {
        let index = new_index(dimensions)?;
        Ok(VectorIndex { dir: dir.to_owned(), index, model, changed: 0, saved: Instant::now() })
    }

    fn load(dir: &Path, embedder: &Embedder) -> Result<Self, String> {
        let manifest: Manifest = crate::skills::read_manifest(&dir.join(MANIFEST_FILE))?;
        if manifest.model != embedder.model_id() || manifest.dimensions != embedder.dimensions() {
            return Err(format!("it was built by {} ({} dimensions)", manifest.model, manifest.dimensions));
        }
        let vectors = dir.join(VECTORS_FILE);
        let index = new_index(manifest.dimensions).map_err(|e| e.to_string())?;
        index.load(&vectors.to_string_lossy()).map_err(|err| format!("{} does not load ({err})", vectors.display()))?;
        if index.size() != manifest.size || index.dimensions() != manifest.dimensions {
            return Err(format!(
                "{} holds {} vectors, the manifest says {}",
                vectors.display(),
                index.size(),
                manifest.size
            ));
        }
        Ok(VectorIndex { dir: dir.to_owned(), index, model: manifest.model, changed: 0, saved: Instant::now() })
    }

    pub fn len(&self) -> usize {
        self.index.size()
    }

    pub fn contains(&self, id: u64) -> bool {
        self.index.contains(id)
    }

    pub fn add(&mut self, id: u64, vector: &[f32]) -> Result<(), MemoryError> {
        if self.index.contains(id) {
            self.index.remove(id).map_err(index_error)?;
        }
        if self.index.size() + 1 > self.index.capacity() {
            self.index.reserve((self.index.capacity() * 2).max(1024)).map_err(index_error)?;
        }
        self.index.add(id, vector).map_err(index_error)?;
        self.changed += 1;
        Ok(())
    }

    pub fn remove(&mut self, id: u64) -> Result<(), MemoryError> {
        if self.index.contains(id) {
            self.index.remove(id).map_err(index_error)?;
            self.changed += 1;
        }
        Ok(())
    }

    /// The `k` nearest memories to `query`, with cosine similarity.
    pub fn search(&self, query: &[f32], k: usize) -> Result<Vec<(u64, f32)>, MemoryError> {
        if self.index.size() == 0 || k == 0 {
            return Ok(Vec::new());
        }
        let found = self.index.search(query, k).map_err(index_error)?;
        Ok(found.keys.into_iter().zip(found.distances).map(|(id, distance)| (id, 1.0 - distance)).collect())
    }

    /// Memory `id`'s stored vector (f16 brought back to f32), if it is indexed.
    pub fn vector(&self, id: u64) -> Option<Vec<f32>> {
        let mut vector = vec![0.0_f32; self.index.dimensions()];
        (self.index.get(id, &mut vector).ok()? > 0).then_some(vector)
    }

    /// Cosine similarity of memory `id` to a unit-length `query`, if it is indexed.
    pub fn similarity(&self, id: u64, query: &[f32]) -> Option<f32> {
        let vector = self.vector(id)?;
        let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
        (norm > 0.0).then(|| vector.iter().zip(query).map(|(a, b)| a * b).sum::<f32>() / norm)
    }

    /// Saves when enough changed and the last save is a while ago (a crash costs only re-embedding what changed).
    pub fn save_if_due(&mut self) -> Result<(), MemoryError> {
        if self.changed >= SAVE_AFTER_CHANGES && self.saved.elapsed() >= SAVE_EVERY { self.save() } else { Ok(()) }
    }

    /// Writes the vectors, then the manifest, each through a temporary file and a rename.
    pub fn save(&mut self) -> Result<(), MemoryError> {
        let io = |path: &Path| {
            let path = path.to_owned();
            move |cause| MemoryError::Io { path, cause }
        };
        std::fs::create_dir_all(&self.dir).map_err(io(&self.dir))?;
        let vectors = self.dir.join(VECTORS_FILE);
        let temporary = self.dir.join(format!(".{VECTORS_FILE}.tmp"));
        self.index.save(&temporary.to_string_lossy()).map_err(index_error)?;
        crate::files::replace_with(&temporary, &vectors).map_err(io(&vectors))?;
        let manifest =
            Manifest { model: self.model.clone(), dimensions: self.index.dimensions(), size: self.index.size() };
        let text = serde_json::to_vec(&manifest).map_err(|e| MemoryError::Encode(e.to_string()))?;
        let path = self.dir.join(MANIFEST_FILE);
        crate::files::write_atomically(&path, &text)
            .map_err(io(&path))
            .map_err(|e| MemoryError::Index(format!("cannot save the manifest: {e}")))?;
        self.changed = 0;
        self.saved = Instant::now();
        Ok(())
    }
}

fn new_index(dimensions: usize) -> Result<Index, MemoryError> {
    crate::skills::cosine_index(dimensions, ScalarKind::F16, 1024).map_err(index_error)
}

fn index_error(err: impl std::fmt::Display) -> MemoryError {
    MemoryError::Index(err.to_string())
}
