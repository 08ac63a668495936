//! Replacing a whole folder of files that belong together (a report's pages) so that a reader,
//! or an interrupt, never sees a mix of old and new: the new folder is built beside the old one
//! (`.<name>.new-<pid>`, holding the old folder's other files too) and the two are exchanged
//! with one `renameat2(RENAME_EXCHANGE)`. Leftovers of an interrupted run are removed on the next
//! start, and the interrupt handler removes the folder being built.

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use robotstxt_runtime::signals;

/// Writes `files` (names inside `out`, and their bytes) into `out`, replacing those names and
/// keeping every other file already there, all in one step (see the module docs).
pub fn replace_files(out: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    for (name, _) in files {
        let path = out.join(name);
        if path.symlink_metadata().is_ok_and(|m| !m.is_file()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: exists and is not a file", path.display()),
            ));
        }
    }
    let (parent, name) = split(out)?;
    remove_leftovers(&parent, &name);
    let staging = parent.join(format!(".{name}.new-{}", std::process::id()));
    signals::guard_temporary(&staging);
    let result = build_and_swap(out, &staging, files);
    let _ = fs::remove_dir_all(&staging);
    signals::release_temporary(&staging);
    result.map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", out.display())))
}

fn build_and_swap(out: &Path, staging: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    fs::create_dir(staging)?;
    if out.is_dir() {
        copy_others(out, staging, files)?;
    }
    for (name, bytes) in files {
        let path = staging.join(name);
        fs::write(&path, bytes)?;
        fs::File::open(&path)?.sync_all()?;
    }
    fs::File::open(staging)?.sync_all()?;
    if out.is_dir() {
        exchange(staging, out)?;
    } else {
        fs::rename(staging, out)?;
    }
    if let Some(parent) = out.parent() {
        if let Ok(dir) = fs::File::open(if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        }) {
            let _ = dir.sync_all();
        }
    }
    Ok(())
}

/// Copies (hard-links where it can) every entry of `from` not about to be written, so that the
/// swap keeps them. Temporary files of interrupted writes are left behind.
fn copy_others(from: &Path, to: &Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        let text = name.to_string_lossy();
        if files.iter().any(|(n, _)| *n == text) || is_temporary_name(&text) {
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

/// Whether a file name is one of the harness's temporaries (`<name>.tmp-<pid>`).
pub fn is_temporary_name(name: &str) -> bool {
    name.rsplit_once(".tmp-")
        .is_some_and(|(_, pid)| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
}

/// Removes what interrupted runs left: `.<name>.new-<pid>` folders beside `out`, and
/// `*.tmp-<pid>` files inside it, of processes no longer running.
fn remove_leftovers(parent: &Path, name: &str) {
    let prefix = format!(".{name}.new-");
    if let Ok(entries) = fs::read_dir(parent) {
        for entry in entries.filter_map(Result::ok) {
            let file_name = entry.file_name();
            let text = file_name.to_string_lossy();
            if let Some(pid) = text.strip_prefix(&prefix) {
                if !alive(pid) {
                    let _ = fs::remove_dir_all(entry.path());
                }
            }
        }
    }
    remove_stale_temporaries(&parent.join(name));
}

/// Removes `*.tmp-<pid>` files in `dir` whose process is no longer running.
pub fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let text = name.to_string_lossy();
        if is_temporary_name(&text) {
            let pid = text.rsplit_once(".tmp-").map_or("", |(_, pid)| pid);
            if !alive(pid) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

fn alive(pid: &str) -> bool {
    let Ok(pid) = pid.parse::<i32>() else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists; no memory is touched.
    pid == std::process::id() as i32 || unsafe { libc::kill(pid, 0) } == 0
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

/// Exchanges two paths in one step.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: two valid NUL-terminated paths, relative to the working folder.
    let status = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if status == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Where the exchange is not available: two renames, so a reader may briefly find no folder,
/// but never a mix.
#[cfg(not(target_os = "linux"))]
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
    fn the_folder_is_replaced_whole_and_other_files_stay() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("reports");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("README.md"), "old").unwrap();
        fs::write(out.join("survey.md"), "kept").unwrap();
        fs::write(out.join("README.md.tmp-999999"), "left by a run").unwrap();
        fs::create_dir(dir.path().join(".reports.new-999999")).unwrap();
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
    }
}
