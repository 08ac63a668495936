//! Every row of the README's "Exit codes" table, each from a run of the binary: the code follows
//! from what went wrong, not from where.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{binary, names_in, output_of, run_binary, Output, Scratch};
use robotstxt_suite::expectations::ExpectationFile;

/// One case the reference passes: `/a` is disallowed.
const CORPUS: &str = "cases:\n  - name: one\n    spec: test\n    \
    robots: \"User-agent: *\\nDisallow: /a\\n\"\n    checks:\n      \
    - { agent: FooBot, path: /a, expect: disallowed }\n";

/// Runs the binary under `sh` with no room for the content of any file (`ulimit -f 0`), as on a
/// full disk, and SIGXFSZ ignored so that a write fails instead of killing the process.
fn run_on_a_full_disk(dir: &Path, args: &[&str]) -> Output {
    output_of(
        Command::new("sh")
            .arg("-c")
            .arg("trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_robotstxt-test"))
            .args(args)
            .current_dir(dir)
            .env("NO_COLOR", "1"),
    )
}

/// `check` on a small robots.txt, its answer written to `stdout`.
fn check_into(stdout: impl Into<Stdio>) -> Output {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("robots.txt"),
        "User-agent: *\nDisallow: /\n",
    )
    .unwrap();
    let args = [
        "check",
        "--robots",
        "robots.txt",
        "--agent",
        "a",
        "--path",
        "/",
    ];
    output_of(binary(dir.path(), &args).stdout(stdout))
}

#[test]
fn code_0_every_scored_check_as_expected() {
    let scratch = Scratch::new(CORPUS);
    let out = scratch.run("run", &[]);
    assert_eq!(out.code, 0, "{out:?}");
}

#[test]
fn code_1_a_scored_check_failed() {
    let scratch = Scratch::new(CORPUS);
    // The fake adapter answers `allowed` to everything.
    let out = scratch.run("run", &["--adapter-cmd", &scratch.fake_cmd("")]);
    assert_eq!(out.code, 1, "{out:?}");
}

#[test]
fn code_2_bad_arguments_or_a_bad_input_file_named_by_file_line_and_field() {
    let scratch = Scratch::new(&CORPUS.replace("spec: test", "spec: 12"));
    let out = scratch.run("run", &[]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("cases/gate.yaml:3:11: cases[0].spec: "),
        "{}",
        out.stderr
    );
    let out = run_binary(scratch.dir.path(), &["run", "--timeout", "0"]);
    assert_eq!(out.code, 2, "{out:?}");
    let out = run_binary(
        scratch.dir.path(),
        &[
            "check",
            "--robots",
            "missing.txt",
            "--agent",
            "a",
            "--path",
            "/",
        ],
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("missing.txt:"), "{}", out.stderr);
}

#[test]
fn code_3_an_adapter_unavailable_or_broken() {
    let scratch = Scratch::new(CORPUS);
    let out = scratch.run(
        "run",
        &["--adapter-cmd", "no-such-program-for-robotstxt-test"],
    );
    assert_eq!(out.code, 3, "{out:?}");
}

#[test]
fn code_4_an_unstable_check() {
    // The chaos adapter's even-numbered starts answer `disallowed`, the others `allowed`.
    let scratch = Scratch::new(&CORPUS.replace("disallowed", "allowed"));
    let chaos = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adapters/chaos.py");
    let state = scratch.path("starts");
    let cmd = format!("python3 {} alternate {}", chaos.display(), state.display());
    // Nothing listed: the first answer (`disallowed`) is a regression, until it is asked again
    // and changes.
    let expectations = scratch.path("expectations.yaml");
    fs::write(
        &expectations,
        ExpectationFile::empty("chaos-alternate").to_yaml(),
    )
    .unwrap();
    let out = scratch.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--expectations",
            expectations.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, 4, "{out:?}");
}

#[test]
fn code_5_a_full_standard_output() {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = check_into(full);
    assert_eq!(out.code, 5, "{out:?}");
    assert!(out.stderr.contains("error: standard output: "), "{out:?}");
    assert!(!out.stderr.contains("panicked"), "{out:?}");
}

#[test]
fn code_5_reports_that_cannot_be_written_leave_the_old_ones_whole() {
    let scratch = Scratch::new(CORPUS);
    let reports = scratch.path("reports");
    fs::create_dir(&reports).unwrap();
    fs::write(reports.join("README.md"), "old").unwrap();
    let cmd = scratch.fake_cmd("");
    let args = [
        "report",
        "--cases",
        "cases",
        "--adapter-cmd",
        &cmd,
        "--out",
        "reports",
    ];
    let out = run_on_a_full_disk(scratch.dir.path(), &args);
    assert_eq!(out.code, 5, "{out:?}");
    assert!(
        out.stderr.contains("error: cannot write the reports: "),
        "{}",
        out.stderr
    );
    assert_eq!(names_in(&reports), ["README.md"]);
    assert_eq!(
        fs::read_to_string(reports.join("README.md")).unwrap(),
        "old"
    );
    let beside: Vec<String> = names_in(scratch.dir.path())
        .into_iter()
        .filter(|n| n.contains(".new-"))
        .collect();
    assert!(beside.is_empty(), "{beside:?}");
    // The same run with room for its files writes them.
    let out = run_binary(scratch.dir.path(), &args);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(names_in(&reports).contains(&"results.json".to_owned()));
}

#[test]
fn code_5_an_expectation_file_that_cannot_be_written_is_left_as_it_was() {
    let scratch = Scratch::new(CORPUS);
    let file = scratch.path("expectations.yaml");
    let old = ExpectationFile::empty("fake").to_yaml();
    fs::write(&file, &old).unwrap();
    let cmd = scratch.fake_cmd("");
    // The fake adapter fails the case, so the file lists it.
    let out = run_on_a_full_disk(
        scratch.dir.path(),
        &[
            "run",
            "--cases",
            "cases",
            "--adapter-cmd",
            &cmd,
            "--update-expectations",
            "expectations.yaml",
        ],
    );
    assert_eq!(out.code, 5, "{out:?}");
    assert!(out.stderr.contains("expectations.yaml: "), "{}", out.stderr);
    assert_eq!(fs::read_to_string(&file).unwrap(), old);
    assert_eq!(
        names_in(scratch.dir.path()),
        ["cases", "expectations.yaml", "fake.py"],
        "no temporary left"
    );
}

#[test]
fn code_141_standard_output_closed_by_its_reader() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = check_into(writer);
    assert_eq!(out.code, 141, "{out:?}");
    assert!(out.stderr.is_empty(), "quietly: {out:?}");
}

#[test]
fn help_lists_every_code() {
    let out = run_binary(Path::new("."), &["--help"]);
    // The help wraps at 120 columns: read it as one line.
    let help = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    for row in [
        "0 every scored check as expected",
        "1 failures",
        "2 usage or input",
        "3 an adapter",
        "4 (with expectations)",
        "5 the output could not be written",
        "141 standard output closed",
    ] {
        assert!(help.contains(row), "{row}: {}", out.stdout);
    }
}
