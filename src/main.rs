//! The `wayfarer` binary: parse the command line, set up logging, hand over to the library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = wayfarer::app::cli::Cli::parse();
    if cli.command.prints_and_ends() {
        quiet_when_the_reader_goes();
    }
    wayfarer::logging::init();
    match wayfarer::app::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // One line a user can act on; the chain carries the context.
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// Ends the process quietly when what it prints to goes away (`wayfarer blueprint … | head -1`), as command-line
/// tools do: the signal's default action, which Rust's runtime sets aside (a write then fails, and `println!`
/// panics). Only for the commands that print and end: a bot's own connections keep the runtime's handling.
fn quiet_when_the_reader_goes() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to its default, before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
