//! Ctrl-C and SIGTERM: adapters stopped with their process groups, temporaries removed, exit
//! 130, and the reports folder left whole.

use std::fs;

use rustix::process::Signal;

use crate::support::{assert_nothing_left, drive, drive_with, names_in, scratch, Interrupt};

/// Interrupts `SUBCOMMAND` against the slow adapter once the adapter has started.
fn interrupted(subcommand: &str, extra: &[&str], signal: Signal) -> tempfile::TempDir {
    let (dir, cmd) = scratch(200, "x", "slow");
    if subcommand == "report" {
        fs::create_dir(dir.path().join("reports")).unwrap();
        fs::write(dir.path().join("reports/README.md"), "old").unwrap();
    }
    let ready = Interrupt {
        ready: dir.path().join("pids"),
        signal,
    };
    let ran = drive_with(dir.path(), subcommand, &cmd, extra, Some(ready));
    assert_eq!(ran.code, 130, "{}", ran.stderr);
    assert_nothing_left(dir.path());
    dir
}

#[test]
fn sigint_stops_every_adapter_and_exits_130() {
    interrupted("run", &[], Signal::INT);
}

#[test]
fn sigterm_during_report_leaves_the_old_reports_whole_and_no_temporaries() {
    let dir = interrupted("report", &["--out", "reports"], Signal::TERM);
    let out = dir.path().join("reports");
    assert_eq!(names_in(&out), ["README.md"]);
    assert_eq!(fs::read_to_string(out.join("README.md")).unwrap(), "old");
    let beside: Vec<String> = names_in(dir.path())
        .into_iter()
        .filter(|n| n.contains(".new-") || n.contains(".tmp-"))
        .collect();
    assert!(beside.is_empty(), "{beside:?}");
}

#[test]
fn a_report_cleans_what_an_interrupted_one_left_and_replaces_the_folder_whole() {
    let (dir, cmd) = scratch(2, "x", "plain");
    let out = dir.path().join("reports");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("survey.md"), "kept").unwrap();
    fs::write(out.join("README.md.tmp-999999"), "left").unwrap();
    fs::create_dir(dir.path().join(".reports.new-999999")).unwrap();
    let ran = drive(dir.path(), "report", &cmd, &["--out", "reports"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(
        names_in(&out),
        [
            "README.md",
            "SCHEMA.md",
            "badges",
            "history",
            "hostile-plain.md",
            "index.html",
            "results.csv",
            "results.json",
            "survey.md"
        ]
    );
    assert_eq!(fs::read_to_string(out.join("survey.md")).unwrap(), "kept");
    assert!(!dir.path().join(".reports.new-999999").exists());
    assert_nothing_left(dir.path());
}
