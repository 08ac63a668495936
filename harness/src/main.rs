//! The `robotstxt-test` command line. Each subcommand lives in its own module under `cli/`.

#![forbid(unsafe_code)]

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    if cli::asks_version(std::env::args_os()) {
        return match cli::print_version() {
            Ok(exit) => exit.into(),
            Err(error) => ExitCode::from(error.exit_code()),
        };
    }
    let args = cli::Cli::parse();
    if let Err(error) = robotstxt_runtime::signals::install() {
        eprintln!("warning: {error}");
    }
    match cli::execute(args) {
        Ok(exit) => exit.into(),
        // The reader of standard output has gone: nothing to say, and nowhere to say it.
        Err(error) if error.is_closed_stdout() => ExitCode::from(error.exit_code()),
        Err(error) => {
            eprintln!(
                "error: {}",
                robotstxt_suite::visible::shown(&error.to_string())
            );
            ExitCode::from(error.exit_code())
        }
    }
}
