//! The expectation workflow through the binary: writing a file from a run, the gate passing,
//! regressions and unexpected passes (with and without `--strict`), reasons kept across updates,
//! every bad file refused with its file, line and field, and the exit codes.

mod common;

use common::Scratch;

/// The shared four checks: see `common::FOUR_CHECKS`.
const CORPUS: &str = common::FOUR_CHECKS;

fn scratch() -> (Scratch, String) {
    let s = Scratch::new(CORPUS);
    let cmd = s.fake_cmd("fake 1.0");
    (s, cmd)
}

/// A file written by `--update-expectations` from the corpus above.
fn with_file() -> (Scratch, String) {
    let (s, cmd) = scratch();
    let out = s.run(
        "run",
        &["--adapter-cmd", &cmd, "--update-expectations", "exp.yaml"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    (s, cmd)
}

fn read(s: &Scratch, name: &str) -> String {
    std::fs::read_to_string(s.path(name)).unwrap()
}

#[test]
fn without_expectations_a_failure_exits_1() {
    let (s, cmd) = scratch();
    let out = s.run("run", &["--adapter-cmd", &cmd]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout
            .contains("1 passed, 1 failed, 1 unspecified, 1 errored"),
        "{out:?}"
    );
}

#[test]
fn update_lists_every_non_pass_and_the_gate_then_passes() {
    let (s, cmd) = with_file();
    let file = read(&s, "exp.yaml");
    assert!(file.contains("adapter: fake\n"), "{file}");
    assert!(
        file.contains("check: gate/closed#0\n  outcome: fail\n"),
        "{file}"
    );
    assert!(
        file.contains("check: gate/rejected#0\n  outcome: error\n"),
        "{file}"
    );
    assert!(
        !file.contains("gate/open#0"),
        "a pass is never listed: {file}"
    );
    assert!(
        !file.contains("gate/closed#1"),
        "unspecified is never listed: {file}"
    );
    let out = s.run(
        "run",
        &["--adapter-cmd", &cmd, "--expectations", "exp.yaml"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("2 non-passes as listed, 0 regressions, 0 unstable, 0 unexpected passes"),
        "{out:?}"
    );
}

#[test]
fn update_keeps_reasons_and_issues() {
    let (s, cmd) = with_file();
    let file = read(&s, "exp.yaml").replacen(
        "check: gate/closed#0\n  outcome: fail\n  cause: the `*` record applies\n  reason:",
        "check: gate/closed#0\n  outcome: fail\n  issue: https://example.org/issues/7\n  reason: my own words\n  old:",
        1,
    );
    // `old:` makes the previous reason an unknown field; cut that line again.
    let file: String = file
        .lines()
        .filter(|l| !l.trim_start().starts_with("old:"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(s.path("exp.yaml"), &file).unwrap();
    let out = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--expectations",
            "exp.yaml",
            "--update-expectations",
        ],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let after = read(&s, "exp.yaml");
    assert!(
        after.contains("reason: my own words\n  issue: https://example.org/issues/7\n"),
        "{after}"
    );
    // The header names the command actually run, and counts the entries by cause.
    assert!(
        after.contains("# Written by: robotstxt-test run --cases cases --adapter-cmd '"),
        "{after}"
    );
    assert!(after.contains("#   1 check: rejects the body\n"), "{after}");
    assert!(after.contains("  cause: rejects the body\n"), "{after}");
    assert!(
        out.stderr
            .contains("added 0; removed 0; with another outcome 0"),
        "{out:?}"
    );
}

#[test]
fn an_unlisted_failure_is_a_regression() {
    let (s, cmd) = with_file();
    s.corpus(&CORPUS.replace(
        "      - { agent: FooBot, path: /a, expect: allowed }\n  - name: closed",
        "      - { agent: FooBot, path: /a, expect: allowed }\n      - { agent: FooBot, path: /x, expect: disallowed }\n  - name: closed",
    ));
    let out = s.run(
        "run",
        &["--adapter-cmd", &cmd, "--expectations", "exp.yaml"],
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout.contains("REGRESSION gate/open#1 — fail"),
        "{out:?}"
    );
    assert!(out.stdout.contains("1 regression,"), "{out:?}");
}

#[test]
fn another_outcome_than_listed_is_a_regression() {
    let (s, cmd) = with_file();
    let file = read(&s, "exp.yaml").replace(
        "check: gate/rejected#0\n  outcome: error",
        "check: gate/rejected#0\n  outcome: fail",
    );
    std::fs::write(s.path("exp.yaml"), file).unwrap();
    let out = s.run(
        "run",
        &["--adapter-cmd", &cmd, "--expectations", "exp.yaml"],
    );
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout.contains("REGRESSION (listed as fail:"),
        "{out:?}"
    );
}

#[test]
fn an_unexpected_pass_fails_only_under_strict() {
    let (s, cmd) = with_file();
    s.corpus(&CORPUS.replace("path: /a, expect: disallowed", "path: /a, expect: allowed"));
    let out = s.run(
        "run",
        &["--adapter-cmd", &cmd, "--expectations", "exp.yaml"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("UNEXPECTED PASS gate/closed#0: listed as fail"),
        "{out:?}"
    );
    let strict = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--expectations",
            "exp.yaml",
            "--strict",
        ],
    );
    assert_eq!(strict.code, 1, "{strict:?}");
    assert!(strict.stdout.contains("FAILS the gate"), "{strict:?}");
    // An update drops the entry that now passes.
    let out = s.run(
        "run",
        &["--adapter-cmd", &cmd, "--update-expectations", "exp.yaml"],
    );
    assert!(out.stderr.contains("removed 1 ("), "{out:?}");
    assert!(!read(&s, "exp.yaml").contains("gate/closed#0"));
}

/// Runs the gate with `file` as the expectation file; returns the error text (exit code 2).
fn refused(file: &str) -> String {
    let (s, cmd) = scratch();
    std::fs::write(s.path("bad.yaml"), file).unwrap();
    let out = s.run(
        "run",
        &["--adapter-cmd", &cmd, "--expectations", "bad.yaml"],
    );
    assert_eq!(out.code, 2, "{out:?}");
    // The first `bad.yaml:<line>`: several problems come after a heading naming the file.
    let at = out
        .stderr
        .match_indices("bad.yaml:")
        .map(|(at, m)| at + m.len())
        .find(|&at| out.stderr[at..].starts_with(|c: char| c.is_ascii_digit()))
        .expect("the error names the file and line");
    out.stderr[at..].to_owned()
}

const ENTRY: &str = "  - check: gate/closed#0\n    outcome: fail\n    reason: r\n";

#[test]
fn bad_files_name_file_line_and_field() {
    let e = refused(&format!(
        "adapter: fake\nexpectations:\n{ENTRY}    colour: blue\n"
    ));
    assert!(
        e.starts_with("6:5: expectations[0]: unknown field `colour`"),
        "{e}"
    );
    let e = refused(&format!("adapter: fake\nexpectations:\n{ENTRY}").replace("fail", "flaky"));
    assert!(
        e.starts_with("4:14: expectations[0].outcome: unknown outcome `flaky`"),
        "{e}"
    );
    let e = refused(&format!("adapter: fake\nexpectations:\n{ENTRY}").replace("fail", "pass"));
    assert!(
        e.contains("expectations[0].outcome: `pass` is never listed"),
        "{e}"
    );
    let e =
        refused(&format!("adapter: fake\nexpectations:\n{ENTRY}").replace("closed#0", "closed"));
    assert!(
        e.starts_with("3:12: expectations[0].check: `gate/closed` is not a check id"),
        "{e}"
    );
    let e = refused(&format!(
        "adapter: fake\nexpectations:\n{ENTRY}    issue: not a url\n"
    ));
    assert!(
        e.starts_with("6:12: expectations[0].issue: issue `not a url`"),
        "{e}"
    );
    let e =
        refused(&format!("adapter: fake\nexpectations:\n{ENTRY}").replace("    reason: r\n", ""));
    assert!(e.contains("expectations[0]: missing field `reason`"), "{e}");
    // A cause is one `run` groups by, named by its label or its id.
    let e = refused(&format!(
        "adapter: fake\nexpectations:\n{ENTRY}    cause: the moon was full\n"
    ));
    assert!(
        e.starts_with("6:12: expectations[0].cause: unknown cause `the moon was full`"),
        "{e}"
    );
    assert!(e.contains("lone-cr"), "the known ids are listed: {e}");
}

#[test]
fn ids_must_exist_in_the_corpus() {
    let e = refused(&format!(
        "adapter: fake\nexpectations:\n{ENTRY}{}{}",
        ENTRY.replace("closed#0", "gone#0"),
        ENTRY.replace("closed#0", "closed#7"),
    ));
    assert!(
        e.starts_with("6: expectations[1].check: `gate/gone#0`: no case `gate/gone`"),
        "{e}"
    );
    assert!(
        e.contains("--update-expectations drops such entries"),
        "{e}"
    );
    assert!(
        e.contains(
            "bad.yaml:9: expectations[2].check: `gate/closed#7`: case `gate/closed` has 2 check(s)"
        ),
        "{e}"
    );
}

#[test]
fn duplicates_and_the_wrong_adapter_are_refused() {
    let e = refused(&format!("adapter: fake\nexpectations:\n{ENTRY}{ENTRY}"));
    assert!(
        e.starts_with("6: expectations[1].check: `gate/closed#0` is listed twice"),
        "{e}"
    );
    let e = refused(&format!(
        "# comment\nadapter: other\nexpectations:\n{ENTRY}"
    ));
    assert!(
        e.starts_with("2: adapter: the file is for `other`, but the adapter being run is `fake`"),
        "{e}"
    );
}

#[test]
fn exit_codes() {
    let (s, cmd) = with_file();
    // 2: usage errors, an expectation file for several adapters, a missing file.
    assert_eq!(s.run("run", &["--format", "yaml"]).code, 2);
    let two = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--adapter-cmd",
            &cmd,
            "--expectations",
            "exp.yaml",
        ],
    );
    assert_eq!(two.code, 2, "{two:?}");
    assert!(
        two.stderr.contains("--expectations-from-adapters"),
        "{two:?}"
    );
    assert_eq!(
        s.run(
            "run",
            &["--adapter-cmd", &cmd, "--expectations", "nope.yaml"]
        )
        .code,
        2
    );
    let one_file = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--adapter-cmd",
            &cmd,
            "--expectations-from-adapters",
            "--update-expectations",
            "x.yaml",
        ],
    );
    assert_eq!(one_file.code, 2, "{one_file:?}");
    assert!(
        one_file.stderr.contains("one file cannot hold 2 adapters"),
        "{one_file:?}"
    );
    assert!(!s.path("x.yaml").exists());
    // 3: an adapter that cannot start, with or without expectations.
    let missing = s.run("run", &["--adapter-cmd", "/nonexistent/adapter"]);
    assert_eq!(missing.code, 3, "{missing:?}");
    assert!(missing.stdout.contains("unavailable"), "{missing:?}");
    // An unavailable adapter's file is not rewritten.
    let before = read(&s, "exp.yaml");
    let out = s.run(
        "run",
        &[
            "--adapter-cmd",
            "/nonexistent/adapter",
            "--update-expectations",
            "exp.yaml",
        ],
    );
    assert_eq!(out.code, 3, "{out:?}");
    assert_eq!(read(&s, "exp.yaml"), before);
    // --help documents the codes.
    let help = s.run("run", &["--help"]);
    assert!(help.stdout.contains("Exit codes: 0"), "{help:?}");
}

#[test]
fn junit_is_well_formed_with_hostile_text() {
    let (s, cmd) = with_file();
    let out = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--expectations",
            "exp.yaml",
            "--format",
            "junit",
        ],
    );
    assert_eq!(out.code, 0, "{out:?}");
    std::fs::write(s.path("junit.xml"), &out.stdout).unwrap();
    // Python's expat parser is strict XML 1.0: a raw control character would be refused.
    let script = r#"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = root.find("testsuite")
names = [c.get("name") for c in suite.iter("testcase")]
print(root.tag, suite.get("name"), suite.get("tests"), suite.get("skipped"), suite.get("failures"))
print(" ".join(names))
for c in suite.iter("testcase"):
    for s in c:
        print(c.get("name"), s.tag, repr(s.get("message")))
"#;
    let parsed = std::process::Command::new("python3")
        .args(["-c", script, &s.path("junit.xml").to_string_lossy()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&parsed.stdout);
    assert!(
        parsed.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&parsed.stderr),
        out.stdout
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "testsuites fake 4 3 0", "{text}");
    assert_eq!(
        lines[1],
        "gate/open#0 gate/closed#0 gate/closed#1 gate/rejected#0"
    );
    assert!(text.contains("gate/rejected#0 skipped 'expected error: the parser rejects the body: Rejected ␁␛ <&> ]]> \"quoted\" \\'single\\''"), "{text}");
    // Without expectations, the failure and the error are reported as such.
    let plain = s.run("run", &["--adapter-cmd", &cmd, "--format", "junit"]);
    assert_eq!(plain.code, 1);
    assert!(
        plain.stdout.contains("<failure type=\"fail\""),
        "{}",
        plain.stdout
    );
    assert!(
        plain.stdout.contains("<error type=\"error\""),
        "{}",
        plain.stdout
    );
    assert!(!plain.stdout.contains('\u{1}') && !plain.stdout.contains('\u{1b}'));
}

#[test]
fn markdown_summary() {
    let (s, cmd) = with_file();
    let ok = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--expectations",
            "exp.yaml",
            "--format",
            "markdown",
        ],
    );
    assert_eq!(ok.code, 0);
    assert!(
        ok.stdout
            .starts_with("### ✅ robotstxt-test: 1 adapter as expected"),
        "{}",
        ok.stdout
    );
    assert!(
        ok.stdout
            .contains("| `fake` | fake 1.0 | norobots-1994 | 33.3% of decided checks \\(norobots-1994\\) | 1/3 | 1 | 1 | 1 | ✅ 2 as listed, of 2 in `exp.yaml` |"),
        "{}",
        ok.stdout
    );
    s.corpus(&CORPUS.replace(
        "path: /b, expect: { norobots-1994: unspecified }",
        "path: /b, expect: disallowed",
    ));
    let bad = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--expectations",
            "exp.yaml",
            "--format",
            "markdown",
        ],
    );
    assert_eq!(bad.code, 1);
    assert!(bad.stdout.starts_with("### ❌"), "{}", bad.stdout);
    assert!(bad.stdout.contains("#### Not as expected (1)\n\n- `fake` `gate/closed#1`: fail: allowed, expected disallowed (norobots-1994) (not listed)"), "{}", bad.stdout);
}

#[test]
fn json_output_carries_the_gate() {
    let (s, cmd) = with_file();
    s.corpus(&CORPUS.replace("path: /a, expect: disallowed", "path: /a, expect: allowed"));
    let out = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--expectations",
            "exp.yaml",
            "--format",
            "json",
        ],
    );
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["gate"]["as_listed"], 1);
    assert_eq!(doc["gate"]["unexpected_passes"], 1);
    assert_eq!(doc["gate"]["unexpected_pass_ids"][0], "gate/closed#0");
}
