//! A crawler process for one case: started fresh (no cache carries over), in a process group of
//! its own under the runtime's supervisor ([`child::spawn`], which ends its whole tree when it
//! exits or the harness dies), and stopped with everything it started.
//!
//! The supervisor counts what it had to kill as the crawler exited (a crawler that leaves a
//! process behind is at fault). Where no supervisor runs, a process group is not enough: a
//! crawler may fork a child that calls `setsid` and closes its descriptors. So each crawler also
//! gets a mark in its environment, `ROBOTSTXT_CRAWL_MARK`, which its children inherit; stopping
//! kills the group, then every process whose environment holds the mark, until none is left. An interrupt does the same for every mark of this harness, through
//! the runtime's interrupt handler ([`signals::on_stop`]).

use std::fs::File;
use std::io;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

use robotstxt_runtime::child;
use robotstxt_runtime::signals::{self, Running};
use rustix::process::{kill_process, Pid, Signal};

/// The environment variable holding a crawler's mark.
pub const MARK_VARIABLE: &str = "ROBOTSTXT_CRAWL_MARK";

/// Variables that would send a crawler's requests anywhere but the loopback site.
const PROXY_VARIABLES: [&str; 8] = [
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "ftp_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "FTP_PROXY",
];

static NEXT: AtomicU64 = AtomicU64::new(0);

/// A running crawler.
pub struct Crawler {
    child: Child,
    running: Running,
    mark: String,
}

/// The prefix of every mark this harness hands out: its process id.
fn harness_prefix() -> String {
    format!("{}-", std::process::id())
}

impl Crawler {
    /// Starts `argv` in `workdir`, its output into `stdout.txt` and `stderr.txt` there.
    pub fn start(argv: &[String], workdir: &Path) -> io::Result<Crawler> {
        signals::on_stop(stop_every_crawler);
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        let mark = format!(
            "{}{}",
            harness_prefix(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(workdir)
            .env(MARK_VARIABLE, &mark)
            .env("no_proxy", "*")
            .env("NO_PROXY", "*")
            .stdin(Stdio::null())
            .stdout(File::create(workdir.join("stdout.txt"))?)
            .stderr(File::create(workdir.join("stderr.txt"))?);
        for variable in PROXY_VARIABLES {
            command.env_remove(variable);
        }
        let (child, running) = child::spawn(command)?;
        Ok(Crawler {
            child,
            running,
            mark,
        })
    }

    /// The exit status, once the process itself has ended.
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Kills the process, its group and every process carrying its mark; returns how many
    /// processes other than the crawler itself were still running (forked and left behind): those
    /// its supervisor killed as it exited, and those found after.
    pub fn stop(mut self) -> usize {
        let ended_with_it = signals::left_behind(self.running).unwrap_or(0);
        signals::stop(self.running);
        let left = ended_with_it + kill_marked(&|m| m == self.mark, self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        signals::release(self.running);
        left
    }
}

/// The interrupt handler's clean-up: every process marked by this harness.
fn stop_every_crawler() {
    let prefix = harness_prefix();
    kill_marked(&|m| m.starts_with(&prefix), 0);
}

/// Kills every process whose environment holds a mark `wanted` accepts, in rounds until a round
/// finds none (a process may fork while the previous round kills); counts the distinct ones found
/// other than `except`.
fn kill_marked(wanted: &dyn Fn(&str) -> bool, except: u32) -> usize {
    let mut found = std::collections::BTreeSet::new();
    for _ in 0..50 {
        let marked = marked_processes(wanted);
        if marked.is_empty() {
            break;
        }
        for pid in marked {
            if pid != except {
                found.insert(pid);
            }
            if let Some(pid) = Pid::from_raw(pid as i32) {
                let _ = kill_process(pid, Signal::KILL);
            }
        }
        thread::sleep(Duration::from_millis(10));
    }
    found.len()
}

/// Processes (not yet reaped zombies excluded) whose environment holds a wanted mark.
fn marked_processes(wanted: &dyn Fn(&str) -> bool) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let prefix = format!("{MARK_VARIABLE}=");
    let mut pids = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        // A zombie keeps no environment; it is its parent's to reap.
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let marked = environ.split(|b| *b == 0).any(|variable| {
            std::str::from_utf8(variable)
                .ok()
                .and_then(|v| v.strip_prefix(&prefix))
                .is_some_and(wanted)
        });
        if marked {
            pids.push(pid);
        }
    }
    pids
}

/// Whether any process still carries a mark of this harness (for tests).
pub fn any_marked_left() -> bool {
    let prefix = harness_prefix();
    !marked_processes(&|m| m.starts_with(&prefix)).is_empty()
}
