//! `scripts/ci-gate.sh`, the steps of `action.yml`, run as a parser author's repository runs
//! them: in a folder of its own holding an adapter and its expectation file, installing
//! robotstxt-test (compiled from this checkout, through `RTT_SOURCE`, where the action installs
//! the release's wheel; `harness/tests/packages.rs` runs it with the wheel built here), green with
//! the expectations as written and red after one is edited.

mod common;

use std::path::Path;
use std::process::Command;

use common::{checkout, output_of, target_dir, Output, FAKE_ADAPTER};

fn gate(repo: &Path, root: &Path) -> (Output, String) {
    let summary = repo.join("summary.md");
    let _ = std::fs::remove_file(&summary);
    let output = output_of(
        Command::new("bash")
            .arg(checkout().join("scripts/ci-gate.sh"))
            .current_dir(repo)
            .env("RTT_ADAPTER_CMD", "python3 adapter.py author-parser 2.0")
            .env("RTT_INSTALL_ROOT", root)
            .env("RTT_SOURCE", checkout())
            .env("CARGO_TARGET_DIR", target_dir())
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("NO_COLOR", "1"),
    );
    let summary = std::fs::read_to_string(&summary).unwrap_or_default();
    (output, summary)
}

#[test]
fn the_action_script_passes_and_fails_the_gate_as_it_should() {
    let repo = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    std::fs::write(repo.path().join("adapter.py"), FAKE_ADAPTER).unwrap();

    // No expectation file yet: bad input, and the command that writes one.
    let (missing, _) = gate(repo.path(), root.path());
    assert_eq!(missing.code, 2, "{missing:?}");
    assert!(
        missing.stderr.contains("--update-expectations"),
        "{missing:?}"
    );

    // The author writes the file, as the message says; the gate installs its own tool.
    let written = output_of(
        Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
            .args([
                "run",
                "--adapter-cmd",
                "python3 adapter.py author-parser 2.0",
            ])
            .args(["--update-expectations", "expectations.yaml"])
            .current_dir(repo.path()),
    );
    assert_eq!(written.code, 0, "{written:?}");

    let (green, summary) = gate(repo.path(), root.path());
    assert_eq!(green.code, 0, "{green:?}");
    assert!(
        root.path().join("bin/robotstxt-test").is_file(),
        "installed into the root"
    );
    assert!(!green.stdout.contains("::error"), "{}", green.stdout);
    assert!(summary.contains("No change."), "{summary}");
    let junit = std::fs::read_to_string(repo.path().join("robotstxt-test-junit.xml")).unwrap();
    assert!(junit.contains("<testsuite"), "{junit}");

    // An entry edited to another outcome: the check is a regression, annotated on that line.
    let file = repo.path().join("expectations.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let line = text
        .lines()
        .position(|l| l.trim() == "outcome: fail")
        .unwrap()
        + 1;
    let check = text
        .lines()
        .nth(line - 2)
        .unwrap()
        .trim()
        .trim_start_matches("- check: ")
        .to_owned();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[line - 1] = "  outcome: error";
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let (red, summary) = gate(repo.path(), root.path());
    assert_eq!(red.code, 1, "{red:?}");
    // One annotation per group of regressions, with its count and an example, on its entry.
    let errors: Vec<&str> = red
        .stdout
        .lines()
        .filter(|l| l.starts_with("::error"))
        .collect();
    assert_eq!(errors.len(), 1, "{}", red.stdout);
    assert!(
        errors[0].starts_with(&format!(
            "::error file=expectations.yaml,line={},title=robotstxt-test::author-parser: 1 regression: ",
            line - 1
        )),
        "{}",
        red.stdout
    );
    assert!(
        errors[0].contains(&format!("; e.g. {check}: listed as error, now fail (")),
        "{}",
        red.stdout
    );
    // The JUnit and the summary are of the same run: the regression is in both, by group.
    let junit = std::fs::read_to_string(repo.path().join("robotstxt-test-junit.xml")).unwrap();
    assert!(junit.contains("<property name=\"regressions: "), "{junit}");
    assert!(
        summary.contains("| group | regressions | e.g. |"),
        "{summary}"
    );
    assert!(summary.contains("| 0 | 0 | 1 | 0 |"), "{summary}");
    assert!(summary.contains(&check), "{summary}");
}

/// What the script prints of outside text (the Markdown of a run whose adapter would not run,
/// the diff) sits between `::stop-commands::TOKEN` and `::TOKEN::`, with a fresh token each
/// time: the runner obeys no command in between, whatever the adapter wrote.
#[test]
fn outside_text_is_printed_with_the_runners_commands_off() {
    let repo = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    // The binary built here stands for the installed one: the script finds its version and
    // installs nothing.
    std::fs::create_dir(root.path().join("bin")).unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_robotstxt-test"),
        root.path().join("bin/robotstxt-test"),
    )
    .unwrap();
    std::fs::write(
        repo.path().join("expectations.yaml"),
        "adapter: hostile-runner-crash\nexpectations: []\n",
    )
    .unwrap();
    let script = checkout().join("harness/tests/adapters/hostile.py");
    let adapter = format!(
        "python3 {} runner-crash {}",
        script.display(),
        repo.path().display()
    );
    let mut tokens = Vec::new();
    for _ in 0..2 {
        let output = output_of(
            Command::new("bash")
                .arg(checkout().join("scripts/ci-gate.sh"))
                .current_dir(repo.path())
                .env("RTT_ADAPTER_CMD", &adapter)
                .env("RTT_INSTALL_ROOT", root.path())
                .env("GITHUB_ACTIONS", "true")
                .env_remove("GITHUB_STEP_SUMMARY")
                .env("NO_COLOR", "1"),
        );
        assert_eq!(output.code, 3, "{output:?}");
        let commands: Vec<&str> = (output.stdout.lines())
            .filter(|l| l.trim_start().starts_with("::"))
            .collect();
        let [stop, resume] = commands[..] else {
            panic!("two command lines: {commands:?}\n{}", output.stdout);
        };
        let token = stop.strip_prefix("::stop-commands::").expect(stop);
        assert!(
            token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit()),
            "{token}"
        );
        assert_eq!(resume, format!("::{token}::"));
        let inside = &output.stdout[output.stdout.find(stop).unwrap()..];
        assert!(inside.contains("add-mask"), "{}", output.stdout);
        tokens.push(token.to_owned());
    }
    assert_ne!(tokens[0], tokens[1], "a fresh token each time");
}
