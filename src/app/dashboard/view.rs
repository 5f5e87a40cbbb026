//! What the page is sent: each bot's state as plain values, copied out when a page asks (never on a tick of its own).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::{
    agent::{
        goals::{self, Goal, Status},
        tracker::{Progress, Snapshot},
    },
    app::state::BotState,
    llm::{Tally, Usage},
};

/// One bot, as the page draws it every second.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BotView {
    pub name: String,
    pub online: bool,
    pub pos: Option<[f64; 3]>,
    pub dimension: String,
    pub health: f32,
    pub food: u32,
    /// `day 3, noon`, once the server has sent the time.
    pub time: Option<String>,
    /// `idle`, or what is running (`task get 3 logs: attempt 1/4`).
    pub activity: String,
    /// What a reflex is doing with the body (`eating`), if one is.
    pub reflex: Option<String>,
    pub items: Vec<(String, i32)>,
    /// Monsters within range, nearest first: kind and distance.
    pub hostiles: Vec<(String, f64)>,
    /// The goal under way, or the latest one.
    pub goal: Option<GoalView>,
    /// The code last run: function name and source.
    pub code: Option<(String, String)>,
    pub error: Option<String>,
    /// What the last run changed in the world, as the server reported it.
    pub changes: Option<String>,
    /// The blocks the pathfinder is walking through, next first.
    pub path: Vec<[i32; 3]>,
    pub llm: LlmView,
    /// `!team status`, while this bot leads a team goal.
    pub team: Option<String>,
    /// Learning under way: tasks left and what it did so far.
    pub learning: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct GoalView {
    pub id: u32,
    pub text: String,
    pub status: &'static str,
    pub asked_by: String,
    /// Completed tasks of the current plan, and all of them.
    pub done: usize,
    pub all: usize,
    pub tasks: Vec<TaskView>,
    pub reason: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TaskView {
    pub task: String,
    pub status: &'static str,
    pub reason: Option<String>,
    /// The tracker's progress, when the task has a tracker.
    pub bar: Option<Bar>,
}

/// One progress bar: `current` of `target` (`what` says of what).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bar {
    pub current: u32,
    pub target: u32,
    pub percent: u32,
    pub what: String,
}

impl From<Progress> for Bar {
    fn from(progress: Progress) -> Self {
        Bar {
            percent: progress.percent(),
            current: progress.current.min(progress.target),
            target: progress.target,
            what: progress.what,
        }
    }
}

/// LLM use of one bot: per role, the latest tasks, and what it waits for now.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LlmView {
    pub roles: Vec<UsageRow>,
    pub tasks: Vec<UsageRow>,
    pub cache_hits: u64,
    pub waiting: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UsageRow {
    /// The role's or the task's name.
    pub name: String,
    pub calls: u64,
    pub tokens: u64,
    pub seconds: f64,
}

impl UsageRow {
    fn new(name: impl Into<String>, usage: Usage) -> Self {
        UsageRow {
            name: name.into(),
            calls: usage.calls,
            tokens: usage.total_tokens(),
            seconds: usage.millis as f64 / 1000.0,
        }
    }
}

impl LlmView {
    pub fn of(tally: &Tally, waiting: Option<String>) -> Self {
        LlmView {
            roles: tally.roles.iter().map(|(role, usage)| UsageRow::new(role.name(), *usage)).collect(),
            tasks: tally
                .tasks
                .iter()
                .rev()
                .map(|(task, roles)| UsageRow::new(task.as_str(), crate::llm::sum(roles)))
                .collect(),
            cache_hits: tally.cache_hits(),
            waiting,
        }
    }
}

/// Copies one bot's state out: the body's (when connected) and the app's.
pub fn bot(state: &BotState) -> BotView {
    let mut view = BotView { name: state.name.clone(), activity: state.activity.describe(), ..BotView::default() };
    let mut now = Snapshot::default();
    let connected = state.connected();
    if let Some(bot) = &connected {
        let status = bot.status();
        now.inventory = status.items.iter().map(|(item, count)| (item.clone(), i64::from(*count))).collect();
        now.position = [status.position.x, status.position.y, status.position.z];
        view.online = true;
        view.pos = Some(now.position);
        view.dimension = status.dimension;
        view.health = status.health;
        view.food = status.food;
        view.time = status.clock.map(|c| c.describe());
        view.reflex = status.reflex;
        view.items = status.items;
        view.hostiles = status.hostiles.into_iter().map(|(kind, d)| (kind, (d * 10.0).round() / 10.0)).collect();
        view.path = super::map::path(bot);
        if let Some(building) = bot.building() {
            view.activity = format!("{} (building {building})", view.activity);
        }
    }
    let showing = state.activity.showing();
    now.kills = showing.kills;
    let goal = goals::with(&state.goals, |book| book.active().or_else(|| book.goals().last()).cloned());
    if let Some(goal) = goal {
        // The blocks the plan's block trackers look at, so their bars move too.
        if let Some(bot) = &connected {
            let tracked =
                goal.plans.last().into_iter().flat_map(|plan| &plan.tasks).filter_map(|task| task.tracker.as_ref());
            now.blocks = tracked
                .flat_map(|tracker| tracker.positions())
                .filter_map(|[x, y, z]| {
                    let kind = crate::primitives::observe::block_kind(bot, azalea::BlockPos::new(x, y, z))?;
                    Some(([x, y, z], kind.to_string().trim_start_matches("minecraft:").to_owned()))
                })
                .collect();
        }
        view.goal = Some(goal_view(&goal, &now));
    }
    (view.code, view.error, view.changes) = (showing.code, showing.error, showing.changes);
    if let Some(llm) = &state.llm {
        view.llm = LlmView::of(&llm.tally(), llm.waiting());
    }
    if state.team().is_some() {
        view.team = Some(super::super::team::status(state));
    }
    view.learning = state.learning().as_ref().map(|l| format!("{} tasks to go; {}", l.left, l.report.summary()));
    view
}

/// A goal's current plan with a bar per tracked task: completed tasks are full, the others count from what the bot
/// carried when they began (or now, for those not begun); `now`'s kills are the task under way's.
pub fn goal_view(goal: &Goal, now: &Snapshot) -> GoalView {
    let (done, all) = goal.progress();
    // The kills are the task under way's: the other tasks count none of them.
    let without_kills = Snapshot { kills: BTreeMap::new(), ..now.clone() };
    let tasks = goal
        .plans
        .last()
        .map(|plan| {
            plan.tasks
                .iter()
                .map(|task| {
                    let bar = task.tracker.as_ref().map(|tracker| {
                        let start = Snapshot {
                            inventory: task.start.clone().unwrap_or_else(|| now.inventory.clone()),
                            ..without_kills.clone()
                        };
                        let mut progress =
                            tracker.progress(&start, if task.status == Status::Active { now } else { &without_kills });
                        if task.status == Status::Completed {
                            progress.current = progress.target;
                        }
                        Bar::from(progress)
                    });
                    TaskView { task: task.task.clone(), status: task.status.name(), reason: task.reason.clone(), bar }
                })
                .collect()
        })
        .unwrap_or_default();
    GoalView {
        id: goal.id,
        text: goal.text.clone(),
        status: goal.status.name(),
        asked_by: goal.asked_by.clone(),
        done,
        all,
        tasks,
        reason: goal.reason.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{goals::GoalBook, plan::TaskSpec, tracker::Tracker};
    use crate::config::Role;

    fn spec(task: &str, tracker: serde_json::Value) -> TaskSpec {
        TaskSpec {
            task: task.into(),
            context: String::new(),
            tracker: Some(Tracker::from_json(&tracker).unwrap()),
            code: None,
        }
    }

    #[test]
    fn a_plan_shows_a_bar_per_tracked_task() {
        let dir = crate::test_dir("view");
        let (mut book, _) = GoalBook::open(dir.join("goals.json"));
        let id = book.add("craft a wooden pickaxe", "Alice");
        book.set_plan(
            id,
            &[
                spec("Mine 3 oak_log", serde_json::json!({"type": "inventory", "item": "oak_log", "count": 3})),
                spec("Craft 4 stick", serde_json::json!({"type": "craft", "item": "stick", "count": 4})),
                TaskSpec { task: "Look around".into(), context: String::new(), tracker: None, code: None },
            ],
        );
        let carrying = |items: &[(&str, i64)]| Snapshot {
            inventory: items.iter().map(|(i, n)| ((*i).to_owned(), *n)).collect(),
            ..Snapshot::default()
        };
        let (plan, task) = book.active().unwrap().next().unwrap();
        book.begin_task(id, (plan, task), carrying(&[("oak_log", 1)]).inventory);
        let view = goal_view(book.active().unwrap(), &carrying(&[("oak_log", 2), ("stick", 2)]));
        assert_eq!((view.done, view.all, view.status), (0, 3, "active"));
        let bars: Vec<_> = view.tasks.iter().map(|t| t.bar.clone().map(|b| (b.current, b.target, b.percent))).collect();
        // Logs carried count (an inventory tracker); sticks count from what was carried when crafting began (not
        // begun: now), so none are new yet; the untracked task has no bar.
        assert_eq!(bars, vec![Some((2, 3, 66)), Some((0, 4, 0)), None]);
        assert_eq!(view.tasks[0].status, "active");

        // A kill tracker counts the kills of the task under way only.
        let id2 = book.add("hunt", "Alice");
        book.set_plan(id2, &[spec("Kill 3 zombie", serde_json::json!({"type": "kill", "mob": "zombie", "count": 3}))]);
        let hunting = Snapshot { kills: BTreeMap::from([("zombie".to_owned(), 2)]), ..Snapshot::default() };
        let view = goal_view(book.get(id2).unwrap(), &hunting);
        assert_eq!(view.tasks[0].bar.as_ref().map(|b| b.current), Some(0), "not begun: not its kills");
        let first = book.get(id2).unwrap().next().unwrap();
        book.begin_task(id2, first, BTreeMap::new());
        let view = goal_view(book.get(id2).unwrap(), &hunting);
        assert_eq!(view.tasks[0].bar.as_ref().map(|b| (b.current, b.target)), Some((2, 3)));

        book.set_task(id, (plan, task), Status::Completed, None);
        let view = goal_view(book.get(id).unwrap(), &carrying(&[]));
        assert_eq!(
            view.tasks[0].bar.as_ref().map(|b| b.percent),
            Some(100),
            "a completed task is full whatever is carried"
        );
        assert_eq!((view.done, view.all), (1, 3));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn llm_usage_is_per_role_and_latest_task_first() {
        let used = |calls, tokens, millis| Usage { calls, prompt_tokens: tokens, completion_tokens: 0, millis };
        let tally = Tally {
            roles: BTreeMap::from([(Role::Action, used(3, 3000, 4500)), (Role::Critic, used(1, 200, 500))]),
            cached: BTreeMap::from([(Role::Action, 2)]),
            tasks: vec![
                ("get logs".into(), BTreeMap::from([(Role::Action, used(1, 1000, 1000))])),
                (
                    "craft a table".into(),
                    BTreeMap::from([(Role::Action, used(2, 2000, 3500)), (Role::Critic, used(1, 200, 500))]),
                ),
            ],
        };
        let view = LlmView::of(&tally, None);
        assert_eq!(view.roles[0], UsageRow { name: "action".into(), calls: 3, tokens: 3000, seconds: 4.5 });
        assert_eq!(view.tasks[0], UsageRow { name: "craft a table".into(), calls: 3, tokens: 2200, seconds: 4.0 });
        assert_eq!(view.cache_hits, 2);
    }
}
