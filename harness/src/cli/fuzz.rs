//! `robotstxt-test fuzz`: differential fuzzing of one adapter, through its persistent process.

use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_fuzzer::known::Known;
use robotstxt_fuzzer::reduce::DEFAULT_BUDGET;
use robotstxt_fuzzer::session::{fuzz, Event, Settings, Stats};
use robotstxt_reference::lines::raw_lines;
use robotstxt_runtime::atomic::write_atomic;
use robotstxt_runtime::lifecycle::between;
use robotstxt_suite::visible::shown;
use robotstxt_test::limits;

use super::corpus;
use super::error::print;
use super::select::{seconds_in_range, AdapterArgs, Opened};
use super::{Error, Exit};

/// Fuzz one adapter against the reference and write each new disagreement as a case file.
///
/// Documents come from a generator seeded with `--seed`: the first N documents of a seed are the
/// same on every run. Each document goes to the adapter once with all its queries. Every new
/// scored disagreement (not on a point the profile leaves open) is reduced to a small case and
/// written to `--out` in the corpus format, ready to move into `cases/`. Disagreements the
/// adapter's expectations file lists, and findings already in `--out`, are not reported again.
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
        eprintln!("{}: unavailable: {}", shown(&engine.handshake().name), why);
        return Ok(Exit::Unavailable);
    }
    let name = engine.handshake().name.clone();
    // The name is the adapter's own word: only a slug of it goes into paths.
    let slug = limits::path_slug(&name);
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
    let expectations = match own_file.clone() {
        Some(file) => file,
        None => args
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
                bar.println(format!(
                    "{}  {} lines  {}: {}",
                    file.display(),
                    raw_lines(&finding.case.case.body).count(),
                    finding.case.cause,
                    finding.signature
                ));
                written.push(file);
            }
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
                    eprintln!("  {}", file.display());
                }
            }
            return Err(error);
        }
    };
    print(&format!(
        "{name}: {}\n{} new finding(s) in {}; reducing took {:.1} s, and {:.1} s before the run for the {} listed disagreement(s)\n",
        progress(&stats),
        written.len(),
        out.display(),
        stats.reducing.as_secs_f64(),
        stats.reducing_listed.as_secs_f64(),
        stats.listed_reduced
    ))?;
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
