//! The `robotstxt-test` command line. Each subcommand lives in its own module under `cli/`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::execute(args) {
        Ok(exit) => exit.into(),
        Err(error) => {
            eprintln!("error: {error}");
            cli::Exit::Input.into()
        }
    }
}
