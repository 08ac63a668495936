//! The corpus is held to `cases/CHANGELOG.md`: every case that differs from the released
//! version's record (`cases/suite-version.json`) must be logged, and an unlogged change fails.

use std::path::{Path, PathBuf};

use robotstxt_suite::release::{record_in, verify, CorpusId, RECORD_FILE};

fn checkout_cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases")
}

#[test]
fn every_change_since_the_released_version_is_logged() {
    if let Err(problems) = verify(&checkout_cases()) {
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        panic!(
            "the corpus differs from its release record in ways cases/CHANGELOG.md does not \
             log:\n{}",
            lines.join("\n")
        );
    }
}

/// A copy of the corpus's files, to edit (its folders hold access cases, which the parser
/// corpus's record leaves out: not copied).
fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(checkout_cases()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            continue;
        }
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    dir
}

/// The version the checkout's record releases: what a change is logged since.
fn released() -> String {
    record_in(&checkout_cases())
        .unwrap()
        .expect("the checkout has a release record")
        .version
        .to_string()
}

fn problems(dir: &Path) -> Vec<String> {
    match verify(dir) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn an_unlogged_rescore_fails_and_logging_it_passes() {
    let dir = copy();
    let file = dir.path().join("agents.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    // The first check scored `disallowed` everywhere, scored `allowed` instead.
    let edited = text.replacen("expect: disallowed }", "expect: allowed }", 1);
    assert_ne!(edited, text, "agents.yaml has a check to rescore");
    std::fs::write(&file, edited).unwrap();
    let found = problems(dir.path());
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].contains(&format!(
            "is rescored since {}, and no entry says so",
            released()
        )),
        "{found:#?}"
    );
    let case = found[0].split('`').nth(1).unwrap().to_owned();
    assert!(case.starts_with("agents/"), "{case}");

    let log = dir.path().join("CHANGELOG.md");
    let logged = std::fs::read_to_string(&log).unwrap().replace(
        "## Unreleased\n",
        &format!("## Unreleased\n\n### Rescored\n\n- `{case}`: a test's rescore\n"),
    );
    std::fs::write(&log, logged).unwrap();
    assert_eq!(problems(dir.path()), Vec::<String>::new());
}

#[test]
fn an_added_and_a_removed_case_are_named() {
    let dir = copy();
    let file = dir.path().join("empty.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let added = format!(
        "{text}\n  - name: added-by-a-test\n    spec: t\n    robots: \"\"\n    checks:\n      - {{ agent: FooBot, path: /, expect: allowed }}\n"
    );
    std::fs::write(&file, added).unwrap();
    std::fs::remove_file(dir.path().join("reported-size.yaml")).unwrap();
    let found = problems(dir.path());
    assert!(
        found.iter().any(|p| p.contains(&format!(
            "`empty/added-by-a-test` is added since {}",
            released()
        ))),
        "{found:#?}"
    );
    assert_eq!(
        found
            .iter()
            .filter(|p| p.contains(&format!("is removed since {}", released())))
            .count(),
        3,
        "{found:#?}"
    );
}

#[test]
fn a_corpus_says_whether_it_is_its_released_version() {
    let cases = robotstxt_suite::cases::load_corpus(&[checkout_cases()]).unwrap();
    let record = record_in(&checkout_cases())
        .unwrap()
        .unwrap_or_else(|| panic!("cases/{RECORD_FILE} is missing"));
    let id = CorpusId::of(&cases, Some(&record));
    assert_eq!(id.version.as_ref(), Some(&record.version));
    assert_eq!(id.released, record.corpus_digest == id.digest);
    assert!(
        id.to_string()
            .starts_with(&format!("suite {}", record.version)),
        "{id}"
    );
}
