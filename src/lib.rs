//! Wayfarer: a native Rust Minecraft agent.
//!
//! One process joins a Minecraft Java 26.1 server with one or more bots (azalea), and obeys the commands its owners
//! type in chat. `main.rs` only parses the command line; everything it runs lives here so tests can call it.
//!
//! The modules form one order, each using only those listed before it (no import cycles):
//! [`config`], [`chat`] → [`bot`] (the azalea adapter) → [`script`] (the one Rhai compiler and sandbox) →
//! [`primitives`] (what scripts call) → [`skills`], [`llm`] → [`agent`] (the learning agent) → [`app`] (commands,
//! per-bot state, lifecycles, subcommands, hot reload).

pub mod agent;
pub mod app;
pub mod bot;
pub mod chat;
pub mod config;
pub mod llm;
pub mod logging;
pub mod primitives;
pub mod script;
pub mod skills;

#[cfg(test)]
mod robustness;
