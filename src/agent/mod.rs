//! The learning agent, in the manner of Voyager: an automatic curriculum proposes tasks with machine-checkable
//! trackers, the action agent writes Rhai code with the skill library's help, trackers (or, without one, the LLM
//! critic) judge it, and successes become skills. `!task` runs the same action loop on steps the LLM plans from an
//! owner's goal; a team leader plans a shared goal in stages and judges its members' reports (`team`).

pub mod act;
pub mod building;
pub mod check;
pub mod checkpoint;
pub mod curriculum;
pub mod deeds;
pub mod design;
pub mod diff;
pub mod effect;
pub mod extract;
pub mod focus;
pub mod goals;
pub mod habits;
pub mod learn;
pub mod memory;
pub mod naming;
pub mod plan;
pub mod prompts;
pub mod reading;
pub mod recipes;
pub mod second_reader;
pub mod task;
pub mod team;
mod text;
pub mod tracker;
pub mod translate;
pub mod vocab;
