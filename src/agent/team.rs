//! Teams, the S-Agents way: a leader plans a goal in stages and hands each member one job a stage over chat; the
//! members report with fixed phrases; a progress monitor reads those reports and judges each job.
//!
//! This module is the team's reasoning without its body: reading the leader's planning answer into assignments,
//! reading members' chat lines into reports, and the monitor's bookkeeping and verdicts, all at times the caller
//! gives. It sends nothing and waits for nothing (the app's leader loop does), so every rule here is unit-tested.

use std::{
    collections::BTreeMap,
    time::{Duration, Instant},
};

use serde::Deserialize;

use super::{
    extract::{Json, json_first},
    recipes::{self, Want},
};

/// The longest job text a leader may hand out (it goes into one chat line with the member's name and `!task`).
const MAX_JOB_CHARS: usize = 200;
/// A member that said how its job ended is taken at its word after this long without an inventory line to check
/// it by (or more talk showing that it was a step's outcome).
const CLAIM_GRACE: Duration = Duration::from_secs(8);
/// How many of a member's lines since its job the monitor keeps (for the LLM, when it judges free talk).
const TALK_KEPT: usize = 12;
/// A member that talks but never says the fixed phrases (a player, another kind of agent) is judged by the LLM
/// once it has been quiet this long after its last line.
const JUDGE_AFTER: Duration = Duration::from_secs(8);
/// A member absent from the player list this long has left the game.
const ABSENT_GRACE: Duration = Duration::from_secs(3);

/// One job for one member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    pub member: String,
    pub job: String,
}

/// What the leader decided at one planning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Hand out these jobs (the next stage); `plan` is the long-term plan as the leader wrote it.
    Stage { plan: String, assignments: Vec<Assignment> },
    /// The goal is reached.
    Done { reasoning: String },
    /// The goal cannot be reached.
    GiveUp { why: String },
}

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    reasoning: String,
    #[serde(default)]
    plan: serde_json::Value,
    #[serde(default)]
    assignments: Vec<String>,
    #[serde(default)]
    done: bool,
    #[serde(default)]
    give_up: Option<String>,
}

/// The leader's planning answer, read and checked against the team's `members`: every assignment names a member
/// (any case; the member's own spelling is kept), each member gets at most one job, and a stage hands out at least
/// one. The errors say what to fix, for the next ask.
pub fn parse_decision(reply: &str, members: &[String]) -> Result<Decision, String> {
    json_first(reply, Json::Object, |answer: Answer| decide(answer, members))
}

fn decide(answer: Answer, members: &[String]) -> Result<Decision, String> {
    if let Some(why) = answer.give_up.map(|w| one_line(&w)).filter(|w| !w.is_empty()) {
        return Ok(Decision::GiveUp { why });
    }
    if answer.done {
        return Ok(Decision::Done { reasoning: one_line(&answer.reasoning) });
    }
    let plan = match &answer.plan {
        serde_json::Value::String(text) => one_line(text),
        serde_json::Value::Array(stages) => {
            stages.iter().map(|s| s.as_str().map_or_else(|| s.to_string(), one_line)).collect::<Vec<_>>().join("; ")
        }
        _ => String::new(),
    };
    if answer.assignments.is_empty() {
        return Err(format!(
            "it hands out no jobs: give each member who can help one job as \"notify NAME job\" (members: {}), or \
             answer done or give_up",
            members.join(", ")
        ));
    }
    let mut assignments: Vec<Assignment> = Vec::new();
    for line in &answer.assignments {
        let assignment = read_assignment(line, members)?;
        if assignments.iter().any(|a| a.member == assignment.member) {
            return Err(format!("{} has two jobs in this stage; give each member one job a stage", assignment.member));
        }
        assignments.push(assignment);
    }
    Ok(Decision::Stage { plan, assignments })
}

/// `notify Crew_2 mine 17 oak_log` (also `Crew_2: mine 17 oak_log`, `tell Crew_2 to mine 17 oak_log`).
fn read_assignment(line: &str, members: &[String]) -> Result<Assignment, String> {
    let line = one_line(line);
    let mut words = line.split_whitespace().peekable();
    if words.peek().is_some_and(|w| ["notify", "tell", "ask", "assign"].contains(&w.to_lowercase().as_str())) {
        words.next();
    }
    let Some(name) = words.next() else { return Err("an assignment is empty".to_owned()) };
    let name = name.trim_end_matches([':', ',']);
    let Some(member) = members.iter().find(|m| m.eq_ignore_ascii_case(name)) else {
        return Err(format!("{line:?} does not name a member (members: {})", members.join(", ")));
    };
    let rest: Vec<&str> = words.collect();
    let rest = match rest.first() {
        Some(to) if to.eq_ignore_ascii_case("to") => &rest[1..],
        _ => &rest[..],
    };
    let job = rest.join(" ").trim_end_matches('.').to_owned();
    if job.is_empty() {
        return Err(format!("{line:?} gives {member} no job"));
    }
    if job.chars().count() > MAX_JOB_CHARS || job.contains('!') {
        return Err(format!(
            "{member}'s job must be a short phrase like \"mine 17 oak_log\" (at most {MAX_JOB_CHARS} characters, no !)"
        ));
    }
    Ok(Assignment { member: member.clone(), job })
}

/// A member's chat line, as the monitor reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    /// `Got it!`: the assignment arrived.
    GotIt,
    /// `I will start task: X`
    Started(String),
    /// `I succeeded in task: X`
    Succeeded(String),
    /// `I failed task: X because R`
    Failed { task: String, reason: String },
    /// `My inventory is {oak_log: 3}, and my equipment is [wooden_pickaxe]`
    Carrying { items: BTreeMap<String, i64>, equipment: Vec<String> },
    /// Anything else (progress lines, remarks).
    Other,
}

/// The LLM's judgement of a job from its member's free talk.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct JudgeVerdict {
    #[serde(default)]
    pub reasoning: String,
    pub verdict: String,
}

/// The LLM's judgement in a reply: `success`, `failure` or `unknown` (any case), with its reasoning.
pub fn parse_judgement(reply: &str) -> Result<JudgeVerdict, String> {
    json_first(reply, Json::Object, |mut v: JudgeVerdict| {
        v.verdict = v.verdict.trim().to_lowercase();
        v.reasoning = one_line(&v.reasoning);
        if ["success", "failure", "unknown"].contains(&v.verdict.as_str()) {
            Ok(v)
        } else {
            Err(format!("the verdict must be success, failure or unknown, not {:?}", v.verdict))
        }
    })
}

/// Reads one chat line of a member.
pub fn read_report(line: &str) -> Said {
    let line = line.trim();
    if line.eq_ignore_ascii_case("got it!") || line.eq_ignore_ascii_case("got it") {
        return Said::GotIt;
    }
    if let Some(task) = strip_prefix_ci(line, "I will start task:") {
        return Said::Started(task.trim().to_owned());
    }
    if let Some(task) = strip_prefix_ci(line, "I succeeded in task:") {
        return Said::Succeeded(task.trim().to_owned());
    }
    if let Some(rest) = strip_prefix_ci(line, "I failed task:") {
        let (task, reason) = rest.split_once(" because ").unwrap_or((rest, "no reason given"));
        return Said::Failed { task: task.trim().to_owned(), reason: reason.trim().to_owned() };
    }
    if let Some(rest) = strip_prefix_ci(line, "My inventory is ") {
        let (items, equipment) = rest.split_once("and my equipment is").unwrap_or((rest, ""));
        let items = items.trim().trim_end_matches(',').trim().trim_start_matches('{').trim_end_matches('}');
        let items = items
            .split(',')
            .filter_map(|pair| {
                let (name, count) = pair.split_once(':')?;
                Some((name.trim().to_owned(), count.trim().parse::<i64>().ok()?))
            })
            .filter(|(name, _)| !name.is_empty())
            .collect();
        let equipment = equipment.trim().trim_end_matches('.').trim_start_matches('[').trim_end_matches(']');
        let equipment = equipment.split(',').map(str::trim).filter(|e| !e.is_empty()).map(str::to_owned).collect();
        return Said::Carrying { items, equipment };
    }
    // `!inventory`'s answer: `Inventory: 12 oak_log, 3 dirt` or `Inventory: empty` (no equipment in it).
    if let Some(rest) = strip_prefix_ci(line, "Inventory:") {
        let items = rest
            .split(',')
            .filter_map(|pair| {
                let (count, name) = pair.trim().split_once(' ')?;
                Some((name.trim().to_owned(), count.parse::<i64>().ok()?))
            })
            .collect();
        return Said::Carrying { items, equipment: Vec::new() };
    }
    Said::Other
}

fn strip_prefix_ci<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let head = line.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &line[prefix.len()..])
}

/// `My inventory is {oak_log: 3, cobblestone: 5}, and my equipment is [wooden_pickaxe]`: what a member says after
/// an assignment ends, for the monitor to check a claimed success by.
pub fn carrying_line(items: &[(String, i32)], equipment: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|(name, count)| format!("{name}: {count}")).collect();
    format!("My inventory is {{{}}}, and my equipment is [{}]", items.join(", "), equipment.join(", "))
}

/// Where a job stands, as the monitor judges it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobState {
    /// Handed out; nothing heard yet.
    Asked,
    /// `Got it!` or a start phrase: under way, outcome unknown.
    Working,
    /// The member said it succeeded (or failed, with the reason): settled by the inventory line that follows a
    /// finished assignment. A step of the job may read like the job itself (`Craft 1 stone_pickaxe`); then the
    /// member goes on talking, and the job is under way again.
    Said {
        success: bool,
        reason: String,
    },
    Succeeded,
    Failed(String),
}

impl JobState {
    pub fn is_over(&self) -> bool {
        matches!(self, JobState::Succeeded | JobState::Failed(_))
    }
}

/// One member's job and what it said about it.
#[derive(Clone, Debug)]
pub struct Job {
    pub job: String,
    pub given: Instant,
    pub state: JobState,
    /// What the member said since the job was given, with when (the last few lines).
    pub talk: Vec<(String, Instant)>,
    /// When the LLM last judged the job from that talk.
    pub judged: Option<Instant>,
}

/// What the monitor knows of one member.
#[derive(Clone, Debug)]
pub struct Member {
    pub name: String,
    pub job: Option<Job>,
    /// The last line it said, and when (given, when it has said nothing yet).
    pub last_said: Option<(String, Instant)>,
    /// What it last said it carries.
    pub items: BTreeMap<String, i64>,
    pub equipment: Vec<String>,
    /// Jobs it finished, in order.
    pub done: Vec<String>,
    /// When it was first missed from the player list (it is back when seen again).
    pub missing_since: Option<Instant>,
    /// When the leader last asked it how it is (after a quiet spell).
    pub asked: Option<Instant>,
}

/// A job's verdict, when the monitor reaches one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub member: String,
    pub job: String,
    pub state: JobState,
    /// The job failed because its member is gone (left the game, or silent past the limit), not by its own doing:
    /// another member may take it over.
    pub gone: bool,
}

/// The progress monitor: each member's job, reports and inventory, judged from what the members say.
#[derive(Clone, Debug)]
pub struct Monitor {
    pub members: Vec<Member>,
    /// A job with no word from its member this long has failed.
    silent_after: Duration,
}

impl Monitor {
    pub fn new(names: &[String], silent_after: Duration) -> Self {
        let members = names
            .iter()
            .map(|name| Member {
                name: name.clone(),
                job: None,
                last_said: None,
                items: BTreeMap::new(),
                equipment: Vec::new(),
                done: Vec::new(),
                missing_since: None,
                asked: None,
            })
            .collect();
        Self { members, silent_after }
    }

    fn member(&mut self, name: &str) -> Option<&mut Member> {
        self.members.iter_mut().find(|m| m.name.eq_ignore_ascii_case(name))
    }

    /// Hands `job` to `member` at `now`.
    pub fn assign(&mut self, member: &str, job: &str, now: Instant) {
        if let Some(m) = self.member(member) {
            m.job =
                Some(Job { job: job.to_owned(), given: now, state: JobState::Asked, talk: Vec::new(), judged: None });
        }
    }

    /// Takes in one line `member` said at `now`; returns the verdict it settles, if any.
    pub fn heard(&mut self, member: &str, line: &str, now: Instant) -> Option<Verdict> {
        let m = self.member(member)?;
        m.last_said = Some((line.to_owned(), now));
        let said = read_report(line);
        if let Said::Carrying { items, equipment } = &said {
            (m.items, m.equipment) = (items.clone(), equipment.clone());
        }
        let job = m.job.as_mut()?;
        if job.state.is_over() {
            return None;
        }
        job.talk.push((line.to_owned(), now));
        if job.talk.len() > TALK_KEPT {
            job.talk.remove(0);
        }
        let said_outcome = matches!(job.state, JobState::Said { .. });
        match said {
            Said::Succeeded(task) if same_task(&task, &job.job) => {
                job.state = JobState::Said { success: true, reason: String::new() };
            }
            Said::Failed { task, reason } if same_task(&task, &job.job) => {
                job.state = JobState::Said { success: false, reason };
            }
            Said::Carrying { items, .. } => match &job.state {
                JobState::Said { success: true, .. } => {
                    job.state = match shortfall(&job.job, &items) {
                        None => JobState::Succeeded,
                        Some(short) => JobState::Failed(format!("it said it succeeded, but {short}")),
                    };
                }
                JobState::Said { success: false, reason } => job.state = JobState::Failed(reason.clone()),
                _ => return None,
            },
            // Talk after an outcome was said: that was a step's outcome, and the job goes on.
            _ if said_outcome => job.state = JobState::Working,
            Said::GotIt | Said::Started(_) if job.state == JobState::Asked => job.state = JobState::Working,
            _ => return None,
        }
        self.settled(member, false)
    }

    /// The verdict on `member`'s job when it is over (and records a success); `gone` when it failed because its
    /// member is gone.
    fn settled(&mut self, member: &str, gone: bool) -> Option<Verdict> {
        let m = self.member(member)?;
        let job = m.job.as_ref()?;
        if !job.state.is_over() {
            return None;
        }
        if job.state == JobState::Succeeded {
            let done = job.job.clone();
            m.done.push(done);
        }
        let job = m.job.as_ref()?;
        Some(Verdict { member: m.name.clone(), job: job.job.clone(), state: job.state.clone(), gone })
    }

    /// Records the outcome of a job the caller saw end itself (the leader's own).
    pub fn finished(&mut self, member: &str, succeeded: bool, why: &str) -> Option<Verdict> {
        let job = self.member(member)?.job.as_mut()?;
        job.state = if succeeded { JobState::Succeeded } else { JobState::Failed(why.to_owned()) };
        self.settled(member, false)
    }

    /// What time alone settles at `now`: a claimed success with no inventory to check after a grace period is taken,
    /// a member silent past the limit or gone from the game (`online` says who is there) has failed.
    pub fn tick(&mut self, now: Instant, online: &dyn Fn(&str) -> bool) -> Vec<Verdict> {
        let silent_after = self.silent_after;
        let mut settled = Vec::new();
        for i in 0..self.members.len() {
            let m = &mut self.members[i];
            if online(&m.name) {
                m.missing_since = None;
            } else if m.missing_since.is_none() {
                m.missing_since = Some(now);
            }
            let missing = m.missing_since.is_some_and(|since| now.duration_since(since) >= ABSENT_GRACE);
            let heard = m.last_said.as_ref().map(|(_, at)| *at);
            let Some(job) = m.job.as_mut().filter(|j| !j.state.is_over()) else { continue };
            let last = heard.filter(|at| *at >= job.given).unwrap_or(job.given);
            if let JobState::Said { success, reason } = &job.state
                && now.duration_since(last) >= CLAIM_GRACE
            {
                job.state = if *success { JobState::Succeeded } else { JobState::Failed(reason.clone()) };
                let name = m.name.clone();
                settled.extend(self.settled(&name, false));
                continue;
            } else if missing {
                job.state = JobState::Failed("it left the game".to_owned());
            } else if now.duration_since(last) >= silent_after {
                job.state = JobState::Failed(format!("it said nothing for {} s", silent_after.as_secs()));
            } else {
                continue;
            }
            let name = m.name.clone();
            settled.extend(self.settled(&name, true));
        }
        settled
    }

    /// Who may take over the job of `gone`, a member that is gone: the first other member, not the leader, that is
    /// in the game (`online` says) and has no job under way.
    pub fn successor(&self, gone: &str, leader: &str, online: &dyn Fn(&str) -> bool) -> Option<String> {
        let member = self.members.iter().find(|m| {
            !m.name.eq_ignore_ascii_case(gone)
                && !m.name.eq_ignore_ascii_case(leader)
                && m.missing_since.is_none()
                && online(&m.name)
                && m.job.as_ref().is_none_or(|j| j.state.is_over())
        })?;
        Some(member.name.clone())
    }

    /// Members at work that have been quiet for half the silence limit and were not asked since they last spoke:
    /// the leader asks them (`!status`), and an answer counts as talk. Marks them asked at `now`.
    pub fn take_quiet(&mut self, now: Instant) -> Vec<String> {
        let half = self.silent_after / 2;
        let mut quiet = Vec::new();
        for m in &mut self.members {
            let Some(job) = m.job.as_ref().filter(|j| !j.state.is_over()) else { continue };
            let last = m.last_said.as_ref().map(|(_, at)| *at).filter(|at| *at >= job.given).unwrap_or(job.given);
            if now.duration_since(last) >= half && m.asked.is_none_or(|asked| asked < last) {
                m.asked = Some(now);
                quiet.push(m.name.clone());
            }
        }
        quiet
    }

    /// Jobs to put to the LLM: their member talked since it got the job but never in the fixed phrases (not even
    /// `Got it!`: a player, or another kind of agent), has been quiet for a few seconds, and was not judged since it
    /// last spoke. Returns (member, job, its lines since the job, how long ago each was said, in seconds).
    pub fn take_due_judgements(&mut self, now: Instant) -> Vec<(String, String, Vec<String>)> {
        let mut due = Vec::new();
        for m in &mut self.members {
            let Some(job) = m.job.as_mut().filter(|j| j.state == JobState::Asked) else { continue };
            let Some((_, last)) = job.talk.last() else { continue };
            if now.duration_since(*last) < JUDGE_AFTER || job.judged.is_some_and(|at| at >= *last) {
                continue;
            }
            job.judged = Some(now);
            let lines = job
                .talk
                .iter()
                .map(|(line, at)| format!("[{} s ago] {line}", now.duration_since(*at).as_secs()))
                .collect();
            due.push((m.name.clone(), job.job.clone(), lines));
        }
        due
    }

    /// The LLM's verdict on `member`'s job (see [`Monitor::take_due_judgements`]): `success`, `failure` (with its reasoning) or
    /// `unknown` (nothing changes).
    pub fn judged(&mut self, member: &str, verdict: &JudgeVerdict) -> Option<Verdict> {
        let job = self.member(member)?.job.as_mut()?;
        if job.state != JobState::Asked {
            return None;
        }
        job.state = match verdict.verdict.as_str() {
            "success" => JobState::Succeeded,
            "failure" => JobState::Failed(if verdict.reasoning.is_empty() {
                "it said it could not".to_owned()
            } else {
                verdict.reasoning.clone()
            }),
            _ => return None,
        };
        self.settled(member, false)
    }

    /// Whether every job handed out is over.
    pub fn all_over(&self) -> bool {
        self.members.iter().all(|m| m.job.as_ref().is_none_or(|j| j.state.is_over()))
    }

    /// How the jobs went, for the next planning: `Crew_2 succeeded in "mine 3 oak_log"; Crew_3 failed "…": why`.
    pub fn verdicts_text(&self) -> String {
        let lines: Vec<String> = self
            .members
            .iter()
            .filter_map(|m| {
                let job = m.job.as_ref()?;
                Some(match &job.state {
                    JobState::Succeeded => format!("{} succeeded in \"{}\"", m.name, job.job),
                    JobState::Failed(why) => format!("{} failed \"{}\": {why}", m.name, job.job),
                    _ => format!("{} is still on \"{}\" (outcome unknown)", m.name, job.job),
                })
            })
            .collect();
        if lines.is_empty() { "nothing was handed out yet".to_owned() } else { lines.join("; ") }
    }

    /// Each member with what it carries, for the planner: `Crew_2 (carrying 3 oak_log; equipment: none)`.
    pub fn members_text(&self, leader: &str) -> String {
        let lines: Vec<String> = self
            .members
            .iter()
            .map(|m| {
                let me = if m.name.eq_ignore_ascii_case(leader) { ", the leader: you" } else { "" };
                let items: Vec<String> = m.items.iter().map(|(name, n)| format!("{n} {name}")).collect();
                let items = if items.is_empty() { "nothing".to_owned() } else { items.join(", ") };
                let equipment = if m.equipment.is_empty() { "none".to_owned() } else { m.equipment.join(", ") };
                format!("{}{me} (carrying {items}; equipment: {equipment})", m.name)
            })
            .collect();
        lines.join("; ")
    }

    /// `!team status`: per member, its job and where it stands, its last line and how long ago.
    pub fn status_text(&self, now: Instant) -> String {
        let lines: Vec<String> = self
            .members
            .iter()
            .map(|m| {
                let job = match &m.job {
                    None => "no job yet".to_owned(),
                    Some(job) => {
                        let state = match &job.state {
                            JobState::Asked => "asked".to_owned(),
                            JobState::Working => "working".to_owned(),
                            JobState::Said { success: true, .. } => "says done, checking".to_owned(),
                            JobState::Said { success: false, .. } => "says it failed".to_owned(),
                            JobState::Succeeded => "done".to_owned(),
                            JobState::Failed(why) => format!("failed: {why}"),
                        };
                        format!("{} ({state}, {} s)", job.job, now.duration_since(job.given).as_secs())
                    }
                };
                let said = match &m.last_said {
                    Some((line, at)) => {
                        format!("; said {} s ago \"{}\"", now.duration_since(*at).as_secs(), clip(line, 60))
                    }
                    None => String::new(),
                };
                format!("{}: {job}{said}", m.name)
            })
            .collect();
        lines.join(" | ")
    }
}

/// Whether a report's task is the job (the report may add a remark in brackets: `… (new skills: x)`).
fn same_task(said: &str, job: &str) -> bool {
    let said = said.trim();
    let Some(rest) = said.get(..job.len()).filter(|head| head.eq_ignore_ascii_case(job)).map(|_| &said[job.len()..])
    else {
        return false;
    };
    rest.is_empty() || rest.starts_with(" (") || rest.starts_with('.')
}

/// What a job should leave its member carrying, when the game's facts can tell (`mine 3 oak_log` → 3 oak_log,
/// `craft 1 stone_pickaxe` → 1 stone_pickaxe); `None` for kills, deliveries and anything else.
pub fn expected_items(job: &str) -> Option<(String, u32)> {
    match recipes::parse_goal(job, "oak")? {
        Want::Have { item, count } => Some((item, count)),
        Want::Mine { block, count } => {
            Some((super::super::primitives::facts::drops_of(&block).into_iter().next()?, count))
        }
        Want::Kill { .. } | Want::Place { .. } | Want::Give { .. } => None,
    }
}

/// Whether `items` hold what `goal` names (`make a stone pickaxe`, `get 24 logs`), when the game's facts can tell
/// what that is: `None` when they cannot.
pub fn holds(goal: &str, items: &BTreeMap<String, i64>) -> Option<bool> {
    expected_items(goal)?;
    Some(shortfall(goal, items).is_none())
}

/// Why `items` falls short of what `job` should leave, if it does (`it carries 2 of 3 oak_log`). Logs and planks of
/// any wood count for the oak the job may name.
fn shortfall(job: &str, items: &BTreeMap<String, i64>) -> Option<String> {
    let (item, count) = expected_items(job)?;
    let have: i64 = match item.strip_prefix("oak_") {
        Some(kind @ ("log" | "planks")) => {
            items.iter().filter(|(name, _)| name.ends_with(&format!("_{kind}"))).map(|(_, n)| *n).sum()
        }
        _ => items.get(&item).copied().unwrap_or(0),
    };
    (have < i64::from(count)).then(|| format!("it carries {have} of {count} {item}"))
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first `max` characters of `text`, with `…` when cut.
fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members() -> Vec<String> {
        vec!["Crew_1".to_owned(), "Crew_2".to_owned(), "Crew_3".to_owned()]
    }

    #[test]
    fn a_stage_names_members_and_one_job_each() {
        let reply = "Here is the plan:\n```json\n{\"reasoning\": \"logs and stone in parallel\", \"plan\": [\"stage 1: \
                     gather\", \"stage 2: assemble\"], \"assignments\": [\"notify crew_2 mine 17 oak_log\", \"Crew_3: \
                     mine 3 cobblestone.\", \"tell Crew_1 to craft 1 crafting_table\"]}\n```";
        let Decision::Stage { plan, assignments } = parse_decision(reply, &members()).unwrap() else {
            panic!("a stage")
        };
        assert_eq!(plan, "stage 1: gather; stage 2: assemble");
        let pairs: Vec<(&str, &str)> = assignments.iter().map(|a| (a.member.as_str(), a.job.as_str())).collect();
        assert_eq!(
            pairs,
            [("Crew_2", "mine 17 oak_log"), ("Crew_3", "mine 3 cobblestone"), ("Crew_1", "craft 1 crafting_table")]
        );
        assert_eq!(
            parse_decision("{\"done\": true, \"reasoning\": \"the pickaxe is made\"}", &members()).unwrap(),
            Decision::Done { reasoning: "the pickaxe is made".into() }
        );
        assert_eq!(
            parse_decision("{\"give_up\": \"no  iron\\nanywhere\"}", &members()).unwrap(),
            Decision::GiveUp { why: "no iron anywhere".into() }
        );
    }

    #[test]
    fn bad_stages_say_what_to_fix() {
        let err = |reply: &str| parse_decision(reply, &members()).unwrap_err();
        assert!(
            err("{\"assignments\": [\"notify Steve mine 3 dirt\"]}")
                .contains("does not name a member (members: Crew_1, Crew_2, Crew_3)")
        );
        assert!(
            err("{\"assignments\": [\"notify Crew_2 mine 3 dirt\", \"notify Crew_2 mine 3 sand\"]}")
                .contains("Crew_2 has two jobs")
        );
        assert!(err("{\"assignments\": []}").contains("hands out no jobs"));
        assert!(err("{\"assignments\": [\"notify Crew_2\"]}").contains("gives Crew_2 no job"));
        assert!(err("{\"assignments\": [\"notify Crew_2 !stop\"]}").contains("no !"));
        assert!(err("mine some logs").contains("no JSON object"), "{}", err("mine some logs"));
    }

    #[test]
    fn reports_are_read_from_the_fixed_phrases() {
        assert_eq!(read_report("Got it!"), Said::GotIt);
        assert_eq!(read_report("I will start task: Mine 3 oak_log"), Said::Started("Mine 3 oak_log".into()));
        assert_eq!(
            read_report("I succeeded in task: mine 3 oak_log (new skills: a)"),
            Said::Succeeded("mine 3 oak_log (new skills: a)".into())
        );
        assert_eq!(
            read_report("I failed task: mine 3 iron_ore because I found no iron_ore within 64 blocks"),
            Said::Failed { task: "mine 3 iron_ore".into(), reason: "I found no iron_ore within 64 blocks".into() }
        );
        let line = carrying_line(&[("oak_log".into(), 3), ("dirt".into(), 12)], &["wooden_pickaxe".into()]);
        assert_eq!(line, "My inventory is {oak_log: 3, dirt: 12}, and my equipment is [wooden_pickaxe]");
        assert_eq!(
            read_report(&line),
            Said::Carrying {
                items: BTreeMap::from([("oak_log".into(), 3), ("dirt".into(), 12)]),
                equipment: vec!["wooden_pickaxe".into()]
            }
        );
        assert_eq!(
            read_report("My inventory is {}, and my equipment is []"),
            Said::Carrying { items: BTreeMap::new(), equipment: vec![] }
        );
        assert_eq!(
            read_report("Inventory: 12 oak_log, 3 dirt"),
            Said::Carrying { items: BTreeMap::from([("oak_log".into(), 12), ("dirt".into(), 3)]), equipment: vec![] }
        );
        assert_eq!(read_report("Inventory: empty"), Said::Carrying { items: BTreeMap::new(), equipment: vec![] });
        assert_eq!(read_report("2/3 oak_log (66%)"), Said::Other);
        assert_eq!(read_report("Ich habe es geschafft: ÄÖÜ"), Said::Other);
    }

    #[test]
    fn the_monitor_judges_jobs_from_what_members_say() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let all_here = |_: &str| true;
        let mut monitor = Monitor::new(&members(), Duration::from_secs(60));
        monitor.assign("Crew_2", "mine 3 oak_log", at(0));
        monitor.assign("crew_3", "mine 3 cobblestone", at(0));
        assert_eq!(monitor.heard("Crew_2", "Got it!", at(1)), None, "acknowledged: outcome unknown");
        assert_eq!(
            monitor.heard("Crew_2", "I succeeded in task: Mine 2 oak_log", at(5)),
            None,
            "a step of the job is not the job"
        );
        assert_eq!(
            monitor.heard("Crew_2", "I succeeded in task: mine 3 oak_log", at(9)),
            None,
            "claimed: checked by the inventory"
        );
        let verdict = monitor.heard("Crew_2", "My inventory is {birch_log: 3}, and my equipment is []", at(9)).unwrap();
        assert_eq!(verdict.state, JobState::Succeeded, "logs of any wood count");
        assert!(!monitor.all_over());
        monitor.heard("Crew_3", "I succeeded in task: mine 3 cobblestone", at(10));
        let verdict =
            monitor.heard("Crew_3", "My inventory is {cobblestone: 1}, and my equipment is []", at(10)).unwrap();
        assert!(
            monitor.heard("Crew_3", "I failed task: Mine 3 cobblestone because gone", at(11)).is_none(),
            "over is over"
        );
        assert_eq!(verdict.state, JobState::Failed("it said it succeeded, but it carries 1 of 3 cobblestone".into()));
        assert!(monitor.all_over());
        assert_eq!(
            monitor.verdicts_text(),
            "Crew_2 succeeded in \"mine 3 oak_log\"; Crew_3 failed \"mine 3 cobblestone\": it said it succeeded, but it \
             carries 1 of 3 cobblestone"
        );
        assert!(
            monitor.members_text("Crew_1").starts_with(
                "Crew_1, the leader: you (carrying nothing; equipment: none); Crew_2 (carrying 3 birch_log"
            )
        );

        // A claim with no inventory line is taken after the grace; silence and leaving the game are failures.
        monitor.assign("Crew_2", "give 3 oak_log to Crew_1", at(20));
        monitor.heard("Crew_2", "I succeeded in task: give 3 oak_log to Crew_1", at(25));
        assert!(monitor.tick(at(30), &all_here).is_empty());
        let taken = monitor.tick(at(34), &all_here);
        assert_eq!((&taken[0].state, taken[0].gone), (&JobState::Succeeded, false));
        assert_eq!(monitor.members[1].done, ["mine 3 oak_log", "give 3 oak_log to Crew_1"]);
        monitor.assign("Crew_3", "mine 3 stone", at(40));
        monitor.heard("Crew_3", "I will start task: Mine 3 stone", at(45));
        assert!(monitor.take_quiet(at(74)).is_empty());
        assert_eq!(monitor.take_quiet(at(75)), ["Crew_3"], "quiet for half the limit: asked how it is");
        assert!(monitor.take_quiet(at(90)).is_empty(), "asked once a quiet spell");
        assert!(monitor.tick(at(104), &all_here).is_empty(), "60 s since it last spoke have not passed");
        let silent = monitor.tick(at(105), &all_here);
        assert_eq!(silent[0].state, JobState::Failed("it said nothing for 60 s".into()));
        assert!(silent[0].gone, "a silent member may be gone: its job may be handed on");
        monitor.assign("Crew_3", "mine 3 stone", at(110));
        let gone = |name: &str| name != "Crew_3";
        assert!(monitor.tick(at(111), &gone).is_empty(), "a blink off the list is not leaving");
        let left = monitor.tick(at(114), &gone);
        assert_eq!((&left[0].state, left[0].gone), (&JobState::Failed("it left the game".into()), true));
        // A step that reads like the job, and then more talk: the job goes on until it is over for real.
        monitor.assign("Crew_1", "craft 1 stone_pickaxe", at(120));
        assert!(
            monitor
                .heard("Crew_1", "I failed task: Craft 1 stone_pickaxe because no crafting_table nearby", at(121))
                .is_none()
        );
        assert!(
            monitor.heard("Crew_1", "Planning craft 1 stone_pickaxe again from what I have now.", at(121)).is_none()
        );
        assert!(monitor.tick(at(129), &all_here).is_empty(), "the job is under way again");
        assert!(monitor.heard("Crew_1", "I succeeded in task: Craft 1 stone_pickaxe", at(124)).is_none());
        assert!(monitor.heard("Crew_1", "I succeeded in task: craft 1 stone_pickaxe", at(124)).is_none());
        let verdict =
            monitor.heard("Crew_1", "My inventory is {stone_pickaxe: 1}, and my equipment is []", at(124)).unwrap();
        assert_eq!(verdict.state, JobState::Succeeded);
        monitor.assign("Crew_1", "craft 1 stone_pickaxe", at(120));
        monitor.heard("Crew_1", "I failed task: craft 1 stone_pickaxe because step 2 failed", at(125));
        assert_eq!(
            monitor.tick(at(133), &all_here)[0].state,
            JobState::Failed("step 2 failed".into()),
            "no inventory: taken as said"
        );
        monitor.assign("Crew_1", "craft 1 stone_pickaxe", at(120));
        assert_eq!(monitor.finished("Crew_1", true, "").unwrap().state, JobState::Succeeded);
        let status = monitor.status_text(at(130));
        assert!(
            status.starts_with("Crew_1: craft 1 stone_pickaxe (done, 10 s); said 5 s ago \"I failed task:"),
            "{status}"
        );
        assert!(status.contains(" | Crew_2: give 3 oak_log to Crew_1 (done, 110 s); said 105 s ago"), "{status}");
        assert!(status.contains(" | Crew_3: mine 3 stone (failed: it left the game, 20 s)"), "{status}");
    }

    #[test]
    fn a_member_that_talks_freely_is_judged_by_the_llm() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut monitor =
            Monitor::new(&["Boss".to_owned(), "Steve".to_owned(), "Crew_2".to_owned()], Duration::from_secs(300));
        monitor.assign("Steve", "get 3 logs", at(0));
        monitor.assign("Crew_2", "get 3 logs", at(0));
        monitor.heard("Crew_2", "Got it!", at(1));
        monitor.heard("Crew_2", "Plan for get 3 logs: Mine 3 oak_log.", at(1));
        assert!(
            monitor.take_due_judgements(at(20)).is_empty(),
            "nobody talked freely yet; a bot that said Got it! is never put to the LLM"
        );
        monitor.heard("Steve", "ok, on it", at(2));
        monitor.heard("Steve", "done, I have three logs now", at(30));
        assert!(monitor.take_due_judgements(at(35)).is_empty(), "still talking");
        let due = monitor.take_due_judgements(at(38));
        assert_eq!(
            due,
            [(
                "Steve".to_owned(),
                "get 3 logs".to_owned(),
                vec!["[36 s ago] ok, on it".to_owned(), "[8 s ago] done, I have three logs now".to_owned()]
            )]
        );
        assert!(monitor.take_due_judgements(at(60)).is_empty(), "judged once a spell of talk");
        let unknown = parse_judgement("{\"reasoning\": \"not clear\", \"verdict\": \"Unknown\"}").unwrap();
        assert_eq!(monitor.judged("Steve", &unknown), None);
        let yes = parse_judgement("```json\n{\"reasoning\": \"he says he has them\", \"verdict\": \"success\"}\n```")
            .unwrap();
        assert_eq!(monitor.judged("Steve", &yes).unwrap().state, JobState::Succeeded);
        assert!(parse_judgement("{\"verdict\": \"maybe\"}").unwrap_err().contains("success, failure or unknown"));
        monitor.assign("Steve", "get 3 stone", at(70));
        monitor.heard("Steve", "sorry, no pickaxe", at(71));
        monitor.take_due_judgements(at(80));
        let no = JudgeVerdict { reasoning: "he has no pickaxe".into(), verdict: "failure".into() };
        assert_eq!(monitor.judged("Steve", &no).unwrap().state, JobState::Failed("he has no pickaxe".into()));
    }

    #[test]
    fn jobs_say_what_they_leave_carried() {
        assert_eq!(expected_items("mine 3 oak_log"), Some(("oak_log".into(), 3)));
        assert_eq!(expected_items("mine 2 stone"), Some(("cobblestone".into(), 2)));
        assert_eq!(expected_items("craft 1 stone_pickaxe"), Some(("stone_pickaxe".into(), 1)));
        assert_eq!(expected_items("give 3 oak_log to Crew_1"), None);
        assert_eq!(expected_items("kill 1 pig"), None);
        assert_eq!(expected_items("build a tower"), None);
        let items = BTreeMap::from([("spruce_log".to_owned(), 20), ("birch_log".to_owned(), 4)]);
        assert_eq!(holds("get 24 logs", &items), Some(true), "any wood");
        assert_eq!(holds("get 25 logs", &items), Some(false));
        assert_eq!(holds("build a cabin", &items), None);
    }

    #[test]
    fn a_gone_members_job_goes_to_an_idle_member_in_the_game() {
        let at = |secs: u64| Instant::now() + Duration::from_secs(secs);
        let names: Vec<String> = ["Crew_1", "Crew_2", "Crew_3", "Crew_4"].map(String::from).to_vec();
        let mut monitor = Monitor::new(&names, Duration::from_secs(60));
        monitor.assign("Crew_2", "mine 3 stone", at(0));
        monitor.assign("Crew_3", "mine 1 dirt", at(0));
        let crew_2_gone = |name: &str| name != "Crew_2";
        let crew_2_and_4_gone = |name: &str| name != "Crew_2" && name != "Crew_4";
        assert_eq!(monitor.successor("Crew_2", "Crew_1", &crew_2_gone).as_deref(), Some("Crew_4"));
        assert_eq!(monitor.successor("Crew_2", "Crew_1", &crew_2_and_4_gone), None, "Crew_3 is at work, Crew_1 leads");
        monitor.heard("Crew_3", "I succeeded in task: mine 1 dirt", at(5));
        monitor.heard("Crew_3", "My inventory is {dirt: 1}, and my equipment is []", at(5));
        assert_eq!(monitor.successor("Crew_2", "Crew_1", &crew_2_and_4_gone).as_deref(), Some("Crew_3"));
        assert_eq!(monitor.successor("Crew_2", "Crew_1", &|name: &str| name == "Crew_1"), None);
    }
}
