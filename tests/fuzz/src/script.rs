//! `crate::script` as the parsers see it: the one compiler.

#[path = "../../../src/script/engine.rs"]
mod engine;
pub use engine::*;
