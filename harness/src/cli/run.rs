//! `robotstxt-test run`: the corpus against the reference or adapters, scored.

use std::io::IsTerminal;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use robotstxt_reference::Profile;
use robotstxt_test::cases::{load_corpus, Case};
use robotstxt_test::engine::{Engine, ReferenceEngine};
use robotstxt_test::output::{human, RunDocument};
use robotstxt_test::run::{run_engines, Outcome, Scoring};

use super::select::AdapterArgs;
use super::{parse_profile, Exit};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}

/// Run the case corpus and score every check.
///
/// Without `--adapter`, runs the reference under `--profile` (default norobots-1994). With
/// adapters, scores each under the profile it claims unless `--profile` forces one.
/// With `--format json`, prints one JSON document per engine (an array when there are several).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A folder of case files; repeat to run several. Default: `cases`.
    #[arg(long = "cases", value_name = "DIR")]
    cases: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Score under this profile instead of the one each engine claims.
    #[arg(long, value_name = "PROFILE", value_parser = parse_profile)]
    profile: Option<Profile>,
    #[command(flatten)]
    select: AdapterArgs,
}

pub fn execute(args: Args) -> Result<Exit, String> {
    let cases = load_cases(&args.cases)?;
    let mut engines: Vec<Box<dyn Engine>> = if args.select.any() {
        args.select.open(true)?
    } else {
        let profile = args.profile.unwrap_or(Profile::Norobots1994);
        vec![Box::new(ReferenceEngine::new(profile))]
    };
    let forced = args.profile;
    let scoring = move |engine: &dyn Engine| match forced {
        Some(p) => Scoring::Forced(p),
        None => Scoring::Claimed(engine.handshake().claimed_profile()),
    };
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let bar = progress_bar(cases.len() * engines.len());
    let all_results = run_engines(&cases, &mut engines, &scoring, &|_, _, _| bar.inc(1));
    bar.finish_and_clear();
    let mut documents = Vec::new();
    let mut exit = Exit::Ok;
    for (engine, results) in engines.iter().zip(&all_results) {
        if results.iter().any(|r| r.outcome == Outcome::Fail) {
            exit = exit.max(Exit::Failures);
        }
        if let Some(why) = engine.unavailable() {
            eprintln!("{}: unavailable or broken: {why}", engine.handshake().name);
            exit = exit.max(Exit::Unavailable);
        }
        match args.format {
            Format::Human => print!("{}", human(engine.handshake(), &cases, results, color)),
            Format::Json => documents.push(RunDocument::new(
                engine.handshake(),
                args.profile,
                &cases,
                results,
            )),
        }
    }
    if args.format == Format::Json {
        let json = if documents.len() == 1 {
            serde_json::to_string_pretty(&documents[0])
        } else {
            serde_json::to_string_pretty(&documents)
        };
        println!("{}", json.map_err(|e| e.to_string())?);
    }
    Ok(exit)
}

/// Loads the corpus from `dirs` (default `cases`), printing every error found.
pub fn load_cases(dirs: &[PathBuf]) -> Result<Vec<Case>, String> {
    let dirs = if dirs.is_empty() {
        vec![PathBuf::from("cases")]
    } else {
        dirs.to_vec()
    };
    load_corpus(&dirs).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!(
            "{} problem(s) in the case files:\n{}",
            errors.len(),
            lines.join("\n")
        )
    })
}

/// A progress bar over every (engine, case) pair, on stderr, hidden when stderr is not a terminal.
fn progress_bar(total: usize) -> ProgressBar {
    ProgressBar::new(total as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} case runs {elapsed}")
            .expect("valid template"),
    )
}
