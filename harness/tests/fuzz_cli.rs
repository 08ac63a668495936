//! The `fuzz` and `minimize` commands end to end against python-urllib (python3's standard
//! library): findings are written as case files, one per group, and `run --adapter` fails every
//! one of them; a group the expectations list is known, not saved.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn robotstxt_test(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .args(args)
        .current_dir(workspace())
        .output()
        .unwrap()
}

fn have_python() -> bool {
    let found = Command::new("python3").arg("--version").output().is_ok();
    if !found {
        eprintln!("skipped: needs python3 on PATH");
    }
    found
}

/// The python-urllib adapter as a bare command, and an expectation file that lists nothing: every
/// group it shows is new.
fn bare_adapter_listing_nothing(dir: &Path) -> (String, PathBuf) {
    let file = dir.join("nothing.yaml");
    std::fs::write(&file, "adapter: python-urllib\nexpectations: []\n").unwrap();
    ("python3 adapters/python-urllib/adapter.py".to_owned(), file)
}

#[test]
fn fuzz_findings_are_one_per_group_and_reproduce_with_run() {
    if !have_python() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("findings");
    let dir = dir.to_str().unwrap();
    let (cmd, nothing) = bare_adapter_listing_nothing(out.path());
    let fuzz_args = [
        "fuzz",
        "--adapter-cmd",
        &cmd,
        "--expectations",
        nothing.to_str().unwrap(),
        "--docs",
        "400",
        "--seed",
        "1",
        "--out",
        dir,
    ];
    let fuzz = robotstxt_test(&fuzz_args);
    let stdout = String::from_utf8_lossy(&fuzz.stdout);
    assert_eq!(
        fuzz.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&fuzz.stderr)
    );
    assert!(stdout.contains("400 documents"), "{stdout}");
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!files.is_empty(), "{stdout}");
    // One saved case per group: the table names each file once, under a group of its own.
    let saved = stdout.matches("saved: python-urllib-").count();
    assert_eq!(saved, files.len(), "{stdout}");
    // Each case counts the documents that showed its group, and names it.
    let mut causes = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let note = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            note.contains("of the run's 400 documents showed this group."),
            "{text}"
        );
        let cause = note
            .split("Cause: ")
            .nth(1)
            .unwrap()
            .split(". ")
            .next()
            .unwrap();
        causes.push(cause.to_owned());
    }
    let count = causes.len();
    causes.sort();
    causes.dedup();
    assert_eq!(causes.len(), count, "a group saved twice: {causes:?}");
    // Every finding fails when run against the adapter it came from.
    let run = robotstxt_test(&[
        "run",
        "--cases",
        dir,
        "--adapter",
        "python-urllib",
        "--format",
        "json",
    ]);
    assert_eq!(run.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["summary"]["failed"], files.len(), "{report}");
    assert_eq!(report["summary"]["passed"], 0, "{report}");
    // A second run with the same seed finds nothing new: the folder holds it all.
    let again = robotstxt_test(&fuzz_args);
    let again_out = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(0), "{again_out}");
    assert!(
        again_out.contains("known: found by an earlier run"),
        "{again_out}"
    );
}

#[test]
fn groups_the_expectations_list_are_known_and_not_saved() {
    if !have_python() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("findings");
    let fuzz = robotstxt_test(&[
        "fuzz",
        "--adapter",
        "python-urllib",
        "--docs",
        "400",
        "--seed",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&fuzz.stdout);
    assert_eq!(fuzz.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("known: the expectations list it"),
        "{stdout}"
    );
    assert!(!stdout.contains("saved:"), "{stdout}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    // An expectation file that is not there is an error naming it.
    let missing = robotstxt_test(&[
        "fuzz",
        "--adapter",
        "python-urllib",
        "--expectations",
        "no-such-expectations.yaml",
        "--docs",
        "1",
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("no-such-expectations.yaml"),
        "{missing:?}"
    );
}

#[test]
fn minimize_prints_a_case() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let robots = dir.path().join("robots.txt");
    let mut body = String::new();
    for i in 0..200 {
        body.push_str(&format!(
            "# record {i}\nUser-agent: Bot{i}\nDisallow: /p{i}/\n\n"
        ));
    }
    body.push_str("User-agent: *\nCrawl-delay: 5\nAllow: /tmp/public\nDisallow: /tmp/\n");
    std::fs::write(&robots, body).unwrap();
    let output = robotstxt_test(&[
        "minimize",
        "--adapter",
        "python-urllib",
        "--robots",
        robots.to_str().unwrap(),
        "--agent",
        "FooBot/2.1",
        "--path",
        "/tmp/public/x",
    ]);
    let yaml = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{yaml}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let cases = robotstxt_suite::cases::parse_file(&yaml, Path::new("min.yaml"), "min").unwrap();
    assert!(cases[0].robots.len() < 60, "{yaml}");
    // No disagreement at all: an error, exit code 2.
    let agree = robotstxt_test(&[
        "minimize",
        "--adapter",
        "python-urllib",
        "--robots",
        robots.to_str().unwrap(),
        "--agent",
        "FooBot",
        "--path",
        "/other",
    ]);
    assert_eq!(agree.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&agree.stderr).contains("no disagreement"));
}
