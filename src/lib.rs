//! Wayfarer: a native Rust Minecraft agent.
//!
//! One process joins a Minecraft Java 26.1 server with one or more bots (azalea), and obeys the commands its owners
//! type in chat. `main.rs` only parses the command line; everything it runs lives here so tests can call it.

pub mod agent;
pub mod bot;
pub mod chat;
pub mod cli;
pub mod config;
pub mod llm;
pub mod logging;
pub mod primitives;
pub mod script;
pub mod skills;
pub mod watch;
