//! `!task <goal>`: the LLM splits the goal into small tasks with trackers, and the agent does them in order,
//! saying in chat the fixed phrases leader/worker teams monitor progress by: `I will start task: …`,
//! `I succeeded in task: …`, `I failed task: … because …`.

use super::{
    act::{Agent, TaskOutcome, Unusable, ask_usable, observation, usage_since},
    plan::TaskSpec,
    prompts,
    tracker::{Snapshot, Tracker},
};
use crate::llm::{Message, Role};

/// Plans `goal` and does it, reporting in chat through `agent.say`. Returns whether the goal was reached.
pub async fn run_goal(agent: &Agent, goal: &str) -> bool {
    let before = agent.llm.total_usage();
    let plan = match plan(agent, goal).await {
        Ok(plan) => plan,
        Err(reason) => {
            (agent.say)(&format!("I failed task: {goal} because I could not plan it: {reason}"));
            return false;
        }
    };
    let steps: Vec<&str> = plan.iter().map(|s| s.task.as_str()).collect();
    (agent.say)(&format!("Plan for {goal}: {}.", steps.join("; ")));
    let mut learned = Vec::new();
    for (i, spec) in plan.iter().enumerate() {
        if let Some(tracker) = &spec.tracker
            && tracker.progress(&Snapshot::default(), &agent.snapshot(Some(tracker), &Default::default())).done
            && !matches!(tracker, Tracker::Craft { .. } | Tracker::Kill { .. })
        {
            (agent.say)(&format!("Already done: {}.", spec.task));
            continue;
        }
        (agent.relabel)(format!("{goal}: step {}/{} {}", i + 1, plan.len(), spec.task));
        (agent.say)(&format!("I will start task: {}", spec.task));
        match agent.attempt_task(spec).await {
            TaskOutcome::Succeeded { skill } => {
                (agent.say)(&format!("I succeeded in task: {}", spec.task));
                learned.extend(skill);
            }
            TaskOutcome::Failed { reason } => {
                (agent.say)(&format!("I failed task: {} because {reason}", spec.task));
                (agent.say)(&format!("I failed task: {goal} because step {} ({}) failed", i + 1, spec.task));
                return false;
            }
            TaskOutcome::Stopped => return false,
        }
    }
    let used = usage_since(before, agent.llm.total_usage());
    tracing::info!("goal {goal:?} done with {} LLM calls, {} tokens", used.calls, used.total_tokens());
    let skills = if learned.is_empty() { String::new() } else { format!(" (new skills: {})", learned.join(", ")) };
    (agent.say)(&format!("I succeeded in task: {goal}{skills}"));
    true
}

/// Asks the LLM for the steps; an unusable answer is asked for once more with what was wrong with it.
async fn plan(agent: &Agent, goal: &str) -> Result<Vec<TaskSpec>, String> {
    let prompt = prompts::render("task_decomposition", &[("goal", goal), ("observation", &observation(&agent.bot).await)])
        .map_err(|e| e.to_string())?;
    let correction = |why: &str| format!("That plan cannot be used: {why}. Answer with the JSON array only.");
    ask_usable(&agent.llm, Role::Curriculum, vec![Message::user(prompt)], parse_plan, correction).await.map_err(|err| match err {
        Unusable::Llm(failure) => failure,
        Unusable::Answer(why) => why,
    })
}

pub use super::plan::parse_plan;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_are_validated() {
        let plan = parse_plan(
            "Here:\n[{\"task\": \"Mine 2 oak_log\", \"tracker\": {\"type\": \"inventory\", \"item\": \"oak_log\", \"count\": 2}},\n \
             {\"task\": \"Craft 1 crafting_table\", \"context\": \"from planks\"}]",
        )
        .unwrap();
        assert_eq!(plan.len(), 2);
        assert_eq!(plan[0].tracker, Some(Tracker::Inventory { item: "oak_log".into(), count: 2, exactly: false }));
        assert_eq!((plan[1].context.as_str(), plan[1].tracker.is_none()), ("from planks", true));
        assert!(parse_plan("mine some logs").unwrap_err().contains("no JSON array"));
        assert!(parse_plan("[]").unwrap_err().contains("1 to 12 steps"));
        assert!(parse_plan("[{\"task\": \"x\", \"tracker\": {\"type\": \"fly\"}}]").unwrap_err().contains("x: invalid tracker"));
        assert!(parse_plan("[{\"name\": \"x\"}]").unwrap_err().contains("does not fit (missing field `task`"));
        let remarks = "Steps [in order]:\n[{\"task\": \"Mine 1 oak_log\"}]\n[Done]";
        assert_eq!(parse_plan(remarks).unwrap()[0].task, "Mine 1 oak_log");
        let empty_first = "Inventory: [] so:\n[{\"task\": \"Mine 1 oak_log\"}]";
        assert_eq!(parse_plan(empty_first).unwrap()[0].task, "Mine 1 oak_log", "an empty array before the plan is passed over");
    }
}
