//! Ctrl-C and SIGTERM: adapters stopped with their process groups, temporaries removed, exit
//! 130, and the reports folder left whole.

use std::fs;

use crate::support::{assert_nothing_left, cases_yaml, hostile_cmd, run, run_with, Interrupt};

#[test]
fn sigint_stops_every_adapter_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("cases.yaml"), cases_yaml(200, "x")).unwrap();
    let cmd = hostile_cmd("slow", dir.path());
    let ran = run_with(
        dir.path(),
        &["run", "--cases", "cases.yaml", "--adapter-cmd", &cmd],
        Some(Interrupt {
            ready: dir.path().join("pids"),
            signal: libc::SIGINT,
        }),
    );
    assert_eq!(ran.code, 130, "{}", ran.stderr);
    assert_nothing_left(dir.path());
}

#[test]
fn sigterm_during_report_leaves_the_old_reports_whole_and_no_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("cases.yaml"), cases_yaml(200, "x")).unwrap();
    let out = dir.path().join("reports");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("README.md"), "old").unwrap();
    let cmd = hostile_cmd("slow", dir.path());
    let ran = run_with(
        dir.path(),
        &[
            "report",
            "--cases",
            "cases.yaml",
            "--adapter-cmd",
            &cmd,
            "--out",
            "reports",
        ],
        Some(Interrupt {
            ready: dir.path().join("pids"),
            signal: libc::SIGTERM,
        }),
    );
    assert_eq!(ran.code, 130, "{}", ran.stderr);
    assert_nothing_left(dir.path());
    let names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["README.md"]);
    assert_eq!(fs::read_to_string(out.join("README.md")).unwrap(), "old");
    let beside: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(".new-") || n.contains(".tmp-"))
        .collect();
    assert!(beside.is_empty(), "{beside:?}");
}

#[test]
fn a_report_cleans_what_an_interrupted_one_left_and_replaces_the_folder_whole() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("cases.yaml"), cases_yaml(2, "x")).unwrap();
    let out = dir.path().join("reports");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("survey.md"), "kept").unwrap();
    fs::write(out.join("README.md.tmp-999999"), "left").unwrap();
    fs::create_dir(dir.path().join(".reports.new-999999")).unwrap();
    let cmd = hostile_cmd("plain", dir.path());
    let ran = run(
        dir.path(),
        &[
            "report",
            "--cases",
            "cases.yaml",
            "--adapter-cmd",
            &cmd,
            "--out",
            "reports",
        ],
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "README.md",
            "SCHEMA.md",
            "hostile-plain.md",
            "index.html",
            "results.json",
            "survey.md"
        ]
    );
    assert!(!dir.path().join(".reports.new-999999").exists());
    assert_nothing_left(dir.path());
}
