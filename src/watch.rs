//! Watching a folder for edits (scripts, skills): file events are gathered until they settle, so an editor's save or
//! a skill's two files arrive as one batch.

use std::{
    path::{Path, PathBuf},
    sync::mpsc,
    time::Duration,
};

use notify::{RecursiveMode, Watcher};

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
        if let Ok(event) = event {
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
