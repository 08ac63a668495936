//! Installs: a setup step ends with the harness that started it, however the harness ends; and
//! `adapters install --force` mends a damaged copy of the carried adapters in the cache instead
//! of saying `ok` over it.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use rustix::process::{kill_process, Pid, Signal};

use crate::support::{alive, run};

/// A `python3` that spins on the CPU when asked to make a venv (after writing its pid to
/// `STEP_PIDS`), and is the real one otherwise.
const SPINNING_PYTHON: &str = r#"#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  echo $$ >> "$STEP_PIDS"
  while :; do :; done
fi
PATH="$REAL_PATH" exec python3 "$@"
"#;

/// An adapter folder holding one adapter whose one setup step makes a venv.
fn venv_adapter(dir: &Path) {
    let adapter = dir.join("adapters/venv-step");
    fs::create_dir_all(&adapter).unwrap();
    fs::write(adapter.join("adapter.py"), "").unwrap();
    fs::write(
        adapter.join("adapter.yaml"),
        "name: venv-step\nparser: fake\nlanguage: Python\nhomepage: https://example.org\n\
         profile: norobots-1994\npackage: { name: fake, version: '1.0', registry: pypi }\n\
         input: raw bytes\nagent: as-given\nrequires: [python3]\nsetup:\n  - python-venv: { packages: [] }\n\
         run: ['{cache}/venv/bin/python', '{dir}/adapter.py']\n",
    )
    .unwrap();
    let bin = dir.join("bin");
    fs::create_dir(&bin).unwrap();
    fs::write(bin.join("python3"), SPINNING_PYTHON).unwrap();
    fs::set_permissions(bin.join("python3"), fs::Permissions::from_mode(0o755)).unwrap();
}

/// Starts `adapters install` of an adapter whose setup step spins, waits until the step runs,
/// sends `signal` to the harness alone (as a CI runner's timeout or `kill PID` would), and
/// asserts that within 2 s the step is gone too.
fn install_ended_by(signal: Signal) {
    let dir = tempfile::tempdir().unwrap();
    venv_adapter(dir.path());
    let pids = dir.path().join("steps");
    let path = std::env::var("PATH").unwrap_or_default();
    let harness = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .args(["adapters", "install", "--adapters", "adapters"])
        .args(["--cache-dir", "cache"])
        .current_dir(dir.path())
        .env(
            "PATH",
            format!("{}:{path}", dir.path().join("bin").display()),
        )
        .env("REAL_PATH", &path)
        .env("STEP_PIDS", &pids)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let step = loop {
        let recorded = fs::read_to_string(&pids).unwrap_or_default();
        if let Some(pid) = recorded.lines().next().and_then(|l| l.trim().parse().ok()) {
            break pid;
        }
        assert!(Instant::now() < deadline, "the setup step never started");
        thread::sleep(Duration::from_millis(20));
    };
    assert!(alive(step));
    kill_process(Pid::from_child(&harness), signal).unwrap();
    let ended = harness.wait_with_output().unwrap();
    let killed = Instant::now();
    while alive(step) {
        if killed.elapsed() > Duration::from_secs(2) {
            // Cleaning up after a failed test; this is the test's own process.
            let _ = kill_process(Pid::from_raw(step).unwrap(), Signal::KILL);
            panic!("{signal:?}: the setup step outlived the harness by 2 s");
        }
        thread::sleep(Duration::from_millis(20));
    }
    if signal == Signal::TERM {
        assert_eq!(ended.status.code(), Some(130), "{ended:?}");
    }
    // The install is known to be unfinished, so the next one runs its steps again.
    assert!(dir
        .path()
        .join("cache/adapters/venv-step/.installing")
        .exists());
}

#[test]
fn sigterm_during_an_install_stops_its_setup_step() {
    install_ended_by(Signal::TERM);
}

#[test]
fn sigkill_during_an_install_leaves_no_setup_step() {
    install_ended_by(Signal::KILL);
}

/// Outside a checkout, a damaged adapter script in the cache's copy of the carried suite looks
/// like a parser that crashes at start; `adapters install --force` (which the failure suggests)
/// finds the damaged file, names it and writes it again.
#[test]
fn install_force_mends_a_damaged_suite_copy() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("robots.txt"),
        "User-agent: *\nDisallow: /a\n",
    )
    .unwrap();
    let compare = [
        "compare",
        "--robots",
        "robots.txt",
        "--path",
        "/a",
        "--adapter",
        "python-urllib",
        "--cache-dir",
        "cache",
    ];
    let first = run(dir.path(), &compare);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let suites: Vec<_> = fs::read_dir(dir.path().join("cache/suite"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(suites.len(), 1, "{suites:?}");
    let script = suites[0].join("adapters/python-urllib/adapter.py");
    let carried = fs::read(&script).unwrap();
    fs::write(&script, "damaged(\n").unwrap();

    let broken = run(dir.path(), &compare);
    assert_ne!(broken.code, 0, "{}", broken.stdout);
    let install = [
        "adapters",
        "install",
        "--force",
        "python-urllib",
        "--cache-dir",
        "cache",
    ];
    assert!(
        broken
            .stderr
            .contains("python-urllib: try: robotstxt-test adapters install --force python-urllib"),
        "{}",
        broken.stderr
    );

    let mended = run(dir.path(), &install);
    assert_eq!(mended.code, 0, "{}", mended.stderr);
    assert!(
        mended.stdout.contains("repaired suite copy: 1 of ")
            && mended.stdout.contains("adapters/python-urllib/adapter.py"),
        "{}",
        mended.stdout
    );
    assert_eq!(fs::read(&script).unwrap(), carried);
    let again = run(dir.path(), &compare);
    assert_eq!(again.code, 0, "{}", again.stderr);

    // Nothing to mend: it says so and writes nothing.
    let intact = run(dir.path(), &install);
    assert!(
        intact.stdout.contains("ok      suite copy: "),
        "{}",
        intact.stdout
    );
}
