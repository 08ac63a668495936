//! The case corpus this crate carries: `cases/` embedded at build time (with `include_dir`; see
//! `build.rs`), so that a parser's own `cargo test` and the installed `robotstxt-test` need no
//! checkout, and the commit it was built from.
//!
//! The corpus is read straight from memory ([`embedded_cases`]); [`case_files`] hands its bytes to
//! whoever writes them out (the runtime: the suite in a cache folder, `cases export`).

use std::path::Path;

use include_dir::{include_dir, Dir, DirEntry};

use crate::cases::{parse_file, Case, CaseError};
use crate::located::LocatedError;
use crate::release::{Record, RECORD_FILE};

static EMBEDDED: Dir<'static> = include_dir!("$OUT_DIR/suite");

/// This crate's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The commit the embedded suite was built from, or `unknown`.
pub const COMMIT: &str = env!("ROBOTSTXT_TEST_SUITE_COMMIT");
/// Whether the embedded suite's files differed from [`COMMIT`] when it was built.
pub const MODIFIED: bool = const_str_is_true(env!("ROBOTSTXT_TEST_SUITE_MODIFIED"));

const fn const_str_is_true(value: &str) -> bool {
    matches!(value.as_bytes(), b"true")
}

/// Names the embedded suite, as `run`, `report` and `survey` show it.
pub fn embedded_description() -> String {
    let changes = if MODIFIED { " with local changes" } else { "" };
    format!("embedded (robotstxt-test {VERSION}, suite commit {COMMIT}{changes})")
}

/// The release record the embedded corpus carries (`cases/suite-version.json`), if it carries one.
pub fn embedded_record() -> Result<Option<Record>, LocatedError> {
    let path = Path::new("cases").join(RECORD_FILE);
    let Some(file) = EMBEDDED.get_file(&path) else {
        return Ok(None);
    };
    let text = std::str::from_utf8(file.contents())
        .map_err(|e| LocatedError::new(&path, None, format!("not UTF-8: {e}")))?;
    Record::parse(text, &path).map(Some)
}

/// Every embedded case file, with its path under the suite root (`cases/<file>`), sorted by
/// path.
pub fn case_files() -> Vec<(&'static Path, &'static [u8])> {
    files_below(&EMBEDDED, "cases")
}

/// Every file below `folder` of an embedded tree, with its path under the tree's root, sorted by
/// path: the one walk of an embedded folder, which the runtime's carried adapters go through too.
pub fn files_below(
    tree: &'static Dir<'static>,
    folder: &str,
) -> Vec<(&'static Path, &'static [u8])> {
    let mut files = Vec::new();
    let mut pending: Vec<&Dir<'static>> = tree.get_dir(folder).into_iter().collect();
    while let Some(dir) = pending.pop() {
        for entry in dir.entries() {
            match entry {
                DirEntry::Dir(dir) => pending.push(dir),
                DirEntry::File(file) => files.push((file.path(), file.contents())),
            }
        }
    }
    files.sort();
    files
}

/// The embedded corpus, parsed: the same cases, in the same order, as loading `cases/` of the
/// checkout it was built from. Case files are named `cases/<file>`.
pub fn embedded_cases() -> Result<Vec<Case>, Vec<CaseError>> {
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for (path, bytes) in case_files() {
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let relative = path
            .strip_prefix("cases")
            .unwrap_or(path)
            .with_extension("");
        let group = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        if crate::cases::is_access_group(&group) {
            continue;
        }
        let parsed = std::str::from_utf8(bytes)
            .map_err(|e| LocatedError::new(path, None, format!("not UTF-8: {e}")))
            .and_then(|text| parse_file(text, path, &group));
        match parsed {
            Ok(file_cases) => cases.extend(file_cases),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_corpus_is_the_checkouts() {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases");
        let on_disk = crate::cases::load_corpus(&[checkout]).expect("the corpus loads");
        let embedded = embedded_cases().expect("the embedded corpus loads");
        let ids = |cases: &[Case]| cases.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&embedded), ids(&on_disk));
        assert!(embedded.iter().all(|c| c.file.starts_with("cases")));
    }

    #[test]
    fn the_embedded_corpus_carries_its_release_record() {
        let record = embedded_record()
            .expect("the record reads")
            .expect("it is carried");
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases");
        let on_disk = crate::release::record_in(&checkout).unwrap().unwrap();
        assert_eq!(record, on_disk);
    }
}
