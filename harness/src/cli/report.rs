//! `robotstxt-test report`: every adapter over the whole corpus, written as the compatibility
//! reports (the library's `report` module renders and writes them).

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_suite::expectations::{ExpectationFile, Listed};
use robotstxt_suite::reask::CONFIRMING_ROUNDS;
use robotstxt_suite::visible::shown;
use robotstxt_test::report::{self, Report};

use super::corpus;
use super::select::AdapterArgs;
use super::{Error, Exit};

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
/// Exit codes: 0 the reports were written (whatever the parsers did); 2 bad arguments or a bad
/// case file; 3 with --update-expectations, an adapter could not run and its expectation file was
/// left as it was; 5 the reports (or an expectation file) could not be written, and the previous
/// ones are left whole.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to write the reports. Default: the checkout's `reports/` inside a checkout of this
    /// repository, else `robotstxt-test-report/` in the current folder.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// A folder of case files; repeat to use several. Default: the checkout's `cases/`, else the
    /// corpus this binary carries.
    #[arg(long = "cases", value_name = "DIR")]
    cases: Vec<PathBuf>,
    /// Also rewrite each adapter's `expectations.yaml` (in its folder) from this run, keeping
    /// the reasons and issues of checks already listed.
    #[arg(long)]
    update_expectations: bool,
    /// Also keep this report's `results.json` in DIR, named by date and suite version
    /// (`2026-11-26-suite-1.0.0.json`), and chart every report kept there: each parser's score
    /// over time.
    #[arg(long, value_name = "DIR")]
    history: Option<PathBuf>,
    #[command(flatten)]
    select: AdapterArgs,
}

pub fn execute(mut args: Args) -> Result<Exit, Error> {
    let out = args.out.take().unwrap_or_else(corpus::reports_folder);
    let corpus = corpus::load(&args.cases)?;
    let cases = corpus.cases;
    if !args.select.any() {
        args.select.adapters.push("all".to_owned());
    }
    let carried = args.select.uses_carried_suite();
    if args.update_expectations && carried && !args.select.adapters.is_empty() {
        return Err(Error::usage(
            "--update-expectations rewrites the adapters' expectations.yaml: run it in a \
                    checkout of this repository, or name a folder of your own with --adapters DIR",
        ));
    }
    // Unavailable adapters are kept: they get a row saying "no data" and why.
    let (mut engines, mut files, mut abouts) = (Vec::new(), Vec::new(), Vec::new());
    for opened in args.select.open_with_dirs(false)? {
        engines.push(opened.engine);
        files.push(opened.expectations);
        abouts.push(opened.about);
    }
    // The files being replaced: they lend their reasons, and their entries are asked again.
    let previous: Vec<Option<ExpectationFile>> = (files.iter())
        .map(|file| {
            let file = file.as_deref().filter(|f| f.is_file())?;
            ExpectationFile::load(file).ok()
        })
        .collect();
    // Checks an adapter's expectation file lists as unstable are asked again whatever they
    // answer first: one answer cannot show that a varying one no longer varies.
    let known_unstable: Vec<Vec<(String, usize)>> = (previous.iter())
        .map(|file| {
            (file.iter().flat_map(|e| &e.entries))
                .filter(|x| x.outcome == Listed::Unstable)
                .map(|x| (x.check.case.clone(), x.check.index))
                .collect()
        })
        .collect();
    let rounds = if args.update_expectations {
        1 + CONFIRMING_ROUNDS
    } else {
        1
    };
    let bar = ProgressBar::new((rounds * cases.len() * engines.len()) as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} case runs {elapsed}")
            .expect("valid template"),
    );
    let asking = report::Asking {
        known_unstable: &known_unstable,
        update: args.update_expectations.then_some(&previous[..]),
    };
    let mut adapters = report::collect(&cases, engines, asking, &|_, _, _| bar.inc(1));
    bar.finish_and_clear();
    for (adapter, about) in adapters.iter_mut().zip(abouts) {
        adapter.about = about;
    }
    let (suite_commit, suite_modified) = corpus.commit;
    let report = Report {
        suite_commit,
        suite_modified,
        tool_version: env!("CARGO_PKG_VERSION").to_owned(),
        corpus: corpus.id,
        command: super::invocation(),
        date: report::utc_now(),
        cases,
        adapters,
        history: Vec::new(),
    };
    let mut report = report;
    if let Some(folder) = &args.history {
        let results = report::json::document(&report).map_err(Error::Reports)?;
        let kept = report::history::keep(
            folder,
            &report.date,
            &report.corpus.version_shown(),
            &results,
        )?;
        eprintln!("kept {}", kept.display());
        report.history = report::history::read(folder)?;
    }
    let written = report::write(&report, &out).map_err(Error::Reports)?;
    for adapter in &report.adapters {
        let total = report::matrix::Cell::decided(&adapter.claimed);
        let headline = adapter.headline(&report.corpus.version_shown());
        let status = match (&adapter.unavailable, adapter.has_data()) {
            (Some(why), false) => format!("no data: {}", why.first_line()),
            (Some(_), true) => format!(
                "{} decided passed, {} (broke down part way)",
                total.shown(),
                headline.with_suite()
            ),
            (None, _) => format!(
                "{} decided passed, {}",
                total.shown(),
                headline.with_suite()
            ),
        };
        eprintln!("{:<24} {}", adapter.handshake.name, shown(&status));
    }
    eprintln!("wrote {} files into {}", written.len(), out.display());
    if !args.update_expectations {
        return Ok(Exit::Ok);
    }
    let mut exit = Exit::Ok;
    for ((adapter, file), read) in report.adapters.iter().zip(&files).zip(&previous) {
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
        // Read once before the run; a file that could not be read then is read again here, so
        // that its error stops the update instead of the file being replaced.
        let reread;
        let previous = match read {
            Some(file) => Some(file),
            None if target.is_file() => {
                reread = ExpectationFile::load(&target)?;
                Some(&reread)
            }
            None => None,
        };
        super::gate::update(
            &target,
            previous,
            name,
            &report.cases,
            &adapter.claimed,
            &super::gate::Slow::default(),
        )?;
    }
    Ok(exit)
}
