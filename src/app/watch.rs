//! Hot reload: watching the script and skill folders for edits. File events are gathered until they settle, so an
//! editor's save or a skill's two files arrive as one batch; each changed file is reloaded into its library and the
//! result reported (to the log and, through the announcer, to the owners in chat).

use std::{
    path::{Path, PathBuf},
    sync::{Arc, mpsc},
    time::Duration,
};

use notify::{EventKind, RecursiveMode, Watcher};

use crate::{
    script::library::{LoadEvent, ScriptLibrary, script_name},
    skills::{SkillEvent, SkillLibrary, skill_name},
};

/// How long a burst of file events (an editor's save, a skill's two files) may take to settle.
pub const SETTLE: Duration = Duration::from_millis(150);

/// Watches `dir` (not its subfolders; it is created if missing) and calls `on_change` on a thread of its own with
/// every settled batch of changed paths, sorted and without repeats. Watching ends when the returned watcher is
/// dropped or `on_change` returns false.
pub fn watch_folder(
    dir: &Path,
    thread_name: &str,
    on_change: impl Fn(Vec<PathBuf>) -> bool + Send + 'static,
) -> notify::Result<notify::RecommendedWatcher> {
    std::fs::create_dir_all(dir).map_err(notify::Error::io)?;
    let (tx, rx) = mpsc::channel::<PathBuf>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        // Opening or reading a file is no change; reloading one opens it, so counting that would reload forever.
        if let Ok(event) = event
            && !matches!(event.kind, EventKind::Access(_))
        {
            for path in event.paths {
                let _ = tx.send(path);
            }
        }
    })?;
    watcher.watch(dir, RecursiveMode::NonRecursive)?;
    std::thread::Builder::new()
        .name(thread_name.to_owned())
        .spawn(move || {
            while let Ok(first) = rx.recv() {
                let mut changed = vec![first];
                while let Ok(more) = rx.recv_timeout(SETTLE) {
                    changed.push(more);
                }
                changed.sort();
                changed.dedup();
                if !on_change(changed) {
                    return;
                }
            }
        })
        .map_err(notify::Error::io)?;
    Ok(watcher)
}

/// Reloads changed scripts until the returned watcher is dropped; `report` hears of every load event.
pub fn watch_scripts(
    library: &Arc<ScriptLibrary>,
    report: impl Fn(LoadEvent) + Send + 'static,
) -> notify::Result<notify::RecommendedWatcher> {
    reload_on_change(library, library.dir(), "script watcher", script_name, ScriptLibrary::reload, report)
}

/// Reloads changed skills (a skill's two files are one change) until the returned watcher is dropped; `report` hears
/// of every change.
pub fn watch_skills(
    library: &Arc<SkillLibrary>,
    report: impl Fn(SkillEvent) + Send + 'static,
) -> notify::Result<notify::RecommendedWatcher> {
    reload_on_change(library, library.dir(), "skill watcher", skill_name, SkillLibrary::reload, report)
}

/// Watches `dir` and calls `reload` once for each name (`name_of` a changed path) in a settled batch, passing what it
/// reports on; ends when the library is dropped.
fn reload_on_change<L: Send + Sync + 'static, E: 'static>(
    library: &Arc<L>,
    dir: &Path,
    thread_name: &str,
    name_of: fn(&Path) -> Option<String>,
    reload: fn(&L, &Path) -> Option<E>,
    report: impl Fn(E) + Send + 'static,
) -> notify::Result<notify::RecommendedWatcher> {
    let weak = Arc::downgrade(library);
    watch_folder(dir, thread_name, move |changed| {
        let mut names: Vec<(String, PathBuf)> =
            changed.into_iter().filter_map(|path| Some((name_of(&path)?, path))).collect();
        names.dedup_by(|a, b| a.0 == b.0);
        let Some(library) = weak.upgrade() else { return false };
        for event in names.iter().filter_map(|(_, path)| reload(&library, path)) {
            report(event);
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    fn temp_dir(tag: &str) -> crate::TestDir {
        crate::test_dir(&format!("watch-{tag}"))
    }

    /// Waits for the event `want` (other events may come first).
    fn wait_for<T: PartialEq + std::fmt::Debug>(rx: &mpsc::Receiver<T>, want: T) {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(event) if event == want => return,
                Ok(_) => {}
                Err(_) => panic!("no {want:?} within 5 s"),
            }
        }
    }

    #[test]
    fn scripts_are_picked_up_when_added_and_edited() {
        let dir = temp_dir("scripts");
        let library = Arc::new(ScriptLibrary::open(&dir).0);
        let (tx, rx) = mpsc::channel();
        let _watcher = watch_scripts(&library, move |event| tx.send(event).unwrap()).unwrap();
        std::fs::write(dir.join("fresh.rhai"), "40 + 2").unwrap();
        wait_for(&rx, LoadEvent::Loaded { name: "fresh".into() });
        let first = library.get("fresh").unwrap();
        std::fs::write(dir.join("fresh.rhai"), "41 + 2").unwrap();
        wait_for(&rx, LoadEvent::Loaded { name: "fresh".into() });
        assert!(!Arc::ptr_eq(&first, &library.get("fresh").unwrap()), "the edit was not picked up");
    }

    /// Reloading reads the file; a read is not an edit, so one edit is one reload (not a reload every 150 ms).
    #[test]
    fn an_edit_reloads_once() {
        let dir = temp_dir("once");
        let library = Arc::new(ScriptLibrary::open(&dir).0);
        let (tx, rx) = mpsc::channel();
        let _watcher = watch_scripts(&library, move |event| tx.send(event).unwrap()).unwrap();
        std::fs::write(dir.join("calm.rhai"), "1").unwrap();
        wait_for(&rx, LoadEvent::Loaded { name: "calm".into() });
        let _ = std::fs::read_to_string(dir.join("calm.rhai")).unwrap();
        let more: Vec<_> = std::iter::from_fn(|| rx.recv_timeout(SETTLE * 6).ok()).take(3).collect();
        assert!(more.is_empty(), "reloaded again with no edit: {more:?}");
    }

    #[test]
    fn a_skill_written_while_watched_loads_once() {
        let dir = temp_dir("skills");
        let library = Arc::new(SkillLibrary::open(&dir).0);
        let (tx, rx) = mpsc::channel();
        let _watcher = watch_skills(&library, move |event| tx.send(event).unwrap()).unwrap();
        std::fs::write(dir.join("fish.json"), r#"{"description": "Catches fish."}"#).unwrap();
        std::fs::write(dir.join("fish.rhai"), "fn fish() { 1 }\n").unwrap();
        wait_for(&rx, SkillEvent::Loaded { name: "fish".into() });
        assert_eq!(library.get("fish").unwrap().meta.description, "Catches fish.");
        std::fs::remove_file(dir.join("fish.rhai")).unwrap();
        wait_for(&rx, SkillEvent::Removed { name: "fish".into() });
    }
}
