//! The Python and npm packages, installed and used as a parser author would. One build
//! (`scripts/build-packages.sh`, into `<target>/packages/`) makes the wheel and the npm tarballs;
//! each goes into a fresh venv or npm project in a temporary folder outside the checkout, run
//! with a `PATH` that holds no Rust toolchain. There:
//!
//! - `robotstxt-test --version` answers as the workspace's binary does (pip's script, `npx`);
//! - the example project of each package (`packages/*/example`: pytest testing protego, `node
//!   --test` testing robots-parser, at the versions their carried adapters pin) has one test per
//!   case, and its failing cases are exactly those where `run --adapter python-protego` (or
//!   `node-robots-parser`) has a non-pass, with the same check counts;
//! - the plugin writes its own `expectations.yaml`, listing exactly the carried adapter's
//!   non-passes, and the gate is then green with every such case an expected failure;
//! - the parser's function broken, the gate fails, naming a check it broke;
//! - the action's script (`scripts/ci-gate.sh`) installs the wheel instead of compiling.
//!
//! Needs `python3` (with venv), `node` and `npm`, and PyPI and npm for the parsers and pytest;
//! the build installs maturin and auditwheel into `<target>/packages-tools/`.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{checkout, output_of, target_dir, Output, FAKE_ADAPTER};

/// `<target>/packages/`, built once for every test of this file.
fn packages() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let built = output_of(
            Command::new("bash")
                .arg(checkout().join("scripts/build-packages.sh"))
                .env("CARGO_TARGET_DIR", target_dir()),
        );
        assert_eq!(built.code, 0, "scripts/build-packages.sh: {built:?}");
        target_dir().join("packages")
    })
}

/// The one file in `dir` whose name starts with `prefix`.
fn one_file(dir: &Path, prefix: &str) -> PathBuf {
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect();
    assert_eq!(found.len(), 1, "{prefix}* in {}: {found:?}", dir.display());
    found.into_iter().next().unwrap()
}

/// A temporary folder outside the checkout.
fn outside() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    assert!(
        !dir.path().starts_with(checkout()),
        "{}",
        dir.path().display()
    );
    dir
}

/// A `PATH` of `first`, the folder `node` is in, and the system's folders: no cargo, no rustc.
fn clean_path(first: &Path) -> String {
    let node = which("node");
    let path = format!(
        "{}:{}:/usr/bin:/bin",
        first.display(),
        node.parent().unwrap().display()
    );
    for tool in ["cargo", "rustc", "rustup"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            !found.status.success(),
            "{tool} is on the clean PATH {path}: {}",
            String::from_utf8_lossy(&found.stdout)
        );
    }
    path
}

fn which(program: &str) -> PathBuf {
    let found = output_of(Command::new("sh").args(["-c", &format!("command -v {program}")]));
    assert_eq!(found.code, 0, "{program} is not on PATH");
    PathBuf::from(found.stdout.trim())
}

/// `program` in `dir` with `path` for `PATH`, and none of cargo's or this suite's variables (the
/// user's own settings, such as a proxy or a registry, are kept).
fn user_command(program: impl AsRef<std::ffi::OsStr>, dir: &Path, path: &str) -> Command {
    let mut command = Command::new(program);
    command
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1");
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if ["CARGO", "RUST", "ROBOTSTXT_", "RTT_", "GITHUB_"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            command.env_remove(&*name);
        }
    }
    command
}

fn ok(what: &str, output: Output) -> Output {
    assert_eq!(output.code, 0, "{what}: {output:?}");
    output
}

/// The workspace binary's `--version`, which every installed one must print.
fn workspace_version() -> String {
    let out = output_of(Command::new(env!("CARGO_BIN_EXE_robotstxt-test")).arg("--version"));
    out.stdout
}

/// The pinned version in an adapter's manifest (`version: "x.y.z"` under `package:`).
fn pinned(adapter: &str) -> String {
    let manifest = std::fs::read_to_string(
        checkout()
            .join("adapters")
            .join(adapter)
            .join("adapter.yaml"),
    )
    .unwrap();
    let line = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("version:"))
        .unwrap_or_else(|| panic!("{adapter}: no version"));
    line.split(':')
        .nth(1)
        .unwrap()
        .trim()
        .trim_matches('"')
        .to_owned()
}

/// What `run --adapter NAME --format json` says of a carried adapter: its check counts, and the
/// cases and checks with a non-pass, in corpus order.
struct Carried {
    summary: serde_json::Value,
    cases: Vec<String>,
    failing_cases: BTreeSet<String>,
    failing_checks: BTreeSet<String>,
    /// A check the parser passes whose answer is `disallowed`: answering `allowed` breaks it.
    passed_disallowed: (String, u64),
}

fn carried(adapter: &str) -> Carried {
    let out = output_of(
        Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
            .args(["run", "--adapter", adapter, "--format", "json"])
            .current_dir(checkout()),
    );
    assert!(
        out.code == 0 || out.code == 1,
        "run --adapter {adapter}: {out:?}"
    );
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let rows = doc["results"].as_array().unwrap();
    let mut cases = Vec::new();
    let (mut failing_cases, mut failing_checks) = (BTreeSet::new(), BTreeSet::new());
    let mut passed_disallowed = None;
    for row in rows {
        let case = row["case"].as_str().unwrap().to_owned();
        if cases.last() != Some(&case) {
            cases.push(case.clone());
        }
        let outcome = row["outcome"].as_str().unwrap();
        if !matches!(outcome, "pass" | "unspecified") {
            failing_checks.insert(format!("{case}#{}", row["check"]));
            failing_cases.insert(case.clone());
        }
        if outcome == "pass" && row["expected"] == "disallowed" && passed_disallowed.is_none() {
            passed_disallowed = Some((case, row["check"].as_u64().unwrap()));
        }
    }
    Carried {
        summary: doc["summary"].clone(),
        cases,
        failing_cases,
        failing_checks,
        passed_disallowed: passed_disallowed.expect("a passed disallowed check"),
    }
}

/// The binary's summary line for a run with these counts, as each plugin prints it.
fn summary_line(name: &str, version: &str, summary: &serde_json::Value) -> String {
    format!(
        "{name} {version} (rfc9309): {} passed, {} failed, {} unspecified, {} errored",
        summary["passed"], summary["failed"], summary["unspecified"], summary["errored"]
    )
}

/// The check ids an expectation file lists.
fn listed(file: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("- check: "))
        .map(|c| c.trim().trim_matches('\'').to_owned())
        .collect()
}

/// Replaces `from` in the file by `to`, which must change it.
fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{}: no {from:?}", file.display());
    std::fs::write(file, text.replace(from, to)).unwrap();
}

/// pytest's closing counts (`27 failed, 544 passed in 1.43s`), by word.
fn pytest_counts(stdout: &str) -> std::collections::BTreeMap<String, u64> {
    let last = stdout
        .lines()
        .rev()
        .find(|l| l.contains(" in "))
        .unwrap_or_default();
    let counts = last.trim_matches('=').trim().split(" in ").next().unwrap();
    counts
        .split(", ")
        .filter_map(|part| {
            let (n, word) = part.split_once(' ')?;
            Some((word.to_owned(), n.parse().ok()?))
        })
        .collect()
}

/// The cases of pytest's `FAILED ...test_conformance[<case>]` lines.
fn pytest_failed(stdout: &str) -> BTreeSet<String> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("FAILED test_protego.py::test_conformance["))
        .map(|l| l.split(']').next().unwrap().to_owned())
        .collect()
}

#[test]
fn the_wheel_installs_without_rust_and_its_pytest_plugin_gates_protego() {
    let wheel = one_file(packages(), "robotstxt_test-");
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.contains("manylinux"), "{name}");
    let example = checkout().join("packages/python/example");
    let requirements = std::fs::read_to_string(example.join("requirements.txt")).unwrap();
    let protego = pinned("python-protego");
    assert!(
        requirements.contains(&format!("protego=={protego}\n")),
        "the example tests protego at the version adapters/python-protego pins ({protego})"
    );

    let home = outside();
    let venv = home.path().join("venv");
    ok(
        "python3 -m venv",
        output_of(Command::new("python3").args(["-m", "venv"]).arg(&venv)),
    );
    ok(
        "pip install",
        output_of(
            Command::new(venv.join("bin/pip"))
                .args(["install", "--quiet", "--disable-pip-version-check"])
                .arg(&wheel)
                .arg("-r")
                .arg(example.join("requirements.txt")),
        ),
    );
    let project = home.path().join("project");
    std::fs::create_dir(&project).unwrap();
    std::fs::copy(
        example.join("test_protego.py"),
        project.join("test_protego.py"),
    )
    .unwrap();
    let path = clean_path(&venv.join("bin"));
    let user = |program: &str| user_command(venv.join("bin").join(program), &project, &path);

    let version = ok(
        "robotstxt-test --version",
        output_of(user("robotstxt-test").arg("--version")),
    );
    assert_eq!(version.stdout, workspace_version());
    everything_else_works(&project, &mut || user("robotstxt-test"));

    // One test per case; the failing ones are the carried adapter's, and so are the counts.
    let carried = carried("python-protego");
    let expected_line = summary_line("protego", &protego, &carried.summary);
    let red = output_of(user("pytest").arg("-q"));
    assert_eq!(red.code, 1, "{red:?}");
    let counts = pytest_counts(&red.stdout);
    let failing = carried.failing_cases.len() as u64;
    assert_eq!(counts.get("failed"), Some(&failing), "{counts:?}");
    assert_eq!(
        counts.get("passed"),
        Some(&(carried.cases.len() as u64 - failing)),
        "{counts:?}"
    );
    assert_eq!(pytest_failed(&red.stdout), carried.failing_cases);
    assert!(
        red.stdout.contains(&expected_line),
        "{expected_line}\n{}",
        red.stdout
    );

    // -k picks cases by id; a failing one shows the block `run` prints.
    let case = carried.failing_cases.iter().next().unwrap();
    let one = output_of(user("pytest").args(["-q", "-k", case]));
    assert_eq!(
        pytest_counts(&one.stdout).get("failed"),
        Some(&1),
        "{one:?}"
    );
    assert!(
        one.stdout.contains(&format!("REGRESSION {case}#")),
        "{}",
        one.stdout
    );
    assert!(one.stdout.contains("  reference: "), "{}", one.stdout);

    // The plugin writes its expectation file; the gate is then green, each failing case an
    // expected failure.
    let written = output_of(
        user("pytest")
            .arg("-q")
            .env("ROBOTSTXT_TEST_UPDATE_EXPECTATIONS", "1"),
    );
    assert_eq!(written.code, 0, "{written:?}");
    let file = project.join("expectations.yaml");
    assert_eq!(listed(&file), carried.failing_checks);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("adapter: protego\n"), "{text}");
    assert!(
        text.contains("# Written by: ROBOTSTXT_TEST_UPDATE_EXPECTATIONS=1 pytest\n"),
        "{text}"
    );
    let green = ok("pytest gated", output_of(user("pytest").arg("-q")));
    let counts = pytest_counts(&green.stdout);
    assert_eq!(counts.get("xfailed"), Some(&failing), "{counts:?}");
    assert_eq!(
        counts.get("passed"),
        Some(&(carried.cases.len() as u64 - failing)),
        "{counts:?}"
    );
    assert_eq!(counts.get("failed"), None, "{counts:?}");

    // The parser broken: every answer `allowed`. The gate fails, naming a check it broke.
    edit(
        &project.join("test_protego.py"),
        "return Protego.parse(robots.decode(\"utf-8\", errors=\"ignore\")).can_fetch(url, agent)",
        "return True",
    );
    let broken = output_of(user("pytest").arg("-q"));
    assert_eq!(broken.code, 1, "{broken:?}");
    let (case, check) = &carried.passed_disallowed;
    assert!(
        pytest_failed(&broken.stdout).contains(case),
        "{}",
        broken.stdout
    );
    assert!(
        broken
            .stdout
            .contains(&format!("REGRESSION {case}#{check} — fail")),
        "{}",
        broken.stdout
    );
}

/// What the main README shows, from the installed binary in a folder that is no checkout: a
/// carried adapter (Python's own, installed into a cache folder of the test's), `compare`,
/// `report` and `fuzz`.
fn everything_else_works(dir: &Path, binary: &mut dyn FnMut() -> Command) {
    let cache = dir.join(".cache");
    let mut run = |args: &[&str]| {
        let mut command = binary();
        command.args(args).arg("--cache-dir").arg(&cache);
        output_of(&mut command)
    };
    let scored = run(&["run", "--adapter", "python-urllib", "--format", "json"]);
    assert!(scored.code <= 1, "{scored:?}");
    assert!(
        scored.stdout.contains("\"adapter\": \"python-urllib\""),
        "{scored:?}"
    );
    std::fs::write(
        dir.join("robots.txt"),
        "User-agent: *\nDisallow: /private\n",
    )
    .unwrap();
    let compared = run(&[
        "compare",
        "--robots",
        "robots.txt",
        "--url",
        "https://example.org/private/x",
        "--agent",
        "FooBot",
        "--adapter",
        "python-urllib",
    ]);
    assert!(
        compared.stdout.contains("1 adapter, 1 query: 1 agree"),
        "{compared:?}"
    );
    let report = run(&["report", "--adapter", "python-urllib", "--out", "report"]);
    assert_eq!(report.code, 0, "{report:?}");
    assert!(
        dir.join("report/badges/python-urllib.svg").is_file(),
        "{report:?}"
    );
    let fuzzed = run(&[
        "fuzz",
        "--adapter",
        "python-urllib",
        "--time",
        "2",
        "--seed",
        "1",
        "--out",
        "findings",
    ]);
    // 1 when it saved new findings, as `run` is 1 when a check failed.
    assert!(fuzzed.code <= 1, "{fuzzed:?}");
    assert!(fuzzed.stdout.contains("findings"), "{fuzzed:?}");
}

/// `node --test`'s closing counts (`# tests 571`, `# pass 518`, ...), by word.
fn node_counts(stdout: &str) -> std::collections::BTreeMap<String, u64> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter_map(|l| {
            let (word, n) = l.split_once(' ')?;
            Some((word.to_owned(), n.parse().ok()?))
        })
        .collect()
}

/// The cases of the subtests TAP reports as `not ok` (not `# TODO`).
fn node_failed(stdout: &str) -> BTreeSet<String> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("    not ok "))
        .filter(|l| !l.contains(" # TODO"))
        .filter_map(|l| l.split_once(" - ").map(|(_, case)| case.to_owned()))
        .collect()
}

#[test]
fn the_npm_package_installs_without_rust_and_its_node_test_runner_gates_robots_parser() {
    let npm = packages().join("npm");
    let main = one_file(&npm, "robotstxt-test-0");
    let platform = one_file(&npm, &format!("robotstxt-test-{}-", node_platform()));
    let example = checkout().join("packages/npm/example");
    let robots_parser = pinned("node-robots-parser");
    let manifest = std::fs::read_to_string(example.join("package.json")).unwrap();
    assert!(
        manifest.contains(&format!("\"robots-parser\": \"{robots_parser}\"")),
        "the example tests robots-parser at the version adapters/node-robots-parser pins ({robots_parser})"
    );

    let home = outside();
    let project = home.path().join("project");
    std::fs::create_dir(&project).unwrap();
    for file in ["can-fetch.js", "conformance.test.js"] {
        std::fs::copy(example.join(file), project.join(file)).unwrap();
    }
    std::fs::write(project.join("package.json"), "{\"private\": true}\n").unwrap();
    let path = clean_path(&project.join("node_modules/.bin"));
    let user = |program: &str| user_command(program, &project, &path);
    ok(
        "npm install",
        output_of(
            user("npm")
                .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
                .arg(format!("robots-parser@{robots_parser}"))
                .arg(&main)
                .arg(&platform),
        ),
    );
    let version = ok(
        "npx robotstxt-test --version",
        output_of(user("npx").args(["robotstxt-test", "--version"])),
    );
    assert_eq!(version.stdout, workspace_version());
    // The launcher passes the exit status through.
    let usage = output_of(user("npx").args(["robotstxt-test", "run", "--no-such-option"]));
    assert_eq!(usage.code, 2, "{usage:?}");

    // One subtest per case; the failing ones are the carried adapter's, and so are the counts.
    let carried = carried("node-robots-parser");
    let expected_line = summary_line("robots-parser", &robots_parser, &carried.summary);
    let test = || {
        let mut command = user("node");
        command.args(["--test", "--test-reporter=tap"]);
        command
    };
    let red = output_of(&mut test());
    assert_eq!(red.code, 1, "{red:?}");
    let counts = node_counts(&red.stdout);
    let failing = carried.failing_cases.len() as u64;
    assert_eq!(
        counts.get("tests"),
        Some(&(carried.cases.len() as u64)),
        "{counts:?}"
    );
    assert_eq!(counts.get("fail"), Some(&failing), "{counts:?}");
    assert_eq!(
        counts.get("pass"),
        Some(&(carried.cases.len() as u64 - failing)),
        "{counts:?}"
    );
    assert_eq!(node_failed(&red.stdout), carried.failing_cases);
    assert!(
        red.stdout.contains(&expected_line),
        "{expected_line}\n{}",
        red.stdout
    );

    // --test-name-pattern picks cases by id; a failing one shows the block `run` prints.
    let case = carried.failing_cases.iter().next().unwrap();
    let one = output_of(test().arg(format!("--test-name-pattern=^{}$", regex_escape(case))));
    let counts = node_counts(&one.stdout);
    assert_eq!(
        (counts.get("fail"), counts.get("pass")),
        (Some(&1), Some(&0)),
        "{one:?}"
    );
    assert!(
        one.stdout.contains(&format!("REGRESSION {case}#")),
        "{}",
        one.stdout
    );

    // The runner writes its expectation file; the gate is then green, each failing case a todo.
    let written = output_of(test().env("ROBOTSTXT_TEST_UPDATE_EXPECTATIONS", "1"));
    assert_eq!(written.code, 0, "{written:?}");
    let file = project.join("expectations.yaml");
    assert_eq!(listed(&file), carried.failing_checks);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("adapter: robots-parser\n"), "{text}");
    let green = ok("node --test gated", output_of(&mut test()));
    let counts = node_counts(&green.stdout);
    assert_eq!(counts.get("todo"), Some(&failing), "{counts:?}");
    assert_eq!(counts.get("fail"), Some(&0), "{counts:?}");
    assert_eq!(
        counts.get("pass"),
        Some(&(carried.cases.len() as u64 - failing)),
        "{counts:?}"
    );

    // The parser broken: every answer `allowed`. The gate fails, naming a check it broke.
    edit(
        &project.join("can-fetch.js"),
        "return parsed.isAllowed(url, agent);",
        "return true;",
    );
    let broken = output_of(&mut test());
    assert_eq!(broken.code, 1, "{broken:?}");
    let (case, check) = &carried.passed_disallowed;
    assert!(
        node_failed(&broken.stdout).contains(case),
        "{}",
        broken.stdout
    );
    assert!(
        broken
            .stdout
            .contains(&format!("REGRESSION {case}#{check} — fail")),
        "{}",
        broken.stdout
    );
}

/// `linux-x64`, as npm names this platform.
fn node_platform() -> String {
    let out = output_of(Command::new("node").args(["-p", "`${process.platform}-${process.arch}`"]));
    out.stdout.trim().to_owned()
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c {
            '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '^' | '$' | '\\' => {
                vec!['\\', c]
            }
            _ => vec![c],
        })
        .collect()
}

/// The action's script installs the wheel (what `pip install robotstxt-test==<version>` would
/// fetch) with no Rust toolchain on `PATH`, and gates as it does with a compiled install.
#[test]
fn the_action_installs_the_wheel_instead_of_compiling() {
    let wheel = one_file(packages(), "robotstxt_test-");
    let repo = outside();
    let root = outside();
    std::fs::write(repo.path().join("adapter.py"), FAKE_ADAPTER).unwrap();
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
    let path = clean_path(Path::new("/nonexistent"));
    let gate = |file: &str| {
        output_of(
            user_command("bash", repo.path(), &path)
                .arg(checkout().join("scripts/ci-gate.sh"))
                .env("RTT_ADAPTER_CMD", "python3 adapter.py author-parser 2.0")
                .env("RTT_EXPECTATIONS", file)
                .env("RTT_INSTALL_ROOT", root.path())
                .env("RTT_PACKAGE", &wheel),
        )
    };
    let green = gate("expectations.yaml");
    assert_eq!(green.code, 0, "{green:?}");
    assert!(
        green.stdout.contains(&workspace_version()),
        "{}",
        green.stdout
    );
    assert!(root.path().join("bin/robotstxt-test").is_file());
    assert!(!root.path().join("bin/cargo").exists());

    // One entry dropped: that check is a regression, and the gate fails naming it.
    let file = repo.path().join("expectations.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let check = text
        .lines()
        .find_map(|l| l.strip_prefix("- check: "))
        .unwrap()
        .to_owned();
    let entry = text.find("- check: ").unwrap();
    let next = text[entry + 1..]
        .find("- check: ")
        .map_or(text.len(), |i| entry + 1 + i);
    std::fs::write(&file, format!("{}{}", &text[..entry], &text[next..])).unwrap();
    let red = gate("expectations.yaml");
    assert_eq!(red.code, 1, "{red:?}");
    assert!(
        red.stdout.contains(&format!("`{check}`: fail")),
        "{}",
        red.stdout
    );
}
