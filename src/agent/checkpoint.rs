//! What lifelong learning keeps between runs, in one folder: `tasks.json` (completed and failed tasks),
//! `qa.json` (the curriculum's question-and-answer cache) and `events.jsonl` (one line per task: outcome, attempts,
//! LLM calls and tokens). Skills live in the skill library. Written as it goes (crash-safe renames; the log is
//! appended), so a restart resumes where the last run stopped.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize};

use crate::files::write_atomically;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tasks {
    pub completed: Vec<String>,
    pub failed: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QaPair {
    pub question: String,
    pub answer: String,
}

/// One line of `events.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskEvent {
    pub time: String,
    pub task: String,
    /// `succeeded`, `failed` or `stopped`.
    pub outcome: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// The library's skills the code that did the task called (a skill learned earlier, reused).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub used: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Code-writing attempts.
    pub attempts: u64,
    /// LLM calls and tokens this task took (curriculum included).
    pub calls: u64,
    pub tokens: u64,
    /// What Voyager's loop would have called for the same task (see the learn module).
    pub voyager_calls: u64,
    /// The calls and tokens per role (`action`, `critic`, …).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub roles: std::collections::BTreeMap<crate::llm::Role, crate::llm::Usage>,
    /// What they cost per the configuration's price table (absent when a model used has no price).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// What each run of the task changed in the world, as the server reported it (see `agent::diff`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
}

#[derive(Debug)]
pub struct Checkpoint {
    dir: PathBuf,
    pub tasks: Tasks,
    pub qa: Vec<QaPair>,
}

impl Checkpoint {
    /// Opens (or starts) the checkpoint in `dir`. A damaged file is reported and set aside, never fatal.
    pub fn open(dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        let tasks = read_json(&dir.join("tasks.json")).unwrap_or_default();
        let qa = read_json(&dir.join("qa.json")).unwrap_or_default();
        Self { dir, tasks, qa }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn save(&self) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let write = |name: &str, text: String| write_atomically(&self.dir.join(name), text.as_bytes());
        write("tasks.json", serde_json::to_string_pretty(&self.tasks).expect("tasks serialize"))?;
        write("qa.json", serde_json::to_string_pretty(&self.qa).expect("qa serializes"))
    }

    pub fn log(&self, event: &TaskEvent) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(self.dir.join("events.jsonl"))?;
        writeln!(file, "{}", serde_json::to_string(event).expect("events serialize"))
    }

    /// Every logged task event, oldest first (lines that do not parse are skipped).
    pub fn events(&self) -> Vec<TaskEvent> {
        std::fs::read_to_string(self.dir.join("events.jsonl"))
            .unwrap_or_default()
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect()
    }
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Option<T> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return None,
        Err(err) => {
            tracing::warn!("cannot read {}: {err}; starting it afresh", path.display());
            return None;
        }
    };
    match serde_json::from_str(&text) {
        Ok(value) => Some(value),
        Err(err) => {
            let aside = path.with_extension("json.damaged");
            tracing::warn!("{} is damaged ({err}); moved to {} and started afresh", path.display(), aside.display());
            let _ = std::fs::rename(path, aside);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_survives_damage() {
        let dir = crate::test_dir("checkpoint");
        let mut checkpoint = Checkpoint::open(&dir);
        assert_eq!(checkpoint.tasks, Tasks::default());
        checkpoint.tasks.completed.push("Mine 1 wood log".into());
        checkpoint.qa.push(QaPair { question: "q".into(), answer: "a".into() });
        checkpoint.save().unwrap();
        let event = TaskEvent {
            time: "t".into(),
            task: "Mine 1 wood log".into(),
            outcome: "succeeded".into(),
            skill: Some("mineWoodLog".into()),
            used: vec!["craftPlanks".into()],
            reason: String::new(),
            attempts: 1,
            calls: 1,
            tokens: 150,
            voyager_calls: 3,
            roles: std::collections::BTreeMap::from([(
                crate::llm::Role::Action,
                crate::llm::Usage { calls: 1, prompt_tokens: 100, completion_tokens: 50, millis: 900 },
            )]),
            cost: Some(0.000045),
            changed: vec!["went 4 blocks (0 64 0 to 3 64 2); items +1 oak_log".into()],
        };
        checkpoint.log(&event).unwrap();
        let reopened = Checkpoint::open(&dir);
        assert_eq!(reopened.tasks.completed, ["Mine 1 wood log"]);
        assert_eq!(reopened.qa.len(), 1);
        assert_eq!(reopened.events(), [event]);

        std::fs::write(dir.join("tasks.json"), "{\"completed\": [").unwrap();
        let damaged = Checkpoint::open(&dir);
        assert_eq!(damaged.tasks, Tasks::default());
        assert!(dir.join("tasks.json.damaged").is_file(), "the damaged file is kept aside");
    }
}
