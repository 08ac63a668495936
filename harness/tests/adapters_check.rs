//! `robotstxt-test adapters check`: every bundled adapter this machine can run passes, and each
//! fault of the chaos adapter is flagged with the PROTOCOL.md section it breaks.

mod common;

use std::path::Path;

use common::run_binary;
use robotstxt_runtime::adapter::{self, Availability};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn check(args: &[&str]) -> common::Output {
    let adapters = root().join("adapters");
    let mut all = vec![
        "adapters",
        "--adapters-dir",
        adapters.to_str().unwrap(),
        "check",
    ];
    all.extend_from_slice(args);
    run_binary(root(), &all)
}

/// The failures printed: (what was checked, section).
fn failures(stdout: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = stdout.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let what = line.strip_prefix("  FAIL  ")?;
            let section = lines[i + 1..].iter().find_map(|l| {
                l.trim()
                    .strip_prefix("breaks adapters/PROTOCOL.md, section ")
            })?;
            Some((what.to_owned(), section.trim_matches('"').to_owned()))
        })
        .collect()
}

#[test]
fn every_bundled_adapter_passes() {
    let all = adapter::discover(&root().join("adapters"), root()).unwrap();
    let names: Vec<String> = all
        .iter()
        .filter(|a| match adapter::availability(a) {
            Availability::Unavailable(why) => {
                eprintln!("note: {} is not available here ({why}); left out", a.name());
                false
            }
            _ => true,
        })
        .map(|a| a.name().to_owned())
        .collect();
    assert!(!names.is_empty());
    let outputs: Vec<(String, common::Output)> = std::thread::scope(|scope| {
        let handles: Vec<_> = names
            .iter()
            .map(|name| {
                // Generous: twelve interpreters start at once here, on whatever the machine has.
                let args = ["--adapter", name, "--timeout", "30"];
                scope.spawn(move || (name.clone(), check(&args)))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (name, out) in outputs {
        assert_eq!(out.code, 0, "{name}:\n{}{}", out.stdout, out.stderr);
        assert!(
            out.stdout.contains("  ok    handshake: "),
            "{name}: {}",
            out.stdout
        );
        assert!(
            out.stdout.contains("  ok    a 1 MB body: 2 results"),
            "{name}: {}",
            out.stdout
        );
        assert!(out.stdout.contains(" 0 failed"), "{name}: {}", out.stdout);
    }
}

#[test]
fn each_fault_of_the_chaos_adapter_is_flagged_with_its_section() {
    let script = root().join("harness/tests/adapters/chaos.py");
    let expected = [
        ("hang", "timeout", "What the harness does with faults"),
        ("crash", "crash", "2. Checks"),
        ("exit0", "crash", "2. Checks"),
        ("garbage", "not a JSON object", "2. Checks"),
        ("wrong-count", "6 results for 5 queries", "2. Checks"),
        (
            "flood",
            "a line longer than",
            "What the harness does with faults",
        ),
        ("reject", "a plain robots.txt was refused", "2. Checks"),
    ];
    let outputs: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = expected
            .iter()
            .map(|&(mode, message, section)| {
                let cmd = format!("python3 {} {mode} always", script.display());
                scope.spawn(move || {
                    (
                        mode,
                        message,
                        section,
                        check(&["--adapter-cmd", &cmd, "--timeout", "1"]),
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (mode, message, section, out) in outputs {
        assert_eq!(out.code, 1, "{mode}:\n{}{}", out.stdout, out.stderr);
        let failed = failures(&out.stdout);
        assert!(
            !failed.is_empty(),
            "{mode}: nothing flagged\n{}",
            out.stdout
        );
        assert!(
            failed.iter().all(|(_, s)| s == section),
            "{mode}: expected section {section:?}, got {failed:?}\n{}",
            out.stdout
        );
        assert!(
            out.stdout.contains(message),
            "{mode}: no {message:?} in\n{}",
            out.stdout
        );
        assert!(
            out.stdout.contains("  ok    handshake: chaos-"),
            "{mode}: {}",
            out.stdout
        );
    }
}

#[test]
fn a_clean_adapter_passes_and_a_noisy_or_mislabelled_one_fails() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fake.py"), common::FAKE_ADAPTER).unwrap();
    let fake = format!("python3 {}", dir.path().join("fake.py").display());
    let out = check(&["--adapter-cmd", &fake]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    // Debug output on stdout before each answer's line reaches the harness as an answer.
    let noisy = common::FAKE_ADAPTER.replace(
        "    print(json.dumps(answer), flush=True)",
        "    print(json.dumps(answer), flush=True)\n    print('debug: answered', flush=True)",
    );
    std::fs::write(dir.path().join("noisy.py"), noisy).unwrap();
    let noisy = format!("python3 {}", dir.path().join("noisy.py").display());
    let out = check(&["--adapter-cmd", &noisy]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    // Every failure is the stray line's, whether it is met after an answer or in place of one.
    let failed = failures(&out.stdout);
    assert!(
        !failed.is_empty() && failed.iter().all(|(_, s)| s == "Lines and streams"),
        "{failed:?}\n{}",
        out.stdout
    );
    assert!(out
        .stdout
        .contains("a line nobody asked for, after the answer: debug: answered"));
    // A folder whose manifest says another name: the hello and adapter.yaml disagree.
    let folder = dir.path().join("adapters/wrong-name");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(dir.path().join("fake.py"), folder.join("fake.py")).unwrap();
    let manifest =
        "name: wrong-name\nparser: fake\nlanguage: Python\nhomepage: https://example.org\n\
        profile: rfc9309\npackage: { name: fake, version: \"2.0\", registry: pypi }\n\
        input: bytes\nagent: as-given\nrequires: [python3]\nrun: [\"python3\", \"{dir}/fake.py\", \"other-name\"]\n";
    std::fs::write(folder.join("adapter.yaml"), manifest).unwrap();
    let adapters = dir.path().join("adapters");
    let out = run_binary(
        dir.path(),
        &[
            "adapters",
            "--adapters-dir",
            adapters.to_str().unwrap(),
            "check",
            "--adapter",
            "wrong-name",
        ],
    );
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    for needed in [
        "name `other-name` in its hello but `wrong-name` in adapter.yaml",
        "version `1.0` in its hello but `2.0` pinned in adapter.yaml",
        "profile `norobots-1994` in its hello but `rfc9309` in adapter.yaml",
        "section \"The manifest: `adapter.yaml`\"",
    ] {
        assert!(
            out.stdout.contains(needed),
            "no {needed:?} in\n{}",
            out.stdout
        );
    }
    // A run does not use either value silently: the adapter is not run, as a protocol error.
    let cases = dir.path().join("cases.yaml");
    let corpus = "cases:\n  - name: one\n    spec: test\n    robots: \"User-agent: *\\n\"\n    \
        checks:\n      - { agent: FooBot, path: /a, expect: allowed }\n";
    std::fs::write(&cases, corpus).unwrap();
    let manifest = folder.join("adapter.yaml");
    let out = run_binary(
        dir.path(),
        &[
            "run",
            "--cases",
            cases.to_str().unwrap(),
            "--adapter-cmd",
            manifest.to_str().unwrap(),
        ],
    );
    assert_eq!(out.code, 3, "{}{}", out.stdout, out.stderr);
    // The message is wrapped to the terminal's 120 columns: read as one line.
    let flat = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "unavailable: its hello breaks the protocol: name `other-name` in its hello but \
             `wrong-name` in adapter.yaml; \
             version `1.0` in its hello but `2.0` pinned in adapter.yaml; \
             profile `norobots-1994` in its hello but `rfc9309` in adapter.yaml"
        ),
        "{}",
        out.stdout
    );
}
