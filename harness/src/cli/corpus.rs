//! Which corpus a command runs, and which adapters folder: `--cases` paths, the checkout's files,
//! or the copy the binary carries (see the library's `suite` module).

use std::path::PathBuf;

use robotstxt_runtime::{cache, suite};
use robotstxt_suite::cases::{load_corpus, Case};
use robotstxt_suite::embedded;
use robotstxt_suite::release::{record_in, CorpusId, Record};

use super::select::AdapterArgs;
use super::Error;

/// A loaded corpus and where it came from.
pub struct Corpus {
    pub cases: Vec<Case>,
    /// The suite commit and whether its files differed from it, for reports.
    pub commit: (String, bool),
    /// The corpus's version and the digest of its cases, which results carry.
    pub id: CorpusId,
}

/// Loads the corpus: the `explicit` paths (`--cases`), else the checkout's `cases/`, else the
/// embedded copy; prints which on stderr, with its version and digest.
pub fn load(explicit: &[PathBuf]) -> Result<Corpus, Error> {
    let checkout = suite::current_checkout();
    let (loaded, shown, commit, record) = match (explicit.is_empty(), &checkout) {
        (false, _) | (true, Some(_)) => {
            let paths = if explicit.is_empty() {
                vec![checkout.as_ref().map(|root| root.join("cases")).unwrap()]
            } else {
                explicit.to_vec()
            };
            let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            // The suite is this checkout at its commit; outside one, it is the copy built into
            // this binary (whatever folder --cases names, the reports name the suite it came with).
            let commit = match &checkout {
                Some(root) => robotstxt_test::report::suite_commit(root),
                None => (embedded::COMMIT.to_owned(), embedded::MODIFIED),
            };
            // A corpus is versioned by the record at its root; several roots make a corpus of
            // one's own, which has none.
            let record = match paths.as_slice() {
                [root] if root.is_dir() => record_in(root)?,
                _ => None,
            };
            (load_corpus(&paths), shown.join(", "), commit, record)
        }
        (true, None) => (
            embedded::embedded_cases(),
            embedded::embedded_description(),
            (embedded::COMMIT.to_owned(), embedded::MODIFIED),
            embedded::embedded_record()?,
        ),
    };
    let cases = loaded.map_err(|errors| Error::Problems {
        heading: format!("{} problem(s) in the case files", errors.len()),
        problems: errors,
    })?;
    if cases.is_empty() {
        return Err(Error::usage(format!(
            "no case found in {shown}: a run of zero cases would pass any gate"
        )));
    }
    let id = CorpusId::of(&cases, record.as_ref());
    eprintln!("corpus: {shown} ({id})");
    Ok(Corpus { cases, commit, id })
}

/// The embedded corpus's id, as `--version` names it.
pub fn embedded_id() -> Result<CorpusId, Error> {
    let cases = embedded::embedded_cases().map_err(|errors| Error::Problems {
        heading: format!("{} problem(s) in the embedded case files", errors.len()),
        problems: errors,
    })?;
    let record: Option<Record> = embedded::embedded_record()?;
    Ok(CorpusId::of(&cases, record.as_ref()))
}

/// The corpus as a folder of files, for what reads case files itself: the checkout's `cases/`,
/// else the embedded corpus as written into the cache folder.
pub fn folder(select: &AdapterArgs) -> Result<PathBuf, Error> {
    match suite::current_checkout() {
        Some(root) => Ok(root.join("cases")),
        None => {
            let cache = cache::root(select.cache_dir.as_deref())?;
            Ok(suite::materialise(&cache)?.join("cases"))
        }
    }
}

/// Where reports go without `--out`: the checkout's `reports/` inside a checkout, else
/// `robotstxt-test-report/` in the current folder (a name of its own, so that it never mixes
/// with a project's own `reports/`).
pub fn reports_folder() -> PathBuf {
    match suite::current_checkout() {
        Some(root) => root.join("reports"),
        None => PathBuf::from("robotstxt-test-report"),
    }
}
