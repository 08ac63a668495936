//! `robotstxt-test cases`: the corpus this binary carries, as files (`export`), and the release
//! record of the checkout's corpus (`freeze`).

use robotstxt_suite::visible::path_shown;
use std::path::PathBuf;

use robotstxt_runtime::suite;
use robotstxt_suite::cases::load_corpus;
use robotstxt_suite::embedded;
use robotstxt_suite::located::LocatedError;
use robotstxt_suite::release::{record_in, release_problems, Record, Versioned, RECORD_FILE};
use semver::Version;

use super::error::print_line;
use super::{Error, Exit};

/// The case corpus this binary carries.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Write the embedded corpus into DIR (new or empty), byte for byte as the suite's `cases/`,
    /// to read, grep and diff.
    Export { dir: PathBuf },
    /// Release the corpus: write `cases/suite-version.json`, the record of the cases as they
    /// are now, which results cite and `cases/CHANGELOG.md` is held to. Only when preparing a
    /// release of the corpus.
    Freeze {
        /// The version being released; its changes must be logged under its heading in
        /// `cases/CHANGELOG.md`. Without it, the record of the current version is taken again
        /// from the cases on disk (after a merge that changed them before the version was
        /// published).
        #[arg(long)]
        version: Option<Version>,
        /// The corpus folder (default: the checkout's `cases/`).
        #[arg(long)]
        cases: Option<PathBuf>,
    },
}

pub fn execute(args: Args) -> Result<Exit, Error> {
    match args.action {
        Action::Export { dir } => {
            let written = robotstxt_runtime::suite::export_cases(&dir)?;
            print_line(&format!(
                "wrote {written} files of the {} corpus into {}",
                embedded::embedded_description(),
                path_shown(&dir)
            ))?;
            Ok(Exit::Ok)
        }
        Action::Freeze { version, cases } => freeze(version, cases),
    }
}

fn freeze(version: Option<Version>, cases: Option<PathBuf>) -> Result<Exit, Error> {
    let folder = match cases.or_else(|| suite::current_checkout().map(|root| root.join("cases"))) {
        Some(folder) => folder,
        None => {
            return Err(Error::Usage(
                "`cases freeze` writes into a checkout's `cases/`: run it inside one, or name \
                 the folder with --cases"
                    .to_owned(),
            ))
        }
    };
    let problems =
        |heading: String, problems: Vec<LocatedError>| Error::Problems { heading, problems };
    let heading =
        |e: &Vec<LocatedError>| format!("{} problem(s) in {}", e.len(), path_shown(&folder));
    if let (None, Some(first)) = (record_in(&folder)?, &version) {
        // The first release: nothing to hold the changes to.
        let cases =
            load_corpus(std::slice::from_ref(&folder)).map_err(|e| problems(heading(&e), e))?;
        return write_record(&folder, Record::of(first.clone(), &cases));
    }
    let versioned = Versioned::load(&folder).map_err(|e| problems(heading(&e), e))?;
    let version = match version {
        None => versioned.record.version.clone(),
        Some(version) => {
            let found = release_problems(
                &versioned.record,
                &versioned.changes(),
                &versioned.changelog,
                &version,
            );
            if !found.is_empty() {
                return Err(problems(format!("{version} cannot be released"), found));
            }
            version
        }
    };
    write_record(&folder, Record::of(version, &versioned.cases))
}

fn write_record(folder: &std::path::Path, record: Record) -> Result<Exit, Error> {
    let file = folder.join(RECORD_FILE);
    robotstxt_runtime::atomic::write_atomic(&file, record.to_json().as_bytes())?;
    print_line(&format!(
        "wrote {}: suite {}, {} cases, corpus {}",
        path_shown(&file),
        record.version,
        record.checks.len(),
        record.corpus_digest
    ))?;
    Ok(Exit::Ok)
}
