//! `robotstxt-test diff OLD [NEW]`: what changed between two runs.

use std::path::PathBuf;

use robotstxt_test::diff::render::{self, Comparison};
use robotstxt_test::diff::{load, LoadError};

use super::error::print;
use super::{Error, Exit};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
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
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub fn execute(args: Args) -> Result<Exit, Error> {
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
                let names: Vec<&str> = file.adapters.iter().map(|a| a.name.as_str()).collect();
                return Err(Error::Usage(format!(
                    "{}: no adapter `{name}`; it has: {}",
                    file.path.display(),
                    names.join(", ")
                )));
            }
        }
    }
    let comparison = Comparison::of(&old, &new, pair);
    print(&match args.format {
        Format::Text => render::text(&comparison),
        Format::Markdown => render::markdown(&comparison),
        Format::Json => render::json(&comparison),
    })?;
    Ok(if comparison.broke() {
        Exit::Failures
    } else {
        Exit::Ok
    })
}

fn input(error: LoadError) -> Error {
    Error::Usage(error.to_string())
}
