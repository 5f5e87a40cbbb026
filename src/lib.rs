//! Wayfarer: a native Rust Minecraft agent.
//!
//! One process joins a Minecraft Java 26.1 server with one or more bots (azalea), and obeys the commands its owners
//! type in chat. `main.rs` only parses the command line; everything it runs lives here so tests can call it.
//!
//! The modules form one order, each using only those listed before it, and the files side by side in any folder use
//! each other without a circle (a unit test, `layers`, checks both on every run):
//! [`config`], [`chat`], [`files`], [`logging`], [`blueprint`] → [`bot`] (the azalea adapter) → [`script`] (the one Rhai compiler and sandbox) →
//! [`primitives`] (what scripts call) → [`skills`], [`llm`] → [`memory`] (the memory stream), [`store`] (the
//! fleet's shared skill library in PostgreSQL) → [`agent`] (the learning agent) → [`app`] (commands, per-bot state, lifecycles, subcommands, hot reload).

pub(crate) mod agent;
pub mod app;
pub mod blueprint;
pub mod bot;
pub(crate) mod chat;
pub mod config;
pub(crate) mod files;
pub mod llm;
pub mod logging;
pub mod memory;
pub mod primitives;
pub mod script;
pub mod skills;
pub mod store;

#[cfg(test)]
mod layers;
#[cfg(test)]
mod robustness;

/// A folder for one test, removed when it goes out of scope (whether the test passed or not); it derefs to its path.
#[cfg(test)]
pub(crate) struct TestDir(tempfile::TempDir, std::path::PathBuf);

#[cfg(test)]
impl std::ops::Deref for TestDir {
    type Target = std::path::PathBuf;
    fn deref(&self) -> &std::path::PathBuf {
        &self.1
    }
}

#[cfg(test)]
impl AsRef<std::path::Path> for TestDir {
    fn as_ref(&self) -> &std::path::Path {
        self.0.path()
    }
}

#[cfg(test)]
impl From<&TestDir> for std::path::PathBuf {
    fn from(dir: &TestDir) -> Self {
        dir.1.clone()
    }
}

/// A new empty [`TestDir`], named after `tag` so a kept one (`TMPDIR`) says which test made it.
#[cfg(test)]
pub(crate) fn test_dir(tag: &str) -> TestDir {
    let dir = tempfile::Builder::new().prefix(&format!("wayfarer-{tag}-")).tempdir().expect("a temporary folder");
    let path = dir.path().to_owned();
    TestDir(dir, path)
}

/// The crate's folder, for tests that read `skills/`, `prompts/` or `primitives/`. Cargo says where it is when it
/// runs the tests; the path compiled in is only a fallback, because a build cache shared by clones in other places
/// would otherwise point the tests at another (or a deleted) checkout.
#[cfg(test)]
pub(crate) fn crate_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), Into::into)
}
