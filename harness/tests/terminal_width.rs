//! What a terminal shows fits it: `run`'s default text against a real parser is at most 150
//! lines, none wider than 120 columns; long notes, explanations and bodies wrap or are cut.

mod common;

use common::{checkout, run_binary, Scratch};

const COLUMNS: usize = 120;

fn widest(text: &str) -> (usize, &str) {
    text.lines()
        .map(|l| (l.chars().count(), l))
        .max()
        .unwrap_or((0, ""))
}

#[test]
fn python_urllib_fits_a_screen_or_two() {
    let root = checkout();
    let listed = run_binary(&root, &["adapters"]);
    let usable = listed.stdout.lines().any(|l| {
        l.split_whitespace().next() == Some("python-urllib") && !l.contains("unavailable")
    });
    if !usable {
        eprintln!("note: python-urllib is not installed here; `adapters install python-urllib`");
        return;
    }
    let out = run_binary(&root, &["run", "--adapter", "python-urllib"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let lines = out.stdout.lines().count();
    assert!(lines <= 150, "{lines} lines:\n{}", out.stdout);
    let (width, line) = widest(&out.stdout);
    assert!(width <= COLUMNS, "{width} columns: {line}");
    // Every group is there, the smaller ones as a line to follow.
    assert!(
        out.stdout.contains("cite as: passes robotstxt-test suite "),
        "{}",
        out.stdout
    );
}

#[test]
fn long_notes_and_bodies_fit_in_every_human_view() {
    let note = "a long note ".repeat(40);
    let value = "x".repeat(300);
    let corpus = format!(
        "cases:\n  - name: long\n    spec: test\n    note: \"{note}\"\n    robots: \"User-agent: *\\nDisallow: /{value}\\nDisallow: /\\n\"\n    checks:\n      - {{ agent: FooBot, path: /a, expect: disallowed }}\n"
    );
    let s = Scratch::new(&corpus);
    let cmd = s.fake_cmd("fake 1.0");
    for extra in [&[][..], &["--verbose"], &["--format", "long"]] {
        let out = s.run(
            "run",
            &[&["--adapter-cmd", cmd.as_str()][..], extra].concat(),
        );
        assert_eq!(out.code, 1, "{out:?}");
        let (width, line) = widest(&out.stdout);
        assert!(width <= COLUMNS, "{extra:?}: {width} columns: {line}");
        assert!(out.stdout.contains("a long note"), "{out:?}");
    }
}

#[test]
fn every_help_fits() {
    let dir = tempfile::tempdir().unwrap();
    let commands = [
        "check", "compare", "diff", "run", "crawl", "crawlers", "report", "adapters", "cases",
        "survey", "fuzz", "minimize",
    ];
    let top = run_binary(dir.path(), &["--help"]);
    assert_eq!(top.code, 0, "{top:?}");
    for command in commands {
        let out = run_binary(dir.path(), &[command, "--help"]);
        assert_eq!(out.code, 0, "{command}: {out:?}");
        assert!(
            out.stdout.contains("Usage: robotstxt-test"),
            "{command}: {out:?}"
        );
        let (width, line) = widest(&out.stdout);
        assert!(
            width <= COLUMNS,
            "{command} --help: {width} columns: {line}"
        );
    }
    // Nothing asked: the help, on stderr, and a usage error.
    let bare = run_binary(dir.path(), &[]);
    assert_eq!(bare.code, 2, "{bare:?}");
    assert!(widest(&bare.stderr).0 <= COLUMNS, "{}", bare.stderr);
}
