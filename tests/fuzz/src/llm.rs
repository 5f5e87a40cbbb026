//! `crate::llm`'s wire format.

#[path = "../../../src/llm/wire.rs"]
pub mod wire;
