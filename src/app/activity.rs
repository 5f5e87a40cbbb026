//! What a bot is doing right now (`!status` reports it) and the handle that `!stop` uses to end it.
//!
//! A bot does one long-running thing at a time: starting a new one ends the previous one. The activity future runs
//! on azalea's local task set; ending it aborts the future, and the caller also stops the bot's movement. A panic
//! inside an activity (a bug, never an owner's or an LLM's doing) ends only that activity: it is reported through the
//! activity's own `on_panic`, the bot becomes idle, and the next command is obeyed.

use std::{collections::BTreeMap, future::Future, panic::AssertUnwindSafe, sync::Arc};

use futures_util::FutureExt;
use parking_lot::{Mutex, MutexGuard};
use tokio::task::AbortHandle;

use crate::script::runner::panic_message;

#[derive(Default)]
struct Current {
    label: Option<String>,
    task: Option<AbortHandle>,
    /// Increases with every start, so a finishing task only clears its own label.
    generation: u64,
    /// The code last run (function name and source), kept after it ends, for the dashboard.
    code: Option<(String, String)>,
    /// How the activity's last failed run failed (a later run that succeeds leaves it; the next activity clears it).
    error: Option<String>,
    /// The mobs killed in the task under way, by kind (the next activity clears them).
    kills: BTreeMap<String, u32>,
    /// What the last run changed in the world, in words (kept after it ends; the next activity clears it).
    changes: Option<String>,
}

/// What the dashboard shows of the code: the latest run's function and source, the last error, and the mobs the
/// task under way has killed (for its tracker's bar).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Showing {
    pub code: Option<(String, String)>,
    pub error: Option<String>,
    pub kills: BTreeMap<String, u32>,
    pub changes: Option<String>,
}

/// A bot's current activity, shared between its event handler and the activity's own task.
#[derive(Clone, Default)]
pub struct Activity(Arc<Mutex<Current>>);

impl Activity {
    fn lock(&self) -> MutexGuard<'_, Current> {
        // A panic while holding this lock cannot leave it inconsistent (every write is one assignment).
        self.0.lock()
    }

    /// `idle`, or the label of what is running.
    pub fn describe(&self) -> String {
        self.lock().label.clone().unwrap_or_else(|| "idle".to_owned())
    }

    /// Ends the current activity (if any) and runs `work` as the new one, labelled `label` until it finishes. If
    /// `work` panics, `on_panic` hears the panic's message. Must be called from inside azalea's local task set (event
    /// handlers are).
    pub fn start(
        &self,
        label: impl Into<String>,
        work: impl Future<Output = ()> + 'static,
        on_panic: impl FnOnce(String) + 'static,
    ) {
        let mut current = self.lock();
        if let Some(task) = current.task.take() {
            task.abort();
        }
        current.generation += 1;
        let generation = current.generation;
        current.label = Some(label.into());
        current.error = None;
        current.kills.clear();
        current.changes = None;
        let this = self.clone();
        let label = current.label.clone().unwrap_or_default();
        let handle = tokio::task::spawn_local(async move {
            let ended = AssertUnwindSafe(work).catch_unwind().await;
            {
                let mut current = this.lock();
                if current.generation == generation {
                    current.label = None;
                    current.task = None;
                }
            }
            if let Err(panic) = ended {
                let message = panic_message(&*panic);
                tracing::error!("{label} ended with an internal error: {message}");
                on_panic(message);
            }
        });
        current.task = Some(handle.abort_handle());
    }

    /// Notes what a run shows (its code as it starts, or how it failed).
    pub fn show(&self, shown: crate::agent::act::Shown) {
        let mut current = self.lock();
        match shown {
            crate::agent::act::Shown::Code { name, code } => current.code = Some((name, code)),
            crate::agent::act::Shown::Failed(error) => current.error = Some(error),
            crate::agent::act::Shown::Kills(kills) => current.kills = kills,
            crate::agent::act::Shown::Changes(changes) => current.changes = Some(changes),
        }
    }

    /// The latest code, the last error and the task's kills.
    pub fn showing(&self) -> Showing {
        let current = self.lock();
        Showing {
            code: current.code.clone(),
            error: current.error.clone(),
            kills: current.kills.clone(),
            changes: current.changes.clone(),
        }
    }

    /// Renames what is running (progress for `!status`); does nothing when idle.
    pub fn relabel(&self, label: impl Into<String>) {
        let mut current = self.lock();
        if current.label.is_some() {
            current.label = Some(label.into());
        }
    }

    /// Counts the activities started and ended: a caller that notes it before a command sees from a later value
    /// whether the command started one, and from [`Activity::runs`] whether that one still runs.
    pub fn generation(&self) -> u64 {
        self.lock().generation
    }

    /// Whether the activity of `generation` is still the one running.
    pub fn runs(&self, generation: u64) -> bool {
        let current = self.lock();
        current.generation == generation && current.label.is_some()
    }

    /// Ends the current activity. Returns its label, or `None` if the bot was idle.
    pub fn cancel(&self) -> Option<String> {
        let mut current = self.lock();
        current.generation += 1;
        if let Some(task) = current.task.take() {
            task.abort();
        }
        current.label.take()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test(flavor = "current_thread")]
    async fn start_replaces_and_cancel_ends() {
        let local = tokio::task::LocalSet::new();
        local
            .run_until(async {
                let activity = Activity::default();
                assert_eq!(activity.describe(), "idle");
                activity.start("waiting", std::future::pending(), |_| {});
                assert_eq!(activity.describe(), "waiting");
                activity.start("short", tokio::time::sleep(Duration::from_millis(10)), |_| {});
                assert_eq!(activity.describe(), "short");
                tokio::time::sleep(Duration::from_millis(50)).await;
                assert_eq!(activity.describe(), "idle", "a finished activity clears its label");
                activity.start("long", std::future::pending(), |_| {});
                assert_eq!(activity.cancel().as_deref(), Some("long"));
                assert_eq!(activity.cancel(), None);
                assert_eq!(activity.describe(), "idle");
                activity.relabel("progress while idle");
                assert_eq!(activity.describe(), "idle", "relabelling does not invent an activity");
                activity.start("task", std::future::pending(), |_| {});
                activity.relabel("task Mine 3 oak_log: attempt 2/4, 1/3 oak_log");
                assert_eq!(activity.describe(), "task Mine 3 oak_log: attempt 2/4, 1/3 oak_log");
            })
            .await;
    }

    /// A task that panicked left `!status` showing `task Mine 2 oak_log: attempt 1/4` from then on and said nothing.
    /// Now the panic is reported, the bot is idle, and the next activity runs.
    #[tokio::test(flavor = "current_thread")]
    async fn a_panicking_activity_is_reported_and_cleared() {
        let local = tokio::task::LocalSet::new();
        local
            .run_until(async {
                let activity = Activity::default();
                let (tx, rx) = tokio::sync::oneshot::channel();
                activity.start(
                    "task Mine 2 oak_log",
                    async {
                        tokio::task::yield_now().await;
                        panic!("injected for the test");
                    },
                    move |message| {
                        let _ = tx.send(message);
                    },
                );
                let message = tokio::time::timeout(Duration::from_secs(5), rx).await.expect("reported").unwrap();
                assert_eq!(message, "injected for the test");
                assert_eq!(activity.describe(), "idle");
                let (done_tx, done_rx) = tokio::sync::oneshot::channel();
                activity.start("next", async move { done_tx.send(()).unwrap() }, |_| {});
                tokio::time::timeout(Duration::from_secs(5), done_rx).await.expect("the next activity ran").unwrap();
            })
            .await;
    }
}
