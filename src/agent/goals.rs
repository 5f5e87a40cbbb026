//! Goals, plans and tasks that persist: a goal owns plans, a plan owns tasks with dependencies and a status; a
//! plan's next task is the first pending one whose dependencies are done; completion cascades task → plan → goal.
//!
//! The whole book is one JSON file per bot (`goals.json` in its checkpoint folder), rewritten through a temporary
//! file and a rename on every change, and read back at start: a goal cut off by a crash or a lost connection is
//! `active` and goes on when the bot is back; one an owner stopped is `stopped` and waits to be asked again. A file
//! that cannot be read is set aside (renamed), never overwritten.

use std::{
    collections::BTreeMap,
    path::PathBuf,
    time::{SystemTime, UNIX_EPOCH},
};

use serde::{Deserialize, Serialize};

use super::{plan::TaskSpec, tracker::Tracker};

/// One bot's book, shared by its commands and its task runs.
pub type Goals = std::sync::Arc<parking_lot::Mutex<GoalBook>>;

/// Runs `f` on the book (a panic elsewhere cannot leave it half-written: every change is whole before it is saved).
pub fn with<T>(goals: &Goals, f: impl FnOnce(&mut GoalBook) -> T) -> T {
    f(&mut goals.lock())
}

/// Finished goals kept in the book; older ones are forgotten first.
const KEEP_FINISHED: usize = 50;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pending,
    Active,
    Completed,
    Failed,
    /// Ended by an owner (`!stop`, another command); not resumed by itself.
    Stopped,
    /// Abandoned with `!goal drop`.
    Dropped,
}

impl Status {
    pub fn is_finished(self) -> bool {
        !matches!(self, Status::Pending | Status::Active)
    }

    pub fn name(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Active => "active",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Stopped => "stopped",
            Status::Dropped => "dropped",
        }
    }
}

/// One task of a plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub task: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub context: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tracker: Option<Tracker>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The tasks of the same plan (by index) that must be completed first.
    #[serde(default)]
    pub after: Vec<usize>,
    /// A team goal's stage (from 1) this job was handed out in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<u32>,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What the bot carried when the task began: its tracker counts from there, also after a restart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<BTreeMap<String, i64>>,
}

impl Task {
    pub fn spec(&self) -> TaskSpec {
        TaskSpec {
            task: self.task.clone(),
            context: self.context.clone(),
            tracker: self.tracker.clone(),
            code: self.code.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub tasks: Vec<Task>,
    pub status: Status,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Goal {
    pub id: u32,
    pub text: String,
    /// Who asked for it.
    pub asked_by: String,
    pub status: Status,
    /// Plans in the order they were made; the last is the current one (the earlier ones failed).
    pub plans: Vec<Plan>,
    /// Seconds since the Unix epoch.
    pub created: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A team goal this bot leads: its plan is the stages of jobs handed out, one task a job (`Crew_2: get 3 logs`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub team: bool,
    /// The team's long-term plan, as the leader last wrote it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// The fleet store's key of a goal this bot took over from another (`Crew_2#7`); its own goals go by its name
    /// and their id (see [`Goal::key`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taken_over: Option<String>,
}

impl Goal {
    /// The key the fleet's store knows this goal by, in the book of `bot`.
    pub fn key(&self, bot: &str) -> String {
        self.taken_over.clone().unwrap_or_else(|| format!("{bot}#{}", self.id))
    }

    fn plan(&self) -> Option<&Plan> {
        self.plans.last()
    }

    /// The next task of the current plan: the first pending one whose dependencies are completed.
    pub fn next(&self) -> Option<(usize, usize)> {
        let p = self.plans.len().checked_sub(1)?;
        let plan = &self.plans[p];
        if plan.status.is_finished() {
            return None;
        }
        let done = |i: &usize| plan.tasks.get(*i).is_some_and(|t| t.status == Status::Completed);
        let t = plan
            .tasks
            .iter()
            .position(|t| matches!(t.status, Status::Pending | Status::Active) && t.after.iter().all(done))?;
        Some((p, t))
    }

    /// `3/7`: completed tasks of the current plan, and all of them.
    pub fn progress(&self) -> (usize, usize) {
        self.plan().map_or((0, 0), |plan| {
            (plan.tasks.iter().filter(|t| t.status == Status::Completed).count(), plan.tasks.len())
        })
    }

    /// The status line that goes into prompts: `Goal: get a stone pickaxe. Current task: Craft 4 stick (3 of 7), the
    /// only one to do now. Not now, after it: Craft 1 crafting_table. Progress 2/7 (28 %).`, with the current task's
    /// completion condition when `condition` gives one.
    pub fn summary(&self, condition: Option<&str>) -> String {
        let (done, all) = self.progress();
        let percent = (done * 100).checked_div(all).unwrap_or(0);
        let current = match self.next() {
            Some((p, t)) => {
                let tasks = &self.plans[p].tasks;
                // Said so the step's code does that step alone: shown the goal "place a chest and store 6
                // cobblestone in it" for `Place 1 chest`, the local model wrote the storing, before any chest stood.
                // The next task is named after the current one and marked "not now": worded "Do only this task now:
                // <next> comes after it", the model read the next task as the one to do and wrote it.
                let later =
                    tasks.iter().skip(t + 1).find(|task| matches!(task.status, Status::Pending | Status::Active));
                let (only, next) = later.map_or_else(
                    || (String::new(), String::new()),
                    |next| (", the only one to do now".to_string(), format!(" Not now, after it: {}.", next.task)),
                );
                format!(" Current task: {} ({} of {all}){only}.{next}", tasks[t].task, t + 1)
            }
            None => String::new(),
        };
        let condition = condition.map_or_else(String::new, |c| format!(" Completion condition: {c}."));
        format!("Goal: {}.{current} Progress {done}/{all} ({percent} %).{condition}", self.text)
    }
}

/// How far a goal taken over from another bot had got (see [`GoalBook::take_over`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakenOver {
    /// Steps of the current plan done, of `all`.
    pub done: usize,
    pub all: usize,
    /// Steps the other bot had done that are to do again: what they gathered went with it.
    pub reopened: usize,
}

/// Whether `tracker` measures what the bot carries or where it stands, rather than what it left in the world.
fn carried(tracker: &Tracker) -> bool {
    match tracker {
        Tracker::Inventory { .. } | Tracker::Craft { .. } | Tracker::Location { .. } => true,
        Tracker::All { of } | Tracker::Any { of } => of.iter().any(carried),
        _ => false,
    }
}

/// Every goal of one bot, kept in its file.
#[derive(Debug)]
pub struct GoalBook {
    path: PathBuf,
    goals: Vec<Goal>,
    /// Counts the changes saved, so a copy elsewhere (the fleet's store) is brought in step only when there is one.
    changes: u64,
}

#[derive(Default, Serialize, Deserialize)]
struct File {
    goals: Vec<Goal>,
}

impl GoalBook {
    /// Reads the book at `path` (empty when there is none). A file that does not parse is renamed aside and the
    /// book starts empty; the warning says where it went.
    pub fn open(path: PathBuf) -> (Self, Option<String>) {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return (Self { path, goals: Vec::new(), changes: 0 }, None);
            }
            Err(err) => {
                return (
                    Self { path: path.clone(), goals: Vec::new(), changes: 0 },
                    Some(format!("cannot read {}: {err}", path.display())),
                );
            }
        };
        match serde_json::from_str::<File>(&text) {
            Ok(file) => (Self { path, goals: file.goals, changes: 0 }, None),
            Err(err) => {
                let aside = path.with_extension(format!("json.bad-{}", now()));
                let moved = std::fs::rename(&path, &aside);
                let warning = match moved {
                    Ok(()) => format!(
                        "{} is damaged ({err}); kept it as {} and started an empty one",
                        path.display(),
                        aside.display()
                    ),
                    Err(e) => format!("{} is damaged ({err}) and cannot be set aside ({e})", path.display()),
                };
                (Self { path, goals: Vec::new(), changes: 0 }, Some(warning))
            }
        }
    }

    pub fn goals(&self) -> &[Goal] {
        &self.goals
    }

    pub fn get(&self, id: u32) -> Option<&Goal> {
        self.goals.iter().find(|g| g.id == id)
    }

    fn get_mut(&mut self, id: u32) -> Option<&mut Goal> {
        self.goals.iter_mut().find(|g| g.id == id)
    }

    /// A new active goal; any other active goal of this bot is stopped (a bot does one goal at a time).
    pub fn add(&mut self, text: &str, asked_by: &str) -> u32 {
        self.stop_active("another goal was given");
        self.push(text, asked_by, false)
    }

    /// A new active team goal this bot leads; any other active goal is stopped.
    pub fn add_team(&mut self, text: &str, asked_by: &str) -> u32 {
        self.stop_active("another goal was given");
        self.push(text, asked_by, true)
    }

    /// A new active goal that is part of the team goal under way (a job the leader does itself): nothing is stopped.
    pub fn add_job(&mut self, text: &str, asked_by: &str) -> u32 {
        self.push(text, asked_by, false)
    }

    fn push(&mut self, text: &str, asked_by: &str, team: bool) -> u32 {
        let id = self.goals.iter().map(|g| g.id).max().unwrap_or(0) + 1;
        self.goals.push(Goal {
            id,
            text: text.to_owned(),
            asked_by: asked_by.to_owned(),
            status: Status::Active,
            plans: Vec::new(),
            created: now(),
            reason: None,
            team,
            notes: String::new(),
            taken_over: None,
        });
        self.forget_old();
        self.save();
        id
    }

    /// The next stage of team goal `id`: one task a job, each after every job of the stage before; `notes` is the
    /// long-term plan as the leader wrote it. Returns where each job went, in order.
    pub fn add_stage(&mut self, id: u32, jobs: &[String], notes: &str) -> Vec<(usize, usize)> {
        let Some(goal) = self.get_mut(id) else { return Vec::new() };
        if !notes.is_empty() {
            goal.notes = notes.to_owned();
        }
        if goal.plans.is_empty() {
            goal.plans.push(Plan { tasks: Vec::new(), status: Status::Active });
        }
        let plan = &mut goal.plans[0];
        let last = plan.tasks.iter().filter_map(|t| t.stage).max();
        let stage = last.map_or(1, |s| s + 1);
        let after: Vec<usize> = (0..plan.tasks.len()).filter(|&i| plan.tasks[i].stage == last).collect();
        let refs = jobs
            .iter()
            .map(|job| {
                plan.tasks.push(Task {
                    task: job.clone(),
                    context: String::new(),
                    tracker: None,
                    code: None,
                    after: after.clone(),
                    status: Status::Active,
                    reason: None,
                    start: None,
                    stage: Some(stage),
                });
                (0, plan.tasks.len() - 1)
            })
            .collect();
        self.save();
        refs
    }

    /// A job of team goal `id` (at `place`) goes to another member, as `job` (`Crew_3: get 3 logs`): a new task in
    /// the same stage. Returns where it went.
    pub fn hand_on(&mut self, id: u32, (p, t): (usize, usize), job: &str) -> Option<(usize, usize)> {
        let plan = self.get_mut(id)?.plans.get_mut(p)?;
        let old = plan.tasks.get(t)?.clone();
        plan.tasks.push(Task { task: job.to_owned(), status: Status::Active, reason: None, start: None, ..old });
        let place = (p, plan.tasks.len() - 1);
        self.save();
        Some(place)
    }

    /// How the last stage of team goal `id` went, in the words the leader's planner reads (for a goal taken up again
    /// after a restart, whose members' reports were not heard).
    pub fn last_stage_text(&self, id: u32) -> Option<String> {
        let plan = self.get(id)?.plans.first()?;
        let last = plan.tasks.iter().filter_map(|t| t.stage).max()?;
        let lines: Vec<String> = plan
            .tasks
            .iter()
            .filter(|t| t.stage == Some(last))
            .map(|t| match (t.status, &t.reason) {
                (Status::Completed, _) => format!("{} succeeded", t.task),
                (Status::Failed, Some(why)) => format!("{} failed: {why}", t.task),
                _ => format!("{} (outcome unknown: I restarted before it was reported)", t.task),
            })
            .collect();
        Some(lines.join("; "))
    }

    /// A new plan for goal `id`, each task after the one before it; the plan before it (if unfinished) failed.
    pub fn set_plan(&mut self, id: u32, steps: &[TaskSpec]) {
        let Some(goal) = self.get_mut(id) else { return };
        if let Some(old) = goal.plans.last_mut()
            && !old.status.is_finished()
        {
            old.status = Status::Failed;
        }
        let tasks = steps
            .iter()
            .enumerate()
            .map(|(i, s)| Task {
                task: s.task.clone(),
                context: s.context.clone(),
                tracker: s.tracker.clone(),
                code: s.code.clone(),
                after: i.checked_sub(1).into_iter().collect(),
                status: Status::Pending,
                reason: None,
                start: None,
                stage: None,
            })
            .collect();
        goal.plans.push(Plan { tasks, status: Status::Active });
        self.save();
    }

    /// Sets a task's status; completion cascades to its plan and goal, and a failed task fails its plan.
    pub fn set_task(&mut self, id: u32, (p, t): (usize, usize), status: Status, reason: Option<String>) {
        let Some(goal) = self.get_mut(id) else { return };
        let Some(plan) = goal.plans.get_mut(p) else { return };
        let Some(task) = plan.tasks.get_mut(t) else { return };
        task.status = status;
        task.reason = reason;
        if goal.team {
            // A team's plan grows stage by stage and ends when its leader says so.
        } else if status == Status::Failed {
            plan.status = Status::Failed;
        } else if plan.tasks.iter().all(|t| t.status == Status::Completed) {
            plan.status = Status::Completed;
            goal.status = Status::Completed;
        }
        self.save();
    }

    /// Marks a task begun, with what the bot carried then (kept when it was begun before: a restart does not
    /// reset what its tracker counts from). Returns that inventory.
    pub fn begin_task(
        &mut self,
        id: u32,
        (p, t): (usize, usize),
        carried: BTreeMap<String, i64>,
    ) -> BTreeMap<String, i64> {
        let Some(task) = self.get_mut(id).and_then(|g| g.plans.get_mut(p)).and_then(|plan| plan.tasks.get_mut(t))
        else {
            return carried;
        };
        task.status = Status::Active;
        let start = task.start.get_or_insert(carried).clone();
        self.save();
        start
    }

    /// Ends goal `id` with `status` (completed, failed, stopped, dropped) and why.
    pub fn finish(&mut self, id: u32, status: Status, reason: Option<String>) {
        let Some(goal) = self.get_mut(id) else { return };
        goal.status = status;
        goal.reason = reason;
        if let Some(plan) = goal.plans.last_mut()
            && !plan.status.is_finished()
        {
            plan.status = status;
        }
        self.save();
    }

    /// The goal under way (at most one is).
    pub fn active(&self) -> Option<&Goal> {
        self.goals.iter().rev().find(|g| g.status == Status::Active)
    }

    /// The team goal under way, if this bot leads one.
    pub fn active_team(&self) -> Option<&Goal> {
        self.goals.iter().rev().find(|g| g.status == Status::Active && g.team)
    }

    /// Stops every goal under way (a team goal and the leader's own job in it), because of `why`; returns the
    /// newest.
    pub fn stop_active(&mut self, why: &str) -> Option<u32> {
        let ids: Vec<u32> = self.goals.iter().filter(|g| g.status == Status::Active).map(|g| g.id).collect();
        for id in &ids {
            self.finish(*id, Status::Stopped, Some(why.to_owned()));
        }
        ids.last().copied()
    }

    /// Stops the goals under way that are not team goals (the leader's own jobs, when it takes its team goal up
    /// again after a restart: it hands the work out anew).
    pub fn stop_jobs(&mut self, why: &str) {
        let ids: Vec<u32> = self.goals.iter().filter(|g| g.status == Status::Active && !g.team).map(|g| g.id).collect();
        for id in ids {
            self.finish(id, Status::Stopped, Some(why.to_owned()));
        }
    }

    /// `!goals`: the latest `n` goals, newest first.
    pub fn list_text(&self, n: usize) -> String {
        if self.goals.is_empty() {
            return "No goals yet: give me one with !task GOAL.".to_owned();
        }
        let lines: Vec<String> = self
            .goals
            .iter()
            .rev()
            .take(n)
            .map(|g| {
                let (done, all) = g.progress();
                let stage = g.plans.first().and_then(|p| p.tasks.iter().filter_map(|t| t.stage).max());
                let detail = match (g.status, g.next()) {
                    _ if g.team => {
                        let why = if g.status == Status::Completed { None } else { g.reason.as_ref() };
                        let why = why.map_or_else(String::new, |r| format!(" ({r})"));
                        format!(", stage {} ({done}/{all} jobs done){why}", stage.unwrap_or(0))
                    }
                    (Status::Active, Some((p, t))) => format!(", task {}/{all} {}", t + 1, g.plans[p].tasks[t].task),
                    (Status::Completed, _) => format!(", {done}/{all} tasks"),
                    (_, _) => g.reason.as_ref().map_or_else(String::new, |r| format!(" ({r})")),
                };
                let kind = if g.team { "team goal " } else { "" };
                format!("#{} {kind}{}: {}{detail}", g.id, g.text, g.status.name())
            })
            .collect();
        format!("Goals, newest first: {}", lines.join("; "))
    }

    /// The goal `!goal drop [N]` means: goal N, else the active one, else the latest unfinished.
    pub fn droppable(&self, id: Option<u32>) -> Result<u32, String> {
        match id {
            Some(id) => match self.get(id) {
                Some(g) if matches!(g.status, Status::Completed | Status::Dropped) => {
                    Err(format!("Goal #{id} is {} already", g.status.name()))
                }
                Some(_) => Ok(id),
                None => Err(format!("There is no goal #{id} (!goals lists them)")),
            },
            None => self
                .active()
                .or_else(|| {
                    self.goals.iter().rev().find(|g| g.status != Status::Completed && g.status != Status::Dropped)
                })
                .map(|g| g.id)
                .ok_or_else(|| "There is no unfinished goal to drop".to_owned()),
        }
    }

    /// Keeps every unfinished goal and the latest [`KEEP_FINISHED`] finished ones.
    fn forget_old(&mut self) {
        let finished = self.goals.iter().filter(|g| g.status.is_finished()).count();
        let mut extra = finished.saturating_sub(KEEP_FINISHED);
        self.goals.retain(|g| {
            if extra > 0 && g.status.is_finished() {
                extra -= 1;
                return false;
            }
            true
        });
    }

    /// How many changes were saved since the book was opened.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// Goal `id` (just given by a leader) becomes the goal another bot left unfinished, as the store has it
    /// (`stored`: the goal's JSON, see [`Goal`]): its plans and how far they got. What the other bot's done steps
    /// left in the world stays done; a done step measured by what the bot carries (logs mined, planks made) is to do
    /// again, since what it gathered went with that bot. Unfinished tasks count from what this bot carries when it
    /// begins them. Returns how many steps are done and how many were opened again.
    pub fn take_over(&mut self, id: u32, key: &str, stored: &str) -> Result<TakenOver, String> {
        let theirs: Goal =
            serde_json::from_str(stored).map_err(|err| format!("the stored goal {key} is damaged: {err}"))?;
        let Some(goal) = self.get_mut(id) else { return Err(format!("there is no goal #{id}")) };
        goal.plans = theirs.plans;
        let current = goal.plans.len().saturating_sub(1);
        let mut reopened = 0;
        for (p, plan) in goal.plans.iter_mut().enumerate() {
            for task in &mut plan.tasks {
                if task.status == Status::Completed && p == current && task.tracker.as_ref().is_some_and(carried) {
                    task.status = Status::Pending;
                    reopened += 1;
                }
                if !task.status.is_finished() {
                    task.start = None;
                }
            }
        }
        goal.taken_over = Some(key.to_owned());
        let (done, all) = goal.progress();
        self.save();
        Ok(TakenOver { done, all, reopened })
    }

    /// A goal of this bot (`bot`) the fleet's store has and this book lacks (its folder was lost with its machine):
    /// added as the store has it (`stored`: its JSON), under the next id here and still known to the store as `key`.
    /// Returns its id here.
    pub fn recover(&mut self, bot: &str, key: &str, stored: &str) -> Result<u32, String> {
        let mut goal: Goal =
            serde_json::from_str(stored).map_err(|err| format!("the stored goal {key} is damaged: {err}"))?;
        goal.id = self.goals.iter().map(|g| g.id).max().unwrap_or(0) + 1;
        goal.taken_over = None;
        if goal.key(bot) != key {
            goal.taken_over = Some(key.to_owned());
        }
        let id = goal.id;
        self.goals.push(goal);
        self.save();
        Ok(id)
    }

    /// Whether a goal here is known to the store as `key`.
    pub fn has_key(&self, bot: &str, key: &str) -> bool {
        self.goals.iter().any(|g| g.key(bot) == key)
    }

    /// The goal the store knows as `key` belongs to `owner` now (a leader handed it on while this bot was gone): it
    /// is stopped here, so this bot does not go on with it too. Returns its id when it was under way.
    pub fn lost(&mut self, bot: &str, key: &str, owner: &str) -> Option<u32> {
        let id = self.goals.iter().find(|g| g.key(bot) == key && !g.status.is_finished())?.id;
        self.finish(id, Status::Stopped, Some(format!("it was handed to {owner}")));
        Some(id)
    }

    /// Writes the book whole or not at all (see [`crate::files`]).
    fn save(&mut self) {
        self.changes += 1;
        let write = || -> std::io::Result<()> {
            if let Some(dir) = self.path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let text =
                serde_json::to_string_pretty(&File { goals: self.goals.clone() }).map_err(std::io::Error::other)?;
            crate::files::write_atomically(&self.path, text.as_bytes())
        };
        if let Err(err) = write() {
            tracing::warn!("cannot save the goals in {}: {err}", self.path.display());
        }
    }
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(task: &str) -> TaskSpec {
        TaskSpec { task: task.to_owned(), context: String::new(), tracker: None, code: None }
    }

    fn book(tag: &str) -> (GoalBook, PathBuf, crate::TestDir) {
        let dir = crate::test_dir(&format!("goals-{tag}"));
        let path = dir.join("goals.json");
        (GoalBook::open(path.clone()).0, path, dir)
    }

    #[test]
    fn a_goal_taken_over_keeps_what_the_world_holds_and_redoes_what_went_with_the_other_bot() {
        let tracked = |task: &str, tracker: Tracker| TaskSpec { tracker: Some(tracker), ..step(task) };
        let (mut hands, _, _dir) = book("hand");
        let theirs = hands.add("set up a lookout", "Boss");
        hands.set_plan(
            theirs,
            &[
                tracked("Mine 3 oak_log", Tracker::Craft { item: "oak_log".into(), count: 3 }),
                tracked("Place 1 torch", Tracker::Placed { block: "torch".into(), count: 1, at: None, radius: 8 }),
                step("Look around"),
                tracked("Craft 4 oak_planks", Tracker::Craft { item: "oak_planks".into(), count: 4 }),
            ],
        );
        for t in 0..3 {
            hands.set_task(theirs, (0, t), Status::Completed, None);
        }
        hands.begin_task(theirs, (0, 3), BTreeMap::from([("oak_log".to_owned(), 3)]));
        let stored = serde_json::to_string(hands.get(theirs).unwrap()).unwrap();

        let (mut mates, _, _dir2) = book("mate");
        mates.add("an older goal", "Alice");
        let id = mates.add("set up a lookout", "Boss");
        let changes = mates.changes();
        let taken = mates.take_over(id, "Hand#1", &stored).unwrap();
        assert_eq!(taken, TakenOver { done: 2, all: 4, reopened: 1 }, "the torch stands; the logs went with Hand");
        assert!(mates.changes() > changes, "saved, for the store to hear of");
        let goal = mates.get(id).unwrap();
        assert_eq!(goal.key("Mate"), "Hand#1");
        assert_eq!(goal.next(), Some((0, 0)), "the logs again first");
        assert_eq!(goal.plans[0].tasks[3].start, None, "counted from what Mate carries, not Hand");
        assert_eq!(mates.get(1).unwrap().key("Mate"), "Mate#1");
        assert!(mates.take_over(id, "Hand#1", "{not json").unwrap_err().contains("Hand#1 is damaged"));

        // Hand, back, learns the goal is Mate's now: stopped in its book, once.
        assert_eq!(hands.lost("Hand", "Hand#1", "Mate"), Some(theirs));
        let goal = hands.get(theirs).unwrap();
        assert_eq!((goal.status, goal.reason.as_deref()), (Status::Stopped, Some("it was handed to Mate")));
        assert_eq!(hands.lost("Hand", "Hand#1", "Mate"), None);
    }

    #[test]
    fn a_goal_lost_with_a_folder_comes_back_from_the_store_under_its_key() {
        let (mut old, _, _dir) = book("old-machine");
        old.add("first", "Alice");
        let id = old.add("get 20 dirt", "Alice");
        old.set_plan(id, &[step("Mine 20 dirt")]);
        old.begin_task(id, (0, 0), BTreeMap::from([("dirt".to_owned(), 2)]));
        let stored = serde_json::to_string(old.get(id).unwrap()).unwrap();

        let (mut fresh, _, _dir2) = book("new-machine");
        assert!(!fresh.has_key("Maple", "Maple#2"));
        let back = fresh.recover("Maple", "Maple#2", &stored).unwrap();
        assert_eq!(back, 1);
        let goal = fresh.get(back).unwrap();
        assert_eq!((goal.key("Maple"), goal.status, goal.next()), ("Maple#2".to_owned(), Status::Active, Some((0, 0))));
        assert_eq!(goal.plans[0].tasks[0].start, Some(BTreeMap::from([("dirt".to_owned(), 2)])), "counts as before");
        assert!(fresh.has_key("Maple", "Maple#2") && fresh.active().is_some_and(|g| g.id == back));
        // Under its own number, the key is its own.
        let (mut same, _, _dir3) = book("same-number");
        same.add("first", "Alice");
        let back = same.recover("Maple", "Maple#2", &stored).unwrap();
        assert_eq!((back, same.get(back).unwrap().taken_over.clone()), (2, None));
        assert!(same.recover("Maple", "Maple#3", "[]").unwrap_err().contains("Maple#3 is damaged"));
    }

    #[test]
    fn a_team_job_handed_on_joins_its_stage() {
        let (mut book, _, _dir) = book("hand-on");
        let id = book.add_team("set up a workshop", "Alice");
        let places = book.add_stage(id, &["Hand: get 3 logs".into(), "Mate: get 1 dirt".into()], "");
        book.set_task(id, places[0], Status::Failed, Some("it left the game".into()));
        let place = book.hand_on(id, places[0], "Kit: get 3 logs").unwrap();
        let tasks = &book.get(id).unwrap().plans[0].tasks;
        assert_eq!(place, (0, 2));
        assert_eq!(
            (tasks[2].task.as_str(), tasks[2].status, tasks[2].stage),
            ("Kit: get 3 logs", Status::Active, Some(1))
        );
        assert_eq!(
            book.last_stage_text(id).unwrap(),
            "Hand: get 3 logs failed: it left the game; Mate: get 1 dirt (outcome unknown: I restarted before it was reported); Kit: get 3 logs (outcome unknown: I restarted before it was reported)"
        );
    }

    #[test]
    fn tasks_go_in_order_and_completion_cascades() {
        let (mut book, path, _dir) = book("cascade");
        let id = book.add("get a stone pickaxe", "Alice");
        assert_eq!(book.get(id).unwrap().next(), None, "no plan yet");
        book.set_plan(id, &[step("Mine 3 oak_log"), step("Craft 12 oak_planks"), step("Craft 1 stone_pickaxe")]);
        let goal = book.get(id).unwrap();
        assert_eq!(goal.next(), Some((0, 0)));
        assert_eq!(
            goal.summary(Some("0/3 oak_log")),
            "Goal: get a stone pickaxe. Current task: Mine 3 oak_log (1 of 3), the only one to do now. Not now, after \
             it: Craft 12 oak_planks. Progress 0/3 (0 %). Completion condition: 0/3 oak_log."
        );
        let logs = BTreeMap::from([("oak_log".to_owned(), 2)]);
        assert_eq!(book.begin_task(id, (0, 0), logs.clone()), logs);
        assert_eq!(
            book.begin_task(id, (0, 0), BTreeMap::new()),
            logs,
            "begun again after a restart: counts from the first start"
        );
        book.set_task(id, (0, 0), Status::Completed, None);
        assert_eq!(book.get(id).unwrap().next(), Some((0, 1)));
        assert!(
            book.get(id)
                .unwrap()
                .summary(None)
                .contains("(2 of 3), the only one to do now. Not now, after it: Craft 1 stone_pickaxe")
        );
        book.set_task(id, (0, 1), Status::Failed, Some("no logs".into()));
        assert_eq!(book.get(id).unwrap().next(), None, "a failed task fails its plan");
        assert_eq!(book.get(id).unwrap().status, Status::Active, "the goal goes on with a new plan");
        book.set_plan(id, &[step("Craft 12 oak_planks"), step("Craft 1 stone_pickaxe")]);
        assert_eq!(book.get(id).unwrap().plans[0].status, Status::Failed);
        book.set_task(id, (1, 0), Status::Completed, None);
        assert_eq!(
            book.list_text(5),
            "Goals, newest first: #1 get a stone pickaxe: active, task 2/2 Craft 1 stone_pickaxe"
        );
        book.set_task(id, (1, 1), Status::Completed, None);
        assert_eq!(book.get(id).unwrap().status, Status::Completed, "the last task completes the plan and the goal");
        assert_eq!(book.list_text(5), "Goals, newest first: #1 get a stone pickaxe: completed, 2/2 tasks");

        // Read back as it was.
        let (again, warning) = GoalBook::open(path.clone());
        assert!(warning.is_none());
        assert_eq!(again.goals(), book.goals());
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn dependencies_decide_the_next_task() {
        let (mut book, path, _dir) = book("deps");
        let id = book.add("build", "Alice");
        book.set_plan(id, &[step("a"), step("b"), step("c")]);
        let goal = book.goals.iter_mut().find(|g| g.id == id).unwrap();
        goal.plans[0].tasks[1].after = vec![2];
        goal.plans[0].tasks[2].after = vec![];
        book.set_task(id, (0, 0), Status::Completed, None);
        assert_eq!(book.get(id).unwrap().next(), Some((0, 2)), "b waits for c");
        book.set_task(id, (0, 2), Status::Completed, None);
        assert_eq!(book.get(id).unwrap().next(), Some((0, 1)));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn one_goal_at_a_time_and_drops_name_the_goal() {
        let (mut book, path, _dir) = book("drop");
        let first = book.add("get 3 logs", "Alice");
        let second = book.add("get 3 stone", "Alice");
        assert_eq!(book.get(first).unwrap().status, Status::Stopped);
        assert_eq!(book.active().unwrap().id, second);
        assert_eq!(book.droppable(None), Ok(second));
        assert_eq!(book.droppable(Some(9)), Err("There is no goal #9 (!goals lists them)".into()));
        book.finish(second, Status::Dropped, Some("dropped by Alice".into()));
        assert_eq!(book.droppable(Some(second)), Err("Goal #2 is dropped already".into()));
        assert_eq!(book.droppable(None), Ok(first), "the latest unfinished one");
        assert!(
            book.list_text(5)
                .starts_with("Goals, newest first: #2 get 3 stone: dropped (dropped by Alice); #1 get 3 logs: stopped")
        );
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_team_goal_grows_stage_by_stage_and_ends_when_its_leader_says() {
        let (mut book, path, _dir) = book("team");
        let id = book.add_team("make a stone pickaxe", "Alice");
        let first = book.add_stage(
            id,
            &["Crew_2: get 3 logs".into(), "Crew_3: get 3 cobblestone".into()],
            "gather, deliver, craft",
        );
        assert_eq!(first, [(0, 0), (0, 1)]);
        let own = book.add_job("craft 1 crafting_table", "Crew_1");
        assert_eq!(book.get(id).unwrap().status, Status::Active, "the leader's own job does not stop its team goal");
        book.finish(own, Status::Completed, None);
        book.set_task(id, (0, 0), Status::Completed, None);
        book.set_task(id, (0, 1), Status::Completed, None);
        assert_eq!(book.get(id).unwrap().status, Status::Active, "a stage done is not the goal done");
        let second = book.add_stage(
            id,
            &["Crew_2: give 3 logs to Crew_1".into(), "Crew_3: give 3 cobblestone to Crew_1".into()],
            "",
        );
        assert_eq!(second, [(0, 2), (0, 3)]);
        let goal = book.get(id).unwrap();
        assert_eq!(
            (goal.plans[0].tasks[3].after.clone(), goal.plans[0].tasks[3].stage, goal.notes.as_str()),
            (vec![0, 1], Some(2), "gather, deliver, craft")
        );
        book.set_task(id, (0, 2), Status::Failed, Some("it left the game".into()));
        assert_eq!(
            book.last_stage_text(id).unwrap(),
            "Crew_2: give 3 logs to Crew_1 failed: it left the game; Crew_3: give 3 cobblestone to Crew_1 (outcome unknown: I restarted before it was reported)"
        );
        assert!(
            book.list_text(5).contains("; #1 team goal make a stone pickaxe: active, stage 2 (2/4 jobs done)"),
            "{}",
            book.list_text(5)
        );
        let job = book.add_job("craft 1 stone_pickaxe", "Crew_1");
        book.stop_jobs("the team goal was taken up again");
        assert_eq!((book.get(job).unwrap().status, book.active_team().unwrap().id), (Status::Stopped, id));
        assert_eq!(book.stop_active("stopped by Alice"), Some(id));
        assert!(book.active().is_none());
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_damaged_file_is_set_aside_not_lost() {
        let (_, path, _dir) = book("damaged");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{\"goals\": [tor").unwrap();
        let (book, warning) = GoalBook::open(path.clone());
        assert!(book.goals().is_empty());
        assert!(warning.unwrap().contains("is damaged"));
        let kept: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().filter_map(|e| e.ok()).collect();
        assert!(
            kept.iter().any(|e| e.file_name().to_string_lossy().contains("goals.json.bad-")),
            "the damaged file is kept"
        );
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn finished_goals_are_forgotten_oldest_first() {
        let (mut book, path, _dir) = book("bounded");
        for i in 0..(KEEP_FINISHED + 5) {
            let id = book.add(&format!("goal {i}"), "Alice");
            book.finish(id, Status::Completed, None);
        }
        let id = book.add("the last", "Alice");
        assert_eq!(book.goals().len(), KEEP_FINISHED + 1);
        assert_eq!(book.goals().last().unwrap().id, id);
        assert_eq!(book.goals().first().unwrap().text, "goal 5");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
