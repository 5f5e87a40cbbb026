//! `crate::memory`'s reading of the LLM's answers.

#[path = "../../../src/memory/answers.rs"]
pub mod answers;
