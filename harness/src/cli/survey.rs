//! `robotstxt-test survey`: every adapter over a corpus of real robots.txt files or over WARC
//! files (a census), `survey merge` for shard results, and `survey captures`, the first read of
//! a census on an engine.

use robotstxt_suite::visible::path_shown;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_suite::visible::{shown, shown_line, Outside};
use robotstxt_survey as survey;
use robotstxt_survey::census::{self, captures, census, census_part};
use robotstxt_survey::hosts::read_plan;
use robotstxt_survey::limits::MAX_SURVEY_FILE;
use robotstxt_survey::{merge::merge_named, write, Options, Shard, Survey};

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
///
/// `--warc` takes WARC files instead (a census, as of Common Crawl's `robotstxt/` files): only
/// `response` records count, each host once by its last capture, each distinct 2xx body once,
/// weighted by the hosts that serve it.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    /// A folder of robots.txt files, or a `.tar` or `.tar.xz` archive of them.
    #[arg(
        long,
        value_name = "DIR|ARCHIVE",
        required_unless_present = "warc",
        conflicts_with = "warc"
    )]
    corpus: Option<PathBuf>,
    /// WARC 1.0 or 1.1 files, plain or gzip (a member per record, as Common Crawl writes them).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    warc: Vec<PathBuf>,
    /// With one `--warc` file: its part of a census an engine planned (one JSON line per
    /// capture that is its host's last; `survey/spark/census.py` writes them).
    #[arg(long, value_name = "PLAN", requires = "warc", conflicts_with = "shard")]
    plan: Option<PathBuf>,
    /// The census's name in the reports. Default: the WARC file's name, or "N WARC files".
    #[arg(long, value_name = "NAME", requires = "warc", conflicts_with = "plan")]
    name: Option<String>,
    /// Survey only the files whose content hash is K-1 modulo N (with `--warc`: the bodies whose
    /// SHA-256 hashes so, the hosts serving them, and the other hosts and the files' records by
    /// the hash of their names; every shard reads every file).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Where `survey.json` and `survey.md` go. Default: the checkout's `reports/` inside a
    /// checkout of this repository, else `robotstxt-test-report/` in the current folder.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Probe queries per file.
    #[arg(long, value_name = "N", default_value_t = survey::probes::MAX_QUERIES)]
    max_queries: usize,
    /// Name the sites quoted (`named`), or replace each host name with a stable unsalted hash
    /// (`hidden`: `site-` and 12 hex digits of its SHA-256, which anyone who guesses the name can
    /// recompute). Survey shards by name and hide at the merge.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = Hosts::Named)]
    hosts: Hosts,
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
        /// As for a survey.
        #[arg(long, value_enum, value_name = "HOW", default_value_t = Hosts::Named)]
        hosts: Hosts,
    },
    /// One JSON line per response record of a WARC file (host, time, file, offset, status,
    /// body digest): the first read of a census on an engine, which then keeps each host's last
    /// capture.
    Captures {
        #[arg(long, value_name = "FILE")]
        warc: PathBuf,
        /// Where the lines go. Default: standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// How the written survey names the sites it quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Hosts {
    Named,
    Hidden,
}

/// `survey` as written: with its sites named or hidden.
fn as_written(survey: &Survey, hosts: Hosts) -> std::borrow::Cow<'_, Survey> {
    match hosts {
        Hosts::Named => std::borrow::Cow::Borrowed(survey),
        Hosts::Hidden => {
            let mut hidden = survey.clone();
            survey::naming::hide_hosts(&mut hidden);
            std::borrow::Cow::Owned(hidden)
        }
    }
}

pub fn execute(mut args: Args) -> Result<Exit, Error> {
    if let Some(Action::Merge { files, out, hosts }) = args.action {
        let out = out.unwrap_or_else(corpus::reports_folder);
        // One shard read at a time and added: what a merge holds is the sum so far and one
        // shard, however many shards there are.
        let mut unread = None;
        let surveys = files.iter().map_while(|f| match write::read(f) {
            Ok(survey) => Some((Outside::new(f.display().to_string()), survey)),
            Err(e) => {
                unread = Some(e);
                None
            }
        });
        let merged = merge_named(surveys);
        if let Some(e) = unread {
            return Err(e.into());
        }
        let merged = merged?;
        write::write(&as_written(&merged, hosts), &out)?;
        print(&format!("{}wrote {}\n", summary(&merged), written(&out)))?;
        return Ok(unreadable(&merged).unwrap_or(Exit::Ok));
    }
    if let Some(Action::Captures { warc, out }) = args.action {
        return write_captures(&warc, out.as_deref());
    }
    let out = args.out.take().unwrap_or_else(corpus::reports_folder);
    if !args.select.any() {
        args.select.adapters.push("all".to_owned());
    }
    let mut engines = args.select.open(true)?;
    if engines.is_empty() {
        // `all` left out every adapter this machine cannot run, and that was every one.
        return Err(Error::Adapter("no adapter to survey".to_owned()));
    }
    // On a terminal only: indicatif draws nothing when standard error is not one.
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("valid template"),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    let options = Options {
        shard: args.shard,
        max_queries: args.max_queries,
    };
    let started = Instant::now();
    let answered = std::sync::Mutex::new(vec![0usize; engines.len()]);
    let names: Vec<Outside> = engines.iter().map(|e| e.handshake().name.clone()).collect();
    let progress = |engine: usize, files: usize| {
        let mut answered = answered.lock().unwrap_or_else(|e| e.into_inner());
        answered[engine] = files;
        let (slowest, least) = (answered.iter().enumerate())
            .min_by_key(|(_, n)| **n)
            .map_or((0, 0), |(i, n)| (i, *n));
        let most = answered.iter().copied().max().unwrap_or(0);
        bar.set_message(format!(
            "files answered: {most} by the fastest adapter, {least} by the slowest ({}); each \
             adapter then completes its examples",
            shown_line(names[slowest].raw())
        ));
    };
    let result = match (args.corpus.take(), args.plan.take()) {
        (Some(corpus), _) => {
            survey::survey(&corpus, &mut engines, &options, &progress).map_err(Error::from)
        }
        (None, Some(plan)) => {
            let [warc] = &args.warc[..] else {
                return Err(Error::usage("--plan takes exactly one --warc file"));
            };
            let plan = read_plan(&plan)?;
            census_part(warc, plan, &mut engines, &options, &progress).map_err(Error::from)
        }
        (None, None) => {
            let name = args
                .name
                .take()
                .unwrap_or_else(|| census::default_name(&args.warc));
            census(&args.warc, &name, &mut engines, &options, &progress).map_err(Error::from)
        }
    };
    bar.finish_and_clear();
    let result = result?;
    write::write(&as_written(&result, args.hosts), &out)?;
    print(&summary(&result))?;
    if let Some(peak) = census::peak_memory().filter(|_| result.census.is_some()) {
        eprintln!(
            "peak memory (VmHWM): {:.1} MiB",
            peak as f64 / (1 << 20) as f64
        );
    }
    if !result.oversized.is_empty() {
        let names: Vec<String> = result
            .oversized
            .iter()
            .map(|o| format!("{} ({} bytes)", shown_line(&o.name), o.bytes))
            .collect();
        let more = match result.oversized_unnamed {
            0 => String::new(),
            n => format!(", and {n} more not named"),
        };
        eprintln!(
            "skipped {} file(s) larger than {MAX_SURVEY_FILE} bytes: {}{more}",
            (result.oversized.len() as u64).saturating_add(result.oversized_unnamed),
            names.join(", ")
        );
    }
    print(&format!(
        "surveyed {} files in {:.1} s; wrote {}\n",
        result.files,
        started.elapsed().as_secs_f64(),
        written(&out)
    ))?;
    let mut exit = unreadable(&result).unwrap_or(Exit::Ok);
    for engine in &engines {
        if let Some(why) = engine.unavailable() {
            eprintln!(
                "{}: unavailable or broken: {}",
                engine.handshake().name,
                why
            );
            exit = Exit::Unavailable;
        }
    }
    Ok(exit)
}

/// Names the WARC files a census could not read, on stderr: an input error, once the reports
/// that name them are written.
fn unreadable(survey: &Survey) -> Option<Exit> {
    let census = survey.census.as_ref()?;
    for u in &census.unreadable {
        eprintln!("{}: could not be read: {}", shown(&u.warc), shown(&u.error));
    }
    (!census.unreadable.is_empty()).then_some(Exit::Input)
}

fn write_captures(warc: &std::path::Path, out: Option<&std::path::Path>) -> Result<Exit, Error> {
    let written = match out {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(Error::unwritable(path))?;
            let mut file = std::io::BufWriter::new(file);
            let n = captures(warc, &mut file)?;
            std::io::Write::flush(&mut file).map_err(Error::unwritable(path))?;
            n
        }
        None => {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            let n = captures(warc, &mut stdout)?;
            std::io::Write::flush(&mut stdout).map_err(Error::Stdout)?;
            n
        }
    };
    eprintln!("{}: {written} responses", path_shown(warc));
    Ok(Exit::Ok)
}

fn written(out: &std::path::Path) -> String {
    format!(
        "{}, {}, {} and {}",
        path_shown(&out.join("survey.md")),
        path_shown(&out.join("survey.html")),
        path_shown(&out.join("survey.csv")),
        path_shown(&out.join("survey.json"))
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
