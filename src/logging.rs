//! Logging set-up: `tracing` to stderr, filtered by `RUST_LOG` (default: Wayfarer at info, dependencies at warn).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// The filter used when `RUST_LOG` is unset or empty. azalea's inventory plugin warns about every window update that
/// arrives after the bot closed the window (the server answering the last clicks, as vanilla does too): expected
/// after each craft or furnace visit, so only its errors are shown.
pub const DEFAULT_FILTER: &str = "warn,wayfarer=info,azalea_client::plugins::inventory=error";

/// Installs the global subscriber. Calling it twice is harmless (the second call does nothing).
pub fn init() {
    let filter = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.trim().is_empty() => EnvFilter::new(spec),
        _ => EnvFilter::new(DEFAULT_FILTER),
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
}
