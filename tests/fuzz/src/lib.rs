//! The parsers Wayfarer runs on outside text, compiled straight from the crate's source files (the same files, not
//! copies), in the module layout they expect. Each file here depends only on the others listed and on rhai, serde,
//! toml and regex; a parser that grew a dependency on the bot would stop this harness from building, which is the point.

#![allow(dead_code, unused_imports)]

#[path = "../../../src/config/mod.rs"]
pub mod config;

#[path = "../../../src/chat/mod.rs"]
pub mod chat;

#[path = "../../../src/blueprint/facing.rs"]
mod facing;

#[path = "../../../src/blueprint/share.rs"]
mod share;

/// Only the side a blueprint faces and a member's share of it, which the chat grammar reads (the rest of the module
/// needs azalea).
pub mod blueprint {
    pub use super::facing::Facing;
    pub use super::share::{MAX_SHARES, Share};
}

pub mod agent;
pub mod llm;
pub mod memory;
pub mod primitives;
pub mod script;
pub mod skills;

/// The fuzzer's bytes as text: outside text reaches the parsers as UTF-8 (chat, HTTP bodies and files are decoded
/// first), so invalid bytes are replaced as those decoders do.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}
