//! Case files and case folders built to exhaust memory or time, or to slip past the checks.

use std::fs;
use std::path::Path;
use std::time::Duration;

use crate::support::run;

/// Peak memory any refused case file may cost, in MiB.
const CASE_FILE_MIB: f64 = 100.0;

/// Runs `run --cases <name>` in `dir` and returns (exit code, stderr), asserting the memory cap.
fn refuse(dir: &Path, name: &str) -> (i32, String) {
    let ran = run(dir, &["run", "--cases", name]);
    assert!(
        ran.peak_mib < CASE_FILE_MIB,
        "{name}: peak {:.0} MiB",
        ran.peak_mib
    );
    assert!(
        ran.elapsed < Duration::from_secs(10),
        "{name}: {:?}",
        ran.elapsed
    );
    (ran.code, ran.stderr)
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) {
    fs::write(dir.join(name), bytes).unwrap();
}

#[test]
fn anchors_and_aliases_are_refused_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    // The amplification: one anchored list of 20 000 checks reused by 20 000 cases.
    let mut yaml =
        String::from("cases:\n  - name: c0\n    spec: s\n    robots: \"\"\n    checks: &k\n");
    for _ in 0..20_000 {
        yaml.push_str("      - { agent: a, path: /, expect: allowed }\n");
    }
    for i in 1..20_000 {
        yaml.push_str(&format!(
            "  - {{ name: c{i}, spec: s, robots: \"\", checks: *k }}\n"
        ));
    }
    write(dir.path(), "bomb.yaml", &yaml);
    let (code, stderr) = refuse(dir.path(), "bomb.yaml");
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("bomb.yaml:5:") && stderr.contains("anchor"),
        "{stderr}"
    );
}

#[test]
fn deep_nesting_is_refused_fast() {
    let dir = tempfile::tempdir().unwrap();
    let flow = format!("cases: {}{}\n", "[".repeat(200_000), "]".repeat(200_000));
    write(dir.path(), "flow.yaml", flow);
    let (code, stderr) = refuse(dir.path(), "flow.yaml");
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("flow.yaml:1:") && stderr.contains("nested more than"),
        "{stderr}"
    );
    let mut block = String::from("cases:\n");
    for depth in 0..40 {
        block.push_str(&format!("{}- \n", "  ".repeat(depth + 1)));
    }
    write(dir.path(), "block.yaml", block);
    let (code, stderr) = refuse(dir.path(), "block.yaml");
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("block.yaml:") && stderr.contains("nested more than"),
        "{stderr}"
    );
}

#[test]
fn every_bad_file_is_reported_with_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let case = |robots: &str| {
        format!("cases:\n  - name: a\n    spec: s\n    robots: {robots}\n    checks:\n      - {{ agent: a, path: /, expect: allowed }}\n")
    };
    let files: Vec<(&str, Vec<u8>, &str)> = vec![
        ("number.yaml", case("12").into_bytes(), "number.yaml:4:"),
        ("boolean.yaml", case("true").into_bytes(), "boolean.yaml:4:"),
        ("nul.yaml", case("\"x\0\"").into_bytes(), "nul.yaml:4:"),
        (
            "latin1.yaml",
            [case("\"ok\"").as_bytes(), b"# caf\xe9\n"].concat(),
            "latin1.yaml:7:",
        ),
        (
            "two.yaml",
            format!("{}---\n{}", case("\"a\""), case("\"b\"")).into_bytes(),
            "two.yaml:7:",
        ),
        (
            "empty-list.yaml",
            b"# nothing\ncases: []\n".to_vec(),
            "empty-list.yaml:2:",
        ),
        ("null.yaml", b"cases:\n".to_vec(), "null.yaml:"),
        ("blank.yaml", b"".to_vec(), "blank.yaml:1:"),
    ];
    for (name, bytes, expected) in &files {
        let one = tempfile::tempdir().unwrap();
        write(one.path(), name, bytes);
        let (code, stderr) = refuse(one.path(), name);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{name}: wanted {expected}: {stderr}"
        );
        let line = stderr
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name}: {stderr}"));
        let after = &line[line.find(name).unwrap() + name.len()..];
        assert!(
            after.starts_with(':') && after[1..].starts_with(|c: char| c.is_ascii_digit()),
            "{name}: no line in {line}"
        );
    }
    let _ = dir;
}

#[test]
fn zero_cases_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("empty")).unwrap();
    let ran = run(dir.path(), &["run", "--cases", "empty"]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("no case found in empty"),
        "{}",
        ran.stderr
    );
    let ran = run(
        dir.path(),
        &["run", "--cases", "empty", "--format", "junit"],
    );
    assert_eq!(ran.code, 2);
    assert!(!ran.stdout.contains("tests=\"0\""));
}

#[test]
fn symlink_loops_end_and_each_file_counts_once() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    fs::create_dir_all(cases.join("real")).unwrap();
    write(
        &cases.join("real"),
        "one.yaml",
        crate::support::cases_yaml(1, "x"),
    );
    // A link to a sibling folder: its file is the same file, counted once.
    std::os::unix::fs::symlink("real", cases.join("alias")).unwrap();
    let ran = run(
        dir.path(),
        &["run", "--cases", "cases", "--format", "junit"],
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(ran.stdout.contains("tests=\"1\""), "{}", ran.stdout);
    // Two links to `..`: a loop, found and named, not walked forever.
    std::os::unix::fs::symlink("..", cases.join("real/up")).unwrap();
    std::os::unix::fs::symlink("..", cases.join("real/up2")).unwrap();
    let ran = run(dir.path(), &["run", "--cases", "cases"]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("loops back"), "{}", ran.stderr);
    assert!(ran.peak_mib < CASE_FILE_MIB && ran.elapsed < Duration::from_secs(5));
}

#[test]
fn special_and_oversized_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    let fifo = cases.join("fifo.yaml");
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
    )
    .unwrap();
    std::os::unix::fs::symlink("/dev/zero", cases.join("zero.yaml")).unwrap();
    write(&cases, "big.yaml", vec![b'#'; 5 << 20]);
    let (code, stderr) = refuse(dir.path(), "cases");
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("fifo.yaml:1: cannot read: not a regular file"),
        "{stderr}"
    );
    assert!(
        stderr.contains("zero.yaml:1: cannot read: not a regular file"),
        "{stderr}"
    );
    assert!(
        stderr.contains("big.yaml:1: cannot read: longer than the limit"),
        "{stderr}"
    );
}
