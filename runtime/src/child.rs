//! Starting every process the runtime runs (adapters, setup steps, probes) so that none outlives
//! the harness, however it ends. An interrupt is handled ([`crate::signals`]); SIGKILL and SIGQUIT
//! cannot be, so on Linux each child also asks the kernel for SIGKILL when its parent dies
//! (`PR_SET_PDEATHSIG`), and each runs in its own process group, registered with the interrupt
//! handler until it is reaped.
//!
//! The kernel sends the parent-death signal when the *thread* that forked the child ends, not
//! the process, and the harness starts adapters from short-lived worker threads. So every child
//! is forked by one thread kept for the life of the process ([`spawn`] hands it the command).

use std::io;
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

/// Starts `command` in its own process group, killed by the kernel when the harness dies, and
/// registered with the interrupt handler (which refuses new starts once it runs: then this is an
/// error). The caller gives the returned [`Running`] back with [`signals::release`] once the
/// child is reaped.
pub fn spawn(mut command: Command) -> io::Result<(Child, Running)> {
    command.process_group(0);
    die_with_parent(&mut command);
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

/// Makes the child ask for SIGKILL when its parent dies; if the parent is already gone by then
/// (it died between the fork and this call), the child does not start.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use rustix::process::{getpid, getppid, set_parent_process_death_signal, Signal};
    let parent = getpid();
    let hook = move || -> io::Result<()> {
        set_parent_process_death_signal(Some(Signal::KILL))?;
        if getppid() != Some(parent) {
            // No allocation here: between fork and exec only async-signal-safe calls are sound.
            return Err(rustix::io::Errno::SRCH.into());
        }
        Ok(())
    };
    // SAFETY: `pre_exec` is the only way to run code in the child between fork and exec, which
    // is where the parent-death signal must be set (it is cleared on fork, kept across exec); no
    // crate offers it without this call. The hook only makes two system calls through rustix
    // (prctl, getppid) and builds an error without allocating, all async-signal-safe.
    unsafe {
        command.pre_exec(hook);
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_: &mut Command) {}

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
}
