//! While a run lasts, the skills folder and the fleet's store are kept in step (`--store`): a skill learned or edited
//! here is stored as a new version; a version another process stores arrives by LISTEN/NOTIFY and is installed as a
//! replaced skill is (compiled, indexed; a broken one reported, the last good one kept).
//!
//! The folder stays what the bots search and run. With the store down, they go on working from it, and whatever
//! changed meanwhile is still different from the store when it is back, so it is written then: the folder is the
//! queue, and nothing learned is lost.

use std::{
    collections::HashMap,
    sync::Arc,
    time::{Duration, Instant},
};

use parking_lot::Mutex;
use tokio::sync::{broadcast, mpsc};

use crate::{
    skills::{NewSkill, OnCollision, Skill, SkillLibrary},
    store::{SKILLS_CHANNEL, Store, StoreError, Stored, StoredSkill},
};

/// How often the folder is compared with what was last stored (cheap: nothing leaves the process unless it differs).
const SCAN_EVERY: Duration = Duration::from_millis(250);
/// Waits between attempts to reach the store, growing to the last.
pub(super) const RETRY: [Duration; 4] =
    [Duration::from_millis(500), Duration::from_secs(1), Duration::from_secs(2), Duration::from_secs(5)];

/// How the link to the store is, for `!status`.
#[derive(Debug, Default)]
pub struct StoreLink {
    state: Mutex<LinkState>,
    /// Goals changed in the bots' books and not yet written (see [`super::goal_sync`]).
    goals_waiting: std::sync::atomic::AtomicUsize,
}

#[derive(Debug, Default)]
enum LinkState {
    #[default]
    Off,
    Connecting,
    Up {
        at: String,
    },
    Down {
        reason: String,
        since: Instant,
        waiting: usize,
    },
}

impl StoreLink {
    /// One line for `!status`, or `None` with no store configured.
    pub fn status(&self) -> Option<String> {
        match &*self.state.lock() {
            LinkState::Off => None,
            LinkState::Connecting => Some("Store: connecting.".to_owned()),
            LinkState::Up { at } => Some(format!("Store: in step with {at}.")),
            LinkState::Down { reason, since, waiting } => {
                let waiting = waiting + self.goals_waiting.load(std::sync::atomic::Ordering::Relaxed);
                // Chat lines are short: the count before the cause, and the cause cut.
                let cause: String = reason.chars().take(60).collect();
                let cut = if cause.len() < reason.len() { "…" } else { "" };
                Some(format!(
                    "Store unreachable for {} s; working from the local skills and goals{} ({cause}{cut}).",
                    since.elapsed().as_secs(),
                    match waiting {
                        0 => String::new(),
                        n => format!(", {n} to write when it is back"),
                    }
                ))
            }
        }
    }

    pub(super) fn set_goals_waiting(&self, count: usize) {
        self.goals_waiting.store(count, std::sync::atomic::Ordering::Relaxed);
    }

    fn is_up(&self) -> bool {
        matches!(*self.state.lock(), LinkState::Up { .. })
    }

    fn set(&self, state: LinkState) {
        *self.state.lock() = state;
    }

    fn down(&self, reason: String) {
        let mut state = self.state.lock();
        let since = match &*state {
            LinkState::Down { since, .. } => *since,
            _ => Instant::now(),
        };
        *state = LinkState::Down { reason, since, waiting: 0 };
    }

    fn set_waiting(&self, count: usize) {
        if let LinkState::Down { waiting, .. } = &mut *self.state.lock() {
            *waiting = count;
        }
    }
}

/// What a skill says, to tell a change: code, description, task.
type Content = (String, String, String);

fn content_of(skill: &Skill) -> Content {
    (skill.code.trim_end().to_owned(), skill.meta.description.clone(), skill.meta.task.clone())
}

/// Whether `skill` says what `content` does (without copying it: the folder is compared four times a second).
fn says(skill: &Skill, (code, description, task): &Content) -> bool {
    skill.code.trim_end() == code && skill.meta.description == *description && skill.meta.task == *task
}

fn content_stored(skill: &StoredSkill) -> Content {
    (skill.code.trim_end().to_owned(), skill.description.clone(), skill.task.clone())
}

/// Keeps `skills` and the store at `url` in step until the process ends; `news` tells the owners what came in.
pub async fn keep_in_step(
    url: String,
    skills: Arc<SkillLibrary>,
    link: Arc<StoreLink>,
    news: broadcast::Sender<String>,
    origin: String,
) {
    // What the store held of each skill when this process last saw it in step: a folder skill that differs from it
    // changed here; one the store has moved past changed elsewhere.
    let mut synced: HashMap<String, Content> = HashMap::new();
    let mut failures = 0;
    let url_shown = crate::store::shown(&url);
    link.set(LinkState::Connecting);
    loop {
        let ended = run_once(&url, &skills, &link, &news, &origin, &mut synced).await;
        let reason = ended.unwrap_err();
        if link.is_up() {
            failures = 0; // a new outage starts again at the shortest wait
        }
        tracing::warn!("store {url_shown}: {reason}; working from the local skills until it is back");
        link.down(reason);
        // Until the next try, `!status` counts what waits to be written.
        let retry_at = Instant::now() + RETRY[failures.min(RETRY.len() - 1)];
        while Instant::now() < retry_at {
            link.set_waiting(changed_here(&skills, &synced).len());
            tokio::time::sleep(SCAN_EVERY).await;
        }
        failures += 1;
    }
}

/// One connection's life: catch up both ways, then follow notices and the folder until the connection fails.
async fn run_once(
    url: &str,
    skills: &Arc<SkillLibrary>,
    link: &StoreLink,
    news: &broadcast::Sender<String>,
    origin: &str,
    synced: &mut HashMap<String, Content>,
) -> Result<(), String> {
    let mut store = Store::connect(url).await.map_err(|err| match err {
        StoreError::Unreachable { reason, .. } => reason,
        other => other.to_string(),
    })?;
    let (_listener, mut notices) = listen(url).await?;
    // Catch up: the store's newer versions come in, the folder's changes go out.
    for stored in store.latest_skills().await.map_err(|err| err.to_string())? {
        let came_in = match skills.get(&stored.name) {
            None => true,
            Some(local) if says(&local, &content_stored(&stored)) => false,
            Some(local) => match synced.get(&stored.name) {
                // Changed elsewhere only if not changed here since this process last saw it in step.
                Some(last) => says(&local, last),
                // Never seen in step: the folder's own version number says which is newer.
                None => local.meta.version < stored.version,
            },
        };
        // A version that does not compile here is not taken as in step: the folder keeps its last good one, and
        // that one is not sent back as a change.
        if !came_in || install(skills, &stored, news) {
            synced.insert(stored.name.clone(), content_stored(&stored));
        }
    }
    link.set(LinkState::Up { at: store.at().to_owned() });
    tracing::info!("store: in step with {}", store.at());
    let mut scan = tokio::time::interval(SCAN_EVERY);
    loop {
        tokio::select! {
            notice = notices.recv() => {
                let Some(name) = notice else { return Err("the store connection ended".to_owned()) };
                let versions = store.skill_versions(&name).await.map_err(|err| err.to_string())?;
                if let Some(latest) = versions.last() {
                    let local = skills.get(&name);
                    let local_same = local.as_ref().is_some_and(|s| says(s, &content_stored(latest)));
                    // Changed here since last in step: kept, and stored by the next scan as a version of its own.
                    let changed_here = local.as_ref().is_some_and(|s| !synced.get(&name).is_some_and(|c| says(s, c)));
                    let came_in = !local_same && !changed_here;
                    if !came_in || install(skills, latest, news) {
                        synced.insert(name, content_stored(latest));
                    }
                }
            }
            _ = scan.tick() => {
                for name in changed_here(skills, synced) {
                    let Some(skill) = skills.get(&name) else { continue };
                    let outgoing = outgoing(&skill, skills, origin);
                    match store.put_skill(&outgoing).await.map_err(|err| err.to_string())? {
                        Stored::New(version) => tracing::info!("store: {name} stored as version {version}"),
                        Stored::Unchanged(_) => {}
                    }
                    synced.insert(name, content_of(&skill));
                }
            }
        }
    }
}

/// The folder's skills that differ from what the store was last seen to hold of them (or that it has never held).
fn changed_here(skills: &SkillLibrary, synced: &HashMap<String, Content>) -> Vec<String> {
    skills
        .list()
        .iter()
        .filter(|skill| !synced.get(&skill.name).is_some_and(|content| says(skill, content)))
        .map(|skill| skill.name.clone())
        .collect()
}

fn outgoing(skill: &Skill, skills: &SkillLibrary, origin: &str) -> StoredSkill {
    // The embedding only when search is already loaded here: a sync never loads the model by itself. One that
    // fails leaves the version without an embedding rather than unstored.
    let embedder = skills.loaded_embedder();
    StoredSkill::of(skill, embedder.as_deref(), origin)
        .or_else(|_| StoredSkill::of(skill, None, origin))
        .expect("no embedding, no error")
}

/// A version from the store into the folder, as a replaced skill: written, compiled, indexed. One that does not
/// compile is reported and the last good one kept (false).
fn install(skills: &SkillLibrary, stored: &StoredSkill, news: &broadcast::Sender<String>) -> bool {
    let new = NewSkill {
        name: stored.name.clone(),
        code: stored.code.clone(),
        description: stored.description.clone(),
        task: stored.task.clone(),
    };
    match skills.add_as(new, OnCollision::Replace, Some((stored.version, stored.created.clone()))) {
        Ok(skill) => {
            tracing::info!("store: {} version {} came in", skill.name, skill.meta.version);
            let _ =
                news.send(format!("Skills: {} (version {}) came in from the store", skill.signature(), stored.version));
            true
        }
        Err(err) => {
            let kept = if skills.get(&stored.name).is_some() { "; the last good version is kept" } else { "" };
            tracing::warn!("store: {} version {}: {err}", stored.name, stored.version);
            let _ =
                news.send(format!("Skills: {} version {} from the store: {err}{kept}", stored.name, stored.version));
            false
        }
    }
}

/// A connection of its own that LISTENs for stored versions, and the skill names as they are announced. The
/// receiver ends when the connection does; dropping the client ends it.
async fn listen(url: &str) -> Result<(tokio_postgres::Client, mpsc::UnboundedReceiver<String>), String> {
    let (client, mut connection) =
        tokio_postgres::connect(url, tokio_postgres::NoTls).await.map_err(|err| format!("cannot listen: {err}"))?;
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(Ok(message)) = std::future::poll_fn(|cx| connection.poll_message(cx)).await {
            if let tokio_postgres::AsyncMessage::Notification(notice) = message {
                let name = notice.payload().split(' ').next().unwrap_or_default().to_owned();
                if tx.send(name).is_err() {
                    break;
                }
            }
        }
    });
    client.batch_execute(&format!("LISTEN {SKILLS_CHANNEL}")).await.map_err(|err| format!("cannot listen: {err}"))?;
    Ok((client, rx))
}

/// This machine's name, for the record of who stored a version.
pub fn host_name() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "this machine".to_owned())
}
