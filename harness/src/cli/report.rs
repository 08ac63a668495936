//! `robotstxt-test report`: every adapter over the whole corpus, written as the compatibility
//! reports (the library's `report` module renders and writes them).

use robotstxt_suite::visible::path_shown;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_suite::expectations::{ExpectationFile, Listed};
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
/// A report of every adapter also runs every carried crawler that can run here over the access
/// cases, beside the adapters: a section in README.md and index.html, crawlers.md, a page per
/// crawler under crawlers/ (every failure with the site's request log), crawl-results.json, and
/// the crawlers in results.json.
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
    /// Keep this report's `results.json` in DIR, named by date and suite version
    /// (`2026-11-26-suite-1.0.0.json`), and chart every report kept there: each parser's score
    /// over time. Default: `history/` inside the reports folder.
    #[arg(long, value_name = "DIR", conflicts_with = "no_history")]
    history: Option<PathBuf>,
    /// Keep no history: the pages show this report alone.
    #[arg(long)]
    no_history: bool,
    /// The carried crawler to run over the access cases (`robotstxt-test crawlers` lists them),
    /// or `all`; repeatable. Default: every carried crawler that can run here, when the report
    /// is of every adapter (no --adapter, no --adapter-cmd). They run side by side with the
    /// adapters.
    #[arg(long = "crawler", value_name = "NAME", conflicts_with = "no_crawlers")]
    crawlers: Vec<String>,
    /// Leave the crawlers out.
    #[arg(long)]
    no_crawlers: bool,
    /// The folder of carried crawlers. Default: the checkout's `crawlers/`, else the crawlers
    /// this binary carries.
    #[arg(long = "crawlers", value_name = "DIR")]
    crawlers_dir: Option<PathBuf>,
    #[command(flatten)]
    select: AdapterArgs,
}

pub fn execute(mut args: Args) -> Result<Exit, Error> {
    let out = args.out.take().unwrap_or_else(corpus::reports_folder);
    let corpus = corpus::load(&args.cases)?;
    let cases = corpus.cases;
    let whole = !args.select.any();
    if whole {
        args.select.adapters.push("all".to_owned());
    }
    let crawl = (!args.no_crawlers && (whole || !args.crawlers.is_empty())).then(|| {
        robotstxt_crawl::app::GatherOptions {
            crawlers: args.crawlers.clone(),
            crawlers_dir: args.crawlers_dir.clone(),
            cache_dir: args.select.cache_dir.clone(),
            bounds: robotstxt_crawl::session::CaseBounds::default(),
            jobs: robotstxt_crawl::app::REPORT_JOBS,
        }
    });
    // A bad crawler manifest or access case is an error now, not after the adapters ran.
    if let Some(options) = &crawl {
        robotstxt_crawl::app::load_cases(&[])?;
        robotstxt_crawl::app::carried(
            options.crawlers_dir.as_deref(),
            options.cache_dir.as_deref(),
        )?;
    }
    let carried = args.select.uses_carried_suite();
    if args.update_expectations && carried && !args.select.adapters.is_empty() {
        return Err(Error::usage(
            "--update-expectations rewrites the adapters' expectations.yaml: run it in a \
                    checkout of this repository, or name a folder of your own with --adapters DIR",
        ));
    }
    // Before any adapter runs: a history folder that cannot be kept fails now, not after the run.
    if let Some(folder) = &args.history {
        report::history::check(folder)?;
    }
    // Unavailable adapters are kept: they get a row saying "no data" and why.
    let (mut engines, mut files, mut abouts) = (Vec::new(), Vec::new(), Vec::new());
    for opened in args.select.open_with_dirs(false)? {
        engines.push(opened.engine);
        files.push(opened.expectations);
        abouts.push(opened.about);
    }
    // The reference implements every profile; its adapter answers under one. A row per other
    // profile puts it in each profile's ranking at what it scores there.
    for (at, engine) in report::reference::other_profiles(&engines) {
        engines.push(engine);
        files.push(None);
        abouts.push(abouts[at].clone());
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
    let listed_as = |outcomes: &[Listed]| -> Vec<Vec<(String, usize)>> {
        (previous.iter())
            .map(|file| {
                (file.iter().flat_map(|e| &e.entries))
                    .filter(|x| outcomes.contains(&x.outcome))
                    .map(|x| (x.check.case.clone(), x.check.index))
                    .collect()
            })
            .collect()
    };
    let known_unstable = listed_as(&[Listed::Unstable]);
    // Checks listed as giving no answer (a timeout, or a crash once waited on long enough) are
    // asked again once, not twice: see `patient_timeouts_for_report`.
    let known_timeouts = listed_as(&[Listed::Timeout, Listed::Crash]);
    // On a terminal, what the run is doing and how far it is; nothing when stderr is not one.
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template("{msg}: {bar:30} {pos}/{len} {elapsed}")
            .expect("valid template"),
    );
    let asking = report::Asking {
        known_unstable: &known_unstable,
        known_timeouts: &known_timeouts,
        update: args.update_expectations.then_some(&previous[..]),
    };
    // The crawlers mostly wait (on stalls, on their timeouts): they run beside the adapters.
    let crawling = crawl.map(|options| {
        let bar = bar.clone();
        std::thread::spawn(move || {
            robotstxt_crawl::app::gather(&options, &|line| {
                // A hidden bar (stderr not a terminal) drops what it is given to print.
                if bar.is_hidden() {
                    eprintln!("{}", shown(line));
                } else {
                    bar.println(shown(line));
                }
            })
        })
    });
    let mut adapters = report::collect(&cases, engines, asking, &|progress| match progress {
        report::Progress::Phase(phase, steps) => {
            // Counts first, so that no frame shows the last phase's count against this one's.
            bar.set_position(0);
            bar.set_length(steps as u64);
            bar.set_message(phase.doing());
        }
        report::Progress::Step => bar.inc(1),
    });
    bar.finish_and_clear();
    let crawl = match crawling {
        Some(thread) => {
            if !thread.is_finished() {
                eprintln!("adapters done; waiting for the crawlers");
            }
            let crawl = thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            eprintln!(
                "crawlers: {} run, {} not run here, {:.1} s",
                crawl.runs.len(),
                crawl.unavailable.len(),
                crawl.seconds
            );
            Some(crawl)
        }
        None => None,
    };
    for (adapter, about) in adapters.iter_mut().zip(abouts) {
        adapter.about = about;
    }
    let (suite_commit, suite_modified) = corpus.commit;
    let report = Report {
        suite_commit,
        suite_modified,
        tool_version: env!("CARGO_PKG_VERSION").to_owned(),
        corpus: corpus.id,
        command: published_command(std::env::args().skip(1)),
        date: report::utc_now(),
        cases,
        adapters,
        crawl,
        history: Vec::new(),
    };
    let mut report = report;
    let history = match (args.no_history, args.history.take()) {
        (true, _) => None,
        (false, Some(folder)) => Some(folder),
        (false, None) => Some(out.join("history")),
    };
    // The reports kept so far, and this one as it will be kept: charted now, but written into
    // the history only once the reports are, so that a report that cannot be written leaves
    // nothing behind.
    let version = report.corpus.version_shown();
    if let Some(folder) = &history {
        let name = report::history::file_name(&report.date, &version);
        let mut kept = if folder.is_dir() {
            report::history::read(folder)?
        } else {
            Vec::new()
        };
        kept.retain(|file| file.path.file_name() != name.as_deref().map(std::ffi::OsStr::new));
        kept.push(robotstxt_test::diff::ResultsFile {
            path: folder.join(name.unwrap_or_default()),
            suite_version: Some(version.as_str().into()),
            corpus_digest: Some(report.corpus.digest.as_str().into()),
            date: Some(report.date.as_str().into()),
            adapters: (report.adapters.iter())
                .map(|run| report::versions::results_of(&report, run))
                .collect(),
        });
        report.history = kept;
    }
    bar.set_style(ProgressStyle::with_template("{msg} {elapsed}").expect("valid template"));
    bar.set_message("writing the reports");
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let written = report::write(&report, &out).map_err(Error::Reports);
    bar.finish_and_clear();
    let written = written?;
    if let Some(folder) = &history {
        let results = report::json::document(&report).map_err(Error::Reports)?;
        let kept = report::history::keep(folder, &report.date, &version, &results)?;
        eprintln!("kept {}", path_shown(&kept));
    }
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
    eprintln!("wrote {} files into {}", written.len(), path_shown(&out));
    if !args.update_expectations {
        return Ok(Exit::Ok);
    }
    let mut exit = Exit::Ok;
    for ((adapter, file), read) in report.adapters.iter().zip(&files).zip(&previous) {
        let name = &adapter.handshake.name;
        let Some(target) = file.clone() else {
            if adapter.handshake.parser == report::reference::PARSER {
                continue;
            }
            eprintln!("note: {name} has no adapter folder; no expectation file written");
            continue;
        };
        if adapter.unavailable.is_some() {
            eprintln!(
                "{name}: could not run; {} left as it was",
                path_shown(&target)
            );
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
            adapter.handshake.name.raw(),
            &report.cases,
            &adapter.claimed,
            &super::gate::Slow::default(),
        )?;
    }
    Ok(exit)
}

/// The command that made a report, as its pages show it: without the options that only say
/// where files go (`--out`, `--history`, `--cache-dir`), and with every other absolute path cut
/// to its last part, so that no page names a folder of the publisher's machine.
fn published_command(args: impl IntoIterator<Item = String>) -> String {
    const PLACES: &[&str] = &["--out", "--history", "--cache-dir"];
    let mut shown: Vec<String> = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if PLACES.contains(&arg.as_str()) {
            args.next();
            continue;
        }
        if PLACES.iter().any(|p| arg.starts_with(&format!("{p}="))) {
            continue;
        }
        shown.push(match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => format!("{flag}={}", no_paths(value)),
            _ => no_paths(&arg),
        });
    }
    let quoted =
        shlex::try_join(shown.iter().map(String::as_str)).unwrap_or_else(|_| shown.join(" "));
    format!("robotstxt-test {quoted}")
}

/// `text` (an argument, or a command given as one) with each absolute path cut to its file
/// name: `python3 /home/me/adapter.py` is `python3 adapter.py`.
fn no_paths(text: &str) -> String {
    let Some(words) = shlex::split(text) else {
        return text.to_owned();
    };
    let cut = |word: &str| -> String {
        if !word.starts_with('/') && !word.starts_with('~') {
            return word.to_owned();
        }
        let name = std::path::Path::new(word.trim_end_matches('/')).file_name();
        name.map_or_else(|| word.to_owned(), |n| n.to_string_lossy().into_owned())
    };
    if words.len() == 1 {
        return cut(&words[0]);
    }
    let words: Vec<String> = words.iter().map(|w| cut(w)).collect();
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::published_command;

    fn shown(args: &[&str]) -> String {
        published_command(args.iter().map(|a| (*a).to_owned()))
    }

    #[test]
    fn the_published_command_names_no_local_folder() {
        assert_eq!(
            shown(&[
                "report",
                "--out",
                "/tmp/mine",
                "--history=/tmp/h",
                "--adapter",
                "all"
            ]),
            "robotstxt-test report --adapter all"
        );
        assert_eq!(
            shown(&[
                "report",
                "--adapter-cmd",
                "python3 /home/me/adapter.py",
                "--cases",
                "/srv/c/"
            ]),
            "robotstxt-test report --adapter-cmd 'python3 adapter.py' --cases c"
        );
        assert_eq!(
            shown(&[
                "report",
                "--cache-dir",
                "/x",
                "--update-expectations",
                "--no-history"
            ]),
            "robotstxt-test report --update-expectations --no-history"
        );
    }
}
