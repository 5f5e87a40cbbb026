//! The learning agent's parts, in the manner of Voyager: task trackers that judge without an LLM, and turning an
//! LLM reply into a runnable program. (The curriculum, action and critic loop that uses them comes next.)

pub mod act;
pub mod extract;
pub mod prompts;
pub mod task;
pub mod tracker;

pub use extract::{Program, code_blocks, program};
pub use tracker::{Progress, Snapshot, Tracker};
