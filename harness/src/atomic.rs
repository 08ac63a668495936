//! Writing files so that a reader sees the old content or the new, never a mix.
//!
//! Reports, expectation files and anything else the harness writes for people to commit go
//! through [`write_atomic`]: the bytes go to a temporary file beside the target (same folder, so
//! the same file system), are flushed to disk, and only then renamed over the target. A run that
//! fails or is interrupted before the rename leaves the previous file as it was.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically (see the module docs). The temporary file is
/// `<name>.tmp-<pid>`; it is removed again when anything fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let temporary = temporary_beside(path)?;
    let result = write_then_rename(&temporary, path, bytes);
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result.map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
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
    let mut file = File::create(temporary)?;
    file.write_all(bytes)?;
    // Without the sync, a crash soon after the rename can leave an empty file under the new name.
    file.sync_all()?;
    drop(file);
    fs::rename(temporary, path)?;
    // The rename itself lives in the folder; syncing it makes the new name durable. Not every
    // platform lets a folder be opened for that, and the data is safe either way, so errors here
    // are not worth failing the write for.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
    }
    Ok(())
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
}
