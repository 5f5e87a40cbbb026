//! The lifelong learning loop: curriculum → action (with the skill library) → tracker or critic → skill, saved to
//! the checkpoint after every task, and LLM calls counted beside what Voyager's loop would have made for the same run.
//!
//! Voyager, per task: one curriculum call (none for its fixed first task), one question for the task's context
//! (none for the first), an action call *and* a critic call per attempt, and a description call on success. Wayfarer:
//! one curriculum call (none for the first or a forced deposit), the context in the same answer, an action call per
//! attempt, a critic call only for tasks without a tracker, and the description written beside the code.

use super::{
    act::{Agent, Shown, TaskOutcome, usage_since},
    checkpoint::{Checkpoint, TaskEvent},
    curriculum,
    tracker::Tracker,
};
use crate::llm::{Role, Usage};

/// Voyager's default run length.
pub const DEFAULT_ITERATIONS: usize = 160;
/// Times in a row the curriculum may answer with nothing usable (each after one correction) before something new of
/// the bot's own takes its place, or learning stops. In two learning runs of the local 1.5B model, a third time gave
/// a usable task once in seven and cost about 40 s each time.
const CURRICULUM_TRIES: usize = 2;

/// What a learning run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LearnReport {
    pub iterations: usize,
    pub completed: usize,
    pub failed: usize,
    pub learned: Vec<String>,
    pub calls: u64,
    pub tokens: u64,
    pub voyager_calls: u64,
}

impl LearnReport {
    /// Adds what `more` did (a later part of the same run, after a reconnect) to this report.
    pub fn absorb(&mut self, more: &LearnReport) {
        self.iterations += more.iterations;
        self.completed += more.completed;
        self.failed += more.failed;
        self.learned.extend(more.learned.iter().cloned());
        self.calls = self.calls.saturating_add(more.calls);
        self.tokens = self.tokens.saturating_add(more.tokens);
        self.voyager_calls += more.voyager_calls;
    }

    /// `3 tasks done, 0 failed; learned 3 skills (mineWoodLog, …) with 6 LLM calls (900 tokens): 2.0 calls per skill,
    /// where Voyager's loop makes 13 (4.3 per skill)`
    pub fn summary(&self) -> String {
        let per = |calls: u64| {
            if self.learned.is_empty() {
                "-".to_owned()
            } else {
                format!("{:.1}", calls as f64 / self.learned.len() as f64)
            }
        };
        format!(
            "{} tasks done, {} failed; learned {} skills{} with {} LLM calls ({} tokens): {} calls per skill, where \
             Voyager's loop makes {} ({} per skill)",
            self.completed,
            self.failed,
            self.learned.len(),
            if self.learned.is_empty() { String::new() } else { format!(" ({})", self.learned.join(", ")) },
            self.calls,
            self.tokens,
            per(self.calls),
            self.voyager_calls,
            per(self.voyager_calls)
        )
    }
}

/// Runs up to `iterations` tasks (or until stopped), saying progress in chat with the team phrases; `after_task` hears
/// the report so far after every task (so a run cut off by a disconnect knows how far it got).
pub async fn learn(
    agent: &Agent,
    checkpoint: &mut Checkpoint,
    iterations: usize,
    after_task: &dyn Fn(&LearnReport),
) -> LearnReport {
    let mut report = LearnReport::default();
    // Why the curriculum's answers in a row could not be used.
    let mut refused: Vec<String> = Vec::new();
    // The skill the last task learned, built on next when a craft needs what it gets.
    let mut just_learned: Option<String> = None;
    while report.iterations < iterations {
        if agent.stop.is_stopped() {
            break;
        }
        agent.memory_work().await;
        let roles_before = agent.llm.usage();
        let first = checkpoint.tasks.completed.is_empty();
        (agent.relabel)("learning: choosing the next task".to_owned());
        agent.llm.begin_task("learning: choosing tasks");
        // A skill just learned that gets a thing a craft needs is built on at once, before the curriculum is asked:
        // the library grows by composing what it learned, as Voyager's does. Shown such a build in every prompt, the
        // local 1.5B proposed other things (in seven prompts of one run), and of 28 half-hour runs 4 reused a skill.
        let built = match just_learned.take() {
            Some(skill) => curriculum::built_task(agent, checkpoint, Some(&skill)).await.map(|built| (skill, built)),
            None => None,
        };
        let next = match built {
            Some((skill, built)) => {
                (agent.say)(&format!("I learned {skill}; I will build on it: {}.", built.task));
                Ok(built)
            }
            None => curriculum::next_task(agent, checkpoint, &refused).await,
        };
        let mut spec = match next {
            Ok(spec) => {
                refused.clear();
                spec
            }
            // An answer that could not be used is followed by a thing to craft that builds on a skill learned in this
            // run, when there is one (the list the curriculum was shown): the library grows by composing what it
            // learned. The local 1.5B, shown "spruce_boat (craftSprucePlanks() gets the spruce_planks)" in four
            // prompts of a run, proposed tasks already done instead, and no learned skill was reused.
            Err(reason)
                if reason.starts_with(curriculum::UNUSABLE)
                    && let Some(built) = curriculum::built_task(agent, checkpoint, None).await =>
            {
                refused.clear();
                (agent.say)(&format!(
                    "The curriculum gave no usable task ({reason}); I will build on a skill I learned: {}.",
                    built.task
                ));
                built
            }
            // Else it is asked for again, told why, a few times; an LLM that cannot be reached (or a run of useless
            // answers) ends learning.
            Err(reason) if reason.starts_with(curriculum::UNUSABLE) && refused.len() + 1 < CURRICULUM_TRIES => {
                (agent.say)(&format!("The curriculum gave no usable task ({reason}); asking again."));
                refused.push(reason.trim_start_matches(curriculum::UNUSABLE).trim_start_matches(": ").to_owned());
                continue;
            }
            // After that, a thing in sight no task has tried is the next task, so an unattended run goes on.
            Err(reason) if reason.starts_with(curriculum::UNUSABLE) => {
                refused.clear();
                match curriculum::untried_task(agent, checkpoint).await {
                    Some(spec) => {
                        (agent.say)(&format!(
                            "The curriculum gave no usable task again; I will try {} instead.",
                            spec.task
                        ));
                        spec
                    }
                    None => {
                        (agent.say)(&format!("I stopped learning because {reason}"));
                        break;
                    }
                }
            }
            Err(reason) => {
                (agent.say)(&format!("I stopped learning because {reason}"));
                break;
            }
        };
        report.iterations += 1;
        // A task the library's skill does by itself runs that skill first, judged by the tracker, with no action
        // call; the LLM writes code only when it falls short. (Without a tracker nothing would judge the run.)
        if spec.code.is_none() && spec.tracker.is_some() {
            let carried = match &spec.tracker {
                Some(Tracker::Craft { item, .. } | Tracker::Inventory { item, .. }) => {
                    crate::primitives::items::carried(&agent.bot).get(item).copied().unwrap_or(0).max(0) as u32
                }
                _ => 0,
            };
            spec.code = curriculum::skill_call(&spec.task, spec.tracker.as_ref(), &agent.skills.list(), carried);
            if let Some(code) = &spec.code {
                tracing::info!("the library's skill does {:?}: running {code}", spec.task);
            }
        }
        (agent.say)(&format!("I will start task: {}", spec.task));
        agent.llm.begin_task(&spec.task);
        // What each run changed in the world goes into the task's event, besides wherever the agent shows it.
        let changed: std::sync::Arc<parking_lot::Mutex<Vec<String>>> = Default::default();
        let watching = {
            let (changed, show) = (changed.clone(), agent.show.clone());
            // `show` is an `Arc` for cheap clones of the agent; the agent and its callbacks stay on one thread.
            #[allow(clippy::arc_with_non_send_sync)]
            let show = std::sync::Arc::new(move |shown: Shown| {
                if let Shown::Changes(text) = &shown {
                    changed.lock().push(text.clone());
                }
                show(shown)
            });
            Agent { show, ..agent.clone() }
        };
        let outcome = watching.attempt_task(&spec).await;
        // This task's calls and tokens per role (the curriculum's included); the rest follows from them.
        let roles: std::collections::BTreeMap<Role, Usage> = agent
            .llm
            .usage()
            .into_iter()
            .map(|(role, now)| (role, usage_since(roles_before.get(&role).copied().unwrap_or_default(), now)))
            .filter(|(_, used)| used.calls > 0)
            .collect();
        let mut used = Usage::default();
        roles.values().for_each(|u| used.add(*u));
        let attempts = roles.get(&Role::Action).map_or(0, |u| u.calls);
        let (name, skill, reason) = match &outcome {
            TaskOutcome::Succeeded { skill, .. } => {
                (agent.say)(&format!("I succeeded in task: {}", spec.task));
                agent.remember_outcome(&spec.task, None);
                checkpoint.tasks.completed.push(spec.task.clone());
                checkpoint.tasks.failed.retain(|t| t != &spec.task);
                report.completed += 1;
                report.learned.extend(skill.clone());
                // Not the fixed first task's: the basics (planks, a table) come before a build on one log.
                just_learned = skill.clone().filter(|_| !first);
                ("succeeded", skill.clone(), String::new())
            }
            TaskOutcome::Failed { reason } => {
                (agent.say)(&format!("I failed task: {} because {reason}", spec.task));
                agent.remember_outcome(&spec.task, Some(reason));
                if !checkpoint.tasks.failed.contains(&spec.task) {
                    checkpoint.tasks.failed.push(spec.task.clone());
                }
                report.failed += 1;
                ("failed", None, reason.clone())
            }
            TaskOutcome::Stopped => ("stopped", None, String::new()),
        };
        let voyager = voyager_calls(first, attempts, matches!(outcome, TaskOutcome::Succeeded { .. }));
        report.calls = report.calls.saturating_add(used.calls);
        report.tokens = report.tokens.saturating_add(used.total_tokens());
        report.voyager_calls += voyager;
        let event = TaskEvent {
            time: crate::skills::utc_now(),
            task: spec.task.clone(),
            outcome: name.to_owned(),
            skill,
            used: match &outcome {
                TaskOutcome::Succeeded { used, .. } => used.clone(),
                _ => Vec::new(),
            },
            reason,
            attempts,
            calls: used.calls,
            tokens: used.total_tokens(),
            voyager_calls: voyager,
            cost: agent.llm.cost(&roles),
            roles,
            changed: std::mem::take(&mut *changed.lock()),
        };
        if let Err(err) = checkpoint.save().and_then(|()| checkpoint.log(&event)) {
            tracing::warn!("the checkpoint in {} was not saved: {err}", checkpoint.dir().display());
        }
        after_task(&report);
        if matches!(outcome, TaskOutcome::Stopped) {
            break;
        }
    }
    tracing::info!("learning run: {}", report.summary());
    report
}

/// What Voyager's loop calls for one task: curriculum and context question (not for its fixed first task), an
/// action and a critic call per attempt, and a description on success.
pub fn voyager_calls(first: bool, attempts: u64, succeeded: bool) -> u64 {
    let curriculum = if first { 0 } else { 2 };
    curriculum + 2 * attempts + u64::from(succeeded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn voyager_counts() {
        assert_eq!(voyager_calls(true, 1, true), 3, "fixed first task: action, critic, description");
        assert_eq!(voyager_calls(false, 2, true), 7, "curriculum, context, 2 × (action, critic), description");
        assert_eq!(voyager_calls(false, 4, false), 10);
    }

    #[test]
    fn summary_reads_well() {
        let report = LearnReport {
            iterations: 3,
            completed: 3,
            failed: 0,
            learned: vec!["a".into(), "b".into(), "c".into()],
            calls: 6,
            tokens: 900,
            voyager_calls: 15,
        };
        assert_eq!(
            report.summary(),
            "3 tasks done, 0 failed; learned 3 skills (a, b, c) with 6 LLM calls (900 tokens): 2.0 calls per skill, \
             where Voyager's loop makes 15 (5.0 per skill)"
        );
    }
}
