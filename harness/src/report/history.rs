//! `report --history DIR`: each report's `results.json` kept under DIR, named by its date and
//! suite version (`2026-11-26-suite-1.0.0.json`; a second report on one day replaces the
//! first), and read back, oldest first, for the charts over time.

use std::path::{Path, PathBuf};

use crate::diff::{self, ResultsFile};
use robotstxt_runtime::atomic::write_atomic;
use robotstxt_suite::visible::Outside;

/// Why the history could not be kept or read.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("{}: cannot create or write into the history folder: {source}", path.display())]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Write(#[from] robotstxt_runtime::atomic::WriteError),
    #[error(transparent)]
    Read(#[from] diff::ResultsLoadError),
    #[error("{}: a report date `{date}` that is not `YYYY-MM-DD...`", path.display())]
    Date { path: PathBuf, date: String },
}

/// The file name a report of `date` (ISO 8601) and `suite_version` is kept under.
pub fn file_name(date: &str, suite_version: &str) -> Option<String> {
    let day = jiff::civil::Date::strptime("%Y-%m-%d", date.get(..10)?).ok()?;
    let version = crate::limits::path_slug(suite_version);
    Some(format!("{day}-suite-{version}.json"))
}

/// Keeps `results` (the text of a report's `results.json`, of `date` and `suite_version`) in
/// `folder`; returns the file written.
pub fn keep(
    folder: &Path,
    date: &str,
    suite_version: &str,
    results: &str,
) -> Result<PathBuf, HistoryError> {
    std::fs::create_dir_all(folder).map_err(|source| HistoryError::Folder {
        path: folder.to_owned(),
        source,
    })?;
    let name = file_name(date, suite_version).ok_or_else(|| HistoryError::Date {
        path: folder.to_owned(),
        date: date.to_owned(),
    })?;
    let path = folder.join(name);
    write_atomic(&path, results.as_bytes())?;
    Ok(path)
}

/// Checks the history folder before a report runs any adapter, so that a folder that cannot be
/// made, read or written into fails at once rather than after the whole run: made if missing,
/// every results file kept there read (the reports it returns are read again once the new one
/// is kept), and writable.
pub fn check(folder: &Path) -> Result<(), HistoryError> {
    std::fs::create_dir_all(folder).map_err(|source| HistoryError::Folder {
        path: folder.to_owned(),
        source,
    })?;
    read(folder)?;
    // A file made and removed: what a read-only mount refuses, whoever runs.
    let probe = folder.join(format!(".writable.tmp-{}", std::process::id()));
    std::fs::File::options()
        .write(true)
        .create_new(true)
        .open(&probe)
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|source| HistoryError::Folder {
            path: folder.to_owned(),
            source,
        })
}

/// Reports drawn over time: the newest this many kept in the folder (the older files stay).
pub const MAX_HISTORY: usize = 100;

/// The newest [`MAX_HISTORY`] results files kept in `folder`, oldest first (by name, which starts
/// with the date), each read one at a time and reduced to what the charts over time draw
/// ([`for_chart`]): what the history takes is bounded by the number of reports drawn, not by
/// how many are kept or how large they are.
pub fn read(folder: &Path) -> Result<Vec<ResultsFile>, HistoryError> {
    let entries = std::fs::read_dir(folder).map_err(|source| HistoryError::Folder {
        path: folder.to_owned(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && p.file_name().is_some_and(|n| {
                    !robotstxt_runtime::atomic::is_temporary_name(&n.to_string_lossy())
                })
        })
        .collect();
    paths.sort();
    let newest = &paths[paths.len().saturating_sub(MAX_HISTORY)..];
    Ok(newest
        .iter()
        .map(|p| diff::load(p).map(for_chart))
        .collect::<Result<Vec<_>, _>>()?)
}

/// What a chart over time uses of a kept report: its date, and each adapter's scored outcomes
/// (its score). The checks' ids, digests and causes are dropped, and the checks not scored: a
/// kept report then takes a few bytes per scored check, not its file's worth.
pub fn for_chart(mut file: ResultsFile) -> ResultsFile {
    for adapter in &mut file.adapters {
        adapter.checks.retain(|c| c.answer.outcome.is_scored());
        for check in &mut adapter.checks {
            check.id = Outside::default();
            check.digest = None;
            check.cause = None;
        }
        adapter.checks.shrink_to_fit();
    }
    file
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_by_day_and_suite_version() {
        assert_eq!(
            file_name("2026-11-26T08:55:56Z", "1.0.0").as_deref(),
            Some("2026-11-26-suite-1.0.0.json")
        );
        assert_eq!(
            file_name("2026-11-26T08:55:56Z", "1.0.0+changes").as_deref(),
            Some("2026-11-26-suite-1.0.0-changes.json")
        );
        assert_eq!(file_name("yesterday", "1.0.0"), None);
    }

    #[test]
    fn a_kept_report_keeps_its_scores_alone() {
        use crate::diff::{AdapterResults, CheckState, RunAnswer};
        use robotstxt_suite::run::Outcome;
        let check = |id: &str, outcome| CheckState {
            id: id.into(),
            digest: Some("d".repeat(16)),
            answer: RunAnswer {
                outcome,
                verdict: None,
            },
            cause: None,
        };
        let adapter = AdapterResults {
            name: "a".into(),
            version: "1".into(),
            has_data: true,
            checks: vec![
                check("c/1#0", Outcome::Pass),
                check("c/2#0", Outcome::Fail),
                check("c/3#0", Outcome::Skipped),
                check("c/4#0", Outcome::Pass),
            ],
        };
        let file = ResultsFile {
            path: "x.json".into(),
            suite_version: None,
            corpus_digest: None,
            date: Some("2026-11-28".into()),
            adapters: vec![adapter],
        };
        let score = file.adapters[0].score();
        let kept = for_chart(file);
        assert_eq!(kept.adapters[0].score(), score);
        assert!(score.is_some());
        assert!(kept.adapters[0]
            .checks
            .iter()
            .all(|c| c.id.is_empty() && c.digest.is_none()));
    }
}
