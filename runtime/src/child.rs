//! Starting every process the runtime runs (adapters, crawlers, setup steps, probes) so that no
//! descendant outlives the harness, however it ends. On Linux each child runs under a supervisor
//! (`crate::supervisor`): the subreaper of everything below it, which kills the whole tree when
//! the child exits or when the harness closes its end of the supervisor's pipe (asked to by
//! [`signals::stop`], or dead: SIGKILL included). Each runs in its own process group, registered
//! with the interrupt handler until it is reaped.
//!
//! The supervised child also asks the kernel for SIGKILL when its supervisor dies
//! (`PR_SET_PDEATHSIG`). Every child is forked by one thread kept for the life of the process
//! ([`spawn`] hands it the command), so that the parent-death signal elsewhere never follows a
//! short-lived worker thread.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::sync::mpsc::{self, Sender};
use std::sync::{Mutex, OnceLock};
use std::thread;

use crate::adapter::holders::pipe_inode;
use crate::signals::{self, Running};

type Reply = Sender<io::Result<Child>>;

/// The thread that forks every child, reached through this channel.
static SPAWNER: OnceLock<Mutex<Sender<(Command, Reply)>>> = OnceLock::new();

/// Starts `command` in its own process group under a supervisor that ends its whole tree with
/// it or with the harness, and registers it with the interrupt handler (which refuses new starts
/// once it runs: then this is an error). The caller gives the returned [`Running`] back with
/// [`signals::release`] once the child is reaped.
pub fn spawn(command: Command) -> io::Result<(Child, Running)> {
    spawn_holding(command, &[])
}

/// As [`spawn`], the supervisor keeping `held` open until the tree is gone: a lock taken for
/// what the child does (an install lock) is released only once nothing the child started runs,
/// even if the harness is killed first. At most `crate::supervisor::MAX_HELD` descriptors.
pub fn spawn_holding(
    mut command: Command,
    held: &[BorrowedFd<'_>],
) -> io::Result<(Child, Running)> {
    command.process_group(0);
    let pipe = supervise(&mut command, held)?;
    // Held until the child is registered: the interrupt handler waits for it, then kills.
    let _gate = signals::start_gate().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::Interrupted,
            "interrupted: nothing more is started",
        )
    })?;
    let (reply, answer) = mpsc::channel();
    spawner()
        .lock()
        .map_err(|_| io::Error::other("the process starter is gone"))?
        .send((command, reply))
        .map_err(|_| io::Error::other("the process starter is gone"))?;
    let child = answer
        .recv()
        .map_err(|_| io::Error::other("the process starter is gone"))??;
    let running = Running {
        group: i32::try_from(child.id()).unwrap_or(i32::MAX),
        pipe: child.stdout.as_ref().and_then(pipe_inode),
    };
    // The supervisor has its copies of its ends; the harness keeps its own alone.
    if let Some(pipes) = pipe {
        signals::supervised(running.group, pipes.ask, pipes.report);
    }
    signals::adopt(running);
    Ok((child, running))
}

fn spawner() -> &'static Mutex<Sender<(Command, Reply)>> {
    SPAWNER.get_or_init(|| {
        let (requests, incoming) = mpsc::channel::<(Command, Reply)>();
        thread::Builder::new()
            .name("process-starter".to_owned())
            .spawn(move || {
                for (mut command, reply) in incoming {
                    let _ = reply.send(command.spawn());
                }
            })
            .expect("a thread starts");
        Mutex::new(requests)
    })
}

/// The harness's ends of a supervisor's pipes, and the supervisor's, closed once it has started.
struct SupervisorPipes {
    ask: OwnedFd,
    report: OwnedFd,
    _supervisor_ends: [OwnedFd; 2],
}

/// Makes the process `command` forks the supervisor of the real child; returns its pipes (every
/// end closes on exec, so no other child inherits them).
#[cfg(target_os = "linux")]
fn supervise(
    command: &mut Command,
    held: &[BorrowedFd<'_>],
) -> io::Result<Option<SupervisorPipes>> {
    use crate::supervisor::{self, Kept, MAX_HELD};
    if held.len() > MAX_HELD {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a supervisor holds at most {MAX_HELD} descriptors"),
        ));
    }
    use rustix::pipe::{pipe_with, PipeFlags};
    let (read, ask) = pipe_with(PipeFlags::CLOEXEC)?;
    // Read once the supervisor has exited, when it has written: never waited on.
    let (report, write) = pipe_with(PipeFlags::CLOEXEC | PipeFlags::NONBLOCK)?;
    let mut kept = Kept {
        pipe: read.as_raw_fd(),
        report: write.as_raw_fd(),
        held: [-1; MAX_HELD],
    };
    for (slot, fd) in kept.held.iter_mut().zip(held) {
        *slot = fd.as_raw_fd();
    }
    let hook = move || supervisor::split(kept);
    // SAFETY: `pre_exec` is the only way to run code in the child between fork and exec, where
    // the supervisor must split off (it must be the child's parent, and the process the harness
    // waits for); no crate offers it without this call. `supervisor::split` makes raw system
    // calls alone, on its stack, without allocating: all async-signal-safe.
    unsafe {
        command.pre_exec(hook);
    }
    Ok(Some(SupervisorPipes {
        ask,
        report,
        _supervisor_ends: [read, write],
    }))
}

#[cfg(not(target_os = "linux"))]
fn supervise(_: &mut Command, _: &[BorrowedFd<'_>]) -> io::Result<Option<SupervisorPipes>> {
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Its own process group, as the kernel reports it. (The parent-death signal is shown by
    /// killing the harness: `harness/tests/hostile/orphans.rs` and `install.rs`.)
    #[test]
    fn a_child_runs_in_a_process_group_of_its_own() {
        let mut command = Command::new("sh");
        command.args(["-c", "cat /proc/self/stat"]);
        command.stdout(std::process::Stdio::piped());
        let (child, running) = spawn(command).unwrap();
        let pid = child.id();
        let output = child.wait_with_output().unwrap();
        signals::release(running);
        let text = String::from_utf8(output.stdout).unwrap();
        // Field 5 of /proc/self/stat (after the name) is the process group.
        let group = text
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .nth(2)
            .unwrap();
        assert_eq!(group, pid.to_string(), "{text}");
    }

    /// The first line `child` prints: the pid of a process it started.
    fn first_pid(child: &mut Child) -> i32 {
        use std::io::BufRead;
        let stdout = child.stdout.as_mut().unwrap();
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .unwrap();
        line.trim().parse().unwrap()
    }

    /// Whether `pid` runs (a zombie does not).
    fn alive(pid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit_once(") ")
                .is_some_and(|(_, s)| !s.starts_with('Z'))
        })
    }

    fn gone_within(pid: i32, wait: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + wait;
        while alive(pid) {
            if std::time::Instant::now() > deadline {
                return false;
            }
            thread::sleep(std::time::Duration::from_millis(5));
        }
        true
    }

    /// A process that starts a sleeper in a session of its own (out of its group, its output
    /// closed) and then waits: what `spawn` starts is its supervised child.
    fn leaving_a_sleeper(then: &str) -> Command {
        let mut command = Command::new("sh");
        let script = format!("setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!; {then}");
        command.args(["-c", &script]);
        command.stdout(std::process::Stdio::piped());
        command
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_stop_ends_a_grandchild_in_a_session_of_its_own() {
        let (mut child, running) = spawn(leaving_a_sleeper("trap '' TERM; sleep 1000")).unwrap();
        let sleeper = first_pid(&mut child);
        assert!(alive(sleeper));
        signals::stop(running);
        let status = child.wait().unwrap();
        signals::release(running);
        assert!(gone_within(sleeper, std::time::Duration::from_secs(1)));
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(9), "{status}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_child_that_exits_takes_what_it_left_running_with_it() {
        let (mut child, running) = spawn(leaving_a_sleeper("exit 7")).unwrap();
        let sleeper = first_pid(&mut child);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(7));
        assert!(gone_within(sleeper, std::time::Duration::from_secs(1)));
        // Not a zombie: its supervisor reaped it, and says it had to kill it.
        assert!(!std::path::Path::new(&format!("/proc/{sleeper}")).exists());
        assert_eq!(signals::left_behind(running), Some(1));
        signals::release(running);
    }

    #[test]
    fn a_child_killed_by_a_signal_is_reported_killed_by_it() {
        let mut command = Command::new("sh");
        command.args(["-c", "kill -USR1 $$"]);
        let (mut child, running) = spawn(command).unwrap();
        let status = child.wait().unwrap();
        signals::release(running);
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(10), "{status}");
    }

    #[test]
    fn a_program_that_does_not_exist_is_an_error_at_start() {
        let error = spawn(Command::new("/nonexistent/program")).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound, "{error}");
    }
}
