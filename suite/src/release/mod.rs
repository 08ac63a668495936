//! The corpus's own version, which a result can cite: `robotstxt-test` suite `1.0.0`, corpus
//! `sha256:…`.
//!
//! The corpus is versioned apart from the tool, by semver: a check that is removed, asks
//! something else or is scored otherwise is a major change (a result under the old version no
//! longer means the same); an added case, or a check added after a case's existing ones, is a
//! minor one; a change no run can see (a note, a spec quote) is a patch. Beside the case files:
//!
//! - `suite-version.json`, the [`Record`] of the corpus at its last released version: the version,
//!   the [`corpus_digest`], and each check's digests, so that what changed since can be named;
//! - `CHANGELOG.md`, the [`Changelog`]: per version, the cases added, changed, rescored and
//!   removed, with the reason. A test holds the corpus to it ([`verify`]): a case that differs
//!   from the record and is not logged fails it.
//!
//! Every run names its corpus by a [`CorpusId`]: the record's version, the digest of the cases as
//! run, and whether they are that version exactly. Results files carry it, and each check's
//! short digest ([`digest::CheckDigests::short`]), so that two of them are compared only where
//! their checks are the same.
//!
//! A version is released with `robotstxt-test cases freeze --version X.Y.Z`, which writes the
//! record; `robotstxt-test cases freeze` alone takes the record of the current version again.

pub mod changelog;
pub mod digest;
pub mod record;

use std::fmt;
use std::path::{Path, PathBuf};

use semver::Version;

pub use changelog::{release_problems, Changelog, CHANGELOG_FILE};
pub use digest::{corpus_digest, CheckDigests};
pub use record::{Bump, CaseChange, ChangeKind, Record, RECORD_FILE};

use crate::cases::{load_corpus, Case};
use crate::input::{read_bytes, Format, Input};
use crate::limits::{MAX_CHANGELOG, RELEASE_RECORD};
use crate::located::LocatedError;

/// Which corpus a run used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusId {
    /// The version of the record kept beside the corpus; `None` for a corpus without one (a
    /// folder of one's own cases).
    pub version: Option<Version>,
    /// [`corpus_digest`] of the cases as run.
    pub digest: String,
    /// Whether the cases as run are that version exactly (their digest is the record's).
    pub released: bool,
}

impl CorpusId {
    /// The id of `cases`, beside `record` (the one found with them, if any).
    pub fn of(cases: &[Case], record: Option<&Record>) -> CorpusId {
        let digest = corpus_digest(cases);
        CorpusId {
            version: record.map(|r| r.version.clone()),
            released: record.is_some_and(|r| r.corpus_digest == digest),
            digest,
        }
    }

    /// The version as a result cites it: `1.0.0`; `1.0.0+changes` for a corpus changed since
    /// that version; `none` without a record.
    pub fn version_shown(&self) -> String {
        match (&self.version, self.released) {
            (Some(v), true) => v.to_string(),
            (Some(v), false) => format!("{v}+changes"),
            (None, _) => "none".to_owned(),
        }
    }

    /// The digest's first twelve hexadecimal digits, as people quote it.
    pub fn short_digest(&self) -> &str {
        let hex = self.digest.strip_prefix("sha256:").unwrap_or(&self.digest);
        &hex[..hex.len().min(12)]
    }
}

impl fmt::Display for CorpusId {
    /// `suite 1.0.0, corpus sha256:1a2b3c4d5e6f`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "suite {}, corpus sha256:{}",
            self.version_shown(),
            self.short_digest()
        )
    }
}

/// The record kept at the root of a corpus folder, if there is one.
pub fn record_in(folder: &Path) -> Result<Option<Record>, LocatedError> {
    let file = folder.join(RECORD_FILE);
    if let Err(e) = std::fs::symlink_metadata(&file) {
        if e.kind() == std::io::ErrorKind::NotFound {
            return Ok(None);
        }
    }
    let input = Input::read(&file, Format::Json, RELEASE_RECORD)?;
    Record::parse(input.text(), &file).map(Some)
}

/// A corpus folder's versioning as the repository keeps it: its cases, its record and its
/// changelog.
#[derive(Debug, Clone)]
pub struct Versioned {
    pub folder: PathBuf,
    pub cases: Vec<Case>,
    pub record: Record,
    pub changelog: Changelog,
}

impl Versioned {
    /// Loads the cases, the record and the changelog of `folder`; each must be there.
    pub fn load(folder: &Path) -> Result<Versioned, Vec<LocatedError>> {
        let cases = load_corpus(&[folder.to_owned()])?;
        let record = record_in(folder).map_err(|e| vec![e])?.ok_or_else(|| {
            let file = folder.join(RECORD_FILE);
            vec![LocatedError::new(&file, None, "missing: the corpus has no release record (`robotstxt-test cases freeze --version 1.0.0` writes the first)".to_owned())]
        })?;
        let log_file = folder.join(CHANGELOG_FILE);
        let cannot = |e: &dyn fmt::Display| {
            vec![LocatedError::new(
                &log_file,
                None,
                format!("cannot read: {e}"),
            )]
        };
        let bytes = read_bytes(&log_file, MAX_CHANGELOG).map_err(|e| cannot(&e))?;
        let text = String::from_utf8(bytes).map_err(|e| cannot(&e))?;
        let changelog = Changelog::parse(&text, &log_file).map_err(|e| vec![e])?;
        Ok(Versioned {
            folder: folder.to_owned(),
            cases,
            record,
            changelog,
        })
    }

    /// Every case that differs from the record.
    pub fn changes(&self) -> Vec<CaseChange> {
        self.record.changes_since(&self.cases)
    }
}

/// Holds a corpus folder to its changelog: every case changed since the released version is
/// logged as such (see [`changelog::unlogged`]). Returns every problem found.
pub fn verify(folder: &Path) -> Result<Versioned, Vec<LocatedError>> {
    let versioned = Versioned::load(folder)?;
    let problems = changelog::unlogged(
        &versioned.record,
        &versioned.changes(),
        &versioned.changelog,
    );
    if problems.is_empty() {
        Ok(versioned)
    } else {
        Err(problems)
    }
}
