//! The "Bring your own parser" guide in `adapters/README.md`, followed as written: its Python and
//! JavaScript adapters are taken from the README itself, written to a scratch folder, and run
//! through `--adapter-cmd` (as a command and as an `adapter.yaml`), then gated by an expectation
//! file made with `--update-expectations`.

mod common;

use common::run_binary;

/// The first fenced block of `language` in the adapters README.
fn readme_block(language: &str) -> String {
    let readme = std::fs::read_to_string(common::checkout().join("adapters/README.md")).unwrap();
    let fence = format!("```{language}\n");
    let start = readme.find(&fence).expect("the README has the block") + fence.len();
    let end = start + readme[start..].find("```").unwrap();
    readme[start..end].to_owned()
}

/// The summary line of a human run: `<name> <version> (<profile>): N passed, ...` (first when the
/// non-passes are grouped, last under an expectation file).
fn summary_line(stdout: &str) -> &str {
    (stdout.lines())
        .find(|l| l.contains("): ") && l.contains(" passed, "))
        .unwrap_or("")
}

#[test]
fn the_python_adapter_from_the_readme_runs() {
    let code = readme_block("python");
    assert!(code.lines().count() <= 25, "about 20 lines: {code}");
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("my_adapter.py");
    std::fs::write(&script, code).unwrap();
    let cmd = format!("python3 {}", script.display());

    let out = run_binary(&common::checkout(), &["run", "--adapter-cmd", &cmd]);
    assert!(out.code <= 1, "{out:?}");
    let summary = summary_line(&out.stdout);
    assert!(summary.starts_with("my-parser "), "{summary}");
    assert!(summary.contains("(norobots-1994): "), "{summary}");
    assert!(!summary.contains(" 0 passed"), "{summary}");
    // The body is decoded as the parser's real callers decode it, so no body is charged to the
    // parser as rejected.
    assert!(summary.contains(" 0 errored"), "{summary}");

    // The guide's CI workflow: list what does not pass, then gate on it.
    let file = dir.path().join("expectations.yaml");
    let file = file.to_str().unwrap();
    let update = run_binary(
        &common::checkout(),
        &["run", "--adapter-cmd", &cmd, "--update-expectations", file],
    );
    assert_eq!(update.code, 0, "{update:?}");
    let gate = run_binary(
        &common::checkout(),
        &["run", "--adapter-cmd", &cmd, "--expectations", file],
    );
    assert_eq!(gate.code, 0, "{gate:?}");
    assert!(
        gate.stdout
            .contains(" 0 regressions, 0 unstable, 0 unexpected passes"),
        "{gate:?}"
    );
}

#[test]
fn the_adapter_yaml_from_the_readme_runs() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("my-parser");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("my_adapter.py"), readme_block("python")).unwrap();
    std::fs::write(folder.join("adapter.yaml"), readme_block("yaml")).unwrap();
    let manifest = folder.join("adapter.yaml");
    let out = run_binary(
        &common::checkout(),
        &["run", "--adapter-cmd", manifest.to_str().unwrap()],
    );
    assert!(out.code <= 1, "{out:?}");
    assert!(
        summary_line(&out.stdout).starts_with("my-parser "),
        "{out:?}"
    );
}

#[test]
fn the_javascript_adapter_from_the_readme_runs() {
    // `npm install robots-parser`, as the README says, is what `adapters install` does for the
    // node-robots-parser adapter; CI runs that before the tests.
    let modules = common::checkout().join("target/adapters/node-robots-parser/node/node_modules");
    let node = std::process::Command::new("node").arg("--version").output();
    if node.is_err() || !modules.join("robots-parser").is_dir() {
        eprintln!(
            "skipped: needs node and robots-parser in {} (`robotstxt-test adapters install node-robots-parser`)",
            modules.display()
        );
        return;
    }
    let code = readme_block("javascript");
    assert!(code.lines().count() <= 25, "about 20 lines: {code}");
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("my_adapter.js");
    std::fs::write(&script, code).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .args([
            "run",
            "--adapter-cmd",
            &format!("node {}", script.display()),
        ])
        .current_dir(common::checkout())
        .env("NODE_PATH", &modules)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.code().is_some_and(|c| c <= 1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary = summary_line(&stdout);
    assert!(summary.starts_with("my-js-parser "), "{summary}");
    assert!(summary.contains("(rfc9309): "), "{summary}");
}
