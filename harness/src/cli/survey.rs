//! `robotstxt-test survey`: every adapter over a corpus of real robots.txt files, and
//! `survey merge` for shard results.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_suite::visible::shown;
use robotstxt_test::limits::MAX_SURVEY_FILE;
use robotstxt_test::survey::{self, merge::merge, write, Options, Shard, Survey};

use super::corpus;
use super::error::print;
use super::select::AdapterArgs;
use super::{Error, Exit};

/// Survey real robots.txt files: how often each parser disagrees with the reference, and why.
///
/// Reads every file of `--corpus` (a folder, or a `.tar` / `.tar.xz` of files) as an untrusted
/// robots.txt body, derives probe queries from each file, asks the reference and every adapter
/// (all available ones unless `--adapter` names some), and writes `survey.json` and `survey.md`
/// into `--out`. `--shard K/N` surveys a deterministic 1/N of the files; `survey merge` adds shard
/// results up.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// A folder of robots.txt files, or a `.tar` or `.tar.xz` archive of them.
    #[arg(long, value_name = "DIR|ARCHIVE", required = true)]
    corpus: Option<PathBuf>,
    /// Survey only the files whose content hash is K-1 modulo N.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Where `survey.json` and `survey.md` go. Default: the checkout's `reports/` inside a
    /// checkout of this repository, else `robotstxt-test-report/` in the current folder.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Probe queries per file.
    #[arg(long, value_name = "N", default_value_t = survey::probes::MAX_QUERIES)]
    max_queries: usize,
    #[command(flatten)]
    select: AdapterArgs,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Add shard results (`survey.json` files) up into one survey, written to `--out`.
    Merge {
        #[arg(required = true, value_name = "SURVEY_JSON")]
        files: Vec<PathBuf>,
        /// Default: as for a survey.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

pub fn execute(mut args: Args) -> Result<Exit, Error> {
    if let Some(Action::Merge { files, out }) = args.action {
        let out = out.unwrap_or_else(corpus::reports_folder);
        let surveys = files
            .iter()
            .map(|f| write::read(f))
            .collect::<Result<Vec<_>, _>>()?;
        let merged = merge(surveys)?;
        write::write(&merged, &out)?;
        print(&format!("{}wrote {}\n", summary(&merged), written(&out)))?;
        return Ok(Exit::Ok);
    }
    let corpus = args
        .corpus
        .take()
        .ok_or_else(|| Error::usage("--corpus is required"))?;
    let out = args.out.take().unwrap_or_else(corpus::reports_folder);
    if !args.select.any() {
        args.select.adapters.push("all".to_owned());
    }
    let mut engines = args.select.open(true)?;
    if engines.is_empty() {
        // `all` left out every adapter this machine cannot run, and that was every one.
        return Err(Error::Adapter("no adapter to survey".to_owned()));
    }
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template("{spinner} {pos} answers ({per_sec}) {elapsed}")
            .expect("valid template"),
    );
    let options = Options {
        shard: args.shard,
        max_queries: args.max_queries,
    };
    let started = Instant::now();
    let result = survey::survey(&corpus, &mut engines, &options, &|_, _| bar.inc(1));
    bar.finish_and_clear();
    let result = result?;
    write::write(&result, &out)?;
    print(&summary(&result))?;
    if !result.oversized.is_empty() {
        let names: Vec<String> = result
            .oversized
            .iter()
            .map(|o| format!("{} ({} bytes)", shown(&o.name), o.bytes))
            .collect();
        eprintln!(
            "skipped {} file(s) larger than {MAX_SURVEY_FILE} bytes: {}",
            result.oversized.len(),
            names.join(", ")
        );
    }
    print(&format!(
        "surveyed {} files in {:.1} s; wrote {}\n",
        result.files,
        started.elapsed().as_secs_f64(),
        written(&out)
    ))?;
    let mut exit = Exit::Ok;
    for engine in &engines {
        if let Some(why) = engine.unavailable() {
            eprintln!(
                "{}: unavailable or broken: {}",
                engine.handshake().name,
                shown(why)
            );
            exit = Exit::Unavailable;
        }
    }
    Ok(exit)
}

fn written(out: &std::path::Path) -> String {
    format!(
        "{} and {}",
        out.join("survey.md").display(),
        out.join("survey.json").display()
    )
}

/// A line per adapter: its counts.
fn summary(survey: &Survey) -> String {
    let mut lines = String::new();
    for a in &survey.adapters {
        let _ = writeln!(
            lines,
            "{:<22} of {:>6} files: {:>6} disagree ({} checks), {:>6} on open points ({} checks), \
             {:>6} differ at all; {} errors, {} crashes, {} timeouts, {} causes",
            a.adapter,
            a.files,
            a.disagreements.files,
            a.disagreements.checks,
            a.open_points.files,
            a.open_points.checks,
            a.differing.files,
            a.errors,
            a.crashes,
            a.timeouts,
            a.causes.len()
        );
    }
    lines
}
