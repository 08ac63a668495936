//! `robotstxt-test crawl` as a user runs it, with the small crawler of known behaviours in
//! `crawl/tests/fixtures/fake_crawler.py`: exit codes, formats, the gate, and Ctrl-C.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use rustix::process::{kill_process, Pid, Signal};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fake(mode: &str) -> String {
    let script = root().join("crawl/tests/fixtures/fake_crawler.py");
    format!(
        "python3 {} {mode} {{url}} {{agent}} {{timeout}}",
        script.display()
    )
}

fn crawl(mode: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .current_dir(root())
        .args([
            "crawl",
            "--crawler-cmd",
            &fake(mode),
            "--profile",
            "rfc9309",
        ])
        .args(["--request-timeout", "1"])
        .args(extra)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn exit_codes_say_pass_failure_and_no_data() {
    let obedient = crawl("obedient", &[]);
    assert_eq!(
        obedient.status.code(),
        Some(0),
        "{}",
        text(&obedient.stdout)
    );
    let broken = crawl("allow-on-5xx", &[]);
    assert_eq!(broken.status.code(), Some(1));
    let shown = text(&broken.stdout);
    assert!(
        shown.contains("fetched a page it must leave alone, after robots.txt a stall"),
        "{shown}"
    );
    assert!(shown.contains("request log"), "{shown}");
    let nothing = crawl("nothing", &[]);
    assert_eq!(nothing.status.code(), Some(3));
    assert!(text(&nothing.stdout).contains("0 with data"));
}

#[test]
fn a_crawler_cmd_without_a_profile_or_a_url_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .current_dir(root())
        .args(["crawl", "--crawler-cmd", "true {url}"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--profile"),
        "{}",
        text(&out.stderr)
    );
    let out = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .current_dir(root())
        .args(["crawl", "--crawler-cmd", "true", "--profile", "rfc9309"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn json_and_junit_carry_every_check_and_the_gate_passes_on_its_own_file() {
    let cases = ["--cases", "cases/access/faults.yaml"];
    let json = crawl(
        "allow-on-5xx",
        &[&cases[..], &["--format", "json"]].concat(),
    );
    let document: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let run = &document["crawlers"][0];
    assert_eq!(run["counts"]["fail"], 6, "{}", run["counts"]);
    assert!(run["cases"][0]["log"].as_array().unwrap().len() >= 4);
    let junit = text(
        &crawl(
            "allow-on-5xx",
            &[&cases[..], &["--format", "junit"]].concat(),
        )
        .stdout,
    );
    assert_eq!(junit.matches("<failure").count(), 6, "{junit}");
    let github = text(
        &crawl(
            "allow-on-5xx",
            &[&cases[..], &["--format", "github"]].concat(),
        )
        .stdout,
    );
    let errors: Vec<&str> = github
        .lines()
        .filter(|l| l.starts_with("::error "))
        .collect();
    assert_eq!(errors.len(), 6, "{github}");
    let first = "::error file=cases/access/faults.yaml,line=4,title=crawler-cmd access/faults/reset-before-status#0::a:/private: fetched";
    assert!(errors[0].starts_with(first), "{github}");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("expectations.yaml");
    let file = file.to_str().unwrap();
    let written = crawl(
        "allow-on-5xx",
        &[&cases[..], &["--update-expectations", file]].concat(),
    );
    assert_eq!(written.status.code(), Some(0), "{}", text(&written.stderr));
    let gated = crawl(
        "allow-on-5xx",
        &[&cases[..], &["--expectations", file]].concat(),
    );
    assert_eq!(gated.status.code(), Some(0), "{}", text(&gated.stderr));
    // The obedient crawler passes what the file lists as failing: fixed, not a regression.
    let fixed = crawl(
        "obedient",
        &[&cases[..], &["--expectations", file]].concat(),
    );
    assert_eq!(fixed.status.code(), Some(0));
    assert!(
        text(&fixed.stderr).contains("fixed: crawler-cmd access/faults/"),
        "{}",
        text(&fixed.stderr)
    );
    let regressed = crawl(
        "no-robots",
        &[
            &["--cases", "cases/access/status.yaml"][..],
            &["--expectations", file],
        ]
        .concat(),
    );
    assert_eq!(
        regressed.status.code(),
        Some(1),
        "{}",
        text(&regressed.stderr)
    );
}

/// Processes whose environment carries a crawler mark handed out by the harness `pid`.
fn marked_by(pid: u32) -> Vec<u32> {
    let prefix = format!("ROBOTSTXT_CRAWL_MARK={pid}-");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(n) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        if environ
            .split(|b| *b == 0)
            .any(|v| v.starts_with(prefix.as_bytes()))
        {
            found.push(n);
        }
    }
    found
}

#[test]
fn ctrl_c_leaves_no_crawler_behind_not_even_a_detached_child() {
    let script = root().join("crawl/tests/fixtures/fake_crawler.py");
    let cmd = format!(
        "setsid sleep 300 < /dev/null > /dev/null 2>&1 & python3 {} hang {{url}} {{agent}} {{timeout}}",
        script.display()
    );
    let mut harness = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .current_dir(root())
        .args([
            "crawl",
            "--crawler-cmd",
            &cmd,
            "--profile",
            "rfc9309",
            "--case-limit",
            "120",
        ])
        .args(["--cases", "cases/access/groups.yaml"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = harness.id();
    let started = Instant::now();
    while marked_by(pid).len() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the crawler never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    kill_process(Pid::from_raw(pid as i32).unwrap(), Signal::INT).unwrap();
    let status = harness.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    std::thread::sleep(Duration::from_millis(200));
    let left = marked_by(pid);
    // Not left running by the test either, whatever it finds.
    for leftover in &left {
        let _ = kill_process(Pid::from_raw(*leftover as i32).unwrap(), Signal::KILL);
    }
    assert_eq!(left, Vec::<u32>::new());
}

#[test]
fn a_crawl_selects_by_topic_and_case_and_names_what_is_unknown() {
    let one = crawl(
        "obedient",
        &[
            "--case",
            "access/faults/reset-before-status",
            "--format",
            "json",
        ],
    );
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert!(
        text(&one.stderr).contains("access cases: 1 ("),
        "{}",
        text(&one.stderr)
    );
    assert!(
        text(&one.stderr).contains("a partial run"),
        "{}",
        text(&one.stderr)
    );
    let topic = crawl("obedient", &["--topic", "faults", "--format", "json"]);
    assert_eq!(topic.status.code(), Some(0), "{}", text(&topic.stderr));
    assert!(
        text(&topic.stdout).contains("access/faults/reset-before-status"),
        "{}",
        text(&topic.stdout)
    );
    assert!(
        !text(&topic.stdout).contains("access/status/"),
        "{}",
        text(&topic.stdout)
    );
    for (flag, value, said) in [
        ("--topic", "nope", "no such access topic"),
        ("--case", "access/nope/x", "no such access case"),
    ] {
        let out = crawl("obedient", &[flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(text(&out.stderr).contains(said), "{}", text(&out.stderr));
    }
}
