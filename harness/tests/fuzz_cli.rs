//! The `fuzz` and `minimize` commands end to end against python-urllib (python3's standard
//! library): findings are written as case files, and `run --adapter` fails every one of them.

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

#[test]
fn fuzz_findings_reproduce_with_run() {
    if !have_python() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let fuzz = robotstxt_test(&[
        "fuzz",
        "--adapter",
        "python-urllib",
        "--docs",
        "400",
        "--seed",
        "1",
        "--out",
        dir,
    ]);
    let stdout = String::from_utf8_lossy(&fuzz.stdout);
    assert_eq!(
        fuzz.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&fuzz.stderr)
    );
    assert!(stdout.contains("400 documents"), "{stdout}");
    let files = std::fs::read_dir(out.path()).unwrap().count();
    assert!(files > 0, "{stdout}");
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
    assert_eq!(report["summary"]["failed"], files, "{report}");
    assert_eq!(report["summary"]["passed"], 0, "{report}");
    // A second run with the same seed finds nothing new: the folder holds it all.
    let again = robotstxt_test(&[
        "fuzz",
        "--adapter",
        "python-urllib",
        "--docs",
        "400",
        "--seed",
        "1",
        "--out",
        dir,
    ]);
    assert_eq!(
        again.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&again.stdout)
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
