//! Subcommands of the `robotstxt-test` binary.

mod adapters;
mod adapters_check;
mod cases;
mod check;
mod compare;
mod corpus;
mod crawl;
mod diff;
mod error;
mod filter;
mod fuzz;
mod gate;
mod minimize;
mod report;
mod run;
mod select;
mod survey;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use robotstxt_reference::{Profile, UnknownProfile};

pub use error::Error;

/// The exit codes, as `--help` shows them; the README's table says the same.
const EXIT_CODES: &str = "Exit codes: 0 every scored check as expected; 1 failures (or \
    regressions); 2 usage or input error; 3 an adapter unavailable or broken; 4 (with \
    expectations) an unstable answer; 5 the output could not be written; 130 interrupted; 141 \
    standard output closed by its reader.";

/// The exit codes, as `--help` and the README document them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Every scored check came out as expected.
    Ok = 0,
    /// A scored check failed (with expectations: a regression).
    Failures = 1,
    /// A usage or input error: bad arguments, a bad case file, an unreadable file.
    Input = 2,
    /// An adapter was unavailable or broke down.
    Unavailable = 3,
    /// With expectations: no regression, but a check whose answer changed when asked again.
    Unstable = 4,
    /// The output could not be written: reports, expectation files, findings, standard output
    /// (a full disk, a folder that cannot be written). What was there before is left whole.
    Output = 5,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

/// Conformance suite and differential harness for robots.txt parsers.
#[derive(Debug, Parser)]
#[command(
    name = "robotstxt-test",
    about,
    long_about = None,
    after_help = EXIT_CODES,
    disable_version_flag = true,
    arg_required_else_help = true
)]
pub struct Cli {
    /// Print the tool's version, the corpus's suite version and its digest, and the form a
    /// result is cited in. Works after a subcommand too (`run -V`).
    #[arg(short = 'V', long)]
    version: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    Check(check::Args),
    Compare(compare::Args),
    Diff(diff::Args),
    Run(run::Args),
    Crawl(crawl::Args),
    Crawlers(crawl::CrawlersArgs),
    Report(report::Args),
    Adapters(adapters::Args),
    Cases(cases::Args),
    Survey(survey::Args),
    Fuzz(fuzz::Args),
    Minimize(minimize::Args),
}

/// Whether the command line asks for the version: `-V` or `--version` anywhere before a `--`,
/// so that it answers after a subcommand too, before that subcommand's required arguments are
/// missed (`robotstxt-test diff -V`). Under `cases`, `--version` is the release's version
/// (`cases freeze --version 1.2.0`): only `-V` asks there.
pub fn asks_version(args: impl IntoIterator<Item = std::ffi::OsString>) -> bool {
    let args: Vec<std::ffi::OsString> = args.into_iter().skip(1).collect();
    let under_cases = args
        .iter()
        .find(|a| !a.to_string_lossy().starts_with('-'))
        .is_some_and(|a| a == "cases");
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "-V" || (a == "--version" && !under_cases))
}

/// `--version`'s text: the tool, the corpus it carries, and the form a result is cited in, with
/// the score that `run` prints in its place.
pub fn print_version() -> Result<Exit, Error> {
    let id = corpus::embedded_id()?;
    let version = id.version_shown();
    let form = robotstxt_suite::headline::citation_form(
        &version,
        &format!("NN.N% {} (PROFILE)", robotstxt_suite::headline::LABEL),
    );
    error::print_line(&format!(
        "robotstxt-test {} (suite {version}, corpus {})\n\
         cite a result as `run` prints it: {form}",
        env!("CARGO_PKG_VERSION"),
        id.digest
    ))?;
    Ok(Exit::Ok)
}

pub fn execute(cli: Cli) -> Result<Exit, Error> {
    let Some(command) = cli.command else {
        // `arg_required_else_help` leaves only `--version` to get here.
        return print_version();
    };
    match command {
        Command::Check(args) => check::execute(args),
        Command::Compare(args) => compare::execute(args),
        Command::Diff(args) => diff::execute(args),
        Command::Run(args) => run::execute(args),
        Command::Crawl(args) => crawl::execute(args),
        Command::Crawlers(args) => crawl::list(args),
        Command::Report(args) => report::execute(args),
        Command::Adapters(args) => adapters::execute(args),
        Command::Cases(args) => cases::execute(args),
        Command::Survey(args) => survey::execute(args),
        Command::Fuzz(args) => fuzz::execute(args),
        Command::Minimize(args) => minimize::execute(args),
    }
}

/// Parses `--profile` values, listing the known profiles on error.
pub fn parse_profile(name: &str) -> Result<Profile, UnknownProfile> {
    name.parse()
}

/// This run's command line as a person would type it again: the program as `robotstxt-test`, the
/// arguments quoted for a shell. Reports and expectation files name the command that made them.
pub fn invocation() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quoted =
        shlex::try_join(args.iter().map(String::as_str)).unwrap_or_else(|_| args.join(" "));
    format!("robotstxt-test {quoted}")
}

/// A line of progress (an install starting or ending) above `bar` on a terminal, or on stderr
/// when the bar is hidden (stderr is not a terminal): indicatif drops the lines of a hidden bar,
/// and a CI log must show them too. The line names adapters and quotes their setup steps:
/// outside text, shown visibly.
pub fn progress_line(bar: &indicatif::ProgressBar, line: &str) {
    let line = robotstxt_suite::visible::shown(line);
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line.as_ref());
    }
}

#[cfg(test)]
mod tests {
    use super::asks_version;

    fn asks(line: &str) -> bool {
        asks_version(line.split(' ').map(std::ffi::OsString::from))
    }

    #[test]
    fn the_version_is_asked_anywhere_but_as_a_release_version() {
        assert!(asks("robotstxt-test -V"));
        assert!(asks("robotstxt-test --version"));
        assert!(asks("robotstxt-test run --adapter x -V"));
        assert!(asks("robotstxt-test diff --version"));
        assert!(asks("robotstxt-test cases freeze -V"));
        assert!(!asks("robotstxt-test cases freeze --version 1.2.0"));
        assert!(!asks("robotstxt-test run --adapter-cmd x -- -V"));
        assert!(!asks("robotstxt-test run"));
    }
}
