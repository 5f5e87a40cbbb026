//! `crate::skills`' text functions.

#[path = "../../../src/skills/text.rs"]
pub mod text;
