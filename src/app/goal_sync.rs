//! The bots' goal books in the fleet's store (`--store`): every change a bot's book saves is written to the store a
//! moment later, goal by goal, as the owner has it; a leader hands a gone member's unfinished goal to another member
//! there, and that member takes it up from the store with its plans and progress.
//!
//! Each bot's `goals.json` stays what it works from. With the store down, the books go on changing on disk, and
//! whatever differs from what was last written goes out when the store is back: the book files are the queue.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
    time::{Duration, Instant},
};

use tokio::sync::broadcast;

use super::store_sync::{RETRY, StoreLink};
use crate::{
    agent::goals::{self, Goals},
    store::{GoalWrite, Store, StoreError, StoredGoal},
};

/// How often the books are looked at (cheap: a counter, unless a book changed).
const SCAN_EVERY: Duration = Duration::from_millis(250);
/// How long a leader or a member waits for the store when handing a goal on or taking one up, before going on
/// without it.
const HANDOVER_WAIT: Duration = Duration::from_secs(3);

/// Keeps each bot's book (`books`: bot name and book) written to the store at `url` until the process ends.
pub async fn keep_goals(
    url: String,
    books: Vec<(String, Goals)>,
    link: Arc<StoreLink>,
    news: broadcast::Sender<String>,
) {
    // What the store was last given of each goal (its JSON), by key; goals found owned by another bot.
    let mut synced: HashMap<String, String> = HashMap::new();
    let mut lost: HashSet<String> = HashSet::new();
    let mut failures = 0;
    loop {
        let reason = match Store::connect(&url).await {
            Ok(store) => {
                failures = 0;
                link.set_goals_waiting(0);
                write_changes(&store, &books, &mut synced, &mut lost, &news).await.unwrap_err()
            }
            Err(StoreError::Unreachable { reason, .. }) => reason,
            Err(other) => other.to_string(),
        };
        tracing::debug!("store: goal books wait for the store: {reason}");
        let retry_at = Instant::now() + RETRY[failures.min(RETRY.len() - 1)];
        while Instant::now() < retry_at {
            link.set_goals_waiting(changed(&books, &synced, &lost).len());
            tokio::time::sleep(SCAN_EVERY).await;
        }
        failures += 1;
    }
}

/// Writes what changed in the books while the connection lasts.
async fn write_changes(
    store: &Store,
    books: &[(String, Goals)],
    synced: &mut HashMap<String, String>,
    lost: &mut HashSet<String>,
    news: &broadcast::Sender<String>,
) -> Result<(), String> {
    let mut seen: HashMap<String, u64> = HashMap::new();
    let mut scan = tokio::time::interval(SCAN_EVERY);
    loop {
        scan.tick().await;
        for (bot, book) in books {
            let changes = goals::with(book, |book| book.changes());
            if seen.get(bot) == Some(&changes) {
                continue;
            }
            for goal in changed_in(bot, book, synced, lost) {
                match store.put_goal(&goal).await.map_err(|err| err.to_string())? {
                    GoalWrite::Written => {
                        synced.insert(goal.key.clone(), goal.book);
                    }
                    GoalWrite::OwnedBy(owner) => {
                        lost.insert(goal.key.clone());
                        if goals::with(book, |book| book.lost(bot, &goal.key, &owner)).is_some() {
                            tracing::info!(
                                "{bot}: goal {} ({}) was handed to {owner}; stopped here",
                                goal.key,
                                goal.text
                            );
                            let _ = news.send(format!(
                                "{bot}: {owner} has my goal \"{}\" now (it was handed on while I was away); I leave it to them",
                                goal.text
                            ));
                        }
                    }
                }
            }
            seen.insert(bot.clone(), changes);
        }
    }
}

/// The goals of `books` that differ from what the store was last given, as the store keeps them.
fn changed(books: &[(String, Goals)], synced: &HashMap<String, String>, lost: &HashSet<String>) -> Vec<StoredGoal> {
    books.iter().flat_map(|(bot, book)| changed_in(bot, book, synced, lost)).collect()
}

/// One book's goals that differ from what the store was last given. A key the book holds twice (a goal taken over
/// again after it was stopped here) is written as its newest goal has it.
fn changed_in(bot: &str, book: &Goals, synced: &HashMap<String, String>, lost: &HashSet<String>) -> Vec<StoredGoal> {
    let mut keys = HashSet::new();
    goals::with(book, |book| {
        book.goals()
            .iter()
            .rev()
            .filter_map(|goal| {
                let key = goal.key(bot);
                if !keys.insert(key.clone()) || lost.contains(&key) {
                    return None;
                }
                let json = serde_json::to_string(goal).ok()?;
                if synced.get(&key) == Some(&json) {
                    return None;
                }
                Some(StoredGoal {
                    key,
                    owner: bot.to_owned(),
                    handed_from: None,
                    text: goal.text.clone(),
                    asked_by: goal.asked_by.clone(),
                    status: goal.status.name().to_owned(),
                    team: goal.team,
                    book: json,
                })
            })
            .collect()
    })
}

/// Runs `f` on a connection to the store at `url`, giving up after [`HANDOVER_WAIT`].
async fn with_store<T, F>(url: &str, f: impl FnOnce(Store) -> F) -> Result<T, String>
where
    F: std::future::Future<Output = Result<T, StoreError>>,
{
    let work = async {
        let store = Store::connect(url).await.map_err(|err| err.to_string())?;
        f(store).await.map_err(|err| err.to_string())
    };
    tokio::time::timeout(HANDOVER_WAIT, work)
        .await
        .unwrap_or_else(|_| Err(format!("the store did not answer within {} s", HANDOVER_WAIT.as_secs())))
}

/// A leader hands `from`'s unfinished goal `job` to `to` in the store. `Ok(false)` when the store has no such goal
/// of `from` (it never reached the store): `to` starts the job afresh.
pub async fn hand_over(url: &str, from: &str, job: &str, to: &str) -> Result<bool, String> {
    let (from, job, to) = (from.to_owned(), job.to_owned(), to.to_owned());
    let key = with_store(url, |store| async move { store.hand_over(&from, &job, &to).await }).await?;
    Ok(key.is_some())
}

/// The goal `job` another bot left and a leader handed to `me`, if the store has one: (its key, the bot it was
/// handed from, its JSON).
pub async fn handed_to(url: &str, me: &str, job: &str) -> Result<Option<(String, String, String)>, String> {
    let (me, job) = (me.to_owned(), job.to_owned());
    let goal = with_store(url, |store| async move { store.handed_to(&me, &job).await }).await?;
    Ok(goal.map(|g| (g.key, g.handed_from.unwrap_or_default(), g.book)))
}

/// Brings back into each bot's book (`books`) the unfinished goals the store at `url` has for it and the book lacks:
/// a bot whose folder was lost with its machine goes on with its goal on another. Waits at most [`HANDOVER_WAIT`];
/// with the store away, the books stay as they are.
pub async fn recover(url: &str, books: &[(String, Goals)]) {
    let owners: Vec<String> = books.iter().map(|(bot, _)| bot.clone()).collect();
    let stored = with_store(url, |store| async move {
        let mut all = Vec::new();
        for owner in &owners {
            all.extend(
                store.goals_of(owner).await?.into_iter().filter(|g| g.status == "active" || g.status == "pending"),
            );
        }
        Ok(all)
    })
    .await;
    let stored = match stored {
        Ok(stored) => stored,
        Err(why) => {
            return tracing::warn!("store: cannot look for goals to bring back ({why}); the books stay as they are");
        }
    };
    for goal in stored {
        let Some((bot, book)) = books.iter().find(|(bot, _)| *bot == goal.owner) else { continue };
        let recovered =
            goals::with(book, |book| (!book.has_key(bot, &goal.key)).then(|| book.recover(bot, &goal.key, &goal.book)));
        match recovered {
            Some(Ok(id)) => {
                tracing::info!("{bot}: goal {} ({}) came back from the store as #{id}", goal.key, goal.text)
            }
            Some(Err(why)) => tracing::warn!("{bot}: cannot bring goal {} back from the store: {why}", goal.key),
            None => {}
        }
    }
}
