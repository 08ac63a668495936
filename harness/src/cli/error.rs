//! What can go wrong in a subcommand, by kind, and the exit code each kind gives (the table of
//! `--help` and the README): bad input or usage is 2, an adapter that could not run is 3, output
//! that could not be written is 5, and a standard output closed by its reader ends the run
//! quietly with 141.
//!
//! Every error of the libraries comes in through a `From` impl or a constructor here that says
//! which kind it is; [`Error::exit_code`] matches every variant, so a new one has to be given a
//! kind. Messages are whole sentences already (they name the file, the line and the field), and
//! are printed as they are.

use std::io;
use std::path::{Path, PathBuf};

use robotstxt_fuzzer::known::KnownError;
use robotstxt_reference::UnknownProfile;
use robotstxt_runtime::adapter::LoadError;
use robotstxt_runtime::atomic::WriteError;
use robotstxt_runtime::cache::CacheError;
use robotstxt_runtime::signals::STDOUT_CLOSED;
use robotstxt_runtime::suite::ExportError;
use robotstxt_runtime::suite::MaterialiseError;
use robotstxt_suite::located::LocatedError;
use robotstxt_suite::visible::Outside;
use robotstxt_survey::census::CensusError;
use robotstxt_survey::corpus::CorpusError;
use robotstxt_survey::hosts::PlanError;
use robotstxt_survey::merge::MergeFailure;
use robotstxt_survey::write::SurveyReadError;
use robotstxt_test::limits::SecondsError;
use robotstxt_test::report::history::HistoryError;

use super::Exit;

/// An error that ends a subcommand.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    // Bad input or usage: exit 2.
    /// Arguments that do not go together, or name nothing usable.
    #[error("{0}")]
    Usage(String),
    /// A flag's value, refused.
    #[error("{flag}: {reason}")]
    Flag {
        flag: &'static str,
        reason: Box<dyn std::error::Error + Send + Sync>,
    },
    /// An input file that could not be read.
    #[error("{}: {source}", path.display())]
    Unreadable { path: PathBuf, source: io::Error },
    /// A problem in an input file: a case file, an expectation file, a manifest.
    #[error(transparent)]
    Located(#[from] LocatedError),
    /// Every problem found in a set of files, one per line under a heading.
    #[error("{heading}:\n{}", lines(problems))]
    Problems {
        heading: String,
        problems: Vec<LocatedError>,
    },
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Crawl(#[from] robotstxt_crawl::app::AppError),
    #[error(transparent)]
    Cache(#[from] CacheError),
    #[error(transparent)]
    Materialise(#[from] MaterialiseError),
    #[error(transparent)]
    Seconds(#[from] SecondsError),
    #[error(transparent)]
    Known(#[from] KnownError),
    #[error(transparent)]
    Corpus(#[from] CorpusError),
    #[error(transparent)]
    SurveyRead(#[from] SurveyReadError),
    #[error(transparent)]
    Merge(#[from] MergeFailure<Outside>),
    /// A census that could not go on: a WARC file or plan that cannot be read (its captures
    /// could not be written is output).
    #[error(transparent)]
    Census(#[from] CensusError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Profile(#[from] UnknownProfile),
    /// Writing the corpus out: a folder that cannot take it is usage, a failed write is output.
    #[error(transparent)]
    Export(#[from] ExportError),

    // An adapter unavailable or broken: exit 3.
    /// What the adapter did, and why it makes the command impossible.
    #[error("{0}")]
    Adapter(String),

    // Output that could not be written: exit 5.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The reports' folder could not be replaced.
    #[error("cannot write the reports: {0}")]
    Reports(io::Error),
    /// The history folder could not be written, or a file in it read.
    #[error("report --history: {0}")]
    History(#[from] robotstxt_test::report::history::HistoryError),
    /// Standard output failed (a full disk behind a redirection); a closed one exits 141.
    #[error("standard output: {0}")]
    Stdout(io::Error),
}

impl Error {
    /// A usage error with this message.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }

    /// `flag`'s value refused for `reason`.
    pub fn flag(
        flag: &'static str,
        reason: impl std::error::Error + Send + Sync + 'static,
    ) -> Error {
        Error::Flag {
            flag,
            reason: Box::new(reason),
        }
    }

    /// For `map_err`: the input file at `path` could not be read.
    pub fn unreadable(path: &Path) -> impl FnOnce(io::Error) -> Error {
        let path = path.to_owned();
        move |source| Error::Unreadable { path, source }
    }

    /// For `map_err`: an output file at `path` could not be written.
    pub fn unwritable(path: &Path) -> impl FnOnce(io::Error) -> Error {
        let path = path.to_owned();
        move |source| Error::Write(WriteError { path, source })
    }

    /// Whether this is standard output closed by its reader (`robotstxt-test ... | head -1`),
    /// which ends the run without a message.
    pub fn is_closed_stdout(&self) -> bool {
        matches!(self, Error::Stdout(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }

    /// The exit status this error ends the process with.
    pub fn exit_code(&self) -> u8 {
        let exit = match self {
            Error::Usage(_)
            | Error::Flag { .. }
            | Error::Unreadable { .. }
            | Error::Located(_)
            | Error::Problems { .. }
            | Error::Load(_)
            | Error::Cache(_)
            | Error::Materialise(_)
            | Error::Seconds(_)
            | Error::Known(_)
            | Error::Corpus(_)
            | Error::SurveyRead(_)
            | Error::Merge(_)
            | Error::Plan(_)
            | Error::Profile(_)
            | Error::Export(ExportError::NotEmpty(_) | ExportError::NotAFolder(_)) => Exit::Input,
            Error::Census(CensusError::Output(_)) => Exit::Output,
            Error::Crawl(robotstxt_crawl::app::AppError::Output(_)) => Exit::Output,
            Error::Crawl(_) => Exit::Input,
            Error::Census(_) => Exit::Input,
            Error::Adapter(_) => Exit::Unavailable,
            Error::Export(ExportError::Write { .. })
            | Error::Write(_)
            | Error::Reports(_)
            | Error::Stdout(_) => Exit::Output,
            // A file of the history that does not read is bad input; one that cannot be
            // written is output.
            Error::History(HistoryError::Read(_) | HistoryError::Date { .. }) => Exit::Input,
            Error::History(_) => Exit::Output,
        };
        if self.is_closed_stdout() {
            STDOUT_CLOSED as u8
        } else {
            exit as u8
        }
    }
}

fn lines(problems: &[LocatedError]) -> String {
    let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
    lines.join("\n")
}

/// Writes `text` to standard output, all of it, and flushes it: the error says when the reader
/// has gone (see [`Error::is_closed_stdout`]) or the output cannot take it.
pub fn print(text: &str) -> Result<(), Error> {
    use std::io::Write as _;
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(Error::Stdout)
}

/// [`print`] with a line ending.
pub fn print_line(line: &str) -> Result<(), Error> {
    print(&format!("{line}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_exit_code() {
        let io = |kind| io::Error::from(kind);
        assert_eq!(Error::usage("x").exit_code(), 2);
        assert_eq!(Error::Adapter("x".into()).exit_code(), 3);
        assert_eq!(
            Error::Reports(io(io::ErrorKind::StorageFull)).exit_code(),
            5
        );
        assert_eq!(Error::Stdout(io(io::ErrorKind::StorageFull)).exit_code(), 5);
        assert_eq!(
            Error::Stdout(io(io::ErrorKind::BrokenPipe)).exit_code(),
            141
        );
        let path = PathBuf::from("out");
        assert_eq!(
            Error::from(ExportError::NotEmpty(path.clone())).exit_code(),
            2
        );
        let write = ExportError::Write {
            path,
            source: io(io::ErrorKind::StorageFull),
        };
        assert_eq!(Error::from(write).exit_code(), 5);
    }
}
