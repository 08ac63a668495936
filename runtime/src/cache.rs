//! Where adapter installs go, and the lock that keeps two installs of one adapter apart.
//!
//! In a checkout, an adapter's venv or npm prefix goes to `target/adapters/<name>/` and Rust
//! adapters build into `target/` (or `$CARGO_TARGET_DIR`), as cargo would put them. Anywhere else
//! everything goes into the cache folder: `--cache-dir`, else `$XDG_CACHE_HOME/robotstxt-test`
//! (`~/.cache/robotstxt-test`; on macOS `~/Library/Caches/robotstxt-test`, on Windows
//! `%LOCALAPPDATA%\robotstxt-test\cache`). Its layout:
//!
//! | path | what |
//! |---|---|
//! | `suite/<version>-<hash>/` | the adapter folders and corpus this binary carries, written once |
//! | `adapters/<name>/` | one adapter's installs (`venv/`, `node/`) |
//! | `adapters/<name>.lock` | held while that adapter installs |
//! | `target/` | the cargo target folder of Rust adapters |
//!
//! Nothing is ever written next to the installed binary.

use robotstxt_suite::visible::path_shown;
use std::fs::File;
use std::path::{Path, PathBuf};

use fs4::FileExt;

/// Where one suite's adapters live, install and build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Places {
    /// The workspace root, where `cargo build` runs.
    pub workspace: PathBuf,
    /// The cargo target folder.
    pub target: PathBuf,
    /// The folder holding `<name>/`, one install cache per adapter.
    pub caches: PathBuf,
    /// The adapters come from the copy this binary carries (not from a checkout).
    pub embedded: bool,
}

impl Places {
    /// A checkout's places: under its `target/` (or `$CARGO_TARGET_DIR`).
    pub fn checkout(workspace: &Path) -> Places {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| workspace.join("target"));
        Places {
            workspace: workspace.to_owned(),
            caches: target.join("adapters"),
            target,
            embedded: false,
        }
    }

    /// Everything under the cache folder `root`, for adapters whose workspace is `workspace`.
    pub fn in_cache(root: &Path, workspace: &Path, embedded: bool) -> Places {
        Places {
            workspace: workspace.to_owned(),
            target: root.join("target"),
            caches: root.join("adapters"),
            embedded,
        }
    }
}

/// Why the cache folder cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("no cache folder: no home folder is known; pass --cache-dir DIR")]
    NoHome,
    #[error("cache folder {}: {source}", root.display())]
    Unusable {
        root: PathBuf,
        source: std::io::Error,
    },
}

/// The cache folder: `explicit` (from `--cache-dir`) or the platform's, created if missing and
/// checked to be writable, so that a bad one is one clear error before anything runs.
pub fn root(explicit: Option<&Path>) -> Result<PathBuf, CacheError> {
    let root = match explicit {
        Some(dir) => dir.to_owned(),
        None => directories::ProjectDirs::from("", "", "robotstxt-test")
            .map(|dirs| dirs.cache_dir().to_owned())
            .ok_or(CacheError::NoHome)?,
    };
    let unusable = |source| CacheError::Unusable {
        root: root.clone(),
        source,
    };
    std::fs::create_dir_all(&root).map_err(unusable)?;
    std::fs::read_dir(&root).map_err(unusable)?;
    let probe = root.join(format!(".probe-{}", std::process::id()));
    File::create(&probe).map_err(unusable)?;
    let _ = std::fs::remove_file(&probe);
    Ok(root)
}

/// An exclusive lock on one adapter's install, released when dropped.
#[derive(Debug)]
pub struct InstallLock {
    file: File,
}

/// The install lock could not be taken.
#[derive(Debug, thiserror::Error)]
#[error("install lock {}: {source}", path.display())]
pub struct LockError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

impl InstallLock {
    /// Takes the lock at `path`, waiting for another process that holds it; `wait` says so
    /// once before waiting.
    pub fn acquire(path: &Path, wait: &mut dyn FnMut(&str)) -> Result<InstallLock, LockError> {
        let fail = |source| LockError {
            path: path.to_owned(),
            source,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(fail)?;
        }
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(fail)?;
        match FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => {
                wait(&format!(
                    "waiting for another robotstxt-test that is installing into the same place \
                     (lock {})",
                    path_shown(path)
                ));
                FileExt::lock(&file).map_err(fail)?;
            }
            Err(fs4::TryLockError::Error(e)) => return Err(fail(e)),
        }
        Ok(InstallLock { file })
    }

    /// The locked file, for a process that must keep the lock while it runs (a setup step's
    /// supervisor: the lock is released only once the step's whole tree is gone).
    pub fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        std::os::fd::AsFd::as_fd(&self.file)
    }
}
