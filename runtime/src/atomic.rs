//! Writing a file so that a reader sees the old content or the new, never a mix.
//!
//! Expectation files, survey pages and anything else the harness writes for people to commit go
//! through [`write_atomic`]: the bytes go to a temporary file beside the target (same folder, so
//! the same file system; made by `tempfile`), are flushed to disk, and only then renamed over the
//! target. A run that fails or is interrupted before the rename leaves the previous file as it
//! was. Temporaries are registered with [`crate::signals`], so an interrupt removes
//! them too; one left by a process that was killed outright is removed by the next write into
//! its folder ([`remove_stale_temporaries`]). A whole folder of files is replaced by
//! [`crate::swap`].

use std::fs::{self, File, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::signals;
use rustix::process::{test_kill_process, Pid};

/// A file that could not be written, and why.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct WriteError {
    pub path: PathBuf,
    pub source: io::Error,
}

/// Writes `bytes` to `path` atomically (see the module docs). The temporary file is
/// `<name>.<random>.tmp-<pid>`; it is removed again when anything fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let fail = |source| WriteError {
        path: path.to_owned(),
        source,
    };
    let name = path.file_name().ok_or_else(|| {
        fail(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a file name",
        ))
    })?;
    let dir = folder_of(path);
    let mut prefix = name.to_owned();
    prefix.push(".");
    // 0666 before the umask, as `File::create` makes a file (tempfile's default is 0600).
    let mut temporary = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(&temporary_suffix())
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(fail)?;
    let registered = temporary.path().to_owned();
    signals::guard_temporary(&registered);
    let written = write_synced(temporary.as_file_mut(), bytes);
    // On any error the temporary is dropped here, which removes it.
    let result = written.and_then(|()| temporary.persist(path).map_err(|e| e.error));
    signals::release_temporary(&registered);
    result.map_err(fail)?;
    sync_folder(dir);
    Ok(())
}

/// Writes every one of `files` atomically, all or none: each goes to a temporary beside its
/// target first, and only once every temporary is written and flushed are they renamed into
/// place. A failure while writing (a full disk) leaves every target as it was, with no
/// temporary; only a rename can still fail after that, which needs no space, and the error
/// then says how many files were already replaced.
pub fn write_atomic_all(files: &[(PathBuf, &[u8])]) -> Result<(), WriteError> {
    let mut staged = Vec::with_capacity(files.len());
    let release = |staged: &[(tempfile::NamedTempFile, &Path)]| {
        for (temporary, _) in staged {
            signals::release_temporary(temporary.path());
        }
    };
    for (path, bytes) in files {
        let fail = |source| WriteError {
            path: path.clone(),
            source,
        };
        let name = path.file_name().ok_or_else(|| {
            fail(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a file name",
            ))
        })?;
        let mut prefix = name.to_owned();
        prefix.push(".");
        let made = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(&temporary_suffix())
            .permissions(Permissions::from_mode(0o666))
            .tempfile_in(folder_of(path));
        let mut temporary = match made {
            Ok(temporary) => temporary,
            Err(e) => {
                release(&staged);
                return Err(fail(e));
            }
        };
        signals::guard_temporary(temporary.path());
        if let Err(e) = write_synced(temporary.as_file_mut(), bytes) {
            signals::release_temporary(temporary.path());
            release(&staged);
            return Err(fail(e));
        }
        staged.push((temporary, path.as_path()));
    }
    let total = staged.len();
    for (done, (temporary, path)) in staged.into_iter().enumerate() {
        let registered = temporary.path().to_owned();
        let persisted = temporary.persist(path);
        signals::release_temporary(&registered);
        if let Err(e) = persisted {
            let source = io::Error::new(
                e.error.kind(),
                format!("{} (after {done} of {total} files were replaced)", e.error),
            );
            return Err(WriteError {
                path: path.to_owned(),
                source,
            });
        }
    }
    for (path, _) in files {
        sync_folder(folder_of(path));
    }
    Ok(())
}

fn write_synced(file: &mut File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    // Without the sync, a crash soon after the rename can leave an empty file under the new name.
    file.sync_all()
}

/// The folder a path is in (`.` for a bare name).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// The rename itself lives in the folder; syncing it makes the new name durable. Not every
/// platform lets a folder be opened for that, and the data is safe either way, so errors here are
/// not worth failing the write for.
pub fn sync_folder(dir: &Path) {
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// The end of every temporary's name: `.tmp-<pid>`, so that a later run can tell whether the
/// process that made it is still running.
fn temporary_suffix() -> String {
    format!(".tmp-{}", std::process::id())
}

/// Whether a file name is one of the harness's temporaries (`<name>[.<random>].tmp-<pid>`).
pub fn is_temporary_name(name: &str) -> bool {
    temporary_pid(name).is_some()
}

fn temporary_pid(name: &str) -> Option<&str> {
    let (_, pid) = name.rsplit_once(".tmp-")?;
    (!pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())).then_some(pid)
}

/// Removes the temporaries in `dir` whose process is no longer running: what a run killed
/// outright (SIGKILL, power lost) left behind.
pub fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let text = name.to_string_lossy();
        if temporary_pid(&text).is_some_and(|pid| !alive(pid)) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether the process `pid` (as written in a temporary's name) is running.
pub fn alive(pid: &str) -> bool {
    let Some(pid) = pid.parse::<i32>().ok().and_then(Pid::from_raw) else {
        return false;
    };
    // Signal 0 only checks that the process exists.
    pid.as_raw_nonzero().get() == std::process::id() as i32 || test_kill_process(pid).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replaces_the_old_content_with_the_mode_a_new_file_gets() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        fs::write(&path, "old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(names(dir.path()), ["a.md"], "no temporary left");
        let plain = dir.path().join("plain");
        File::create(&plain).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&path), mode(&plain));
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        // A folder where the file should go: the rename fails after the temporary was written.
        let path = dir.path().join("taken");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), "kept").unwrap();
        let error = write_atomic(&path, b"new").unwrap_err();
        assert!(error.to_string().contains("taken"), "{error}");
        assert_eq!(fs::read_to_string(path.join("inside")).unwrap(), "kept");
        assert_eq!(names(dir.path()), ["taken"], "the temporary was removed");
    }

    #[test]
    fn only_the_temporaries_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let mine = format!("a.md.x1{}", temporary_suffix());
        for name in [
            "a.md.tmp-999999999",
            "b.md.Ab3.tmp-999999999",
            &mine,
            "c.tmp-x",
        ] {
            fs::write(dir.path().join(name), "").unwrap();
        }
        remove_stale_temporaries(dir.path());
        assert_eq!(names(dir.path()), [mine.as_str(), "c.tmp-x"]);
    }
}
