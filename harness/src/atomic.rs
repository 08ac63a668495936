//! Writing files so that a reader sees the old content or the new, never a mix.
//!
//! Reports, expectation files and anything else the harness writes for people to commit go
//! through [`write_atomic`]: the bytes go to a temporary file beside the target (same folder, so
//! the same file system), are flushed to disk, and only then renamed over the target. A run that
//! fails or is interrupted before the rename leaves the previous file as it was.
//! [`write_all_atomic`] does the same for a set of files that belong together. Temporaries are
//! registered with [`robotstxt_runtime::signals`], so an interrupt removes them too.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use robotstxt_runtime::signals;

/// Writes `bytes` to `path` atomically (see the module docs). The temporary file is
/// `<name>.tmp-<pid>`; it is removed again when anything fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temporary = temporary_beside(path)?;
    signals::guard_temporary(&temporary);
    let result = write_then_rename(&temporary, path, bytes);
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    signals::release_temporary(&temporary);
    result.map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// Writes several files that belong together (a report's pages): first every temporary, then
/// every rename. Anything that fails before the renames (a full disk, a folder where a file should
/// go) leaves every old file in place and no temporary behind.
pub fn write_all_atomic(files: &[(PathBuf, Vec<u8>)]) -> io::Result<()> {
    for (path, _) in files {
        if path.exists() && !path.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: exists and is not a file", path.display()),
            ));
        }
    }
    let mut written: Vec<(PathBuf, &Path)> = Vec::new();
    for (path, bytes) in files {
        let staged = temporary_beside(path).and_then(|temporary| {
            signals::guard_temporary(&temporary);
            let result = write_synced(&temporary, bytes);
            if result.is_err() {
                let _ = fs::remove_file(&temporary);
                signals::release_temporary(&temporary);
            }
            result.map(|()| temporary)
        });
        match staged {
            Ok(temporary) => written.push((temporary, path)),
            Err(e) => {
                for (temporary, _) in &written {
                    let _ = fs::remove_file(temporary);
                    signals::release_temporary(temporary);
                }
                return Err(io::Error::new(e.kind(), format!("{}: {e}", path.display())));
            }
        }
    }
    let mut first_error = None;
    for (temporary, path) in &written {
        let renamed = fs::rename(temporary, path);
        signals::release_temporary(temporary);
        if let Err(e) = renamed {
            let _ = fs::remove_file(temporary);
            first_error.get_or_insert(io::Error::new(e.kind(), format!("{}: {e}", path.display())));
        }
    }
    if let Some(dir) = files.first().and_then(|(p, _)| p.parent()) {
        sync_dir(dir);
    }
    first_error.map_or(Ok(()), Err)
}

fn temporary_beside(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a file name", path.display()),
        )
    })?;
    let mut temporary = name.to_owned();
    temporary.push(format!(".tmp-{}", std::process::id()));
    Ok(path.with_file_name(temporary))
}

fn write_then_rename(temporary: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_synced(temporary, bytes)?;
    fs::rename(temporary, path)?;
    if let Some(dir) = path.parent() {
        sync_dir(dir);
    }
    Ok(())
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = File::create(path)?;
    file.write_all(bytes)?;
    // Without the sync, a crash soon after the rename can leave an empty file under the new name.
    file.sync_all()
}

/// The rename itself lives in the folder; syncing it makes the new name durable. Not every
/// platform lets a folder be opened for that, and the data is safe either way, so errors here are
/// not worth failing the write for.
fn sync_dir(dir: &Path) {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_old_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        fs::write(&path, "old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary left"
        );
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
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["taken"], "the temporary was removed");
    }

    #[test]
    fn a_set_is_written_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        fs::write(&a, "old a").unwrap();
        fs::create_dir(&b).unwrap();
        let files = [
            (a.clone(), b"new a".to_vec()),
            (b.clone(), b"new b".to_vec()),
        ];
        assert!(write_all_atomic(&files).is_err());
        assert_eq!(
            fs::read_to_string(&a).unwrap(),
            "old a",
            "nothing was replaced"
        );
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            2,
            "no temporary left"
        );
        fs::remove_dir(&b).unwrap();
        write_all_atomic(&files).unwrap();
        assert_eq!(fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(fs::read_to_string(&b).unwrap(), "new b");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            2,
            "no temporary left"
        );
    }
}
