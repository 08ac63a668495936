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
//! included, or the current folder) has its files written all or none instead (every one beside
//! its place first, then renamed in: a full disk leaves the previous set whole), and so does one
//! whose exchange the file system refuses, or whose owner the harness cannot give the new
//! folder. The folder keeps its mode and its owner.
//! The folder is locked while it is rebuilt ([`lock_folder`], which `survey` takes too), on a
//! file beside it (`.<name>.lock`): the folder itself is exchanged away, so a lock on it would
//! not keep out a survey that waited for it.
//!
//! An interrupt removes the staging folder: each step that makes or fills it is taken under
//! [`signals::temporary_step`], so the handler never removes it while a step writes into it,
//! and no step starts once the handler runs.
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
            let _step = signals::temporary_step();
            let target = staging.join(path);
            if let Some(folder) = target.parent() {
                fs::create_dir_all(folder).map_err(|e| (folder.to_owned(), e))?;
            }
            fs::write(&target, bytes).map_err(|e| (target.clone(), e))?;
        }
        let _step = signals::temporary_step();
        fs::create_dir_all(&staging).map_err(|e| (staging.clone(), e))?;
        fs::rename(&staging, dir).map_err(|e| (dir.to_owned(), e))
    })();
    let step = signals::temporary_step();
    if written.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    signals::release_temporary(&staging);
    drop(step);
    written
}

/// Writes `files` (names inside `out`, and their bytes) into `out`, replacing those names and
/// keeping every other file already there, all in one step (see the module docs).
pub fn replace_files(out: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    let at = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", out.display()));
    let out = &resolved(out).map_err(at)?;
    fs::create_dir_all(out).map_err(at)?;
    let _lock = lock_folder(out).map_err(at)?;
    if !is_dir_not_link(out) {
        return Err(at(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a folder",
        )));
    }
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
    // Made and registered in one step, so that an interrupt either finds it registered or comes
    // before it exists.
    let step = signals::temporary_step();
    // 0777 before the umask, as `fs::create_dir` makes a folder: after the exchange, this is the
    // reports folder (tempfile's default is 0700).
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.new-{}.", std::process::id()))
        .permissions(Permissions::from_mode(0o777))
        .tempdir_in(&parent)
        .map_err(at)?;
    let registered = staging.path().to_owned();
    signals::guard_temporary(&registered);
    drop(step);
    let result = match same_owner_and_mode(out, staging.path()) {
        // A folder of another owner, who cannot be given the new one: replaced file by file.
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => replace_each(out, files),
        Err(e) => Err(e),
        Ok(()) => match build_and_swap(out, staging.path(), files) {
            Err(refused) if cannot_exchange(&refused) => replace_each(out, files),
            other => other,
        },
    };
    // Removes what is left under the staging name: the new folder if anything failed, the old
    // one after the exchange.
    let step = signals::temporary_step();
    drop(staging);
    signals::release_temporary(&registered);
    drop(step);
    result.map_err(at)
}

fn is_dir_not_link(path: &Path) -> bool {
    path.symlink_metadata().is_ok_and(|m| m.is_dir())
}

/// Gives the staging folder the owner, group and mode of `out` (a private 0700 stays private, a
/// folder of another user stays theirs). `PermissionDenied` when the owner cannot be given.
fn same_owner_and_mode(out: &Path, staging: &Path) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let old = fs::metadata(out)?;
    let new = fs::metadata(staging)?;
    if (old.uid(), old.gid()) != (new.uid(), new.gid()) {
        let owner = rustix::fs::Uid::from_raw(old.uid());
        let group = rustix::fs::Gid::from_raw(old.gid());
        rustix::fs::chown(staging, Some(owner), Some(group)).map_err(|e| {
            if e == rustix::io::Errno::PERM {
                io::Error::new(io::ErrorKind::PermissionDenied, e)
            } else {
                e.into()
            }
        })?;
    }
    fs::set_permissions(staging, old.permissions())
}

fn build_and_swap(out: &Path, staging: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    if out.is_dir() {
        let _step = signals::temporary_step();
        copy_others(out, staging, files)?;
    }
    for (name, bytes) in files {
        let _step = signals::temporary_step();
        let path = staging.join(name);
        if let Some(folder) = path.parent() {
            fs::create_dir_all(folder)?;
        }
        fs::write(&path, bytes)?;
        fs::File::open(&path)?.sync_all()?;
    }
    fs::File::open(staging)?.sync_all()?;
    let _step = signals::temporary_step();
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

/// Replaces the files in `out` all or none, each written beside its place first and renamed in
/// once all are written: for a folder that cannot be exchanged.
fn replace_each(out: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    let mut targets = Vec::with_capacity(files.len());
    for (name, bytes) in files {
        let target = out.join(name);
        // The report's own sub-folders (`badges/`, `diffs/`), made where they are missing.
        if let Some(folder) = target.parent() {
            fs::create_dir_all(folder)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", folder.display())))?;
        }
        targets.push((target, bytes.as_slice()));
    }
    crate::atomic::write_atomic_all(&targets)
        .map_err(|e| io::Error::new(e.source.kind(), e.to_string()))
}

/// An exclusive lock on a folder, held while the folder is rebuilt or written into; released
/// when dropped.
pub struct FolderLock(#[allow(dead_code)] fs::File);

/// Locks the folder `out` (it must exist), waiting for any other holder: `report` and `survey`
/// both take it before they write into a folder. The lock is the file `.<name>.lock` beside the
/// folder (its real place, links resolved), a path that stays while the folder is exchanged;
/// where no file can be made there (a parent the user may not write into, where no staging
/// folder can be made either, so the folder is never exchanged), the folder itself.
pub fn lock_folder(out: &Path) -> io::Result<FolderLock> {
    use rustix::fs::{flock, FlockOperation};
    let out = &resolved(out)?;
    let (parent, name) = split(out)?;
    let beside = parent.join(format!(".{name}.lock"));
    let lock = match fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&beside)
    {
        Ok(file) => file,
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem
            ) =>
        {
            fs::File::open(out)?
        }
        Err(e) => {
            return Err(io::Error::new(
                e.kind(),
                format!("{}: {e}", beside.display()),
            ))
        }
    };
    flock(&lock, FlockOperation::LockExclusive)?;
    Ok(FolderLock(lock))
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
        assert_eq!(
            names_in(dir.path()),
            [".reports.lock", "reports"],
            "no staging folder left beside"
        );
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
        assert_eq!(names_in(dir.path()), [".reports.lock", "reports"]);
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    /// Whether another holder has the lock file beside `out`.
    fn locked_beside(out: &Path) -> bool {
        use rustix::fs::{flock, FlockOperation};
        let name = out.file_name().unwrap().to_str().unwrap();
        let path = out.parent().unwrap().join(format!(".{name}.lock"));
        let file = fs::File::options().write(true).open(path).unwrap();
        let free = flock(&file, FlockOperation::NonBlockingLockExclusive).is_ok();
        !free
    }

    #[test]
    fn the_lock_is_beside_the_folder_and_reached_through_a_link_too() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("reports");
        fs::create_dir(&out).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&out, &link).unwrap();
        let lock = lock_folder(&link).unwrap();
        assert!(locked_beside(&out));
        // The folder exchanged away under the lock does not free it.
        fs::rename(&out, dir.path().join("old")).unwrap();
        fs::create_dir(&out).unwrap();
        assert!(locked_beside(&out));
        drop(lock);
        assert!(!locked_beside(&out));
    }

    #[test]
    fn files_written_all_or_none_leave_the_old_set_whole_when_one_fails() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("reports");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("a"), "old a").unwrap();
        // A file where the second target's folder should be: its write fails.
        fs::write(out.join("badges"), "a file").unwrap();
        let files = vec![
            ("a".to_owned(), b"new a".to_vec()),
            ("badges/b.svg".to_owned(), b"new b".to_vec()),
        ];
        let error = replace_each(&out, &files).unwrap_err();
        assert!(error.to_string().contains("badges"), "{error}");
        assert_eq!(fs::read_to_string(out.join("a")).unwrap(), "old a");
        assert_eq!(names_in(&out), ["a", "badges"], "no temporary left");
        // The second file fails once the first is written beside its place: nothing is renamed.
        let targets = [
            (out.join("a"), &b"new a"[..]),
            (out.join("missing/b.svg"), &b"new b"[..]),
        ];
        let error = crate::atomic::write_atomic_all(&targets).unwrap_err();
        assert!(error.to_string().contains("missing/b.svg"), "{error}");
        assert_eq!(fs::read_to_string(out.join("a")).unwrap(), "old a");
        assert_eq!(names_in(&out), ["a", "badges"], "no temporary left");
    }

    /// The staging folder takes the owner of the folder it replaces (as root, the one user who
    /// can give a folder away; another user's folders are replaced file by file).
    #[test]
    fn the_folder_keeps_its_owner() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("reports");
        fs::create_dir(&out).unwrap();
        let staging = dir.path().join("staging");
        fs::create_dir(&staging).unwrap();
        fs::set_permissions(&out, Permissions::from_mode(0o750)).unwrap();
        let root = rustix::process::geteuid().is_root();
        if root {
            let other = rustix::fs::Uid::from_raw(4321);
            rustix::fs::chown(&out, Some(other), None).unwrap();
        }
        same_owner_and_mode(&out, &staging).unwrap();
        let (old, new) = (fs::metadata(&out).unwrap(), fs::metadata(&staging).unwrap());
        assert_eq!((new.uid(), new.mode()), (old.uid(), old.mode()));
        assert_eq!(new.uid(), if root { 4321 } else { old.uid() });
    }
}
