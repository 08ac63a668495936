//! `robotstxt-test fuzz`: differential fuzzing of one adapter, through its persistent process.

use robotstxt_suite::visible::path_shown;
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_fuzzer::case::FindingCase;
use robotstxt_fuzzer::groups::{by_size, Fate, FaultSeen};
use robotstxt_fuzzer::known::Known;
use robotstxt_fuzzer::reduce::DEFAULT_BUDGET;
use robotstxt_fuzzer::session::{fuzz, Event, Settings, Stats};
use robotstxt_reference::lines::raw_lines;
use robotstxt_runtime::atomic::write_atomic;
use robotstxt_runtime::lifecycle::between;
use robotstxt_suite::visible::cut_middle;
use robotstxt_test::limits;

use super::corpus;
use super::error::print;
use super::select::{seconds_in_range, AdapterArgs, Opened};
use super::{Error, Exit};

/// Fuzz one adapter against the reference and write each new disagreement as a case file.
///
/// Documents come from a generator seeded with `--seed`: the first N documents of a seed are the
/// same on every run. Each document goes to the adapter once with all its queries. Every scored
/// disagreement (not on a point the profile leaves open) goes into the group `run` would put it
/// in; the first document of each new group is reduced to a small case and written to `--out` in
/// the corpus format, ready to move into `cases/`, with the count of documents that showed the
/// group. A group the adapter's expectations file lists (`--expectations`, or the file in its
/// folder) counts as known and is not saved, nor is one already in `--out`. Every fault (a
/// document the adapter crashed, timed out or broke the protocol on) is named with its document.
/// Exit code 1 when new findings were written; 3 when the adapter is unavailable or breaks down
/// (the findings saved before that are named); 5 when a finding could not be written.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    select: AdapterArgs,
    /// Seconds to run (default 60 unless --docs is given).
    #[arg(long, value_name = "SECS", value_parser = seconds_in_range)]
    time: Option<f64>,
    /// Documents to run: an exact, repeatable amount of work.
    #[arg(long, value_name = "N")]
    docs: Option<u64>,
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Where findings go. Default: `fuzz/findings/<adapter>`.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The expectation file whose groups are known bugs, not saved again. Default: the
    /// adapter's own (`expectations.yaml` in its folder; for `--adapter-cmd`, in the folder of an
    /// adapter of that name, if there is one).
    #[arg(long, value_name = "FILE")]
    expectations: Option<PathBuf>,
    /// The case corpus, for the checks the expectations file names. Default: `cases`.
    #[arg(long = "cases", value_name = "DIR")]
    cases: Vec<PathBuf>,
    /// Candidates the reducer may try per finding.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET)]
    budget: usize,
}

pub fn execute(args: Args) -> Result<Exit, Error> {
    let time = match (args.time, args.docs) {
        (Some(secs), _) => Some(limits::seconds("--time", secs)?),
        (None, Some(_)) => None,
        (None, None) => Some(Duration::from_secs(60)),
    };
    let mut engines = args.select.open_with_dirs(false)?;
    if engines.len() != 1 {
        return Err(Error::usage(
            "fuzz drives exactly one adapter: give one --adapter or --adapter-cmd",
        ));
    }
    let Opened {
        engine,
        expectations: own_file,
        ..
    } = &mut engines[0];
    let engine = engine.as_mut();
    if let Some(why) = engine.unavailable() {
        eprintln!("{}: unavailable: {}", engine.handshake().name, why);
        return Ok(Exit::Unavailable);
    }
    let name = engine.handshake().name.clone();
    // The name is the adapter's own word: only a slug of it goes into paths.
    let slug = limits::path_slug(name.raw());
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("fuzz/findings").join(&slug));
    let cases = if args.cases.is_empty() {
        vec![corpus::folder(&args.select)?]
    } else {
        args.cases.clone()
    };
    // The adapter's own expectation file; for a bare command, where an adapter of that name
    // keeps it.
    let expectations = match (&args.expectations, own_file.clone()) {
        (Some(file), _) if !file.is_file() => {
            return Err(Error::usage(format!(
                "--expectations {}: no such file",
                path_shown(file)
            )));
        }
        (Some(file), _) => file.clone(),
        (None, Some(file)) => file,
        (None, None) => args
            .select
            .source()?
            .dir
            .join(&slug)
            .join("expectations.yaml"),
    };
    let mut known = Known::load(&expectations, &cases, &out)?;
    let settings = Settings {
        seed: args.seed,
        time,
        docs: args.docs,
        budget: args.budget,
    };
    std::fs::create_dir_all(&out).map_err(Error::unwritable(&out))?;
    let bar = ProgressBar::new_spinner()
        .with_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(120));
    bar.set_message(format!(
        "{name}: reducing the disagreements its expectations file lists, to recognise them"
    ));
    let mut written = Vec::new();
    let mut saved: Vec<(PathBuf, FindingCase)> = Vec::new();
    let mut failed = None;
    let outcome = fuzz(
        engine,
        between(),
        &settings,
        &mut known,
        &mut |event| match event {
            Event::Progress(stats) => bar.set_message(progress(stats)),
            Event::Finding(finding) => {
                let file = out.join(format!("{}.yaml", finding.case.name));
                // Whole or not at all: a cut-off finding would be a bad case file to the next run.
                if let Err(e) = write_atomic(&file, finding.case.to_yaml().as_bytes()) {
                    failed = Some(Error::Write(e));
                }
                say(
                    &bar,
                    format!(
                        "new group: {}\n  saved {} ({} lines, from document {})",
                        finding.group,
                        path_shown(&file),
                        raw_lines(&finding.case.case.body).count(),
                        finding.document
                    ),
                );
                saved.push((file.clone(), finding.case.clone()));
                written.push(file);
            }
            Event::Fault(fault) => say(&bar, fault_line(fault)),
        },
    );
    bar.finish_and_clear();
    // An adapter that broke down ends the run whatever else went wrong.
    let outcome = match (outcome, failed) {
        (Ok(stats), None) => Ok(stats),
        (Err(broke_down), _) => Err(Error::Adapter(broke_down.to_string())),
        (Ok(_), Some(unwritten)) => Err(unwritten),
    };
    let stats = match outcome {
        Ok(stats) => stats,
        Err(error) => {
            // Findings already written stay: say where they are before the error.
            if !written.is_empty() {
                eprintln!("{} finding(s) saved before the error:", written.len());
                for file in &written {
                    eprintln!("  {}", path_shown(file));
                }
            }
            return Err(error);
        }
    };
    // Each saved case says how many documents showed its group, now that the run has counted.
    for (file, case) in &mut saved {
        let group = stats
            .groups
            .iter()
            .find(|(_, t)| matches!(&t.fate, Fate::Saved(n) if *n == case.name));
        if let Some((_, tally)) = group {
            case.note.push_str(&format!(
                " {} of the run's {} documents showed this group.",
                tally.documents, stats.docs
            ));
            write_atomic(file, case.to_yaml().as_bytes()).map_err(Error::Write)?;
        }
    }
    print(&format!(
        "{name}: {}\n{} new finding(s) in {}; reducing took {:.1} s, and {:.1} s before the run for the {} listed disagreement(s)\n",
        progress(&stats),
        written.len(),
        path_shown(&out),
        stats.reducing.as_secs_f64(),
        stats.reducing_listed.as_secs_f64(),
        stats.listed_reduced
    ))?;
    print(&groups_table(&stats))?;
    if stats.faults > 0 {
        print(&format!(
            "{} fault(s): documents {name} gave no answer for (it crashed, timed out or broke the\n\
             protocol), each named above by its number (from 0 under --seed {})\n",
            stats.faults, args.seed
        ))?;
    }
    if !stats.open_by_point.is_empty() {
        let mut points: Vec<_> = stats.open_by_point.iter().collect();
        points.sort_by(|a, b| b.1.cmp(a.1));
        let shown: Vec<String> = points
            .iter()
            .take(8)
            .map(|(p, n)| format!("{p} {n}"))
            .collect();
        print(&format!(
            "open points set aside (most frequent): {}\n",
            shown.join(", ")
        ))?;
    }
    Ok(if written.is_empty() {
        Exit::Ok
    } else {
        Exit::Failures
    })
}

/// A line above the spinner; on stderr when there is no spinner (not a terminal), where the
/// spinner's own lines would be lost.
fn say(bar: &ProgressBar, line: String) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

/// The groups, largest first: how many documents showed each, and what became of it.
fn groups_table(stats: &Stats) -> String {
    if stats.groups.is_empty() {
        return "no scored disagreement\n".to_owned();
    }
    let mut out = format!(
        "{} group(s) of scored disagreements, by documents that showed them:\n",
        stats.groups.len()
    );
    for (cause, tally) in by_size(&stats.groups) {
        let fate = match &tally.fate {
            Fate::Listed => "known: the expectations list it".to_owned(),
            Fate::Earlier => "known: found by an earlier run".to_owned(),
            Fate::Saved(name) => format!("saved: {name}.yaml"),
        };
        out.push_str(&format!(
            "  {:>6}  {cause}\n          {fate}\n",
            tally.documents
        ));
    }
    out
}

/// A fault, on one line: the document, the kind, what went wrong and the end of the adapter's
/// stderr (its last line that is not blank), cut to fit a terminal.
fn fault_line(fault: &FaultSeen) -> String {
    let detail = fault.detail.shown();
    let mut lines = detail.lines().map(str::trim).filter(|l| !l.is_empty());
    let what = lines.next().unwrap_or("no detail");
    let line = match lines.rfind(|l| !l.starts_with("stderr")) {
        Some(end) => format!("{what}; stderr ends: {end}"),
        None => what.to_owned(),
    };
    let head = format!(
        "fault: document {}: {}: ",
        fault.document,
        fault.kind.as_str()
    );
    let room = 120usize.saturating_sub(head.chars().count()).max(40);
    format!("{head}{}", cut_middle(&line, room))
}

fn progress(s: &Stats) -> String {
    let secs = s.elapsed.as_secs_f64().max(1e-9);
    format!(
        "{:.0} s: {} documents ({:.0}/s), {} checks ({:.0}/s), {} findings; {} differing verdicts, {} on open points, {} listed, {} repeats, {} rejected, {} faults",
        secs,
        s.docs,
        s.docs as f64 / secs,
        s.checks,
        s.checks as f64 / secs,
        s.findings,
        s.different,
        s.open,
        s.listed,
        s.known,
        s.rejected,
        s.faults
    )
}
