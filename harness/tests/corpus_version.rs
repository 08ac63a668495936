//! The corpus's version from the command line: `--version` names it with its digest, results
//! carry it, and `cases freeze` takes a release record again, or releases a version whose
//! changes are logged.

mod common;

use std::path::{Path, PathBuf};

use common::run_binary;

fn checkout_cases() -> PathBuf {
    common::checkout().join("cases")
}

fn copy_of_cases(to: &Path) {
    copy_folder(&checkout_cases(), to);
}

/// The folder and everything under it (the corpus has sub-folders: `access/`).
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_folder(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

fn record(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("suite-version.json")).unwrap()).unwrap()
}

#[test]
fn version_names_the_tool_the_suite_and_the_digest() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_binary(dir.path(), &["--version"]);
    assert_eq!(out.code, 0, "{out:?}");
    // The first line; the second gives the citation form.
    let line = out.stdout.lines().next().unwrap_or_default();
    assert!(
        line.starts_with(&format!(
            "robotstxt-test {} (suite ",
            env!("CARGO_PKG_VERSION")
        )),
        "{line}"
    );
    let digest = line
        .split("corpus sha256:")
        .nth(1)
        .unwrap()
        .trim_end_matches(')');
    assert_eq!(digest.len(), 64, "{line}");
}

#[test]
fn freeze_takes_the_record_again_and_releases_only_what_is_logged() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    copy_of_cases(&cases);
    let before = record(&cases);
    // The next major version after the released one: what a rescore needs.
    let current = before["version"].as_str().unwrap().to_owned();
    let major: u64 = current.split('.').next().unwrap().parse().unwrap();
    let next = format!("{}.0.0", major + 1);
    let file = cases.join("agents.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replacen("expect: disallowed }", "expect: allowed }", 1),
    )
    .unwrap();

    // A release of a version with no heading: refused, the record left as it was.
    let refused = run_binary(
        dir.path(),
        &["cases", "freeze", "--cases", "cases", "--version", &next],
    );
    assert_eq!(refused.code, 2, "{refused:?}");
    assert!(
        refused.stderr.contains(&format!("no `## {next}` heading")),
        "{}",
        refused.stderr
    );
    assert_eq!(record(&cases), before);

    // Logged under the next major version: released.
    let log = cases.join("CHANGELOG.md");
    let rescored = {
        let out = run_binary(dir.path(), &["run", "--cases", "cases", "--format", "json"]);
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(
            doc["suite_version"],
            format!("{current}+changes"),
            "a changed corpus says so"
        );
        let now = robotstxt_suite::cases::load_corpus(std::slice::from_ref(&cases)).unwrap();
        let record = robotstxt_suite::release::record_in(&cases)
            .unwrap()
            .unwrap();
        record.changes_since(&now).remove(0).case
    };
    let text = std::fs::read_to_string(&log).unwrap().replace(
        "## Unreleased\n",
        &format!("## {next}\n\n### Rescored\n\n- `{rescored}`: a test's rescore\n"),
    );
    std::fs::write(&log, text).unwrap();
    let released = run_binary(
        dir.path(),
        &["cases", "freeze", "--cases", "cases", "--version", &next],
    );
    assert_eq!(released.code, 0, "{released:?}");
    assert_eq!(record(&cases)["version"], next.as_str());
    assert_ne!(record(&cases)["corpus_digest"], before["corpus_digest"]);

    // Without --version: the current version's record taken again from the files.
    std::fs::write(
        &file,
        text_of(&file).replacen("expect: allowed }", "expect: disallowed }", 1),
    )
    .unwrap();
    let again = run_binary(dir.path(), &["cases", "freeze", "--cases", "cases"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(record(&cases)["version"], next.as_str());
    assert_eq!(record(&cases)["corpus_digest"], before["corpus_digest"]);
}

fn text_of(file: &Path) -> String {
    std::fs::read_to_string(file).unwrap()
}
