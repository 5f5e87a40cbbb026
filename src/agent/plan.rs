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

/// The JSON array of steps in a reply, validated.
pub fn parse_plan(reply: &str) -> Result<Vec<TaskSpec>, String> {
    json_first(reply, Json::Array, steps)
}

fn steps(steps: Vec<Step>) -> Result<Vec<TaskSpec>, String> {
    if steps.is_empty() || steps.len() > MAX_STEPS {
        return Err(format!("a plan has 1 to {MAX_STEPS} steps, not {}", steps.len()));
    }
    steps
        .into_iter()
        .map(|step| {
            let task = one_line(&step.task);
            if task.is_empty() {
                return Err("a step has an empty task".to_owned());
            }
            let tracker = step.tracker.map(|t| Tracker::from_json(&t).map_err(|e| format!("{task}: {e}"))).transpose()?;
            Ok(TaskSpec { task, context: step.context, tracker, code: None })
        })
        .collect()
}

/// Makes an LLM's plan say what it means: each step whose text reads `Verb N item` gets a tracker that counts
/// that item and number (a craft rounded up to what its recipe makes: `Craft 1 stick` → `Craft 4 stick`), and
/// identical steps in a row become one (`Mine 1 oak_log; Mine 1 oak_log` → `Mine 2 oak_log`).
pub fn tidy(steps: Vec<TaskSpec>) -> Vec<TaskSpec> {
    let mut tidied: Vec<(TaskSpec, Option<(String, u32, String)>)> = Vec::new();
    for step in steps {
        let read = read_step(&step.task);
        if let (Some((verb, n, item)), Some((last, Some((last_verb, last_n, last_item))))) = (&read, tidied.last_mut())
            && verb == last_verb
            && item == last_item
        {
            // One step for both: it counts what both steps make.
            last.tracker = None;
            *last = agreeing(last, verb, last_n.saturating_add(*n), item);
            *last_n = last_n.saturating_add(*n);
            continue;
        }
        let step = match &read {
            Some((verb, n, item)) => agreeing(&step, verb, *n, item),
            None => step,
        };
        tidied.push((step, read));
    }
    tidied.into_iter().map(|(step, _)| step).collect()
}

/// `Mine 2 oak_log` → (`mine`, 2, `oak_log`), when the item is one the game has.
fn read_step(task: &str) -> Option<(String, u32, String)> {
    let mut words = task.split_whitespace();
    let verb = words.next()?.to_lowercase();
    if !["mine", "craft", "smelt", "kill", "collect", "get", "obtain", "gather"].contains(&verb.as_str()) {
        return None;
    }
    let n: u32 = words.next()?.parse().ok().filter(|n| *n > 0)?;
    let item = words.next()?.trim_end_matches(['.', ',']).to_lowercase();
    if words.next().is_some() || !item.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
        return None;
    }
    let facts = crate::primitives::facts::facts();
    let known = facts.crafting.contains_key(&item)
        || facts.smelting.contains_key(&item)
        || facts.smelting.values().any(|out| *out == item)
        || <azalea::registry::builtin::BlockKind as std::str::FromStr>::from_str(&item).is_ok()
        || <azalea::registry::builtin::EntityKind as std::str::FromStr>::from_str(&item).is_ok();
    known.then_some((verb, n, item))
}

/// `step` with its text and tracker agreeing on `n` of `item`. An inventory tracker is kept as it is (it counts
/// what is carried in all, which may rightly exceed what the step adds).
fn agreeing(step: &TaskSpec, verb: &str, n: u32, item: &str) -> TaskSpec {
    if matches!(step.tracker, Some(Tracker::Inventory { .. }) | Some(Tracker::All { .. }) | Some(Tracker::Any { .. })) {
        return step.clone();
    }
    use crate::primitives::facts;
    let facts = facts::facts();
    let (task, tracker) = match verb {
        "craft" => {
            let per = facts.crafting.get(item).and_then(|r| r.first()).map_or(1, |r| r.count().max(1));
            let made = n.div_ceil(per) * per;
            (format!("Craft {made} {item}"), Tracker::Craft { item: item.to_owned(), count: made })
        }
        "smelt" => {
            // "Smelt 3 raw_iron" counts the ingots; "Smelt 3 iron_ingot" too.
            let output = facts.smelting.get(item).cloned().unwrap_or_else(|| item.to_owned());
            (format!("Smelt {n} {item}"), Tracker::Craft { item: output, count: n })
        }
        "kill" => (format!("Kill {n} {item}"), Tracker::Kill { mob: item.to_owned(), count: n }),
        _ => {
            let drop = facts::drops_of(item).into_iter().next().unwrap_or_else(|| item.to_owned());
            let verb = if verb == "mine" { "Mine" } else { "Get" };
            (format!("{verb} {n} {item}"), Tracker::Craft { item: drop, count: n })
        }
    };
    TaskSpec { task, context: step.context.clone(), tracker: Some(tracker), code: step.code.clone() }
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

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
