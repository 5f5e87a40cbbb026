//! `!task <goal>`: the LLM splits the goal into small tasks with trackers, and the agent does them in order,
//! saying in chat the fixed phrases leader/worker teams monitor progress by: `I will start task: …`,
//! `I succeeded in task: …`, `I failed task: … because …`.

use serde::Deserialize;

use super::{
    act::{Agent, TaskOutcome, TaskSpec, Unusable, ask_usable, observation, usage_since},
    prompts,
    tracker::{Snapshot, Tracker},
};
use crate::llm::{Message, Role};

/// More steps than this is not a plan for one `!task`.
const MAX_STEPS: usize = 12;

#[derive(Debug, Deserialize)]
struct Step {
    task: String,
    #[serde(default)]
    context: String,
    tracker: Option<serde_json::Value>,
}

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
        agent.activity.relabel(format!("{goal}: step {}/{} {}", i + 1, plan.len(), spec.task));
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
    let prompt = prompts::render("task_decomposition", &[("goal", goal), ("observation", &observation(&agent.bot))])
        .map_err(|e| e.to_string())?;
    let correction = |why: &str| format!("That plan cannot be used: {why}. Answer with the JSON array only.");
    ask_usable(&agent.llm, Role::Curriculum, vec![Message::user(prompt)], parse_plan, correction).await.map_err(|err| match err {
        Unusable::Llm(failure) => failure,
        Unusable::Answer(why) => why,
    })
}

/// The JSON array of steps in a reply, validated.
pub fn parse_plan(reply: &str) -> Result<Vec<TaskSpec>, String> {
    let (Some(open), Some(close)) = (reply.find('['), reply.rfind(']')) else {
        return Err("no JSON array in the reply".to_owned());
    };
    if close < open {
        return Err("no JSON array in the reply".to_owned());
    }
    let steps: Vec<Step> = serde_json::from_str(&reply[open..=close]).map_err(|e| format!("invalid JSON ({e})"))?;
    if steps.is_empty() || steps.len() > MAX_STEPS {
        return Err(format!("a plan has 1 to {MAX_STEPS} steps, not {}", steps.len()));
    }
    steps
        .into_iter()
        .map(|step| {
            let task = step.task.split_whitespace().collect::<Vec<_>>().join(" ");
            if task.is_empty() {
                return Err("a step has an empty task".to_owned());
            }
            let tracker = step.tracker.map(|t| Tracker::from_json(&t).map_err(|e| format!("{task}: {e}"))).transpose()?;
            Ok(TaskSpec { task, context: step.context, tracker })
        })
        .collect()
}

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
        assert!(parse_plan("[{\"name\": \"x\"}]").unwrap_err().contains("invalid JSON"));
    }
}
