//! The README's four sections for parser authors ("Cite a result", "Compare two runs", "Add the
//! badge", "Use it in CI"): each at most ten lines, and each command in them run here, in a
//! folder of its own standing for an author's repository, against the built binary.

mod common;

use std::path::Path;
use std::process::Command;

use common::{checkout, output_of, FAKE_ADAPTER};

const SECTIONS: [&str; 4] = [
    "Cite a result",
    "Compare two runs",
    "Add the badge",
    "Use it in CI",
];

/// A section's lines, up to the next heading.
fn section(readme: &str, title: &str) -> Vec<String> {
    let heading = format!("## {title}");
    let start = readme
        .lines()
        .position(|l| l == heading)
        .unwrap_or_else(|| panic!("no `{heading}`"));
    readme
        .lines()
        .skip(start + 1)
        .take_while(|l| !l.starts_with("## "))
        .map(str::to_owned)
        .collect()
}

/// The lines of its fenced blocks of `language`.
fn fenced(lines: &[String], language: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in lines {
        if line.starts_with("```") {
            inside = !inside && line == &format!("```{language}");
            continue;
        }
        if inside {
            out.push(line.clone());
        }
    }
    out
}

#[test]
fn each_section_is_short_and_every_command_in_it_runs() {
    let readme = std::fs::read_to_string(checkout().join("README.md")).unwrap();
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    // The author's repository: an adapter, the tool on PATH (and where the gate script looks for
    // it, so it installs nothing), the script from a checkout, and a report of this repository.
    std::fs::write(dir.join("my_adapter.py"), FAKE_ADAPTER).unwrap();
    let bin = dir.join("tool/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_robotstxt-test"),
        bin.join("robotstxt-test"),
    )
    .unwrap();
    std::os::unix::fs::symlink(checkout().join("scripts"), dir.join("scripts")).unwrap();
    std::fs::create_dir(dir.join("reports")).unwrap();
    std::fs::copy(
        checkout().join("reports/results.json"),
        dir.join("reports/results.json"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let shell = |command: &str| {
        output_of(
            Command::new("bash")
                .args(["-c", command])
                .current_dir(dir)
                .env("PATH", &path)
                .env("RTT_INSTALL_ROOT", dir.join("tool"))
                .env("NO_COLOR", "1")
                .env_remove("GITHUB_STEP_SUMMARY")
                .env_remove("GITHUB_ACTIONS"),
        )
    };
    let expectations = shell(
        "robotstxt-test run --adapter-cmd 'python3 my_adapter.py' --update-expectations expectations.yaml",
    );
    assert_eq!(expectations.code, 0, "{expectations:?}");

    let mut ran = 0;
    for title in SECTIONS {
        let lines = section(&readme, title);
        let counted = (lines.iter())
            .filter(|l| !l.trim().is_empty() && !l.starts_with("```"))
            .count();
        assert!(
            counted <= 10,
            "`## {title}` has {counted} lines: at most ten"
        );
        for command in fenced(&lines, "sh") {
            let out = shell(&command);
            assert!(
                out.code <= 1 && !out.stderr.contains("error:"),
                "`{command}` (in `## {title}`): {out:?}"
            );
            ran += 1;
        }
    }
    assert_eq!(ran, 7, "every command of the four sections");

    // What they promise is there.
    let version = shell("robotstxt-test --version").stdout;
    let released = released_version();
    assert!(
        version.contains(&format!("(suite {released},"))
            || version.contains(&format!("(suite {released}+changes,")),
        "{version}"
    );
    let report = std::fs::read_dir(dir.join("report/badges"))
        .unwrap()
        .count();
    assert_eq!(report, 2, "a badge and its endpoint JSON");
    let badge = section(&readme, "Add the badge")
        .into_iter()
        .find(|l| l.contains("img.shields.io/endpoint"))
        .unwrap();
    let published = badge
        .split("/main/")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    assert!(
        checkout().join(published).is_file(),
        "{published} is published"
    );
    let action = std::fs::read_to_string(checkout().join("action.yml")).unwrap();
    let usage = fenced(&section(&readme, "Use it in CI"), "yaml").join("\n");
    for input in ["adapter-cmd", "expectations"] {
        assert!(usage.contains(&format!("{input}:")), "{usage}");
        assert!(
            action.contains(&format!("  {input}:\n")),
            "action.yml has no input `{input}`"
        );
    }
}

/// The corpus version `cases/suite-version.json` records.
fn released_version() -> String {
    let record = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/suite-version.json");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
    record["version"].as_str().unwrap().to_owned()
}
