//! Where the corpus and the adapters come from: the files of a checkout of this repository, or
//! the copy this crate carries.
//!
//! The crate embeds every `adapters/*` and `crawlers/*` folder at build time (with `include_dir`;
//! see `build.rs`), beside the corpus `robotstxt-suite` embeds, so the installed `robotstxt-test`
//! needs no checkout. Inside a checkout the files on disk win, so that editing a case and running again
//! works as it always has. A checkout is the nearest folder, from the current one upwards, that
//! holds `Cargo.toml`, `cases/`, `adapters/` and `harness/Cargo.toml` naming the `robotstxt-test`
//! package.
//!
//! The embedded adapters and crawlers need real files to run and install from, so [`materialise`]
//! writes them with the corpus, once per build of this crate, into the cache folder, with a workspace manifest
//! of its own so that the Rust adapters build there as they do in a checkout.

use std::borrow::Cow;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use include_dir::{include_dir, Dir};
use robotstxt_suite::embedded::{case_files, files_below, VERSION};

static EMBEDDED: Dir<'static> = include_dir!("$OUT_DIR/suite");

/// The checkout of this repository that `start` is in, if any.
pub fn find_checkout(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| is_checkout(dir))
        .map(Path::to_owned)
}

/// The checkout the current folder is in, if any.
pub fn current_checkout() -> Option<PathBuf> {
    let here = std::env::current_dir().ok()?;
    find_checkout(&here)
}

fn is_checkout(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file()
        && dir.join("cases").is_dir()
        && dir.join("adapters").is_dir()
        && std::fs::read_to_string(dir.join("harness/Cargo.toml"))
            .is_ok_and(|text| text.contains("name = \"robotstxt-test\""))
}

/// Every embedded file below `folder` (`adapters`), with its path under the suite root, sorted by
/// path.
fn files_under(folder: &str) -> Vec<(&'static Path, &'static [u8])> {
    files_below(&EMBEDDED, folder)
}

/// Marks a materialised suite as complete; written last.
const COMPLETE: &str = ".complete";

/// Why the carried suite could not be written into the cache folder.
#[derive(Debug, thiserror::Error)]
pub enum MaterialiseError {
    #[error(
        "{}: half-written (no {COMPLETE} marker); `robotstxt-test adapters install --force` \
         writes it again",
        .0.display()
    )]
    HalfWritten(PathBuf),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Manifest(#[from] WorkspaceManifestError),
}

/// The embedded workspace manifest could not be made into the materialised suite's.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceManifestError {
    #[error("the embedded suite has no workspace manifest")]
    Missing,
    #[error("embedded workspace manifest: {0}")]
    Unreadable(#[from] toml::de::Error),
    #[error("embedded workspace manifest: no [workspace]")]
    NoWorkspace,
    #[error("workspace manifest: {0}")]
    Unwritable(#[from] toml::ser::Error),
}

/// Every file of a materialised suite, with its path under the suite folder: the corpus, the
/// adapter and crawler folders, and the workspace's `Cargo.toml` and `Cargo.lock`. The marker is
/// not one.
fn suite_files() -> Result<Vec<SuiteFile>, WorkspaceManifestError> {
    let mut files: Vec<SuiteFile> = case_files()
        .into_iter()
        .chain(files_under("adapters"))
        .chain(files_under("crawlers"))
        .map(|(path, bytes)| (path.to_owned(), Cow::Borrowed(bytes)))
        .collect();
    let lock = EMBEDDED
        .get_file("Cargo.lock")
        .map_or(&[][..], |f| f.contents());
    let manifest = workspace_manifest()?.into_bytes();
    files.push(("Cargo.toml".into(), Cow::Owned(manifest)));
    files.push(("Cargo.lock".into(), Cow::Borrowed(lock)));
    Ok(files)
}

/// A file of the materialised suite: its path under the suite folder, and its bytes.
type SuiteFile = (PathBuf, Cow<'static, [u8]>);

/// The folder the suite of this build is written to: named by the suite version and a hash of
/// every file in it, so that another build never reuses it.
fn suite_folder(cache: &Path, files: &[SuiteFile]) -> PathBuf {
    let mut hasher = DefaultHasher::new();
    files.hash(&mut hasher);
    cache
        .join("suite")
        .join(format!("{VERSION}-{:016x}", hasher.finish()))
}

/// The embedded corpus, adapter and crawler folders as files under
/// `cache/suite/<version>-<hash>/` (`cases/`, `adapters/`, `crawlers/`, and a `Cargo.toml` + `Cargo.lock` making the Rust adapters a
/// workspace), written once per build of this crate and returned from then on.
///
/// The folder is written under a temporary name and renamed into place, so an interrupted write
/// never looks complete. A folder of that name without its `.complete` marker was changed by
/// something else: it is reported, never removed ([`repair`] writes it whole again).
pub fn materialise(cache: &Path) -> Result<PathBuf, MaterialiseError> {
    let files = suite_files()?;
    let dir = suite_folder(cache, &files);
    if dir.join(COMPLETE).is_file() {
        return Ok(dir);
    }
    if dir.exists() {
        return Err(MaterialiseError::HalfWritten(dir));
    }
    // The marker last: a folder without it was not written whole.
    let marker = (Path::new(COMPLETE), VERSION.as_bytes());
    let every = files
        .iter()
        .map(|(path, bytes)| (path.as_path(), bytes.as_ref()));
    if let Err((path, e)) = crate::swap::write_new_folder(&dir, every.chain([marker])) {
        // Another process may have put the same folder in place first.
        if !dir.join(COMPLETE).is_file() {
            return Err(io_at(&path)(e));
        }
    }
    Ok(dir)
}

/// Why the corpus could not be exported: a folder that cannot take it, or a file that could not
/// be written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{}: not empty; cases export writes into a new or empty folder", .0.display())]
    NotEmpty(PathBuf),
    #[error("{}: not a folder", .0.display())]
    NotAFolder(PathBuf),
    #[error("{}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Writes the carried corpus into `dir` (new or empty), byte for byte as `cases/`; returns how
/// many files it wrote. It is written whole or not at all ([`crate::swap::write_new_folder`]): a
/// full disk or a kill part way leaves no partial corpus at `dir` for a later export to refuse.
pub fn export_cases(dir: &Path) -> Result<usize, ExportError> {
    if let Ok(mut entries) = std::fs::read_dir(dir) {
        if entries.next().is_some() {
            return Err(ExportError::NotEmpty(dir.to_owned()));
        }
    } else if dir.exists() {
        return Err(ExportError::NotAFolder(dir.to_owned()));
    }
    let files = case_files();
    let inside = files
        .iter()
        .map(|(path, bytes)| (path.strip_prefix("cases").unwrap_or(path), *bytes));
    crate::swap::write_new_folder(dir, inside)
        .map_err(|(path, source)| ExportError::Write { path, source })?;
    Ok(files.len())
}

/// What [`repair`] found in the suite folder.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Repaired {
    /// The suite folder.
    pub dir: PathBuf,
    /// The files compared with the ones this binary carries.
    pub checked: usize,
    /// The files that differed, were missing or were not regular files, and were written again
    /// (paths under the suite folder).
    pub rewritten: Vec<PathBuf>,
}

/// Compares every file of the materialised suite with the one this binary carries, and writes
/// again each that differs, is missing or is not a regular file, each atomically (a temporary
/// file beside it, renamed over it); then the marker. A file the suite does not carry is left as
/// it is. Writes the whole folder when there is none. `adapters install --force` runs this: a
/// damaged adapter script in the cache would otherwise look like a parser that crashes.
pub fn repair(cache: &Path) -> Result<Repaired, MaterialiseError> {
    let files = suite_files()?;
    let dir = suite_folder(cache, &files);
    if !dir.exists() {
        let dir = materialise(cache)?;
        return Ok(Repaired {
            checked: files.len(),
            dir,
            rewritten: Vec::new(),
        });
    }
    let mut rewritten = Vec::new();
    for (path, bytes) in &files {
        let target = dir.join(path);
        if same_file_content(&target, bytes) {
            continue;
        }
        if target.symlink_metadata().is_ok_and(|m| m.is_dir()) {
            std::fs::remove_dir_all(&target).map_err(io_at(&target))?;
        }
        let parent = target.parent().unwrap_or(&dir);
        std::fs::create_dir_all(parent).map_err(io_at(parent))?;
        // The mode of the files beside it, as the folder was written (not tempfile's 0600).
        let mode = mode_of_siblings(parent, &target);
        // Where there is none, 0666 less the umask, as the folder's files were made.
        let made = (mode.clone()).unwrap_or(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let mut temporary = tempfile::Builder::new()
            .permissions(made)
            .tempfile_in(parent)
            .map_err(io_at(parent))?;
        std::io::Write::write_all(&mut temporary, bytes).map_err(io_at(&target))?;
        if let Some(mode) = mode {
            let file = temporary.as_file();
            file.set_permissions(mode).map_err(io_at(&target))?;
        }
        temporary
            .persist(&target)
            .map_err(|e| io_at(&target)(e.error))?;
        rewritten.push(path.clone());
    }
    std::fs::write(dir.join(COMPLETE), VERSION).map_err(io_at(&dir))?;
    Ok(Repaired {
        dir,
        checked: files.len(),
        rewritten,
    })
}

/// The permissions of a regular file in `folder` other than `except` (the first found).
fn mode_of_siblings(folder: &Path, except: &Path) -> Option<std::fs::Permissions> {
    let sibling = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .find_map(|entry| {
            let regular = entry.file_type().is_ok_and(|t| t.is_file());
            let name = entry.file_name().to_string_lossy().into_owned();
            (regular && entry.path() != except && !crate::atomic::is_temporary_name(&name))
                .then(|| entry.metadata().ok())
                .flatten()
        });
    sibling.map(|metadata| metadata.permissions())
}

/// Whether `path` is a regular file holding exactly `bytes`. It is read only up to one byte
/// past their length, so a file grown huge in the cache costs no more than the carried one.
fn same_file_content(path: &Path, bytes: &[u8]) -> bool {
    use std::io::Read as _;
    let regular = path
        .symlink_metadata()
        .is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64);
    let mut on_disk = Vec::with_capacity(bytes.len());
    regular
        && std::fs::File::open(path).is_ok_and(|file| {
            file.take(bytes.len() as u64 + 1)
                .read_to_end(&mut on_disk)
                .is_ok()
        })
        && on_disk == bytes
}

/// An I/O error, with the path it happened at.
fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> MaterialiseError {
    let path = path.to_owned();
    move |source| MaterialiseError::Io { path, source }
}

/// The workspace manifest of a materialised suite: this repository's, with the Cargo packages
/// under `adapters/` as its members. A path dependency of the workspace outside `adapters/` is
/// left out, since its folder is not carried, and so is every package that depends on one (the
/// reference's adapter, served in-process instead); one inside `adapters/` (the protocol crate)
/// is carried, and kept.
fn workspace_manifest() -> Result<String, WorkspaceManifestError> {
    let source = EMBEDDED
        .get_file("workspace.toml")
        .and_then(|f| f.contents_utf8())
        .ok_or(WorkspaceManifestError::Missing)?;
    let mut manifest: toml::Table = source.parse()?;
    let workspace = manifest
        .get_mut("workspace")
        .and_then(toml::Value::as_table_mut)
        .ok_or(WorkspaceManifestError::NoWorkspace)?;
    let mut path_dependencies: Vec<String> = Vec::new();
    if let Some(deps) = workspace
        .get_mut("dependencies")
        .and_then(toml::Value::as_table_mut)
    {
        deps.retain(|name, spec| {
            let carried = match spec.get("path") {
                Some(path) => path.as_str().is_some_and(|p| p.starts_with("adapters/")),
                None => true,
            };
            if !carried {
                path_dependencies.push(name.to_string());
            }
            carried
        });
    }
    let members: Vec<toml::Value> = files_under("adapters")
        .into_iter()
        .filter(|(path, _)| path.file_name().is_some_and(|n| n == "Cargo.toml"))
        .filter(|(_, bytes)| {
            let text = String::from_utf8_lossy(bytes);
            let package: toml::Table = text.parse().unwrap_or_default();
            let uses = |name: &str| -> bool {
                package
                    .get("dependencies")
                    .and_then(|d| d.get(name))
                    .is_some()
            };
            !path_dependencies.iter().any(|name| uses(name))
        })
        .filter_map(|(path, _)| path.parent()?.to_str().map(|p| p.into()))
        .collect();
    workspace.insert("members".to_owned(), toml::Value::Array(members));
    workspace.remove("exclude");
    Ok(toml::to_string(&manifest)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_materialised_workspace_builds_only_what_it_carries() {
        let manifest: toml::Table = workspace_manifest().unwrap().parse().unwrap();
        let workspace = &manifest["workspace"];
        let members: Vec<&str> = workspace["members"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(toml::Value::as_str)
            .collect();
        assert!(members.contains(&"adapters/rust-robotstxt"), "{members:?}");
        assert!(!members.contains(&"adapters/reference"), "{members:?}");
        assert!(!members.iter().any(|m| !m.starts_with("adapters/")));
        assert!(workspace.get("exclude").is_none());
        assert!(workspace["dependencies"]
            .get("robotstxt-reference")
            .is_none());
        assert!(members.contains(&"adapters/protocol"), "{members:?}");
        assert_eq!(
            workspace["dependencies"]["robotstxt-protocol"]["path"].as_str(),
            Some("adapters/protocol")
        );
    }

    #[test]
    fn repair_writes_again_what_differs_and_keeps_the_rest() {
        let cache = tempfile::tempdir().unwrap();
        let dir = materialise(cache.path()).unwrap();
        let untouched = repair(cache.path()).unwrap();
        assert_eq!(untouched.dir, dir);
        assert!(untouched.rewritten.is_empty());
        assert!(untouched.checked > 100, "{}", untouched.checked);

        let changed = Path::new("adapters/python-urllib/adapter.py");
        let missing = Path::new("cases/README.md");
        let folder = Path::new("Cargo.lock");
        let carried = std::fs::read(dir.join(changed)).unwrap();
        std::fs::write(dir.join(changed), b"damaged(").unwrap();
        std::fs::remove_file(dir.join(missing)).unwrap();
        std::fs::remove_file(dir.join(folder)).unwrap();
        std::fs::create_dir(dir.join(folder)).unwrap();
        std::fs::write(dir.join("adapters/mine.txt"), b"kept").unwrap();
        std::fs::remove_file(dir.join(COMPLETE)).unwrap();
        // Without its marker the folder is refused, never overwritten behind the user's back.
        assert!(matches!(
            materialise(cache.path()),
            Err(MaterialiseError::HalfWritten(_))
        ));

        let repaired = repair(cache.path()).unwrap();
        let mut rewritten = repaired.rewritten.clone();
        rewritten.sort();
        assert_eq!(rewritten, [folder, changed, missing]);
        assert_eq!(std::fs::read(dir.join(changed)).unwrap(), carried);
        // Written with the mode of the files beside it, not a temporary's 0600.
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(dir.join(p)).unwrap().permissions().mode();
        let sibling = Path::new("adapters/python-urllib/adapter.yaml");
        assert_eq!(mode(changed), mode(sibling), "{:o}", mode(changed));
        assert_eq!(mode(missing), mode(Path::new("cases/CHANGELOG.md")));
        assert!(dir.join(folder).is_file());
        assert_eq!(
            std::fs::read(dir.join("adapters/mine.txt")).unwrap(),
            b"kept"
        );
        assert_eq!(materialise(cache.path()).unwrap(), dir);
    }

    #[test]
    fn a_checkout_is_found_from_below_and_not_from_elsewhere() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let below = root.join("harness/src");
        assert_eq!(find_checkout(&below).as_deref(), Some(root));
        let elsewhere = tempfile::tempdir().unwrap();
        assert_eq!(find_checkout(elsewhere.path()), None);
    }
}
