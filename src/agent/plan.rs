//! Reading what the LLM answers when it plans and judges: a `!task` plan (an array of steps), the curriculum's next
//! task (an object), and the critic's verdict (an object) — each validated into Wayfarer's own types.
//!
//! Pure text in, values or fixable complaints out: no I/O, nothing that can panic on any reply (these parsers are
//! property-tested and fuzzed).

use serde::Deserialize;

use super::{
    extract::{Json, json_first, json_value},
    tracker::Tracker,
};

/// More steps than this is not a plan for one `!task`.
pub const MAX_STEPS: usize = 12;

/// A task as the curriculum or the planner states it.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskSpec {
    /// `Mine 3 oak_log`
    pub task: String,
    /// A hint on how to do it (may be empty).
    pub context: String,
    /// The machine check; `None` leaves judging to the LLM critic.
    pub tracker: Option<Tracker>,
    /// Code that does the task, worked out from the game's facts: run before the LLM is asked to write any.
    pub code: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Step {
    task: String,
    #[serde(default)]
    context: String,
    tracker: Option<serde_json::Value>,
}

/// Why a reply holds no usable plan.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// A plan, but of no steps or of more than [`MAX_STEPS`]: the planner does the goal as one step instead.
    #[error("a plan has 1 to {MAX_STEPS} steps, not {0}")]
    StepCount(usize),
    /// No JSON array of steps, or a step that is not one (said to the model as it is).
    #[error("{0}")]
    Unfit(String),
}

impl From<String> for PlanError {
    fn from(why: String) -> Self {
        PlanError::Unfit(why)
    }
}

/// The JSON array of steps in a reply, validated.
pub fn parse_plan(reply: &str) -> Result<Vec<TaskSpec>, PlanError> {
    json_first(reply, Json::Array, steps)
}

fn steps(steps: Vec<Step>) -> Result<Vec<TaskSpec>, PlanError> {
    if steps.is_empty() || steps.len() > MAX_STEPS {
        return Err(PlanError::StepCount(steps.len()));
    }
    steps
        .into_iter()
        .map(|step| {
            let task = one_line(&step.task);
            if task.is_empty() {
                return Err(PlanError::Unfit("a step has an empty task".to_owned()));
            }
            let tracker =
                step.tracker.map(|t| Tracker::from_json(&t).map_err(|e| format!("{task}: {e}"))).transpose()?;
            Ok(TaskSpec { task, context: step.context, tracker, code: None })
        })
        .collect()
}

/// The critic's verdict.
#[derive(Debug, Deserialize)]
pub struct Verdict {
    #[serde(default)]
    pub reasoning: String,
    pub success: bool,
    #[serde(default)]
    pub critique: String,
}

/// The critic's verdict in a reply.
pub fn parse_verdict(reply: &str) -> Result<Verdict, String> {
    json_value(reply, Json::Object)
}

#[derive(Debug, Deserialize)]
struct Proposal {
    #[serde(default)]
    reasoning: String,
    task: String,
    #[serde(default)]
    context: String,
    tracker: Option<serde_json::Value>,
}

/// The curriculum's proposal in a reply, validated: a task not among `completed`, with a valid tracker if it gave
/// one. Returns the task and the curriculum's reasoning.
pub fn parse_proposal(reply: &str, completed: &[String]) -> Result<(TaskSpec, String), String> {
    json_first(reply, Json::Object, |proposal: Proposal| new_task(proposal, completed))
}

fn new_task(proposal: Proposal, completed: &[String]) -> Result<(TaskSpec, String), String> {
    let task = one_line(&proposal.task);
    if task.is_empty() {
        return Err("the task is empty".to_owned());
    }
    if completed.iter().any(|t| t.eq_ignore_ascii_case(&task)) {
        return Err(format!("\"{task}\" is already completed; propose something new"));
    }
    let tracker = proposal.tracker.map(|t| Tracker::from_json(&t)).transpose()?;
    Ok((TaskSpec { task, context: proposal.context, tracker, code: None }, proposal.reasoning))
}

/// The trackers a plan's steps use: the world verbs' as well as the items'.
const PLAN_TRACKERS: &[&str] =
    &["inventory", "craft", "kill", "placed", "structure", "dug", "standing_on", "location", "container", "given"];
/// The trackers the curriculum's tasks use.
const CURRICULUM_TRACKERS: &[&str] = &["inventory", "craft", "kill", "location", "block", "all", "any"];

/// The JSON schema of a plan: an array of `{"task": …, "tracker": …}`. At the top an array, as the planning prompt
/// shows it (wrapped in an object, the local 1.5B model planned worse: one block a step, a walk to the owner first);
/// an endpoint that takes only objects there (OpenAI) refuses it and is asked for plans in words.
pub fn plan_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "array",
        "minItems": 1,
        "maxItems": MAX_STEPS,
        "items": {
            "type": "object",
            "properties": {"task": {"type": "string"}, "tracker": super::tracker::schema(PLAN_TRACKERS)},
            "required": ["task", "tracker"],
            "additionalProperties": false,
        },
    })
}

/// The longest reasoning, context or critique a schema allows, in characters: a small model bound by the schema
/// otherwise goes on listing what it sees until its token limit cuts the answer off (the local 1.5B curriculum did,
/// twice in a row, and learning stopped).
const WORDS_MAX: usize = 400;

/// The JSON schema of the critic's verdict: its reasoning before its word.
pub fn verdict_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "reasoning": {"type": "string", "maxLength": WORDS_MAX},
            "success": {"type": "boolean"},
            "critique": {"type": "string", "maxLength": WORDS_MAX},
        },
        "required": ["reasoning", "success", "critique"],
        "additionalProperties": false,
    })
}

/// The JSON schema of the curriculum's proposal.
pub fn proposal_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "reasoning": {"type": "string", "maxLength": WORDS_MAX},
            "task": {"type": "string", "maxLength": 120},
            "context": {"type": "string", "maxLength": WORDS_MAX},
            "tracker": super::tracker::schema(CURRICULUM_TRACKERS),
        },
        "required": ["reasoning", "task", "context", "tracker"],
        "additionalProperties": false,
    })
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan reads the same as a bare array and wrapped in an object of steps (as a model may write it in words).
    #[test]
    fn a_plan_reads_as_an_object_of_steps_or_an_array() {
        let step = r#"{"task": "Go stand on gold_block", "tracker": {"type": "standing_on", "block": "gold_block"}}"#;
        let object = parse_plan(&format!(r#"{{"steps": [{step}]}}"#)).unwrap();
        assert_eq!(object, parse_plan(&format!("[{step}]")).unwrap());
        assert_eq!(object[0].tracker, Some(Tracker::StandingOn { block: "gold_block".into(), at: None }));
        let built = r#"{"steps": [{"task": "Build a pillar", "tracker": {"type": "structure", "blocks": [{"x": 0, "y": 0, "z": 0, "block": "dirt"}]}}]}"#;
        assert_eq!(parse_plan(built).unwrap()[0].task, "Build a pillar");
    }

    /// Every tracker the planning prompt shows as an example is one the plan's schema allows.
    #[test]
    fn the_prompts_trackers_are_in_the_schemas() {
        let prompt = include_str!("../../prompts/task_decomposition.md");
        let shown: Vec<&str> = prompt.lines().filter(|l| l.starts_with("{\"type\"")).collect();
        assert!(shown.len() >= 8, "{shown:?}");
        for line in shown {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(PLAN_TRACKERS.contains(&value["type"].as_str().unwrap()), "{line}");
        }
        let curriculum = include_str!("../../prompts/curriculum.md");
        for line in curriculum.lines().filter(|l| l.starts_with("{\"type\"")) {
            let kind = line.split('"').nth(3).unwrap();
            assert!(CURRICULUM_TRACKERS.contains(&kind), "{line}");
        }
        assert_eq!(plan_schema()["type"], "array");
        for schema in [verdict_schema(), proposal_schema()] {
            assert_eq!(schema["type"], "object", "OpenAI's structured answers take an object at the top");
        }
    }
}
