//! Interrupts (SIGINT from a terminal's Ctrl-C, SIGTERM from a CI runner): every adapter runs in
//! its own process group, so it does not receive the terminal's signal; without a handler it
//! would keep running after the harness is gone. The handler stops every adapter still
//! registered here (its process group, and any process that still holds its output pipe),
//! removes the temporary files and folders registered here, and exits with status 130.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The exit status after an interrupt: 128 + SIGINT, as shells report it.
pub const INTERRUPTED: i32 = 130;

/// A running adapter: its process group and the inode of its output pipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Running {
    pub group: i32,
    pub pipe: Option<u64>,
}

static RUNNING: Mutex<Vec<Running>> = Mutex::new(Vec::new());
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs the handler for SIGINT, SIGTERM and SIGHUP. Call once, at start.
pub fn install() -> Result<(), String> {
    ctrlc::set_handler(|| {
        stop_everything();
        std::process::exit(INTERRUPTED);
    })
    .map_err(|e| format!("cannot install the interrupt handler: {e}"))
}

/// Stops every registered adapter and removes every registered temporary path.
pub fn stop_everything() {
    let running = RUNNING.lock().map(|r| r.clone()).unwrap_or_default();
    for adapter in running {
        stop(adapter);
    }
    let temporary = TEMPORARY.lock().map(|t| t.clone()).unwrap_or_default();
    for path in temporary {
        if path.is_dir() {
            let _ = std::fs::remove_dir_all(&path);
        } else {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Kills an adapter's process group with SIGKILL, and every process still holding its output
/// pipe (a grandchild that left the group with `setsid`).
pub fn stop(adapter: Running) {
    // SAFETY: kill(2) with a negative pid signals a process group; no memory is touched.
    unsafe {
        libc::kill(-adapter.group, libc::SIGKILL);
    }
    if let Some(inode) = adapter.pipe {
        for pid in crate::adapter::holders::holding_pipe(inode) {
            // SAFETY: as above, for one process.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

pub fn adopt(adapter: Running) {
    if let Ok(mut running) = RUNNING.lock() {
        running.push(adapter);
    }
}

pub fn release(adapter: Running) {
    if let Ok(mut running) = RUNNING.lock() {
        running.retain(|r| *r != adapter);
    }
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
