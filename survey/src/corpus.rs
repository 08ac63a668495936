//! Reading a corpus of robots.txt bodies: every file under a folder, or every file in a `.tar`
//! or `.tar.xz` archive, streamed one at a time so that no corpus has to fit in memory.
//!
//! A file's name is its path under the folder (or inside the archive), with `/` between
//! components. Folders are read in byte order of their entries' names; archives in archive order.
//!
//! A file larger than [`MAX_SURVEY_FILE`] is not read (a decompression bomb in an archive would
//! otherwise be inflated into memory): it is skipped, counted, and named in the result among the
//! first [`MAX_OVERSIZED_NAMED`]. A name is kept to [`MAX_FILE_NAME`] bytes, cut in the middle
//! past it. So what a read keeps is bounded for the whole corpus, not per file: one file's body
//! at a time, and at most a hundred names of a KiB.

use std::fs::{self, File};
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use robotstxt_suite::input::{self, ReadError};
use serde::{Deserialize, Serialize};

use crate::limits::{MAX_FILE_NAME, MAX_OVERSIZED_NAMED, MAX_SURVEY_FILE};

/// One robots.txt body and the name it goes by in reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusFile {
    pub name: String,
    pub body: Vec<u8>,
}

/// A file left out for its size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Oversized {
    pub name: String,
    pub bytes: u64,
}

/// What reading a corpus found: the files visited, and those skipped for their size (the first
/// [`MAX_OVERSIZED_NAMED`] by name, the rest counted).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CorpusRead {
    pub files: usize,
    pub oversized: Vec<Oversized>,
    pub oversized_unnamed: u64,
}

/// What kind of corpus a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Folder,
    Tar,
    TarXz,
}

/// Why a corpus could not be read, naming the path.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("{}: no such file or folder", .0.display())]
    Missing(PathBuf),
    #[error("{}: not a folder, a .tar or a .tar.xz archive", .0.display())]
    NotACorpus(PathBuf),
    #[error("{}: {source}", path.display())]
    Unreadable { path: PathBuf, source: io::Error },
}

/// A [`CorpusError::Unreadable`] at `path`, for `map_err`.
fn unreadable(path: &Path) -> impl FnOnce(io::Error) -> CorpusError {
    let path = path.to_owned();
    move |source| CorpusError::Unreadable { path, source }
}

impl Layout {
    /// The layout of `path`: a folder, or an archive by its name (`.tar`, `.tar.xz`, `.txz`).
    pub fn of(path: &Path) -> Result<Layout, CorpusError> {
        let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase());
        match name.as_deref() {
            _ if path.is_dir() => Ok(Layout::Folder),
            Some(n) if n.ends_with(".tar.xz") || n.ends_with(".txz") => Ok(Layout::TarXz),
            Some(n) if n.ends_with(".tar") => Ok(Layout::Tar),
            _ if !path.exists() => Err(CorpusError::Missing(path.to_owned())),
            _ => Err(CorpusError::NotACorpus(path.to_owned())),
        }
    }
}

/// Calls `visit` with every file of the corpus at `path`, in order, until it returns `false`.
/// Returns the number of files visited and the files skipped for their size.
pub fn read_corpus(
    path: &Path,
    visit: &mut dyn FnMut(CorpusFile) -> bool,
) -> Result<CorpusRead, CorpusError> {
    let mut read = CorpusRead::default();
    let mut counted = |item: Item| read.count(item, visit);
    match Layout::of(path)? {
        Layout::Folder => {
            read_folder(path, "", &mut counted)?;
        }
        Layout::Tar => {
            read_tar(BufReader::new(open_archive(path)?), &mut counted).map_err(unreadable(path))?
        }
        Layout::TarXz => read_tar(
            xz2::read::XzDecoder::new(BufReader::new(open_archive(path)?)),
            &mut counted,
        )
        .map_err(unreadable(path))?,
    }
    Ok(read)
}

/// [`read_corpus`] of a tar stream (not compressed): for the fuzz target of the archive reader.
pub fn read_tar_stream(
    reader: impl Read,
    visit: &mut dyn FnMut(CorpusFile) -> bool,
) -> io::Result<CorpusRead> {
    let mut read = CorpusRead::default();
    read_tar(reader, &mut |item: Item| read.count(item, visit))?;
    Ok(read)
}

impl CorpusRead {
    /// One file read (handed to `visit`) or skipped (named among the first, or counted).
    fn count(&mut self, item: Item, visit: &mut dyn FnMut(CorpusFile) -> bool) -> bool {
        match item {
            Item::File(file) => {
                self.files += 1;
                visit(file)
            }
            Item::Oversized(skipped) => {
                if self.oversized.len() < MAX_OVERSIZED_NAMED {
                    self.oversized.push(skipped);
                } else {
                    self.oversized_unnamed = self.oversized_unnamed.saturating_add(1);
                }
                true
            }
        }
    }
}

/// A file's name as kept: at most [`MAX_FILE_NAME`] bytes, cut in the middle (on character
/// boundaries, saying how many bytes it left out) past that.
pub fn kept_name(name: &str) -> String {
    if name.len() <= MAX_FILE_NAME {
        return name.to_owned();
    }
    let keep = (MAX_FILE_NAME - 32) / 2;
    let mut head = keep;
    while !name.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = name.len() - keep;
    while !name.is_char_boundary(tail) {
        tail += 1;
    }
    format!(
        "{}…[{} bytes]…{}",
        &name[..head],
        tail - head,
        &name[tail..]
    )
}

/// The archive at `path`, a regular file (a FIFO or a device named `*.tar` is refused, not
/// waited on or read forever).
fn open_archive(path: &Path) -> Result<File, CorpusError> {
    input::open_regular(path).map_err(|e| unreadable(path)(e.into()))
}

/// Bytes of a long name read; the rest of its header is read past, unkept. Four times
/// [`MAX_FILE_NAME`], so that the name kept shows where a long one was cut.
const NAME_READ: u64 = 4 << 10;

/// A file read, or one left out for its size.
enum Item {
    File(CorpusFile),
    Oversized(Oversized),
}

/// Visits the files under `dir` (named `prefix` + their path), depth first in name order.
/// Returns `false` once `visit` asked to stop.
fn read_folder(
    dir: &Path,
    prefix: &str,
    visit: &mut dyn FnMut(Item) -> bool,
) -> Result<bool, CorpusError> {
    let mut entries = fs::read_dir(dir)
        .map_err(unreadable(dir))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(unreadable(dir))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = kept_name(&format!("{prefix}{}", entry.file_name().to_string_lossy()));
        // Symbolic links to folders are not followed, so a link loop cannot trap the walk.
        let kind = entry.file_type().map_err(unreadable(&path))?;
        if kind.is_dir() {
            if !read_folder(&path, &format!("{name}/"), visit)? {
                return Ok(false);
            }
        } else if path.is_file() {
            let item = match input::read_bytes(&path, MAX_SURVEY_FILE) {
                Ok(body) => Item::File(CorpusFile { name, body }),
                Err(ReadError::TooLong { size, .. }) => Item::Oversized(Oversized {
                    name,
                    bytes: size.unwrap_or(MAX_SURVEY_FILE + 1),
                }),
                Err(refused) => return Err(unreadable(&path)(refused.into())),
            };
            if !visit(item) {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Visits the regular files of a tar stream in archive order.
///
/// The archive is read raw: the `tar` crate would read a GNU long-name or long-link header, or a
/// PAX header, whole into memory whatever size it claims (a 44 KB `.tar.xz` can claim 3.6 GB).
/// Here every header that carries data counts against the member cap, [`MAX_SURVEY_FILE`]: one
/// past it is an error, and one within it gives its member's name. Of a long name only the
/// first [`NAME_READ`] bytes are kept (the rest is read past); a PAX header is read whole (it is
/// within the cap) and dropped once its `path` is taken. So one header at a time is held, and
/// the names kept are cut to [`MAX_FILE_NAME`].
fn read_tar(reader: impl Read, visit: &mut dyn FnMut(Item) -> bool) -> io::Result<()> {
    let mut archive = tar::Archive::new(reader);
    // The name the last long-name or PAX header gave the member that follows it.
    let mut long_name: Option<Vec<u8>> = None;
    for entry in archive.entries()?.raw(true) {
        let mut entry = entry?;
        let kind = entry.header().entry_type();
        let carries_data = kind.is_gnu_longname()
            || kind.is_gnu_longlink()
            || kind.is_pax_local_extensions()
            || kind.is_pax_global_extensions();
        if carries_data {
            let bytes = entry.size();
            if bytes > MAX_SURVEY_FILE {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "a tar header of kind `{}` carrying {bytes} bytes, past the cap of \
                         {MAX_SURVEY_FILE} bytes on a member",
                        char::from(kind.as_byte()).escape_default()
                    ),
                ));
            }
            if kind.is_gnu_longname() {
                let mut data = Vec::new();
                entry.by_ref().take(NAME_READ).read_to_end(&mut data)?;
                io::copy(&mut entry, &mut io::sink())?;
                let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
                data.truncate(end);
                long_name = Some(data);
            } else if kind.is_pax_local_extensions() {
                let mut data = Vec::new();
                entry
                    .by_ref()
                    .take(MAX_SURVEY_FILE)
                    .read_to_end(&mut data)?;
                let path = tar::PaxExtensions::new(&data)
                    .filter_map(Result::ok)
                    .find(|e| e.key_bytes() == b"path")
                    .map(|e| {
                        e.value_bytes()[..e.value_bytes().len().min(NAME_READ as usize)].to_vec()
                    });
                long_name = path.or(long_name);
            } else {
                io::copy(&mut entry, &mut io::sink())?;
            }
            continue;
        }
        let name = long_name.take();
        if !kind.is_file() {
            continue;
        }
        let name = name.unwrap_or_else(|| entry.path_bytes().into_owned());
        let name = String::from_utf8_lossy(&name).into_owned();
        let name = kept_name(name.strip_prefix("./").unwrap_or(&name));
        let bytes = entry.size();
        // Not read: the archive moves past its data without keeping it.
        let item = if bytes > MAX_SURVEY_FILE {
            Item::Oversized(Oversized { name, bytes })
        } else {
            let mut body = Vec::with_capacity(usize::try_from(bytes).unwrap_or(0));
            entry
                .by_ref()
                .take(MAX_SURVEY_FILE)
                .read_to_end(&mut body)?;
            Item::File(CorpusFile { name, body })
        };
        if !visit(item) {
            break;
        }
    }
    Ok(())
}
