//! Finding and reading input files under a folder without being trapped: symbolic-link loops
//! are detected (by `walkdir`), a file reached twice through links is counted once, and only
//! regular files are read, each with a size cap, so a FIFO or a link to `/dev/zero` named
//! `*.yaml` is an error rather than a hang.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};
use walkdir::WalkDir;

/// Why a folder could not be walked, naming the path.
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    #[error("{}: a symbolic link loops back to a folder above it", path.display())]
    Loop { path: PathBuf },
    #[error("{}: {source}", path.display())]
    Walk {
        path: PathBuf,
        source: walkdir::Error,
    },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
}

/// Every file under `root` whose name ends in `.{extension}`, sorted, each real file once (a
/// link to a file already found is left out). `root` may itself be one file. A symbolic-link
/// loop, an unreadable folder, or such a name on something that is not a regular file is an
/// error naming the path.
pub fn files_with_extension(root: &Path, extension: &str) -> Result<Vec<PathBuf>, WalkError> {
    let at = |path: &Path| {
        let path = path.to_owned();
        move |source| WalkError::Io { path, source }
    };
    let metadata = std::fs::metadata(root).map_err(at(root))?;
    if !metadata.is_dir() {
        return Ok(vec![root.to_owned()]);
    }
    let mut seen = HashSet::new();
    let mut files = Vec::new();
    for entry in WalkDir::new(root).follow_links(true).sort_by_file_name() {
        let entry = entry.map_err(|source| {
            let path = source.path().unwrap_or(root).to_owned();
            if source.loop_ancestor().is_some() {
                WalkError::Loop { path }
            } else {
                WalkError::Walk { path, source }
            }
        })?;
        let path = entry.path();
        if entry.file_type().is_dir() || path.extension().is_none_or(|e| e != extension) {
            continue;
        }
        let real = std::fs::canonicalize(path).map_err(at(path))?;
        if seen.insert(real) {
            files.push(path.to_owned());
        }
    }
    files.sort();
    Ok(files)
}

/// The bytes of the regular file at `path` (links followed), refusing anything else (a FIFO, a
/// device, a socket) and anything longer than `cap` bytes, without reading past the cap.
pub fn read_regular(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    // Non-blocking, so that opening a FIFO returns at once (and is then refused) instead of
    // waiting for a writer; reads of a regular file are not affected.
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let file = File::from(rustix::fs::open(path, flags, Mode::empty())?);
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let too_long = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("longer than the limit of {cap} bytes"),
        )
    };
    if metadata.len() > cap {
        return Err(too_long());
    }
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_long());
    }
    Ok(bytes)
}
