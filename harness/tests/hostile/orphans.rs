//! No adapter outlives the harness: SIGKILL and SIGQUIT cannot be handled, so the kernel kills
//! each adapter when the harness dies (its parent-death signal); an interrupt during `report`,
//! while adapters are being restarted, leaves none behind.

use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use rustix::process::{kill_process, Pid, Signal};

use crate::support::{
    alive, assert_nothing_left, cases_yaml, drive_with, hostile_cmd, recorded, scratch, Interrupt,
};

/// Starts `run` with three adapters that spin on the CPU, waits until all three spin, kills the
/// harness with `signal` (the harness alone, not its group: as a CI runner's timeout or the OOM
/// killer would), and asserts that within 2 s no adapter is left.
fn killed_with(signal: Signal) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cases.yaml"), cases_yaml(4, "x")).unwrap();
    let states: Vec<_> = (0..3).map(|i| dir.path().join(format!("s{i}"))).collect();
    let mut command = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"));
    command
        .args(["run", "--cases", "cases.yaml"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for state in &states {
        std::fs::create_dir(state).unwrap();
        command.args(["--adapter-cmd", &hostile_cmd("spin", state)]);
    }
    let mut harness = command.spawn().unwrap();
    // Each adapter counts a check in `count` before it spins on its second.
    let spinning =
        |state: &Path| std::fs::read_to_string(state.join("count")).is_ok_and(|c| c == "2");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !states.iter().all(|s| spinning(s)) {
        assert!(
            Instant::now() < deadline,
            "the adapters never started spinning"
        );
        thread::sleep(Duration::from_millis(20));
    }
    let adapters: Vec<i32> = states.iter().flat_map(|s| recorded(s)).collect();
    assert!(adapters.len() >= 3, "{adapters:?}");
    assert!(adapters.iter().all(|&p| alive(p)));
    kill_process(Pid::from_child(&harness), signal).unwrap();
    let _ = harness.wait();
    let killed = Instant::now();
    loop {
        let left: Vec<i32> = adapters.iter().copied().filter(|&p| alive(p)).collect();
        if left.is_empty() {
            return;
        }
        if killed.elapsed() > Duration::from_secs(2) {
            // Cleaning up after a failed test; these are the test's own processes.
            for pid in left.iter().copied().filter_map(Pid::from_raw) {
                let _ = kill_process(pid, Signal::KILL);
            }
            panic!("adapters left running 2 s after the harness died: {left:?}");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn sigkill_of_the_harness_leaves_no_spinning_adapter() {
    killed_with(Signal::KILL);
}

#[test]
fn sigquit_of_the_harness_leaves_no_spinning_adapter() {
    killed_with(Signal::QUIT);
}

/// SIGTERM to `report` while its adapter is being restarted again and again, 20 times: the
/// handler closes the gate before it kills, so an adapter started during the kill is not left.
#[test]
fn an_interrupt_while_adapters_restart_leaves_none_20_times() {
    let mut starts = 0;
    for trial in 0..20 {
        let (dir, cmd) = scratch(400, "x", "flaky");
        let ready = Interrupt {
            // Once the adapter has been restarted twice.
            ready: dir.path().join("restarted"),
            signal: Signal::TERM,
        };
        let extra = ["--out", "reports"];
        let ran = drive_with(dir.path(), "report", &cmd, &extra, Some(ready));
        assert_eq!(ran.code, 130, "trial {trial}: {}", ran.stderr);
        starts += recorded(dir.path()).len();
        assert_nothing_left(dir.path());
    }
    // Each trial waited for a third start before it interrupted: more than three starts a trial
    // show that restarts were still going on when the interrupt came.
    assert!(starts > 3 * 20, "{starts} starts in 20 trials");
}
