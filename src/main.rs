//! The `wayfarer` binary: parse the command line, set up logging, hand over to the library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = wayfarer::app::cli::Cli::parse();
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
