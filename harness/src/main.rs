//! The `robotstxt-test` command line. Each subcommand lives in its own module under `cli/`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    if let Err(error) = robotstxt_runtime::signals::install() {
        eprintln!("warning: {error}");
    }
    match cli::execute(args) {
        Ok(exit) => exit.into(),
        Err(error) => {
            eprintln!("error: {}", robotstxt_suite::visible::shown(&error));
            cli::Exit::Input.into()
        }
    }
}
