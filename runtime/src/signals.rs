//! Interrupts (SIGINT from a terminal's Ctrl-C, SIGTERM from a CI runner): every adapter runs in
//! its own process group, so it does not receive the terminal's signal; without a handler it
//! would keep running after the harness is gone. The handler stops every adapter still
//! registered here (its process group, and any process that still holds its output pipe),
//! removes the temporary files and folders registered here, and exits with status 130. Before it
//! kills, it closes the gate every start goes through ([`start_gate`]): an adapter being
//! restarted while the handler runs is either registered before the kill or never started.
//!
//! A closed standard output (`robotstxt-test check ... | head -1`) is not a signal here: Rust
//! ignores SIGPIPE, so that a write to a dead adapter's pipe is an error the harness can report
//! (restoring the default would let any adapter that exits early kill the harness). A write to
//! the closed standard output fails with `BrokenPipe` instead, and the application ends quietly
//! with [`STDOUT_CLOSED`], after the usual clean-up of whatever was running.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use rustix::process::{
    kill_process, kill_process_group, waitid, Pid, Signal, WaitId, WaitIdOptions,
};

/// The exit status after an interrupt: 128 + SIGINT, as shells report it.
pub const INTERRUPTED: i32 = 130;

/// The exit status when standard output was closed by its reader: 128 + SIGPIPE, as shells report
/// it, so `set -o pipefail` still sees that the output was cut short.
pub const STDOUT_CLOSED: i32 = 141;

/// A running adapter: its process group and the inode of its output pipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Running {
    pub group: i32,
    pub pipe: Option<u64>,
}

static RUNNING: Mutex<Vec<Running>> = Mutex::new(Vec::new());
/// The harness's ends of each supervisor's pipes (`crate::supervisor`).
struct Supervised {
    pid: i32,
    /// Closing it (dropping it) asks the supervisor to end its whole tree.
    _ask: OwnedFd,
    /// Where the supervisor says how many other processes it killed, before it exits.
    report: OwnedFd,
}

static SUPERVISED: Mutex<Vec<Supervised>> = Mutex::new(Vec::new());
/// How long [`stop`] waits for a supervisor to end its tree before it kills what it can reach.
const TREE_END: Duration = Duration::from_secs(5);
/// Held by a start from before its fork until its child is registered.
static STARTS: Mutex<()> = Mutex::new(());
/// Set once the harness is stopping everything: no start passes the gate after it.
static STOPPING: AtomicBool = AtomicBool::new(false);
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Held by each step that makes or fills a registered temporary folder, and by the handler from
/// before it removes the temporaries until the process exits.
static TEMPORARY_STEPS: Mutex<()> = Mutex::new(());
/// More clean-ups for [`stop_everything`], registered by code that starts processes this module
/// cannot find by their group or pipe (a crawler's children that left both).
static HOOKS: Mutex<Vec<fn()>> = Mutex::new(Vec::new());

/// Runs `hook` too when everything is stopped (an interrupt), after the adapters are killed.
pub fn on_stop(hook: fn()) {
    if let Ok(mut hooks) = HOOKS.lock() {
        if !hooks.contains(&hook) {
            hooks.push(hook);
        }
    }
}

/// Lists the other processes holding a pipe open, by the pipe's inode. The adapter processes
/// register it (`adapter::holders`) before they adopt anything, so that this module, which the
/// temporary files of a report rely on too, needs nothing above it.
static PIPE_HOLDERS: OnceLock<fn(u64) -> Vec<i32>> = OnceLock::new();

/// Says how [`stop`] finds the processes still holding an adapter's output pipe.
pub fn find_pipe_holders_with(find: fn(u64) -> Vec<i32>) {
    let _ = PIPE_HOLDERS.set(find);
}

/// The interrupt handler could not be installed.
#[derive(Debug, thiserror::Error)]
#[error("cannot install the interrupt handler: {0}")]
pub struct HandlerError(#[from] ctrlc::Error);

/// Installs the handler for SIGINT, SIGTERM and SIGHUP. Call once, at start.
pub fn install() -> Result<(), HandlerError> {
    ctrlc::set_handler(|| {
        stop_everything();
        std::process::exit(INTERRUPTED);
    })?;
    Ok(())
}

/// The gate a start holds until its child is registered with [`adopt`]; `None` once the harness
/// is stopping everything.
pub fn start_gate() -> Option<MutexGuard<'static, ()>> {
    let gate = STARTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    (!STOPPING.load(Ordering::SeqCst)).then_some(gate)
}

/// Stops every registered adapter and removes every registered temporary path. No start passes
/// the gate after this begins, and a start under way is waited for, so that it is killed too.
pub fn stop_everything() {
    STOPPING.store(true, Ordering::SeqCst);
    let _no_more_starts = STARTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let running = RUNNING.lock().map(|r| r.clone()).unwrap_or_default();
    for adapter in running {
        stop(adapter);
    }
    let hooks = HOOKS.lock().map(|h| h.clone()).unwrap_or_default();
    for hook in hooks {
        hook();
    }
    // Waits for a step under way to end; no step starts after it, so nothing is written into a
    // folder once it is removed. Kept until the process exits.
    let steps = TEMPORARY_STEPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    std::mem::forget(steps);
    let temporary = TEMPORARY.lock().map(|t| t.clone()).unwrap_or_default();
    for path in temporary {
        if path.is_dir() {
            let _ = std::fs::remove_dir_all(&path);
        } else {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Ends an adapter and everything it started: its supervisor is asked to kill the whole tree
/// and waited for (up to `TREE_END`); then its process group and every process still holding
/// its output pipe are sent SIGKILL, which is all there is to do where no supervisor runs.
pub fn stop(adapter: Running) {
    if let Some(supervised) = take_supervised(adapter.group) {
        drop(supervised);
        wait_gone(adapter.group);
    }
    // A process that is already gone is what was wanted: errors are not worth reporting.
    if let Some(group) = Pid::from_raw(adapter.group) {
        let _ = kill_process_group(group, Signal::KILL);
    }
    if let (Some(inode), Some(holding_pipe)) = (adapter.pipe, PIPE_HOLDERS.get()) {
        for pid in holding_pipe(inode).into_iter().filter_map(Pid::from_raw) {
            let _ = kill_process(pid, Signal::KILL);
        }
    }
}

/// Registers the harness's ends of the pipes of the supervisor `pid`.
pub fn supervised(pid: i32, ask: OwnedFd, report: OwnedFd) {
    if let Ok(mut supervised) = SUPERVISED.lock() {
        supervised.push(Supervised {
            pid,
            _ask: ask,
            report,
        });
    }
}

fn take_supervised(pid: i32) -> Option<Supervised> {
    let mut supervised = SUPERVISED.lock().ok()?;
    let at = supervised.iter().position(|s| s.pid == pid)?;
    Some(supervised.swap_remove(at))
}

/// How many processes other than the child itself its supervisor had to kill, once the child
/// has exited (its status seen): what it left running. None where no supervisor runs, or when
/// the supervisor has not said (yet).
pub fn left_behind(child: Running) -> Option<usize> {
    let supervised = SUPERVISED.lock().ok()?;
    let found = supervised.iter().find(|s| s.pid == child.group)?;
    let mut bytes = [0u8; 4];
    let read = rustix::io::read(&found.report, &mut bytes).ok()?;
    (read == 4).then(|| u32::from_le_bytes(bytes) as usize)
}

/// Waits until the child `pid` has exited (without reaping it: its owner does), or it is not a
/// child any more, or [`TREE_END`] has passed.
fn wait_gone(pid: i32) {
    let Some(pid) = Pid::from_raw(pid) else {
        return;
    };
    let deadline = Instant::now() + TREE_END;
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOWAIT | WaitIdOptions::NOHANG;
    while Instant::now() < deadline {
        match waitid(WaitId::Pid(pid), options) {
            Ok(None) => std::thread::sleep(Duration::from_millis(1)),
            // Exited, or already reaped by its owner.
            Ok(Some(_)) | Err(_) => return,
        }
    }
}

pub fn adopt(adapter: Running) {
    if let Ok(mut running) = RUNNING.lock() {
        running.push(adapter);
    }
}

/// Forgets a reaped child; closes its supervisor's pipe (the supervisor is gone by then). While
/// the interrupt handler stops everything, the caller waits here for it to end the process: a
/// child it killed must not be reported as a failure, nor the process end with another status.
pub fn release(adapter: Running) {
    drop(take_supervised(adapter.group));
    if let Ok(mut running) = RUNNING.lock() {
        running.retain(|r| *r != adapter);
    }
    if STOPPING.load(Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}

/// Taken by a step that makes or fills a temporary folder (and registers it): the interrupt
/// handler waits for the step to end before it removes the folder. Once the handler has begun,
/// a step never starts: this waits for the handler to end the process (returning, the caller
/// might exit first, with the folder half removed).
pub fn temporary_step() -> MutexGuard<'static, ()> {
    let step = TEMPORARY_STEPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if STOPPING.load(Ordering::SeqCst) {
        drop(step);
        loop {
            std::thread::park();
        }
    }
    step
}

/// Registers a temporary file or folder, removed if the run is interrupted.
pub fn guard_temporary(path: &Path) {
    if let Ok(mut temporary) = TEMPORARY.lock() {
        temporary.push(path.to_owned());
    }
}

/// Forgets a temporary path once it was renamed into place or removed.
pub fn release_temporary(path: &Path) {
    if let Ok(mut temporary) = TEMPORARY.lock() {
        temporary.retain(|p| p != path);
    }
}
