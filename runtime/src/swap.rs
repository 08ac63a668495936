//! Replacing a whole folder of files that belong together (a report's pages) so that a reader,
//! or an interrupt, never sees a mix of old and new: the new folder is built beside the old one
//! (a `tempfile` folder `.<name>.new-<pid>.<random>`, holding the old folder's other files too)
//! and the two are exchanged in one step (`renameat2(RENAME_EXCHANGE)` on Linux,
//! `renameatx_np(RENAME_SWAP)` on macOS, through `rustix`). No crate exchanges two folders, so
//! this module does that much itself. Leftovers of a run killed outright are removed on the next
//! start, and the interrupt handler removes the folder being built.
//!
//! `out` is resolved through symbolic links first, so a link to the reports folder is kept and
//! the folder it names is written. A folder that cannot be moved (a mount point, a bind mount
//! included, or the current folder) has its files replaced one by one instead, each whole, and so
//! does one whose exchange the file system refuses. The folder keeps its mode.
//! The folder is locked ([`lock_folder`], which `survey` takes too) while it is rebuilt, so that
//! a survey writing into it is not lost in the exchange.
//!
//! A folder written new (the carried suite in the cache, an exported corpus) is built the same
//! way, beside its place, and renamed into it ([`write_new_folder`]): the one way a folder is
//! written whole.

use std::fs::{self, Permissions};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::signals;

use crate::atomic::{alive, is_temporary_name, remove_stale_temporaries, sync_folder};

/// Writes `files` (paths inside the new folder, and their bytes, in order) into a folder built
/// beside `dir` (`.<name>.new-<pid>`), then renames it to `dir` in one step, so that a full disk
/// or a kill part way never leaves a partial folder at `dir`. `dir` must be missing or an empty
/// folder, the only folder a rename replaces. What is left of the staging folder after a failure
/// is removed, and the interrupt handler removes it too. The error names the path that failed.
pub fn write_new_folder<'f>(
    dir: &Path,
    files: impl IntoIterator<Item = (&'f Path, &'f [u8])>,
) -> Result<(), (PathBuf, io::Error)> {
    let (parent, name) = split(dir).map_err(|e| (dir.to_owned(), e))?;
    let staging = parent.join(format!(".{name}.new-{}", std::process::id()));
    if staging.exists() {
        // Left by an earlier process of the same number, killed outright.
        fs::remove_dir_all(&staging).map_err(|e| (staging.clone(), e))?;
    }
    signals::guard_temporary(&staging);
    let written = (|| {
        for (path, bytes) in files {
            let target = staging.join(path);
            if let Some(folder) = target.parent() {
                fs::create_dir_all(folder).map_err(|e| (folder.to_owned(), e))?;
            }
            fs::write(&target, bytes).map_err(|e| (target.clone(), e))?;
        }
        fs::create_dir_all(&staging).map_err(|e| (staging.clone(), e))?;
        fs::rename(&staging, dir).map_err(|e| (dir.to_owned(), e))
    })();
    if written.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    signals::release_temporary(&staging);
    written
}

/// Writes `files` (names inside `out`, and their bytes) into `out`, replacing those names and
/// keeping every other file already there, all in one step (see the module docs).
pub fn replace_files(out: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    let at = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", out.display()));
    let out = &resolved(out).map_err(at)?;
    fs::create_dir_all(out).map_err(at)?;
    let _lock = lock_folder(out).map_err(at)?;
    for (name, _) in files {
        let path = out.join(name);
        if path.symlink_metadata().is_ok_and(|m| !m.is_file()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: exists and is not a file", path.display()),
            ));
        }
    }
    let (parent, name) = split(out).map_err(at)?;
    remove_leftovers(&parent, &name);
    if !movable(out, &parent) {
        return replace_each(out, files).map_err(at);
    }
    // 0777 before the umask, as `fs::create_dir` makes a folder: after the exchange, this is the
    // reports folder (tempfile's default is 0700).
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.new-{}.", std::process::id()))
        .permissions(Permissions::from_mode(0o777))
        .tempdir_in(&parent)
        .map_err(at)?;
    // The folder keeps its mode (a private 0700 stays private).
    let mode = fs::metadata(out).map_err(at)?.permissions();
    fs::set_permissions(staging.path(), mode).map_err(at)?;
    let registered = staging.path().to_owned();
    signals::guard_temporary(&registered);
    let result = match build_and_swap(out, staging.path(), files) {
        Err(refused) if cannot_exchange(&refused) => replace_each(out, files),
        other => other,
    };
    // Removes what is left under the staging name: the new folder if anything failed, the old
    // one after the exchange.
    drop(staging);
    signals::release_temporary(&registered);
    result.map_err(at)
}

fn build_and_swap(out: &Path, staging: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    if out.is_dir() {
        copy_others(out, staging, files)?;
    }
    for (name, bytes) in files {
        let path = staging.join(name);
        if let Some(folder) = path.parent() {
            fs::create_dir_all(folder)?;
        }
        fs::write(&path, bytes)?;
        fs::File::open(&path)?.sync_all()?;
    }
    fs::File::open(staging)?.sync_all()?;
    if out.is_dir() {
        exchange(staging, out)?;
    } else {
        fs::rename(staging, out)?;
    }
    sync_folder(crate::atomic::folder_of(out));
    Ok(())
}

/// Copies (hard-links where it can) every entry of `from` not about to be written, so that the
/// swap keeps them. Temporary files of interrupted writes are left behind.
fn copy_others(from: &Path, to: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        let text = name.to_string_lossy();
        // A folder the files are written into (`badges/`) is the report's own: replaced whole,
        // so that nothing of the old one is left in it, or written through a hard link.
        let owned =
            |n: &String| *n == text || n.strip_prefix(&*text).is_some_and(|r| r.starts_with('/'));
        if files.iter().any(|(n, _)| owned(n)) || is_temporary_name(&text) {
            continue;
        }
        let source = entry.path();
        let target = to.join(&name);
        let kind = entry.file_type()?;
        if kind.is_dir() {
            fs::create_dir(&target)?;
            copy_others(&source, &target, &[])?;
        } else if kind.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(&source)?, &target)?;
        } else if fs::hard_link(&source, &target).is_err() {
            fs::copy(&source, &target)?;
        }
    }
    Ok(())
}

/// Removes what runs killed outright left: `.<name>.new-<pid>[.<random>]` folders beside `out`,
/// and temporary files inside it, of processes no longer running.
fn remove_leftovers(parent: &Path, name: &str) {
    let prefix = format!(".{name}.new-");
    if let Ok(entries) = fs::read_dir(parent) {
        for entry in entries.filter_map(Result::ok) {
            let file_name = entry.file_name();
            let text = file_name.to_string_lossy();
            if let Some(rest) = text.strip_prefix(&prefix) {
                let pid = rest.split_once('.').map_or(rest, |(pid, _)| pid);
                if !alive(pid) {
                    let _ = fs::remove_dir_all(entry.path());
                }
            }
        }
    }
    remove_stale_temporaries(&parent.join(name));
}

fn split(out: &Path) -> io::Result<(PathBuf, String)> {
    let absolute = if out.is_absolute() {
        out.to_owned()
    } else {
        std::env::current_dir()?.join(out)
    };
    let name = absolute
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a folder name"))?;
    let parent = absolute
        .parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_owned);
    Ok((parent, name))
}

/// `out` with every symbolic link on its way resolved; the parts that do not exist yet are kept
/// as given.
fn resolved(out: &Path) -> io::Result<PathBuf> {
    let absolute = std::path::absolute(out)?;
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        match fs::canonicalize(existing) {
            Ok(real) => return Ok(rest.iter().rev().fold(real, |p, part| p.join(part))),
            Err(_) => {
                let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
                    return Ok(absolute);
                };
                rest.push(name.to_owned());
                existing = parent;
            }
        }
    }
}

/// Whether `out` can be exchanged with a folder beside it: not a mount point (its device differs
/// from its parent's), not the current folder, not the root.
fn movable(out: &Path, parent: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let device = |p: &Path| fs::metadata(p).map(|m| m.dev()).ok();
    let current = std::env::current_dir().and_then(fs::canonicalize).ok();
    out.parent().is_some()
        && device(out) == device(parent)
        && !is_mount_root(out)
        && current.as_deref() != Some(out)
}

/// Whether `path` is where a file system is mounted: a bind mount of a folder of the same file
/// system has the device of its parent, so the device check alone misses it.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn is_mount_root(path: &Path) -> bool {
    use rustix::fs::{statx, AtFlags, StatxAttributes, StatxFlags, CWD};
    let flags = AtFlags::NO_AUTOMOUNT | AtFlags::SYMLINK_NOFOLLOW;
    statx(CWD, path, flags, StatxFlags::empty()).is_ok_and(|found| {
        found.stx_attributes.contains(StatxAttributes::MOUNT_ROOT)
            && found
                .stx_attributes_mask
                .contains(StatxAttributes::MOUNT_ROOT)
    })
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn is_mount_root(_: &Path) -> bool {
    false
}

/// Whether the exchange was refused for what the folder is rather than for what went wrong: a
/// mount point (`EBUSY`), another file system (`EXDEV`), or a file system that cannot exchange
/// (`EINVAL`). The files are then replaced one by one instead.
fn cannot_exchange(error: &io::Error) -> bool {
    use rustix::io::Errno;
    let refusals = [Errno::BUSY, Errno::XDEV, Errno::INVAL];
    refusals
        .iter()
        .any(|e| error.raw_os_error() == Some(e.raw_os_error()))
}

/// Replaces each file in `out` whole, one by one: for a folder that cannot be exchanged.
fn replace_each(out: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    for (name, bytes) in files {
        let target = out.join(name);
        // The report's own sub-folders (`badges/`, `diffs/`), made where they are missing.
        if let Some(folder) = target.parent() {
            fs::create_dir_all(folder)?;
        }
        crate::atomic::write_atomic(&target, bytes)
            .map_err(|e| io::Error::new(e.source.kind(), e.to_string()))?;
    }
    Ok(())
}

/// An exclusive lock on a folder, held while the folder is rebuilt or written into; released
/// when dropped.
pub struct FolderLock(#[allow(dead_code)] fs::File);

/// Locks the folder `out` (it must exist), waiting for any other holder: `report` and `survey`
/// both take it before they write into a folder.
pub fn lock_folder(out: &Path) -> io::Result<FolderLock> {
    use rustix::fs::{flock, FlockOperation};
    let folder = fs::File::open(out)?;
    flock(&folder, FlockOperation::LockExclusive)?;
    Ok(FolderLock(folder))
}

/// Exchanges two paths in one step.
#[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    Ok(renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE)?)
}

/// Where the exchange is not available: two renames, so a reader may briefly find no folder,
/// but never a mix.
#[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
fn exchange(staging: &Path, out: &Path) -> io::Result<()> {
    let old = staging.with_extension("old");
    fs::rename(out, &old)?;
    fs::rename(staging, out)?;
    fs::rename(&old, staging)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_exchange_is_told_from_a_failed_write() {
        use rustix::io::Errno;
        let error = |e: Errno| io::Error::from_raw_os_error(e.raw_os_error());
        for refused in [Errno::BUSY, Errno::XDEV, Errno::INVAL] {
            assert!(cannot_exchange(&error(refused)), "{refused:?}");
        }
        for failed in [Errno::NOSPC, Errno::ACCESS, Errno::NOENT] {
            assert!(!cannot_exchange(&error(failed)), "{failed:?}");
        }
    }

    #[test]
    fn the_folder_is_replaced_whole_and_other_files_stay() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("reports");
        fs::create_dir(&out).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode();
        let created = mode(&out);
        fs::write(out.join("README.md"), "old").unwrap();
        fs::write(out.join("survey.md"), "kept").unwrap();
        fs::write(out.join("README.md.tmp-999999"), "left by a run").unwrap();
        fs::create_dir(dir.path().join(".reports.new-999999")).unwrap();
        fs::create_dir(dir.path().join(".reports.new-999999.Ab12")).unwrap();
        let files = vec![
            ("README.md".to_owned(), b"new".to_vec()),
            ("index.html".to_owned(), b"page".to_vec()),
        ];
        replace_files(&out, &files).unwrap();
        assert_eq!(fs::read_to_string(out.join("README.md")).unwrap(), "new");
        assert_eq!(fs::read_to_string(out.join("survey.md")).unwrap(), "kept");
        let mut names: Vec<_> = fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["README.md", "index.html", "survey.md"]);
        let beside: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(beside.len(), 1, "no staging folder left beside");
        assert_eq!(
            mode(&out),
            created,
            "the new folder has the mode a new folder gets"
        );
    }

    #[test]
    fn a_missing_folder_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("reports");
        replace_files(&out, &[("a".to_owned(), b"x".to_vec())]).unwrap();
        assert_eq!(fs::read_to_string(out.join("a")).unwrap(), "x");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
