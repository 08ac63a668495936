//! A census plan is checked against the WARC file it is run on: the file's name and each planned
//! capture's status must be the file's, or the part is refused (a plan made from another file
//! would count the wrong captures). A WARC file whose name starts with `-` is read as the Spark
//! job passes it (`--warc=-x.warc.gz`).

use std::fs;
use std::path::Path;

use robotstxt_survey::hosts::PLAN_FORMAT;

use crate::support::{run, Ran};

const NAME: &str = "-x.warc.gz";

/// A folder holding the census test file under the name `-x.warc.gz`; its captures, as JSON.
fn dashed_warc() -> (tempfile::TempDir, Vec<serde_json::Value>) {
    let dir = tempfile::tempdir().unwrap();
    let hard = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/census/hard.warc.gz");
    fs::copy(hard, dir.path().join(NAME)).unwrap();
    let warc = format!("--warc={NAME}");
    let ran = run(dir.path(), &["survey", "captures", &warc]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let captures: Vec<serde_json::Value> = (ran.stdout.lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!captures.is_empty());
    assert!(captures.iter().all(|c| c["warc"] == NAME), "{captures:?}");
    (dir, captures)
}

/// Runs the part of `plan_warc`'s plan with the first capture's status changed by `off`.
fn part(dir: &Path, capture: &serde_json::Value, plan_warc: &str, off: u64) -> Ran {
    let header = serde_json::json!({
        "plan": PLAN_FORMAT, "name": "dashed", "warc": plan_warc, "part": 1, "parts": 1,
    });
    let mut entry = serde_json::json!({
        "offset": capture["offset"],
        "status": capture["status"].as_u64().unwrap() + off,
    });
    if let Some(index) = capture.get("index") {
        entry["index"] = index.clone();
    }
    fs::write(dir.join("plan.jsonl"), format!("{header}\n{entry}\n")).unwrap();
    let warc = format!("--warc={NAME}");
    let args = [
        "survey",
        &warc,
        "--plan=plan.jsonl",
        "--adapter",
        "reference",
    ];
    run(dir, &[&args[..], &["--out", "out"]].concat())
}

#[test]
fn a_plan_runs_on_its_own_file_even_one_named_like_a_flag() {
    let (dir, captures) = dashed_warc();
    let ran = part(dir.path(), &captures[0], NAME, 0);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(dir.path().join("out/survey.json").is_file());
}

#[test]
fn a_plan_whose_status_is_not_the_files_is_refused() {
    let (dir, captures) = dashed_warc();
    let ran = part(dir.path(), &captures[0], NAME, 1);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("the plan says"), "{}", ran.stderr);
    assert!(!dir.path().join("out/survey.json").exists());
}

#[test]
fn a_plan_for_another_file_is_refused() {
    let (dir, captures) = dashed_warc();
    let ran = part(dir.path(), &captures[0], "other.warc.gz", 0);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("the plan is for `other.warc.gz`"),
        "{}",
        ran.stderr
    );
    assert!(!dir.path().join("out/survey.json").exists());
}
