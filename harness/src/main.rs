//! The `robotstxt-test` command line. Each subcommand lives in its own module under `cli/`.

#![forbid(unsafe_code)]

mod cli;

use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    if cli::asks_version(std::env::args_os()) {
        return match cli::print_version() {
            Ok(exit) => exit.into(),
            Err(error) => ExitCode::from(error.exit_code()),
        };
    }
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        // Help, fitted to 120 columns as everything a terminal shows.
        Err(error)
            if matches!(
                error.kind(),
                clap::error::ErrorKind::DisplayHelp
                    | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            let text = robotstxt_test::output::fit::help(&error.render().to_string());
            let code = if error.use_stderr() {
                eprint!("{text}");
                2
            } else {
                print!("{text}");
                0
            };
            return ExitCode::from(code);
        }
        Err(error) => error.exit(),
    };
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
