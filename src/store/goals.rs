//! Goal books in the store: every goal of every bot, with the bot that owns it now. A bot writes only the goals it
//! owns, each write one statement (so a goal is never half-written), and a leader hands a gone member's goal to
//! another member by changing its owner in one statement too: a goal has one owner at a time, and the old owner's
//! late writes are refused rather than mixed in.

use super::{Store, StoreError};

/// One goal as the store keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGoal {
    /// `Crew_2#7`: the bot that first took it and its number there (see `Goal::key` in the goal book).
    pub key: String,
    pub owner: String,
    pub handed_from: Option<String>,
    pub text: String,
    pub asked_by: String,
    /// `pending`, `active`, `completed`, `failed`, `stopped` or `dropped`.
    pub status: String,
    pub team: bool,
    /// The goal as its owner's book has it, in JSON (plans, tasks, statuses, each task's starting inventory).
    pub book: String,
}

/// What writing a goal did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalWrite {
    Written,
    /// The goal belongs to another bot now (a leader handed it on): nothing was written.
    OwnedBy(String),
}

const COLUMNS: &str = "key, owner, handed_from, text, asked_by, status, team, book::text";

fn goal_from_row(row: &tokio_postgres::Row) -> StoredGoal {
    StoredGoal {
        key: row.get(0),
        owner: row.get(1),
        handed_from: row.get(2),
        text: row.get(3),
        asked_by: row.get(4),
        status: row.get(5),
        team: row.get(6),
        book: row.get(7),
    }
}

impl Store {
    /// Writes `goal` as its owner has it now: a new goal is added, one the owner still owns is replaced; one another
    /// bot owns now is left alone and its owner named.
    pub async fn put_goal(&self, goal: &StoredGoal) -> Result<GoalWrite, StoreError> {
        let written = self
            .client
            .query_opt(
                "INSERT INTO goals (key, owner, text, asked_by, status, team, book)
                 VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb)
                 ON CONFLICT (key) DO UPDATE SET
                     text = EXCLUDED.text, asked_by = EXCLUDED.asked_by, status = EXCLUDED.status,
                     team = EXCLUDED.team, book = EXCLUDED.book, updated = now()
                 WHERE goals.owner = EXCLUDED.owner
                 RETURNING key",
                &[&goal.key, &goal.owner, &goal.text, &goal.asked_by, &goal.status, &goal.team, &goal.book],
            )
            .await
            .map_err(|err| self.failed(&err))?;
        if written.is_some() {
            return Ok(GoalWrite::Written);
        }
        let owner = self
            .client
            .query_opt("SELECT owner FROM goals WHERE key = $1", &[&goal.key])
            .await
            .map_err(|err| self.failed(&err))?
            .map(|row| row.get::<_, String>(0))
            .unwrap_or_default();
        Ok(GoalWrite::OwnedBy(owner))
    }

    /// One goal by its key.
    pub async fn goal(&self, key: &str) -> Result<Option<StoredGoal>, StoreError> {
        let row = self
            .client
            .query_opt(&format!("SELECT {COLUMNS} FROM goals WHERE key = $1"), &[&key])
            .await
            .map_err(|err| self.failed(&err))?;
        Ok(row.as_ref().map(goal_from_row))
    }

    /// Every goal `owner` owns, oldest first.
    pub async fn goals_of(&self, owner: &str) -> Result<Vec<StoredGoal>, StoreError> {
        let rows = self
            .client
            .query(&format!("SELECT {COLUMNS} FROM goals WHERE owner = $1 ORDER BY updated, key"), &[&owner])
            .await
            .map_err(|err| self.failed(&err))?;
        Ok(rows.iter().map(goal_from_row).collect())
    }

    /// Hands `from`'s unfinished goal `text` (not a team goal; the newest, when there are several) to `to`, in one
    /// statement: of two leaders handing the same goal at once, one does it and the other finds nothing. Returns the
    /// goal's key, or `None` when `from` owns no such goal.
    pub async fn hand_over(&self, from: &str, text: &str, to: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .client
            .query_opt(
                "UPDATE goals SET owner = $3, handed_from = owner, updated = now()
                 WHERE key = (SELECT key FROM goals
                              WHERE lower(owner) = lower($1) AND lower(text) = lower($2)
                                AND status IN ('pending', 'active') AND NOT team
                              ORDER BY updated DESC LIMIT 1 FOR UPDATE)
                   AND lower(owner) = lower($1)
                 RETURNING key",
                &[&from, &text.trim(), &to],
            )
            .await
            .map_err(|err| self.failed(&err))?;
        Ok(row.map(|row| row.get(0)))
    }

    /// The unfinished goal `text` handed to `owner` from another bot, if there is one (the newest).
    pub async fn handed_to(&self, owner: &str, text: &str) -> Result<Option<StoredGoal>, StoreError> {
        let row = self
            .client
            .query_opt(
                &format!(
                    "SELECT {COLUMNS} FROM goals
                     WHERE lower(owner) = lower($1) AND lower(text) = lower($2) AND handed_from IS NOT NULL
                       AND status IN ('pending', 'active') AND NOT team
                     ORDER BY updated DESC LIMIT 1"
                ),
                &[&owner, &text.trim()],
            )
            .await
            .map_err(|err| self.failed(&err))?;
        Ok(row.as_ref().map(goal_from_row))
    }
}
