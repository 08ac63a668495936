//! Running the binary with its peak memory measured (`wait4`'s resource usage, which covers the
//! adapters it waited for too), a deadline, and an address-space limit as a safety net; and
//! checking that processes are gone.
//!
//! A started process's peak counts the memory of the test process it was started from (its
//! high-water mark at the start), so the tests keep theirs small: none panics on purpose, whose
//! backtrace would load the test binary's debug information (over 100 MiB) for every later run.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use rustix::process::{kill_process, kill_process_group, prlimit, Pid, Resource, Rlimit, Signal};
use wait4::Wait4;

/// No run may take longer than this; a hang fails the test instead of blocking the suite.
const DEADLINE: Duration = Duration::from_secs(30);
/// Address space the binary may reserve: far above any cap asserted, so it only stops a runaway.
const ADDRESS_SPACE: u64 = 8 << 30;
/// Output kept from one stream; the rest is counted.
const KEPT: usize = 8 << 20;

#[derive(Debug)]
pub struct Ran {
    /// The exit status, or 128 + the signal that ended it.
    pub code: i32,
    pub stdout: String,
    pub stdout_bytes: usize,
    pub stderr: String,
    /// Peak resident memory of the binary (or of the largest process it waited for), in MiB.
    pub peak_mib: f64,
    pub elapsed: Duration,
}

/// When to interrupt a run: once `ready` holds a line, send `signal` to the binary's process
/// group, as a terminal does on Ctrl-C.
pub struct Interrupt {
    pub ready: PathBuf,
    pub signal: Signal,
}

pub fn run(dir: &Path, args: &[&str]) -> Ran {
    run_with(dir, args, None)
}

pub fn run_with(dir: &Path, args: &[&str], interrupt: Option<Interrupt>) -> Ran {
    let mut command = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"));
    command
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let started = Instant::now();
    // Reaped below with wait4, which also gives its peak memory.
    #[allow(clippy::zombie_processes)]
    let mut child = command.spawn().expect("the binary starts");
    let pid = Pid::from_child(&child);
    // Set from outside an instant after the start: the binary has reserved a few MiB by then.
    let limit = Rlimit {
        current: Some(ADDRESS_SPACE),
        maximum: Some(ADDRESS_SPACE),
    };
    prlimit(Some(pid), Resource::As, limit).expect("the address-space limit is set");
    let out = child.stdout.take().unwrap();
    let err = child.stderr.take().unwrap();
    let out = thread::spawn(move || keep(out));
    let err = thread::spawn(move || keep(err));
    let finished = Arc::new(AtomicBool::new(false));
    let watcher = {
        let finished = Arc::clone(&finished);
        thread::spawn(move || watch(pid, started, interrupt, &finished))
    };
    let used = child.wait4().expect("the binary is waited for");
    finished.store(true, Ordering::SeqCst);
    if watcher.join().unwrap() {
        panic!("{args:?} ran past {DEADLINE:?}");
    }
    let elapsed = started.elapsed();
    let code = match (used.status.code(), used.status.signal()) {
        (Some(code), _) => code,
        (None, signal) => 128 + signal.unwrap_or(0),
    };
    let (stdout, stdout_bytes) = out.join().unwrap();
    let (stderr, _) = err.join().unwrap();
    let ran = Ran {
        code,
        stdout,
        stdout_bytes,
        stderr,
        peak_mib: used.rusage.maxrss as f64 / (1024.0 * 1024.0),
        elapsed,
    };
    record(dir, args, &ran);
    ran
}

/// While the binary runs: sends the interrupt once its adapter is ready, and kills the process
/// group past the deadline. Returns whether it had to.
fn watch(pid: Pid, started: Instant, interrupt: Option<Interrupt>, finished: &AtomicBool) -> bool {
    let mut interrupt = interrupt;
    while !finished.load(Ordering::SeqCst) {
        if let Some(i) = &interrupt {
            if std::fs::read_to_string(&i.ready).is_ok_and(|s| s.lines().count() > 0) {
                thread::sleep(Duration::from_millis(400));
                if !finished.load(Ordering::SeqCst) {
                    let _ = kill_process_group(pid, i.signal);
                }
                interrupt = None;
            }
        }
        if started.elapsed() > DEADLINE {
            let _ = kill_process_group(pid, Signal::KILL);
            return true;
        }
        thread::sleep(Duration::from_millis(10));
    }
    false
}

/// With `HOSTILE_SWEEP_LOG=FILE`, appends one line per run (the arguments, exit code, time, peak
/// memory, output size): the figures `reports/reliability.md` gives.
fn record(dir: &Path, args: &[&str], ran: &Ran) {
    let Some(log) = std::env::var_os("HOSTILE_SWEEP_LOG") else {
        return;
    };
    let shown: Vec<String> = args
        .iter()
        .map(|a| {
            let a = a.replace(&*dir.to_string_lossy(), ".");
            let a = a.replace(env!("CARGO_MANIFEST_DIR"), "harness");
            a.escape_debug().to_string()
        })
        .collect();
    let line = format!(
        "{}\t{}\t{:.2}\t{:.1}\t{}\n",
        shown.join(" "),
        ran.code,
        ran.elapsed.as_secs_f64(),
        ran.peak_mib,
        ran.stdout_bytes
    );
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
    {
        use std::io::Write as _;
        let _ = file.write_all(line.as_bytes());
    }
}

fn keep(mut stream: impl Read) -> (String, usize) {
    let mut kept = Vec::new();
    let mut total = 0;
    let mut chunk = vec![0u8; 1 << 16];
    while let Ok(n @ 1..) = stream.read(&mut chunk) {
        total += n;
        if kept.len() < KEPT {
            kept.extend_from_slice(&chunk[..n.min(KEPT - kept.len())]);
        }
    }
    (String::from_utf8_lossy(&kept).into_owned(), total)
}

/// Whether `pid` is a live process (a zombie is not).
pub fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    })
}

/// Live processes in process group `group`.
pub fn in_group(group: i32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                let Some((_, rest)) = stat.rsplit_once(')') else {
                    return false;
                };
                let fields: Vec<&str> = rest.split_whitespace().collect();
                fields.first() != Some(&"Z") && fields.get(2) == Some(&group.to_string().as_str())
            })
        })
        .collect()
}

/// The pids the hostile adapters wrote into `state/pids`.
pub fn recorded(state: &Path) -> Vec<i32> {
    std::fs::read_to_string(state.join("pids"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Asserts that every process the hostile adapter recorded in `state/pids` is gone, with its
/// process group, allowing a moment for the kernel to finish the kills.
pub fn assert_nothing_left(state: &Path) {
    let pids = recorded(state);
    assert!(!pids.is_empty(), "the adapter recorded its pid");
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let left: Vec<i32> = pids
            .iter()
            .copied()
            .filter(|&p| alive(p) || !in_group(p).is_empty())
            .collect();
        if left.is_empty() {
            return;
        }
        if Instant::now() > deadline {
            // Cleaning up after a failed test; these are the test's own processes.
            for pid in left.iter().copied().filter_map(Pid::from_raw) {
                let _ = kill_process(pid, Signal::KILL);
            }
            panic!("processes left running: {left:?}");
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// The hostile adapter in `mode`, recording into `state`, as an `--adapter-cmd` value.
pub fn hostile_cmd(mode: &str, state: &Path) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adapters/hostile.py");
    format!("python3 {} {mode} {}", script.display(), state.display())
}

/// A case file of `count` small cases, the last one's body holding `last_body`.
pub fn cases_yaml(count: usize, last_body: &str) -> String {
    let mut yaml = String::from("cases:\n");
    for i in 0..count {
        let body = if i + 1 == count {
            last_body
        } else {
            "User-agent: *\nDisallow: /a\n"
        };
        yaml.push_str(&format!(
            "  - name: case-{i}\n    spec: test\n    robots: {body:?}\n    checks:\n      - {{ agent: FooBot, path: /b, expect: allowed }}\n"
        ));
    }
    yaml
}

/// A scratch folder holding `cases.yaml` (`count` cases, see [`cases_yaml`]), and the hostile
/// adapter in `mode` recording into that folder.
pub fn scratch(count: usize, last_body: &str, mode: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cases.yaml"), cases_yaml(count, last_body)).unwrap();
    let cmd = hostile_cmd(mode, dir.path());
    (dir, cmd)
}

/// Runs `SUBCOMMAND --cases cases.yaml --adapter-cmd CMD EXTRA...` in `dir`.
pub fn drive(dir: &Path, subcommand: &str, cmd: &str, extra: &[&str]) -> Ran {
    drive_with(dir, subcommand, cmd, extra, None)
}

pub fn drive_with(
    dir: &Path,
    subcommand: &str,
    cmd: &str,
    extra: &[&str],
    interrupt: Option<Interrupt>,
) -> Ran {
    let mut args = vec![subcommand, "--cases", "cases.yaml", "--adapter-cmd", cmd];
    args.extend_from_slice(extra);
    run_with(dir, &args, interrupt)
}

/// The names in a folder, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Our own annotations in `--format github`: `::error title=robotstxt-test::…` (with a file
/// and a line when there are some), whose message holds no legacy command.
pub fn own_annotation(line: &str) -> bool {
    ["::error ", "::warning ", "::notice "]
        .iter()
        .any(|level| line.starts_with(level))
        && line
            .split_once("::")
            .and_then(|(_, rest)| rest.split_once("::"))
            .is_some_and(|(properties, _)| properties.ends_with("title=robotstxt-test"))
        && !line.contains("##[")
}
