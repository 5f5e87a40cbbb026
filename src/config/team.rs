//! Teams: which bot leads, which bots work for it, and how long a quiet member is waited for.

use super::*;

/// A bot's part in a team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum TeamRole {
    /// Takes team goals (`!team GOAL`) from the owners and hands the work out.
    Leader,
    /// Takes assignments from the owners and from its leader.
    Worker,
}

/// Who leads and who works, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamConfig {
    /// The bot of this process that leads at start (the first, with `role = "leader"`).
    pub leader_here: Option<String>,
    /// The bot whose assignments this process's bots take: the configured leader, else the one leading here.
    pub leader: Option<String>,
    /// Bots of other processes the leader here hands work to (this process's other bots are its workers anyway).
    pub workers: Vec<String>,
    /// How long a worker with an assignment may say nothing before the leader counts the assignment failed.
    pub silent_after: Duration,
}

impl Default for TeamConfig {
    fn default() -> Self {
        Self { leader_here: None, leader: None, workers: Vec::new(), silent_after: DEFAULT_SILENT_AFTER }
    }
}

/// How long a worker may be silent on an assignment by default: long enough to mine a stack of logs.
const DEFAULT_SILENT_AFTER: Duration = Duration::from_secs(300);

/// `--role`/`--leader`/`--worker` over `[team]`, checked: names must be player names, and a leader configured from
/// elsewhere cannot be one of this process's own bots unless it is the one leading here.
pub(super) fn resolve_team(
    role: Option<TeamRole>,
    leader: Option<String>,
    workers: Vec<String>,
    file: FileTeam,
    username: &str,
    bots: usize,
) -> Result<TeamConfig, ConfigError> {
    let role = role.or(file.role);
    let leader = leader.or(file.leader).map(|l| l.trim().to_owned()).filter(|l| !l.is_empty());
    let workers = if workers.is_empty() { file.workers } else { workers };
    let workers: Vec<String> = workers.iter().map(|w| w.trim().to_owned()).filter(|w| !w.is_empty()).collect();
    for name in leader.iter().chain(&workers) {
        if !is_player_name(name, 1) {
            return Err(ConfigError::Team(format!("{name:?} is not a player name (1 to 16 letters, digits or _)")));
        }
    }
    let silent_after = match file.silent_after_secs {
        Some(secs) if !(5..=86_400).contains(&secs) => {
            return Err(ConfigError::Team(format!("silent_after_secs = {secs}: use 5 to 86400 seconds")));
        }
        Some(secs) => Duration::from_secs(secs),
        None => DEFAULT_SILENT_AFTER,
    };
    let first = if bots == 1 { username.to_owned() } else { format!("{username}_1") };
    let leader_here = (role == Some(TeamRole::Leader)).then(|| first.clone());
    if let (Some(here), Some(other)) = (&leader_here, &leader)
        && !here.eq_ignore_ascii_case(other)
    {
        return Err(ConfigError::Team(format!(
            "this process's first bot {here} leads (role = leader), so it cannot also take orders from {other}"
        )));
    }
    if leader_here.is_none() && !workers.is_empty() {
        return Err(ConfigError::Team("workers are for a leader: add --role leader (or role = \"leader\")".to_owned()));
    }
    let leader = leader.or_else(|| leader_here.clone());
    Ok(TeamConfig { leader_here, leader, workers, silent_after })
}
