//! The shared store: a fleet's skill library and goal books in PostgreSQL (`[store] url`, `--store`,
//! `WAYFARER_STORE`), so a skill one machine learns reaches the others and a goal outlives its machine. Every version
//! of every skill is kept: two machines storing the same name at once both keep their work, as two versions.
//!
//! Each process still searches and runs its own folder library; the store is what the folders are made from and
//! written to. `wayfarer skills export` and `import` move skills between a folder and the store.

mod goals;
mod migrations;

use std::fmt;

use tokio_postgres::{Client, NoTls, error::SqlState};

use crate::skills::{EmbedError, Embedder, Skill};

pub use goals::{GoalWrite, StoredGoal};
pub use migrations::{MIGRATIONS, latest as latest_schema};

/// The channel a notice goes out on when a skill version is stored: its payload is `NAME VERSION`.
pub const SKILLS_CHANNEL: &str = "wayfarer_skills";

/// An advisory lock key of the schema steps (any fixed number, the same in every process).
const MIGRATION_LOCK: i64 = 0x5761_7966_6172_6572; // "Wayfarer"

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{0} is not a PostgreSQL connection string: {1}")]
    BadUrl(String, String),
    #[error("cannot reach the store at {at}: {reason}")]
    Unreachable { at: String, reason: String },
    #[error("the store at {at} has schema version {found}, newer than this Wayfarer knows ({known}); upgrade Wayfarer")]
    NewerSchema { at: String, found: i32, known: i32 },
    #[error("schema step {version} ({about}) failed at {at}: {reason}")]
    Migration { at: String, version: i32, about: &'static str, reason: String },
    #[error("the store at {at} failed: {reason}")]
    Query { at: String, reason: String },
}

/// One version of a skill, as the store keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredSkill {
    pub name: String,
    pub version: u32,
    pub code: String,
    pub description: String,
    pub task: String,
    pub created: String,
    /// The search text's embedding, when the one who stored it had the model.
    pub embedding: Option<Vec<f32>>,
    /// The embedding model's id.
    pub model: Option<String>,
    /// Who stored it.
    pub origin: String,
}

impl StoredSkill {
    /// A folder skill as the store keeps it, with the embedding of its search text when `embedder` is given.
    pub fn of(skill: &Skill, embedder: Option<&Embedder>, origin: &str) -> Result<Self, EmbedError> {
        let embedding = embedder.map(|e| e.embed_one(&skill.search_text())).transpose()?;
        Ok(StoredSkill {
            name: skill.name.clone(),
            version: skill.meta.version,
            code: skill.code.clone(),
            description: skill.meta.description.clone(),
            task: skill.meta.task.clone(),
            created: skill.meta.created.clone(),
            embedding,
            model: embedder.map(Embedder::model_id),
            origin: origin.to_owned(),
        })
    }

    /// Whether `self` does what `other` does, in the same words: the same code, description and task.
    pub fn same_skill(&self, other: &StoredSkill) -> bool {
        self.code.trim_end() == other.code.trim_end()
            && self.description == other.description
            && self.task == other.task
    }
}

/// What storing a skill did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// A new version, numbered so.
    New(u32),
    /// The latest version already was this skill: nothing was written.
    Unchanged(u32),
}

/// A connection to the store, its schema up to date.
pub struct Store {
    client: Client,
    /// Where it is, for messages (no password).
    at: String,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("at", &self.at).finish()
    }
}

impl Store {
    /// Connects to `url` (`postgres://user@host:port/db` or `host=… port=… user=… dbname=…`) and brings its schema
    /// up to date. The connection runs on a task of the current tokio runtime.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        Self::connect_up_to(url, latest_schema()).await
    }

    /// As [`Self::connect`], applying the schema steps up to `version` only (to test a database of an older build).
    pub async fn connect_up_to(url: &str, version: i32) -> Result<Self, StoreError> {
        let config: tokio_postgres::Config =
            url.parse().map_err(|err: tokio_postgres::Error| StoreError::BadUrl(shown(url), err.to_string()))?;
        let at = describe(&config);
        let (client, connection) = config
            .connect(NoTls)
            .await
            .map_err(|err| StoreError::Unreachable { at: at.clone(), reason: reason(&err) })?;
        let quiet_at = at.clone();
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::warn!("the store connection to {quiet_at} ended: {}", reason(&err));
            }
        });
        let mut store = Store { client, at };
        store.migrate(version).await?;
        Ok(store)
    }

    /// Where the store is, for messages.
    pub fn at(&self) -> &str {
        &self.at
    }

    /// The schema version the database is at.
    pub async fn schema_version(&self) -> Result<i32, StoreError> {
        let row = self.client.query_one("SELECT coalesce(max(version), 0) FROM wayfarer_schema", &[]).await;
        match row {
            Ok(row) => Ok(row.get(0)),
            Err(err) if err.code() == Some(&SqlState::UNDEFINED_TABLE) => Ok(0),
            Err(err) => Err(self.failed(&err)),
        }
    }

    async fn migrate(&mut self, up_to: i32) -> Result<(), StoreError> {
        let at = self.at.clone();
        let query = |err: tokio_postgres::Error| StoreError::Query { at: at.clone(), reason: reason(&err) };
        self.client
            .batch_execute(
                "CREATE TABLE IF NOT EXISTS wayfarer_schema (
                    version integer PRIMARY KEY, about text NOT NULL, applied timestamptz NOT NULL DEFAULT now())",
            )
            .await
            .or_else(|err| if err.code() == Some(&SqlState::UNIQUE_VIOLATION) { Ok(()) } else { Err(err) })
            .map_err(query)?;
        for step in MIGRATIONS.iter().filter(|m| m.version <= up_to) {
            let transaction = self.client.transaction().await.map_err(query)?;
            transaction.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await.map_err(query)?;
            let found: i32 = transaction
                .query_one("SELECT coalesce(max(version), 0) FROM wayfarer_schema", &[])
                .await
                .map_err(query)?
                .get(0);
            if found > latest_schema() {
                return Err(StoreError::NewerSchema { at: self.at.clone(), found, known: latest_schema() });
            }
            if found >= step.version {
                continue; // applied before, or by another process while this one waited for the lock
            }
            let failed = |err: tokio_postgres::Error| StoreError::Migration {
                at: self.at.clone(),
                version: step.version,
                about: step.about,
                reason: reason(&err),
            };
            transaction.batch_execute(step.sql).await.map_err(failed)?;
            transaction
                .execute("INSERT INTO wayfarer_schema (version, about) VALUES ($1, $2)", &[&step.version, &step.about])
                .await
                .map_err(failed)?;
            transaction.commit().await.map_err(failed)?;
            tracing::info!("store {}: schema step {} applied ({})", self.at, step.version, step.about);
        }
        let found = self.schema_version().await?;
        if found > latest_schema() {
            return Err(StoreError::NewerSchema { at: self.at.clone(), found, known: latest_schema() });
        }
        Ok(())
    }

    /// Stores `skill` as its name's next version, unless the latest version already is this skill. A name the store
    /// has never seen keeps the version it comes with (a folder's version 3 stays 3). Two processes storing the same
    /// name at once take turns (an advisory lock on the name), so each gets its own version.
    pub async fn put_skill(&mut self, skill: &StoredSkill) -> Result<Stored, StoreError> {
        let at = self.at.clone();
        let query = |err: tokio_postgres::Error| StoreError::Query { at: at.clone(), reason: reason(&err) };
        let transaction = self.client.transaction().await.map_err(query)?;
        transaction
            .execute("SELECT pg_advisory_xact_lock(hashtext('wayfarer skill ' || $1))", &[&skill.name])
            .await
            .map_err(query)?;
        let latest = transaction
            .query_opt(
                "SELECT name, version, code, description, task, created, embedding, model, origin
                 FROM skill_versions WHERE name = $1 ORDER BY version DESC LIMIT 1",
                &[&skill.name],
            )
            .await
            .map_err(query)?
            .map(|row| from_row(&row));
        let version = match &latest {
            Some(latest) if latest.same_skill(skill) => return Ok(Stored::Unchanged(latest.version)),
            Some(latest) => latest.version + 1,
            None => skill.version.max(1),
        };
        let embedding = skill.embedding.as_deref().map(to_bytes);
        transaction
            .execute(
                "INSERT INTO skill_versions (name, version, code, description, task, created, embedding, model, origin)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                &[
                    &skill.name,
                    &(version as i32),
                    &skill.code,
                    &skill.description,
                    &skill.task,
                    &skill.created,
                    &embedding,
                    &skill.model,
                    &skill.origin,
                ],
            )
            .await
            .map_err(query)?;
        transaction.commit().await.map_err(query)?;
        Ok(Stored::New(version))
    }

    /// The latest version of every skill, in name order.
    pub async fn latest_skills(&self) -> Result<Vec<StoredSkill>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT DISTINCT ON (name) name, version, code, description, task, created, embedding, model, origin
                 FROM skill_versions ORDER BY name, version DESC",
                &[],
            )
            .await
            .map_err(|err| self.failed(&err))?;
        Ok(rows.iter().map(from_row).collect())
    }

    /// Every version of one skill, oldest first.
    pub async fn skill_versions(&self, name: &str) -> Result<Vec<StoredSkill>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT name, version, code, description, task, created, embedding, model, origin
                 FROM skill_versions WHERE name = $1 ORDER BY version",
                &[&name],
            )
            .await
            .map_err(|err| self.failed(&err))?;
        Ok(rows.iter().map(from_row).collect())
    }

    fn failed(&self, err: &tokio_postgres::Error) -> StoreError {
        StoreError::Query { at: self.at.clone(), reason: reason(err) }
    }
}

/// Checks that `url` is a connection string the client reads, before anything is started with it.
pub fn check_url(url: &str) -> Result<(), StoreError> {
    url.parse::<tokio_postgres::Config>().map(drop).map_err(|err| StoreError::BadUrl(shown(url), err.to_string()))
}

/// Whether `text` names a PostgreSQL store rather than a file or folder.
pub fn is_store_url(text: &str) -> bool {
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

fn from_row(row: &tokio_postgres::Row) -> StoredSkill {
    let embedding: Option<Vec<u8>> = row.get(6);
    StoredSkill {
        name: row.get(0),
        version: u32::try_from(row.get::<_, i32>(1)).unwrap_or(1),
        code: row.get(2),
        description: row.get(3),
        task: row.get(4),
        created: row.get(5),
        embedding: embedding.map(|bytes| from_bytes(&bytes)),
        model: row.get(7),
        origin: row.get(8),
    }
}

fn to_bytes(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn from_bytes(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// `user@host:port/dbname`, without a password.
fn describe(config: &tokio_postgres::Config) -> String {
    let host = config
        .get_hosts()
        .first()
        .map(|host| match host {
            tokio_postgres::config::Host::Tcp(name) => name.clone(),
            tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .unwrap_or_else(|| "localhost".to_owned());
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().unwrap_or("?");
    let db = config.get_dbname().unwrap_or(user);
    format!("{user}@{host}:{port}/{db}")
}

/// A connection string as it may be shown: a password in it is hidden.
pub fn shown(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        // The user and password end at the last `@` before the path or the query.
        let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, path) = rest.split_at(authority_end);
        return match authority.rsplit_once('@') {
            Some((userinfo, host)) if userinfo.contains(':') => {
                let user = userinfo.split_once(':').map_or(userinfo, |(user, _)| user);
                format!("{scheme}://{user}:***@{host}{path}")
            }
            _ => url.to_owned(),
        };
    }
    url.split_whitespace()
        .map(|kv| if kv.starts_with("password=") { "password=***" } else { kv })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The cause of a client error, with the server's own message when there is one.
fn reason(err: &tokio_postgres::Error) -> String {
    match err.as_db_error() {
        Some(db) => db.message().to_owned(),
        None => {
            let mut text = err.to_string();
            let mut source = std::error::Error::source(err);
            while let Some(cause) = source {
                text = format!("{text}: {cause}");
                source = cause.source();
            }
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_never_shown() {
        assert_eq!(shown("postgres://wf:secret@db:5432/fleet"), "postgres://wf:***@db:5432/fleet");
        assert_eq!(shown("host=db password=secret user=wf"), "host=db password=*** user=wf");
        assert_eq!(shown("postgres://wf@db/fleet"), "postgres://wf@db/fleet");
        assert_eq!(shown("postgres://wf:p@ss:w@rd@db/fleet?x=@"), "postgres://wf:***@db/fleet?x=@");
        // Outside text of any shape is shown, never a panic.
        assert_eq!(shown("a@b postgres://é:@"), "a@b postgres://é:***@");
        assert_eq!(shown("ü@:// x"), "ü@:// x");
    }

    #[test]
    fn a_store_is_described_without_its_password() {
        let config: tokio_postgres::Config = "postgres://wf:secret@db:6000/fleet".parse().unwrap();
        assert_eq!(describe(&config), "wf@db:6000/fleet");
        let config: tokio_postgres::Config = "host=/tmp/pg port=7000 user=wf".parse().unwrap();
        assert_eq!(describe(&config), "wf@/tmp/pg:7000/wf");
    }

    #[test]
    fn a_bad_url_is_named_without_its_password() {
        assert!(check_url("postgres://wf@db/fleet").is_ok() && check_url("host=/tmp/pg port=5433 user=wf").is_ok());
        let err = check_url("postgres://wf:hunter2@db:port/fleet").unwrap_err().to_string();
        assert!(err.starts_with("postgres://wf:***@db:port/fleet is not a PostgreSQL connection string"), "{err}");
        assert!(!err.contains("hunter2"), "{err}");
    }

    #[test]
    fn embeddings_round_trip_as_bytes() {
        let vector = vec![0.25, -1.5, 3.0e-8];
        assert_eq!(from_bytes(&to_bytes(&vector)), vector);
    }

    #[test]
    fn store_urls_are_told_from_paths() {
        assert!(is_store_url("postgres://wf@db/fleet") && is_store_url("postgresql://db"));
        assert!(!is_store_url("skills/") && !is_store_url("voyager.json"));
    }
}
