//! Hand-written scripts: every `*.rhai` file in a folder (`scripts/` by default), compiled, kept current by a file
//! watcher (see the app layer), runnable by name with `!run NAME`.
//!
//! A file that fails to compile is reported with its line and the previous version stays usable; a deleted file is
//! dropped. Nothing here runs scripts (see [`super::runner`]).

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::Arc,
};

use parking_lot::RwLock;
use rhai::AST;

/// A compiled script.
#[derive(Debug)]
pub struct Script {
    pub name: String,
    pub path: PathBuf,
    /// The source `ast` was compiled from (the file may have changed since).
    pub source: String,
    pub ast: Arc<AST>,
}

/// What a (re)load did, for the log and for owners in chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadEvent {
    Loaded {
        name: String,
    },
    Removed {
        name: String,
    },
    /// `kept` is true when an earlier good version stays in use.
    Failed {
        file: String,
        line: Option<usize>,
        message: String,
        kept: bool,
    },
}

impl std::fmt::Display for LoadEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadEvent::Loaded { name } => write!(f, "script {name} loaded"),
            LoadEvent::Removed { name } => write!(f, "script {name} removed"),
            LoadEvent::Failed { file, line, message, kept } => {
                write!(f, "{file}")?;
                if let Some(line) = line {
                    write!(f, " line {line}")?;
                }
                write!(f, ": {message}")?;
                if *kept {
                    write!(f, " (the previous version stays in use)")?;
                }
                Ok(())
            }
        }
    }
}

/// The scripts in one folder.
pub struct ScriptLibrary {
    dir: PathBuf,
    scripts: RwLock<BTreeMap<String, Arc<Script>>>,
}

impl ScriptLibrary {
    /// A library with no scripts that has not looked at `dir` yet.
    pub fn empty(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into(), scripts: RwLock::new(BTreeMap::new()) }
    }

    /// Compiles every `*.rhai` in `dir` (which need not exist yet). Returns the library and what loading did.
    pub fn open(dir: impl Into<PathBuf>) -> (Self, Vec<LoadEvent>) {
        let library = Self::empty(dir);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&library.dir)
            .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| is_script(p)).collect())
            .unwrap_or_default();
        files.sort();
        let events = files.iter().filter_map(|path| library.reload(path)).collect();
        (library, events)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn get(&self, name: &str) -> Option<Arc<Script>> {
        self.scripts.read().get(name).cloned()
    }

    pub fn names(&self) -> Vec<String> {
        self.scripts.read().keys().cloned().collect()
    }

    /// Brings one file's entry up to date with the disk. `None` if `path` is not a script file.
    pub fn reload(&self, path: &Path) -> Option<LoadEvent> {
        let name = script_name(path)?;
        let file = path.file_name().map_or_else(|| name.clone(), |f| f.to_string_lossy().into_owned());
        let source = match std::fs::read_to_string(path) {
            Ok(source) => source,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                let removed = self.scripts.write().remove(&name);
                return removed.map(|_| LoadEvent::Removed { name });
            }
            Err(err) => {
                return Some(LoadEvent::Failed {
                    file,
                    line: None,
                    message: err.to_string(),
                    kept: self.get(&name).is_some(),
                });
            }
        };
        match super::compile(&source, &["args"]) {
            Ok(ast) => {
                let script = Arc::new(Script { name: name.clone(), path: path.to_owned(), source, ast: Arc::new(ast) });
                self.scripts.write().insert(name.clone(), script);
                Some(LoadEvent::Loaded { name })
            }
            Err(err) => Some(LoadEvent::Failed {
                file,
                line: err.line(),
                message: err.message(),
                kept: self.get(&name).is_some(),
            }),
        }
    }
}

fn is_script(path: &Path) -> bool {
    script_name(path).is_some()
}

/// `scripts/get_wood.rhai` → `get_wood`. Editor temp files and other extensions are not scripts.
pub fn script_name(path: &Path) -> Option<String> {
    if path.extension()? != "rhai" {
        return None;
    }
    let stem = path.file_stem()?.to_str()?;
    let valid = !stem.is_empty() && stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then(|| stem.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> crate::TestDir {
        crate::test_dir(&format!("scripts-{tag}"))
    }

    #[test]
    fn loads_good_files_and_reports_bad_ones_with_lines() {
        let dir = temp_dir("load");
        std::fs::write(dir.join("hello.rhai"), "chat(\"hi\")").unwrap();
        std::fs::write(dir.join("broken.rhai"), "let x = 1;\nlet = ;").unwrap();
        std::fs::write(dir.join("notes.txt"), "not a script").unwrap();
        std::fs::write(dir.join(".#hello.rhai"), "editor lock file").unwrap();
        let (library, events) = ScriptLibrary::open(&dir);
        assert_eq!(library.names(), ["hello"]);
        let failed = events.iter().find(|e| matches!(e, LoadEvent::Failed { .. })).expect("broken.rhai fails");
        let LoadEvent::Failed { file, line, kept, .. } = failed else { unreachable!() };
        assert_eq!((file.as_str(), *line, *kept), ("broken.rhai", Some(2), false));
        assert!(!failed.to_string().contains("previous version"), "{failed}");
    }

    #[test]
    fn a_bad_edit_keeps_the_old_version_and_a_delete_removes() {
        let dir = temp_dir("edit");
        let path = dir.join("work.rhai");
        std::fs::write(&path, "1 + 1").unwrap();
        let (library, _) = ScriptLibrary::open(&dir);
        let before = library.get("work").unwrap();
        std::fs::write(&path, "1 +").unwrap();
        assert!(matches!(library.reload(&path), Some(LoadEvent::Failed { kept: true, .. })));
        assert!(Arc::ptr_eq(&before, &library.get("work").unwrap()), "a failed reload replaced the good version");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(library.reload(&path), Some(LoadEvent::Removed { name: "work".into() }));
        assert!(library.get("work").is_none());
    }
}
