//! The results-file door: a report's `results.json` and `run --format json`'s document, each
//! field planted in turn, read by `diff` in every format and, kept in the history, by `report`.

use std::fs;

use serde_json::Value;

use super::adapters::Scratch;
use super::{
    assert_files_inert, assert_shown_or_named, one_of_each_kind, planted_siblings, run_inert,
};

const CASES: &str = "cases:
  - name: first
    spec: test
    robots: \"User-agent: *\\nAllow: /\\n\"
    checks:
      - { agent: FooBot, path: /a, expect: allowed }
      - { agent: FooBot, path: /b, expect: allowed }
";

/// A scratch folder with a small corpus, the plain adapter's command, and the two results files
/// of one run of it: `in/report.json` and `in/run.json`.
fn results() -> (Scratch, String) {
    let scratch = Scratch::new();
    let dir = scratch.path();
    fs::write(scratch.inputs().join("cases/cases.yaml"), CASES).unwrap();
    let cmd = scratch.disallowing_adapter();
    let report = [
        "report",
        "--cases",
        "in/cases",
        "--adapter-cmd",
        &cmd,
        "--no-crawlers",
    ];
    let ran = run_inert(
        "base",
        dir,
        &[&report[..], &["--out", "in/base", "--no-history"]].concat(),
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    fs::copy(
        dir.join("in/base/results.json"),
        scratch.inputs().join("report.json"),
    )
    .unwrap();
    let run = [
        "run",
        "--cases",
        "in/cases",
        "--adapter-cmd",
        &cmd,
        "--format",
        "json",
    ];
    let ran = run_inert(
        "base",
        dir,
        &[&run[..], &["--also-write", "json=in/run.json"]].concat(),
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    (scratch, cmd)
}

fn tree(scratch: &Scratch, name: &str) -> Value {
    serde_json::from_slice(&fs::read(scratch.inputs().join(name)).unwrap()).unwrap()
}

#[test]
fn every_field_of_a_results_file_through_diff() {
    let (scratch, _) = results();
    let dir = scratch.path();
    for base in ["report.json", "run.json"] {
        let siblings = one_of_each_kind(planted_siblings(&tree(&scratch, base)));
        assert!(siblings.len() >= 20, "{base}: {}", siblings.len());
        for (pointer, planted) in siblings {
            let what = format!("{base} {pointer}");
            fs::write(scratch.inputs().join("planted.json"), planted.to_string()).unwrap();
            let old = format!("in/{base}");
            for format in ["text", "markdown", "json"] {
                run_inert(
                    &what,
                    dir,
                    &["diff", &old, "in/planted.json", "--format", format, "--all"],
                );
            }
            run_inert(
                &what,
                dir,
                &["diff", "in/planted.json", &old, "--link", "index.html"],
            );
        }
        assert_files_inert(base, dir, &[scratch.inputs()]);
    }
}

/// The history: one report kept with each field planted (one of each kind: the first item of
/// every list), read by the next `report`.
#[test]
fn every_field_of_a_report_kept_in_the_history() {
    let (scratch, cmd) = results();
    let dir = scratch.path();
    let siblings = one_of_each_kind(planted_siblings(&tree(&scratch, "report.json")));
    assert!(siblings.len() >= 20, "{}", siblings.len());
    for (pointer, planted) in siblings {
        let what = format!("history {pointer}");
        let history = scratch.inputs().join("history");
        let _ = fs::remove_dir_all(&history);
        fs::create_dir_all(&history).unwrap();
        fs::write(
            history.join("2026-11-01-suite-none.json"),
            planted.to_string(),
        )
        .unwrap();
        let report = [
            "report",
            "--cases",
            "in/cases",
            "--adapter-cmd",
            &cmd,
            "--no-crawlers",
        ];
        let ran = run_inert(
            &what,
            dir,
            &[&report[..], &["--out", "out/r", "--history", "in/history"]].concat(),
        );
        let (_, written) = assert_files_inert(&what, dir, &[scratch.inputs()]);
        if ran.code != 0 {
            // Refused: the message says which file and why, and the plant is shown or its field named.
            assert_shown_or_named(&what, &pointer, &(ran.stderr.clone() + &written));
        }
    }
}
