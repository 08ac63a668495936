//! The in-process path as a parser author takes it: a crate outside this workspace, with exactly
//! the dev-dependencies the README names (its `git =` line turned into `path =`), and the example
//! as its `tests/conformance.rs`. A parser that fails checks is red without an expectation file,
//! writes one with one command, and is then green, its listed failures shown as `[listed]`.

use std::path::{Path, PathBuf};
use std::process::Command;

const GIT_LINE: &str = "git = \"https://github.com/robotstxt-test/robotstxt-test\"";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// The README's dependency block, its `git =` made a `path =` to this checkout's `suite/`.
fn readme_dependencies() -> String {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    let marker = "<!-- in-process dependencies";
    let from = readme
        .find(marker)
        .expect("the README marks its dependency block");
    let block = &readme[from..];
    let start = block.find("```toml\n").unwrap() + "```toml\n".len();
    let end = block[start..].find("```").unwrap();
    let toml = &block[start..start + end];
    assert!(
        toml.contains(GIT_LINE),
        "the README shows the git form: {toml}"
    );
    let suite = format!("path = {:?}", env!("CARGO_MANIFEST_DIR"));
    toml.replace(GIT_LINE, &suite)
}

fn cargo_test(dir: &Path, update: bool) -> (bool, String) {
    let mut command = Command::new(env!("CARGO"));
    command
        .args([
            "test",
            "--offline",
            "--test",
            "conformance",
            "--",
            "--test-threads",
            "2",
        ])
        .current_dir(dir)
        // Shared with later runs, under this workspace's own target folder.
        .env("CARGO_TARGET_DIR", workspace().join("target/outside-crate"))
        .env_remove("ROBOTSTXT_TEST_UPDATE_EXPECTATIONS");
    if update {
        command.env("ROBOTSTXT_TEST_UPDATE_EXPECTATIONS", "1");
    }
    let out = command.output().expect("cargo runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn the_readme_dependencies_build_the_example_outside_the_workspace_with_a_listed_failure() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let manifest = format!(
        "[package]\nname = \"my-parser\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n\n{}",
        readme_dependencies()
    );
    std::fs::write(root.join("Cargo.toml"), manifest).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "").unwrap();
    // The same versions as this workspace, so that the build is offline and shares its cache.
    std::fs::copy(workspace().join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    // The example, with a parser that reads every body as the 1994 text while it claims RFC 9309:
    // it fails the checks of what only RFC 9309 reads (`Allow`, `*`, `$`).
    let example =
        std::fs::read_to_string(workspace().join("suite/examples/conformance.rs")).unwrap();
    let wrong = "Robots::parse(Profile::Norobots1994, robots)";
    let parser = example.replace("Robots::parse(Profile::Rfc9309, robots)", wrong);
    assert!(
        parser.contains(wrong),
        "the example parses with the reference"
    );
    std::fs::create_dir_all(root.join("tests")).unwrap();
    std::fs::write(root.join("tests/conformance.rs"), parser).unwrap();

    let (ok, text) = cargo_test(root, false);
    assert!(!ok, "red without a file: {text}");
    assert!(text.contains("REGRESSION (not listed)"), "{text}");
    assert!(
        text.contains("ROBOTSTXT_TEST_UPDATE_EXPECTATIONS=1 cargo test writes it"),
        "{text}"
    );

    let (ok, text) = cargo_test(root, true);
    assert!(ok, "writing the file: {text}");
    let file = std::fs::read_to_string(root.join("tests/expectations.yaml")).unwrap();
    assert!(file.contains("adapter: my-parser"), "{file}");
    assert!(file.contains("outcome: fail"), "{file}");

    let (ok, text) = cargo_test(root, false);
    assert!(ok, "green against the file: {text}");
    assert!(text.contains("test [listed] "), "{text}");
    assert!(text.contains(" 0 failed"), "{text}");

    // A check the file does not list fails again: drop the first entry.
    let first = file.find("\n- check:").unwrap();
    let second = first + 1 + file[first + 1..].find("\n- check:").unwrap();
    let fewer = format!("{}{}", &file[..first], &file[second..]);
    std::fs::write(root.join("tests/expectations.yaml"), fewer).unwrap();
    let (ok, text) = cargo_test(root, false);
    assert!(!ok, "red for the check no longer listed: {text}");
    assert!(text.contains("; 1 failed;"), "{text}");
}
