//! `robotstxt-test diff OLD [NEW]`: what changed between two runs.

use robotstxt_suite::visible::path_shown;
use std::path::PathBuf;

use robotstxt_suite::expectations::ExpectationFile;
use robotstxt_test::diff::render::{self, Differences, LISTED};
use robotstxt_test::diff::{expected_by, load, ResultsFile, ResultsLoadError};

use super::error::print;
use super::{Error, Exit};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// A few lines per adapter, broken checks first.
    Text,
    /// A table and the checks by cause, to paste into a pull request or a job summary.
    Markdown,
    /// Every moved check, as one JSON document.
    Json,
}

/// What changed between two runs: per adapter, the checks fixed, broken and changed otherwise,
/// grouped by cause as `run` groups them.
///
/// OLD and NEW are results files: what `run --format json` prints, or a report's
/// `results.json`. Adapters are matched by name (two files of one adapter each are matched
/// whatever they are called); `--old-adapter` and `--new-adapter` pick two, which may be two
/// adapters of one report (NEW then defaults to OLD). Checks in one file only are counted as new
/// in the suite or removed, and a check that asks or scores something else in the other file is
/// not compared; neither is a change in behaviour.
///
/// OLD may also be an adapter's expectation file (`expectations.yaml`): the run it expects,
/// every check passing but those it lists. NEW is then a run of that adapter, and the diff is
/// the gate's judgement: broken checks are regressions, fixed ones entries to remove.
///
/// Exit codes: 0 nothing broke; 1 a check broke (passed in OLD, not in NEW); 2 bad input.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The earlier results file.
    old: PathBuf,
    /// The later results file (default: OLD, to compare two of its adapters).
    new: Option<PathBuf>,
    /// The adapter of OLD to compare (with --new-adapter).
    #[arg(long, value_name = "NAME", requires = "new_adapter")]
    old_adapter: Option<String>,
    /// The adapter of NEW to compare (with --old-adapter).
    #[arg(long, value_name = "NAME", requires = "old_adapter")]
    new_adapter: Option<String>,
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    format: DiffFormat,
    /// List every changed check; without it, each group lists its first 8 and says how many
    /// more there are.
    #[arg(long)]
    all: bool,
    /// With --format markdown: link each check id to its cell in the report page at PAGE (a
    /// report's `index.html`, by a relative path or a whole URL), `PAGE#adapter=NAME&check=ID`.
    #[arg(long, value_name = "PAGE")]
    link: Option<String>,
}

pub fn execute(args: Args) -> Result<Exit, Error> {
    let is_yaml = args
        .old
        .extension()
        .is_some_and(|e| e == "yaml" || e == "yml");
    if is_yaml {
        return against_expectations(&args);
    }
    let old = load(&args.old).map_err(input)?;
    let new = match &args.new {
        Some(path) => load(path).map_err(input)?,
        None if args.old_adapter.is_some() => old.clone(),
        None => {
            return Err(Error::Usage(
                "diff needs two results files, or one with --old-adapter and --new-adapter"
                    .to_owned(),
            ))
        }
    };
    let pair = args.old_adapter.as_deref().zip(args.new_adapter.as_deref());
    if let Some((a, b)) = pair {
        for (file, name) in [(&old, a), (&new, b)] {
            if file.adapter(name).is_none() {
                let names: Vec<String> = file.adapters.iter().map(|a| a.name.to_string()).collect();
                return Err(Error::Usage(format!(
                    "{}: no adapter `{name}`; it has: {}",
                    path_shown(&file.path),
                    names.join(", ")
                )));
            }
        }
    }
    let comparison = Differences::of(&old, &new, pair);
    show(&args, &comparison)
}

/// `diff expectations.yaml run.json`: the run the file expects against the run.
fn against_expectations(args: &Args) -> Result<Exit, Error> {
    let file = ExpectationFile::load(&args.old)?;
    let Some(path) = &args.new else {
        return Err(Error::Usage(
            "diff EXPECTATIONS RUN: name the results file of a run to compare with the \
             expectation file"
                .to_owned(),
        ));
    };
    let new = load(path).map_err(input)?;
    let only = match new.adapters.as_slice() {
        [only] => Some(only),
        _ => None,
    };
    let Some(actual) = new.adapter(&file.adapter).or(only) else {
        return Err(Error::Usage(format!(
            "{}: no adapter `{}`, the expectation file's",
            path_shown(path),
            file.adapter
        )));
    };
    let old = ResultsFile {
        path: args.old.clone(),
        suite_version: new.suite_version.clone(),
        corpus_digest: new.corpus_digest.clone(),
        date: None,
        adapters: vec![expected_by(&file, actual)],
    };
    let new = ResultsFile {
        adapters: vec![actual.clone()],
        ..new
    };
    show(args, &Differences::of(&old, &new, None))
}

fn show(args: &Args, comparison: &Differences) -> Result<Exit, Error> {
    let listed = if args.all { usize::MAX } else { LISTED };
    print(&match args.format {
        // Every line fits a terminal of 120 columns.
        DiffFormat::Text => {
            robotstxt_test::output::fit::block(&render::text_listing(comparison, listed), None)
        }
        DiffFormat::Markdown => render::markdown_listing(comparison, listed, args.link.as_deref()),
        DiffFormat::Json => render::json(comparison),
    })?;
    Ok(if comparison.broke() {
        Exit::Failures
    } else {
        Exit::Ok
    })
}

fn input(error: ResultsLoadError) -> Error {
    Error::Usage(error.to_string())
}
