//! Adapters that flood, lie about their name, detach a helper, or break part way; numbers that
//! overflow; an archive that inflates to far more than it weighs.

use std::fs;
use std::io::Write;
use std::time::Duration;

use crate::support::{assert_nothing_left, cases_yaml, drive, hostile_cmd, run, scratch};

#[test]
fn huge_error_texts_are_capped_and_shown_once() {
    const CHECKS: usize = 150;
    /// Kept whole, the errors alone would take 150 MB (75 objects of 2 MB: 150 MB too).
    const CAPPED_MIB: f64 = 100.0;
    // 150 checks of a 1 MB (or 2 MB) error each: kept whole, the errors alone would pass the
    // cap; cut to 4 KiB as the protocol says, they take under 1 MB.
    for (mode, checks) in [("huge-error", CHECKS), ("error-object", CHECKS / 2)] {
        let (dir, cmd) = scratch(checks, "x", mode);
        // Every block (--verbose): each repeats the error, which must be shown once in full.
        let ran = drive(dir.path(), "run", &cmd, &["--verbose"]);
        assert_eq!(ran.code, 1, "{mode}: {}", ran.stderr);
        assert!(
            ran.peak_mib < CAPPED_MIB,
            "{mode}: peak {:.0} MiB",
            ran.peak_mib
        );
        assert!(
            ran.stdout_bytes < 1 << 20,
            "{mode}: {} bytes of output",
            ran.stdout_bytes
        );
        assert_eq!(
            ran.stdout.matches("bytes cut)").count(),
            1,
            "{mode}: shown once"
        );
        assert_eq!(
            ran.stdout.matches("the same as for cases/case-0#0").count(),
            checks - 1
        );
        let json = drive(dir.path(), "run", &cmd, &["--format", "json"]);
        let document: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
        let detail = document["results"][0]["detail"].as_str().unwrap();
        assert!(
            detail.len() < 4200 && detail.ends_with("bytes cut)"),
            "{mode}"
        );
        assert_nothing_left(dir.path());
    }
}

/// `adapters check` holds an adapter's errors to the protocol's 4 KiB, whatever their type: a
/// 1 MB string or a 2 MB JSON object per answer is not printed whole, once per probe.
#[test]
fn adapters_check_caps_error_texts() {
    for mode in ["huge-error", "error-object"] {
        let dir = tempfile::tempdir().unwrap();
        let cmd = hostile_cmd(mode, dir.path());
        let ran = run(dir.path(), &["adapters", "check", "--adapter-cmd", &cmd]);
        assert_eq!(ran.code, 1, "{mode}: {}", ran.stderr);
        let probes = (ran.stdout.lines())
            .filter(|l| l.starts_with("  ok  ") || l.starts_with("  FAIL  "))
            .count();
        assert!(probes >= 5, "{mode}: {probes} probes");
        // At most 4 KiB of error, quoted, and a few lines of context per probe.
        assert!(
            ran.stdout_bytes < probes * (5 << 10),
            "{mode}: {} bytes for {probes} probes",
            ran.stdout_bytes
        );
        assert!(ran.stdout.contains("bytes cut)"), "{mode}: nothing was cut");
        assert_nothing_left(dir.path());
    }
}

#[test]
fn a_name_that_climbs_out_of_its_folder_stays_inside() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("a/b/c");
    fs::create_dir_all(deep.join("cases")).unwrap();
    fs::write(deep.join("cases/c.yaml"), cases_yaml(1, "x")).unwrap();
    let cmd = hostile_cmd("escape-name", dir.path());
    let ran = run(&deep, &["fuzz", "--adapter-cmd", &cmd, "--docs", "5"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let named: Vec<_> = walkdir::WalkDir::new(dir.path())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains("fuzzescape"))
        .map(|e| e.into_path())
        .collect();
    assert_eq!(named, [deep.join("fuzz/findings/fuzzescape")]);
    assert_nothing_left(dir.path());
}

#[test]
fn a_detached_helper_holding_stdout_is_a_crash_and_is_stopped() {
    let (dir, cmd) = scratch(3, "FAULT", "detach");
    let ran = drive(dir.path(), "run", &cmd, &["--format", "json"]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let document: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(document["results"][2]["outcome"], "crash", "{}", ran.stdout);
    assert!(ran.elapsed < Duration::from_secs(4), "{:?}", ran.elapsed);
    assert_nothing_left(dir.path());
}

#[test]
fn fuzz_and_minimize_exit_3_when_the_adapter_breaks_and_fuzz_names_what_it_saved() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("cases")).unwrap();
    fs::write(dir.path().join("cases/c.yaml"), cases_yaml(1, "x")).unwrap();
    let cmd = hostile_cmd("disagree-then-break", dir.path());
    let ran = run(
        dir.path(),
        &[
            "fuzz",
            "--adapter-cmd",
            &cmd,
            "--docs",
            "100000",
            "--budget",
            "10",
            "--out",
            "found",
        ],
    );
    assert_eq!(ran.code, 3, "{}", ran.stderr);
    let saved: Vec<_> = fs::read_dir(dir.path().join("found")).unwrap().collect();
    assert!(!saved.is_empty(), "{}", ran.stderr);
    assert!(
        ran.stderr.contains(&format!(
            "{} finding(s) saved before the error",
            saved.len()
        )),
        "{}",
        ran.stderr
    );
    for entry in saved {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            ran.stderr.contains(&name),
            "{name} not named: {}",
            ran.stderr
        );
    }
    assert_nothing_left(dir.path());
    fs::write(
        dir.path().join("robots.txt"),
        "User-agent: *\nDisallow: /a\n",
    )
    .unwrap();
    let args = [
        "minimize",
        "--adapter-cmd",
        &cmd,
        "--robots",
        "robots.txt",
        "--agent",
        "a",
        "--path",
        "/b",
    ];
    let ran = run(dir.path(), &args);
    assert_eq!(ran.code, 3, "{}", ran.stderr);
}

#[test]
fn numbers_out_of_range_are_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("cases")).unwrap();
    fs::write(dir.path().join("cases/c.yaml"), cases_yaml(1, "x")).unwrap();
    let cmd = hostile_cmd("slow", dir.path());
    for args in [
        vec!["run", "--adapter-cmd", &cmd, "--timeout=1e300"],
        vec!["fuzz", "--adapter-cmd", &cmd, "--time", "1e300"],
        vec!["run", "--adapter-cmd", &cmd, "--timeout=-1"],
        vec!["run", "--adapter-cmd", &cmd, "--timeout=nan"],
        vec!["run", "--timeout=1e300"],
        vec!["report", "--timeout=1e300"],
    ] {
        let ran = run(dir.path(), &args);
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.stderr);
        assert!(
            ran.stderr.contains("out of range") || ran.stderr.contains("positive number"),
            "{args:?}: {}",
            ran.stderr
        );
    }
}

/// Peak memory of a survey over an archive holding one 64 MiB member, in MiB.
const SURVEY_MIB: f64 = 100.0;

#[test]
fn a_survey_skips_and_names_oversized_members() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("corpus.tar.xz");
    let encoder = xz2::write::XzEncoder::new(fs::File::create(&archive).unwrap(), 1);
    let mut tar = tar::Builder::new(encoder);
    let mut add = |name: &str, body: &mut dyn std::io::Read, size: u64| {
        let mut header = tar::Header::new_gnu();
        header.set_size(size);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, name, body).unwrap();
    };
    add(
        "a/robots.txt",
        &mut &b"User-agent: *\nDisallow: /x\n"[..],
        27,
    );
    add(
        "bomb/robots.txt",
        &mut std::io::repeat(0).take(64 << 20),
        64 << 20,
    );
    add("b/robots.txt", &mut &b"User-agent: *\nAllow: /\n"[..], 23);
    tar.into_inner().unwrap().finish().unwrap().flush().unwrap();
    let cmd = hostile_cmd("slow-none", dir.path());
    let ran = run(
        dir.path(),
        &[
            "survey",
            "--corpus",
            "corpus.tar.xz",
            "--adapter-cmd",
            &cmd,
            "--out",
            "out",
        ],
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(ran.peak_mib < SURVEY_MIB, "peak {:.0} MiB", ran.peak_mib);
    assert!(
        ran.stderr.contains("skipped 1 file(s) larger than")
            && ran.stderr.contains("bomb/robots.txt"),
        "{}",
        ran.stderr
    );
    assert!(ran.stdout.contains("surveyed 2 files"), "{}", ran.stdout);
    let report = fs::read_to_string(dir.path().join("out/survey.md")).unwrap();
    assert!(report.contains("bomb/robots.txt"), "{report}");
    assert_nothing_left(dir.path());
}

use std::io::Read as _;
