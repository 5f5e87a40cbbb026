//! `crate::agent`'s pure parsers.

#[path = "../../../src/agent/extract.rs"]
pub mod extract;
#[path = "../../../src/agent/plan.rs"]
pub mod plan;
#[path = "../../../src/agent/tracker.rs"]
pub mod tracker;
