//! Finding input files under a folder without being trapped: each real folder is entered once
//! and each real file counted once, by its device and inode, however many symbolic links lead to
//! it (a lattice of links, two per level, would otherwise be walked 2^depth times); a link back
//! to a folder above is reported as a loop (by `walkdir`). The files found are read through
//! [`crate::input`].

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

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
/// link to a file already found is left out), each real folder entered once (a link to a folder
/// already walked is not walked again). `root` may itself be one file. A symbolic-link loop or
/// an unreadable folder is an error naming the path.
pub fn files_with_extension(root: &Path, extension: &str) -> Result<Vec<PathBuf>, WalkError> {
    files_by_identity(root, extension, identity)
}

/// What a file or folder is, whatever links lead to it.
#[derive(Debug, PartialEq, Eq, Hash)]
enum Identity {
    /// Its device and inode, on Unix.
    #[cfg_attr(not(unix), allow(dead_code))]
    Inode(u64, u64),
    /// Its canonical path, elsewhere.
    #[cfg_attr(all(unix, not(test)), allow(dead_code))]
    Canonical(PathBuf),
}

#[cfg(unix)]
fn identity(_path: &Path, real: &std::fs::Metadata) -> io::Result<Identity> {
    use std::os::unix::fs::MetadataExt;
    Ok(Identity::Inode(real.dev(), real.ino()))
}

/// Where no inode is at hand: the path with every link resolved. Built in this crate's tests on
/// Unix too, which walk with it.
#[cfg(any(not(unix), test))]
fn canonical_identity(path: &Path, _real: &std::fs::Metadata) -> io::Result<Identity> {
    std::fs::canonicalize(path).map(Identity::Canonical)
}

#[cfg(not(unix))]
use canonical_identity as identity;

type IdentityOf = fn(&Path, &std::fs::Metadata) -> io::Result<Identity>;

fn files_by_identity(
    root: &Path,
    extension: &str,
    identity: IdentityOf,
) -> Result<Vec<PathBuf>, WalkError> {
    let at = |path: &Path| {
        let path = path.to_owned();
        move |source| WalkError::Io { path, source }
    };
    let metadata = std::fs::metadata(root).map_err(at(root))?;
    if !metadata.is_dir() {
        return Ok(vec![root.to_owned()]);
    }
    // Real files and folders, by (device, inode): what a link leads to is the same file.
    let mut seen: HashSet<Identity> = HashSet::new();
    let mut files = Vec::new();
    let mut walk = WalkDir::new(root)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = walk.next() {
        let entry = entry.map_err(|source| {
            let path = source.path().unwrap_or(root).to_owned();
            if source.loop_ancestor().is_some() {
                WalkError::Loop { path }
            } else {
                WalkError::Walk { path, source }
            }
        })?;
        let path = entry.path();
        let is_dir = entry.file_type().is_dir();
        if !is_dir && path.extension().is_none_or(|e| e != extension) {
            continue;
        }
        // With links followed, this is what the link leads to.
        let real = entry.metadata().map_err(|source| WalkError::Walk {
            path: path.to_owned(),
            source,
        })?;
        let first_time = seen.insert(identity(path, &real).map_err(at(path))?);
        if is_dir {
            if !first_time {
                walk.skip_current_dir();
            }
        } else if first_time {
            files.push(path.to_owned());
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Folder `d0` holds `a` and `b`, both links to `d1`, which holds two links to `d2`, and so
    /// on: 2^levels paths lead to the one file at the bottom.
    #[test]
    fn a_lattice_of_links_is_walked_once() {
        let dir = tempfile::tempdir().unwrap();
        let levels = 24;
        for level in 0..=levels {
            std::fs::create_dir(dir.path().join(format!("d{level}"))).unwrap();
        }
        for level in 0..levels {
            for link in ["a", "b"] {
                std::os::unix::fs::symlink(
                    format!("../d{}", level + 1),
                    dir.path().join(format!("d{level}/{link}")),
                )
                .unwrap();
            }
        }
        std::fs::write(dir.path().join(format!("d{levels}/x.yaml")), "").unwrap();
        let files = files_with_extension(&dir.path().join("d0"), "yaml").unwrap();
        assert_eq!(files.len(), 1, "{files:?}");
        // The path other systems take, by canonical path, finds the same one file.
        let portable = files_by_identity(&dir.path().join("d0"), "yaml", canonical_identity);
        assert_eq!(portable.unwrap(), files);
    }
}
