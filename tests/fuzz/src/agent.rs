//! `crate::agent`'s pure parsers.

#[path = "../../../src/agent/check.rs"]
pub mod check;
#[path = "../../../src/agent/extract.rs"]
pub mod extract;
#[path = "../../../src/agent/habits.rs"]
pub mod habits;
#[path = "../../../src/agent/prompts.rs"]
pub mod prompts;
#[path = "../../../src/agent/plan.rs"]
pub mod plan;
#[path = "../../../src/agent/tracker.rs"]
pub mod tracker;
