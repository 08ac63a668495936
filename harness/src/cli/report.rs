//! `robotstxt-test report`: every adapter over the whole corpus, written as the compatibility
//! reports (the library's `report` module renders and writes them).

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_test::expectations::Expectations;
use robotstxt_test::report::{self, Report};

use super::gate;
use super::run::load_cases;
use super::select::AdapterArgs;
use super::Exit;

/// Run every adapter over the corpus and write the compatibility reports.
///
/// Writes README.md (the matrix), index.html (the interactive matrix), results.json (with
/// SCHEMA.md) and one <adapter>.md per adapter into --out. Without --adapter or --adapter-cmd,
/// runs every adapter in the adapters folder; one that cannot run is shown as "no data" with the
/// reason. Every file is replaced atomically, so a failed run leaves the previous reports intact.
///
/// With --update-expectations, the same run also rewrites every adapter's expectations.yaml
/// (keeping reasons), so one command regenerates everything after a corpus change.
///
/// Exit codes: 0 the reports were written (whatever the parsers did); 2 bad arguments, a bad case
/// file, or the reports could not be written; 3 with --update-expectations, an adapter could not
/// run and its expectation file was left as it was.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the reports.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    out: PathBuf,
    /// A folder of case files; repeat to use several. Default: `cases`.
    #[arg(long = "cases", value_name = "DIR")]
    cases: Vec<PathBuf>,
    /// Also rewrite each adapter's `expectations.yaml` (in its folder) from this run, keeping
    /// the reasons and issues of checks already listed.
    #[arg(long)]
    update_expectations: bool,
    #[command(flatten)]
    select: AdapterArgs,
}

pub fn execute(mut args: Args) -> Result<Exit, String> {
    let cases = load_cases(&args.cases)?;
    if !args.select.any() {
        args.select.adapters.push("all".to_owned());
    }
    // Unavailable adapters are kept: they get a row saying "no data" and why.
    let (engines, files): (Vec<_>, Vec<_>) = args.select.open_with_dirs(false)?.into_iter().unzip();
    let bar = ProgressBar::new((cases.len() * engines.len()) as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} case runs {elapsed}")
            .expect("valid template"),
    );
    let adapters = report::collect(&cases, engines, &|_, _, _| bar.inc(1));
    bar.finish_and_clear();
    let (suite_commit, suite_modified) = report::suite_commit(&args.select.workspace());
    let report = Report {
        suite_commit,
        suite_modified,
        tool_version: env!("CARGO_PKG_VERSION").to_owned(),
        date: report::utc_now(),
        cases,
        adapters,
    };
    let written =
        report::write(&report, &args.out).map_err(|e| format!("cannot write the reports: {e}"))?;
    for adapter in &report.adapters {
        let total = report::matrix::Cell::of(&adapter.claimed);
        let status = match (&adapter.unavailable, adapter.has_data()) {
            (Some(why), false) => format!("no data: {}", why.lines().next().unwrap_or("")),
            (Some(_), true) => format!("{} passed (broke down part way)", total.shown()),
            (None, _) => format!("{} passed", total.shown()),
        };
        eprintln!("{:<24} {status}", adapter.handshake.name);
    }
    eprintln!("wrote {} files into {}", written.len(), args.out.display());
    if !args.update_expectations {
        return Ok(Exit::Ok);
    }
    let mut exit = Exit::Ok;
    for (adapter, file) in report.adapters.iter().zip(&files) {
        let name = &adapter.handshake.name;
        let Some(target) = file.clone() else {
            eprintln!("note: {name} has no adapter folder; no expectation file written");
            continue;
        };
        if adapter.unavailable.is_some() {
            eprintln!("{name}: could not run; {} left as it was", target.display());
            exit = Exit::Unavailable;
            continue;
        }
        let previous = if target.is_file() {
            Some(Expectations::load(&target).map_err(|e| e.to_string())?)
        } else {
            None
        };
        gate::update(
            &target,
            previous.as_ref(),
            name,
            &report.cases,
            &adapter.claimed,
        )?;
    }
    Ok(exit)
}
