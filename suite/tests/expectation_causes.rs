//! The causes the committed expectation files carry (`adapters/*/expectations*.yaml`, as
//! `report --update-expectations` writes them): every entry names one, and few of them are the
//! record fallback, which only says which record applied.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use robotstxt_suite::cause::Cause;
use robotstxt_suite::expectations::ExpectationFile;

/// The largest share of entries that may carry a record fallback ("the `*` record applies", "a
/// record naming the robot applies", "no record applies to the robot").
///
/// The fallback is true of every check that reaches a record, so it stays only where the
/// reference's explanation shows nothing else a parser could read otherwise: a plain body, one
/// record, plain rules, that a parser still answers wrongly (it folds the path's case, matches a
/// rule anywhere in the path, reads a `#` inside a value, matches User-agent values by part of
/// the robot's name under RFC 9309). That was 5.4% of the 3,684 entries when causes became typed,
/// down from 43% before; 8% leaves room for new adapters with such failures, and fails as soon as
/// a change to the classifier sends a body feature back into the fallback.
const MAX_FALLBACK_SHARE: f64 = 0.08;

fn expectation_files() -> Vec<PathBuf> {
    let adapters = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the harness is in the workspace")
        .join("adapters");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&adapters).expect("adapters/ is readable") {
        let dir = dir.expect("adapters/ lists").path();
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("an adapter folder lists").path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            if name.is_some_and(|n| n.starts_with("expectations") && n.ends_with(".yaml")) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn few_expectation_entries_fall_back_to_the_record() {
    let files = expectation_files();
    assert!(files.len() > 20, "the adapters' files: {files:?}");
    let mut by_cause: BTreeMap<Cause, usize> = BTreeMap::new();
    for file in &files {
        let expectations = ExpectationFile::load(file).unwrap_or_else(|e| panic!("{e}"));
        for entry in &expectations.entries {
            let cause = entry.cause.unwrap_or_else(|| {
                panic!(
                    "{}:{}: `{}` names no cause: --update-expectations writes one",
                    file.display(),
                    entry.line.unwrap_or(0),
                    entry.check
                )
            });
            *by_cause.entry(cause).or_default() += 1;
        }
    }
    let total: usize = by_cause.values().sum();
    let fallback: usize = (by_cause.iter())
        .filter(|(cause, _)| cause.is_record_fallback())
        .map(|(_, n)| n)
        .sum();
    let share = fallback as f64 / total as f64;
    println!(
        "{fallback} of {total} expectation entries in {} files ({:.1}%) carry a record fallback:",
        files.len(),
        100.0 * share
    );
    for (cause, n) in by_cause.iter().filter(|(c, _)| c.is_record_fallback()) {
        println!("  {n:5}  {cause}");
    }
    assert!(
        share < MAX_FALLBACK_SHARE,
        "{:.1}% of the entries carry a record fallback, more than {:.0}%",
        100.0 * share,
        100.0 * MAX_FALLBACK_SHARE
    );
}
