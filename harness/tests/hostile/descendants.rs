//! No descendant outlives the harness, whatever ends it: after SIGKILL of the harness, a
//! grandchild that left in a session of its own, ignores SIGTERM and spins on the CPU is gone
//! within 3 s, whether an adapter started it (`run`), a setup step (`adapters install`) or a
//! crawler (`crawl`); and the install lock is free only once that tree is gone. The adapter and the setup step are
//! written into a temporary folder by each test.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use rustix::process::{kill_process, Pid, Signal};

use crate::support::alive;

/// A program that records its pid in `$STATE/pids`, then double-forks a grandchild into a
/// session of its own (standard streams closed, SIGTERM ignored) that records its pid and spins
/// on the CPU. As an adapter (`adapter` as its argument) it then answers the handshake and never
/// answers a check; as a setup step it spins too.
const DOUBLE_FORK: &str = r#"import json, os, signal, sys
state = os.environ["STATE"]
def note(pid):
    with open(os.path.join(state, "pids"), "a") as f:
        f.write("%d\n" % pid)
note(os.getpid())
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        note(os.getpid())
        while True:
            pass
    os._exit(0)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
if sys.argv[1:] == ["adapter"]:
    for line in sys.stdin:
        if json.loads(line)["type"] == "hello":
            sys.stdout.write(json.dumps({"name": "double-fork", "parser": "x", "version": "1",
                "language": "Python", "homepage": "", "profile": "norobots-1994"}) + "\n")
            sys.stdout.flush()
while True:
    pass
"#;

/// Waits until `state/pids` names `count` processes, all alive; returns them.
fn recorded_alive(state: &Path, count: usize) -> Vec<i32> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let pids: Vec<i32> = fs::read_to_string(state.join("pids"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        if pids.len() >= count && pids.iter().all(|&p| alive(p)) {
            return pids;
        }
        assert!(
            Instant::now() < deadline,
            "{count} processes never started: {pids:?}"
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// SIGKILLs `harness`, then waits up to 3 s for every one of `pids` to be gone; returns how long
/// they took. `each_moment` is called while waiting, with the processes still alive.
fn killed_leaves_none(
    mut harness: Child,
    pids: &[i32],
    mut each_moment: impl FnMut(&[i32]),
) -> Duration {
    kill_process(Pid::from_child(&harness), Signal::KILL).unwrap();
    let killed = Instant::now();
    let _ = harness.wait();
    loop {
        let left: Vec<i32> = pids.iter().copied().filter(|&p| alive(p)).collect();
        each_moment(&left);
        if left.is_empty() {
            return killed.elapsed();
        }
        if killed.elapsed() > Duration::from_secs(3) {
            // Cleaning up after a failed test; these are the test's own processes.
            for pid in left.iter().copied().filter_map(Pid::from_raw) {
                let _ = kill_process(pid, Signal::KILL);
            }
            panic!("processes left running 3 s after SIGKILL of the harness: {left:?}");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn sigkill_of_run_leaves_no_grandchild_in_a_session_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("adapter.py"), DOUBLE_FORK).unwrap();
    fs::write(
        dir.path().join("cases.yaml"),
        crate::support::cases_yaml(2, "x"),
    )
    .unwrap();
    let harness = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .args(["run", "--cases", "cases.yaml", "--timeout", "600"])
        .args(["--adapter-cmd", "python3 adapter.py adapter"])
        .current_dir(dir.path())
        .env("STATE", dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pids = recorded_alive(dir.path(), 2);
    let took = killed_leaves_none(harness, &pids, |_| {});
    eprintln!("the adapter's tree was gone {took:?} after SIGKILL of the harness");
}

/// An adapter folder whose one setup step (a venv made by a `python3` that double-forks, see
/// [`DOUBLE_FORK`]) never ends; the `python3` on `bin/` is that program.
fn double_forking_setup(dir: &Path) {
    let adapter = dir.join("adapters/double-fork");
    fs::create_dir_all(&adapter).unwrap();
    fs::write(adapter.join("adapter.py"), "").unwrap();
    fs::write(
        adapter.join("adapter.yaml"),
        "name: double-fork\nparser: fake\nlanguage: Python\nhomepage: https://example.org\n\
         profile: norobots-1994\npackage: { name: fake, version: '1.0', registry: pypi }\n\
         input: raw bytes\nagent: as-given\nrequires: [python3]\n\
         setup:\n  - python-venv: { packages: [] }\n\
         run: ['{cache}/venv/bin/python', '{dir}/adapter.py']\n",
    )
    .unwrap();
    let bin = dir.join("bin");
    fs::create_dir(&bin).unwrap();
    fs::write(bin.join("double_fork.py"), DOUBLE_FORK).unwrap();
    let python = format!(
        "#!/bin/sh\nif [ \"$1\" = \"-m\" ] && [ \"$2\" = \"venv\" ]; then\n  \
         PATH=\"$REAL_PATH\" exec python3 {}\nfi\nPATH=\"$REAL_PATH\" exec python3 \"$@\"\n",
        bin.join("double_fork.py").display()
    );
    fs::write(bin.join("python3"), python).unwrap();
    fs::set_permissions(bin.join("python3"), fs::Permissions::from_mode(0o755)).unwrap();
}

/// Whether another process holds the lock at `path` (taken and let go at once if free).
fn locked(path: &Path) -> bool {
    use rustix::fs::{flock, FlockOperation};
    let file = fs::File::options().write(true).open(path).unwrap();
    match flock(&file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => {
            flock(&file, FlockOperation::Unlock).unwrap();
            false
        }
        Err(_) => true,
    }
}

#[test]
fn sigkill_of_an_install_leaves_no_grandchild_and_holds_the_lock_until_then() {
    let dir = tempfile::tempdir().unwrap();
    double_forking_setup(dir.path());
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
        .env("STATE", dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pids = recorded_alive(dir.path(), 2);
    let lock = dir.path().join("cache/adapters/double-fork.lock");
    assert!(
        locked(&lock),
        "the install holds its lock while its step runs"
    );
    let mut free_while_running = None;
    let took = killed_leaves_none(harness, &pids, |left| {
        if !left.is_empty() && free_while_running.is_none() && !locked(&lock) {
            free_while_running = Some(left.to_vec());
        }
    });
    assert_eq!(
        free_while_running, None,
        "the install lock was free while the step's tree still ran"
    );
    // The supervisor exits (and lets the lock go) just after its last process is reaped.
    let gone = Instant::now();
    while locked(&lock) {
        assert!(
            gone.elapsed() < Duration::from_secs(1),
            "the lock is still held 1 s after the tree is gone"
        );
        thread::sleep(Duration::from_millis(5));
    }
    eprintln!("the setup step's tree was gone {took:?} after SIGKILL of the harness");
}

/// The processes whose environment holds the crawl mark of the harness `pid`.
fn marked_by(pid: u32) -> Vec<i32> {
    let prefix = format!("ROBOTSTXT_CRAWL_MARK={pid}-");
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|n| {
            let environ = fs::read(format!("/proc/{n}/environ")).unwrap_or_default();
            environ
                .split(|b| *b == 0)
                .any(|v| v.starts_with(prefix.as_bytes()))
        })
        .collect()
}

#[test]
fn sigkill_of_crawl_leaves_no_detached_child_of_a_crawler() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let script = root.join("crawl/tests/fixtures/fake_crawler.py");
    let cmd = format!(
        "setsid sh -c 'trap \"\" TERM; while :; do :; done' < /dev/null > /dev/null 2>&1 & \
         python3 {} hang {{url}} {{agent}} {{timeout}}",
        script.display()
    );
    let harness = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .current_dir(root)
        .args(["crawl", "--crawler-cmd", &cmd, "--profile", "rfc9309"])
        .args(["--case-limit", "120", "--cases", "cases/access/groups.yaml"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = harness.id();
    let deadline = Instant::now() + Duration::from_secs(30);
    let marked = loop {
        let marked = marked_by(pid);
        if marked.len() >= 3 {
            break marked;
        }
        assert!(Instant::now() < deadline, "the crawler never started");
        thread::sleep(Duration::from_millis(20));
    };
    let took = killed_leaves_none(harness, &marked, |_| {});
    eprintln!("the crawler's tree was gone {took:?} after SIGKILL of the harness");
}
