//! The one reader of every file the tool is given: case files, expectation files, adapter
//! manifests, `survey.json` files to merge, census plans, survey corpus files and the robots.txt
//! files named on the command line. Any of them may come from anyone; whatever they hold, memory
//! and time stay bounded and every error names the file, the line and the column.
//!
//! Reading a file ([`read_bytes`]) opens it without waiting (a FIFO named `*.yaml` is refused at
//! once rather than waiting for a writer), accepts a regular file only (not a FIFO, a device or a
//! socket: a link to `/dev/zero` is refused, not read), and reads at most its size cap. Text
//! ([`Input`]) must then be UTF-8 and pass its format's screen before anything deserializes it:
//! YAML ([`yaml`]) in one document with no anchors or aliases (whose expansion multiplies a small
//! file into gigabytes) and no nesting past the depth limit; JSON ([`json`]) with no nesting past
//! the depth limit. Each screen is one pass over the text, keeping a depth counter, so reading is
//! linear in the file's size. The limits of each kind of file are its [`Bounds`], listed in
//! [`crate::limits`] and in the README.
//!
//! `harness/tests/hostile/readers.rs` lists every place in the sources that opens or
//! deserializes a file and asserts that each goes through this module.

pub mod json;
pub mod lines;
pub mod yaml;

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::located::LocatedError;

/// The bounds one kind of file is read under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// What the file is, for messages (`case file`, `expectation file`).
    pub what: &'static str,
    /// Largest file read, in bytes.
    pub max_bytes: u64,
    /// Deepest nesting of collections (YAML mappings and sequences, JSON objects and arrays).
    pub max_depth: usize,
    /// What to write instead of bytes the format cannot hold, appended to such an error (empty
    /// for none).
    pub hint: &'static str,
}

/// The language a file's text is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
    /// One JSON document per line.
    JsonLines,
}

/// Why a file's bytes could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A FIFO, a device, a socket or a folder.
    #[error("not a regular file")]
    NotRegular,
    #[error("longer than the limit of {cap} bytes")]
    TooLong {
        cap: u64,
        /// The file's size, when it says one.
        size: Option<u64>,
    },
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// As an I/O error, for a caller that reports every failure to read a file alike: a refusal is
/// `InvalidInput`, with its reason.
impl From<ReadError> for io::Error {
    fn from(error: ReadError) -> io::Error {
        match error {
            ReadError::Io(e) => e,
            refused => io::Error::new(io::ErrorKind::InvalidInput, refused.to_string()),
        }
    }
}

/// Opens the regular file at `path` (links followed) for reading, without waiting on a FIFO;
/// anything else is [`ReadError::NotRegular`]. For inputs read as a stream (a WARC file), whose
/// reader holds its own bounds.
pub fn open_regular(path: &Path) -> Result<File, ReadError> {
    let file = open_without_waiting(path)?;
    if !file.metadata()?.is_file() {
        return Err(ReadError::NotRegular);
    }
    Ok(file)
}

/// On Unix, the file opened non-blocking, so that opening a FIFO returns at once (and is then
/// refused) instead of waiting for a writer; reads of a regular file are not affected.
#[cfg(unix)]
fn open_without_waiting(path: &Path) -> Result<File, ReadError> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    Ok(File::from(
        rustix::fs::open(path, flags, Mode::empty()).map_err(io::Error::from)?,
    ))
}

/// Elsewhere, where no open call can be told not to wait: what is not a regular file is refused
/// before it is opened. Built in this crate's tests on Unix too, which run it.
#[cfg(any(not(unix), test))]
fn open_portably(path: &Path) -> Result<File, ReadError> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(ReadError::NotRegular);
    }
    Ok(File::open(path)?)
}

#[cfg(not(unix))]
use open_portably as open_without_waiting;

/// The bytes of the regular file at `path` (links followed), refusing anything else and anything
/// longer than `cap` bytes, without reading past the cap.
pub fn read_bytes(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path)?;
    let size = file.metadata()?.len();
    if size > cap {
        return Err(ReadError::TooLong {
            cap,
            size: Some(size),
        });
    }
    read_capped(file, cap)
}

/// At most `cap` bytes of a stream (standard input): more is [`ReadError::TooLong`].
pub fn read_capped(stream: impl Read, cap: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    stream.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLong { cap, size: None });
    }
    Ok(bytes)
}

/// The regular file at `path`, screened whole as JSON under `bounds` a piece at a time (never
/// held whole), then opened again at its start for a deserializer that reads it as a stream: for
/// a file whose text is too large to hold beside what it deserializes to (a results file of
/// every adapter). Errors name the file, the line and the column, as [`Input::read`] does.
pub fn screened_json_stream(
    path: &Path,
    bounds: Bounds,
) -> Result<io::BufReader<io::Take<File>>, LocatedError> {
    use std::io::Seek;
    let cannot = |e: ReadError| LocatedError::new(path, Some(1), format!("cannot read: {e}"));
    let mut file = open_regular(path).map_err(cannot)?;
    let size = file.metadata().map_err(|e| cannot(e.into()))?.len();
    if size > bounds.max_bytes {
        return Err(cannot(ReadError::TooLong {
            cap: bounds.max_bytes,
            size: Some(size),
        }));
    }
    let located = |refusal: InputRefusal| LocatedError {
        file: path.to_owned(),
        line: Some(refusal.line),
        column: Some(refusal.column),
        message: refusal.message,
    };
    let mut screen = json::StreamScreen::new(bounds);
    let mut piece = vec![0u8; 64 << 10];
    let mut left = bounds.max_bytes;
    while left > 0 {
        let n = (&mut file)
            .take(left.min(piece.len() as u64))
            .read(&mut piece)
            .map_err(|e| cannot(e.into()))?;
        if n == 0 {
            break;
        }
        left -= n as u64;
        screen.feed(&piece[..n]).map_err(located)?;
    }
    screen.finish().map_err(located)?;
    file.rewind().map_err(|e| cannot(e.into()))?;
    Ok(io::BufReader::new(file.take(bounds.max_bytes)))
}

/// A file's text that passed its format's screen, ready to deserialize.
#[derive(Debug, Clone)]
pub struct Input {
    path: PathBuf,
    text: String,
    format: Format,
}

impl Input {
    /// Reads the file at `path` under `bounds` and screens its text as `format`. Every problem
    /// is a [`LocatedError`] naming the file and, past the opening, the line and column.
    pub fn read(path: &Path, format: Format, bounds: Bounds) -> Result<Input, LocatedError> {
        let bytes = read_bytes(path, bounds.max_bytes)
            .map_err(|e| LocatedError::new(path, Some(1), format!("cannot read: {e}")))?;
        Input::from_bytes(path, bytes, format, bounds)
    }

    /// Screens bytes that did not come from a file of their own (the corpus a binary carries),
    /// named `path` in errors.
    pub fn from_bytes(
        path: &Path,
        bytes: Vec<u8>,
        format: Format,
        bounds: Bounds,
    ) -> Result<Input, LocatedError> {
        if bytes.len() as u64 > bounds.max_bytes {
            let message = format!(
                "cannot read: longer than the limit of {} bytes",
                bounds.max_bytes
            );
            return Err(LocatedError::new(path, Some(1), message));
        }
        let located = |refusal: InputRefusal| LocatedError {
            file: path.to_owned(),
            line: Some(refusal.line),
            column: Some(refusal.column),
            message: refusal.message,
        };
        let text = String::from_utf8(bytes).map_err(|e| {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            let (line, column) = position(bytes, at);
            located(InputRefusal {
                line,
                column,
                message: format!("not UTF-8 (byte 0x{:02x}){}", bytes[at], bounds.hint),
            })
        })?;
        match format {
            Format::Yaml => yaml::screen(&text, bounds),
            Format::Json | Format::JsonLines => json::screen(&text, bounds),
        }
        .map_err(located)?;
        Ok(Input {
            path: path.to_owned(),
            text,
            format,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Deserializes the whole text (for JSON lines: its first line).
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, LocatedError> {
        match self.format {
            Format::Yaml => serde_yaml::from_str(&self.text).map_err(|e| {
                let mut located = LocatedError::from_yaml(&self.path, &e);
                // The YAML library gives no place for some errors (an empty file): line 1.
                located.line.get_or_insert(1);
                located
            }),
            Format::Json => self.parse_json(&self.text, 0),
            Format::JsonLines => {
                let first = self.text.lines().next().unwrap_or("");
                self.parse_json(first, 0)
            }
        }
    }

    /// The lines of a [`Format::JsonLines`] file after the first, with their 1-based numbers,
    /// blank lines left out; each deserialized with [`Input::parse_line`].
    pub fn rest_lines(&self) -> impl Iterator<Item = (usize, &str)> {
        (self.text.lines().enumerate().skip(1))
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(i, line)| (i + 1, line))
    }

    /// Deserializes `line`, line `number` of the file, naming it in errors.
    pub fn parse_line<T: DeserializeOwned>(
        &self,
        number: usize,
        line: &str,
    ) -> Result<T, LocatedError> {
        self.parse_json(line, number.saturating_sub(1))
    }

    fn parse_json<T: DeserializeOwned>(
        &self,
        text: &str,
        lines_before: usize,
    ) -> Result<T, LocatedError> {
        serde_json::from_str(text).map_err(|e| {
            let mut message = e.to_string();
            // serde_json appends " at line L column C"; the place is shown in front instead.
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            if let Some(stripped) = message.strip_suffix(&suffix) {
                message = stripped.to_owned();
            }
            LocatedError {
                file: self.path.clone(),
                line: Some(e.line().max(1) + lines_before),
                column: (e.column() > 0).then_some(e.column()),
                message,
            }
        })
    }
}

/// Where a screen found a problem (1-based line and column) and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputRefusal {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The 1-based line and column (in characters) of byte `at`.
pub(crate) fn position(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = &bytes[..at.min(bytes.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: Bounds = Bounds {
        what: "test file",
        max_bytes: 1 << 10,
        max_depth: 4,
        hint: "",
    };

    /// The path other systems take, run here: a FIFO, a device and a folder are refused without
    /// being opened (a FIFO with no writer would block an open), a regular file is read.
    #[test]
    fn the_portable_open_refuses_what_is_not_a_regular_file() {
        use rustix::fs::Mode;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.yaml");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, Mode::RUSR | Mode::WUSR).unwrap();
        for special in [fifo.as_path(), Path::new("/dev/zero"), dir.path()] {
            let refused = open_portably(special);
            assert!(matches!(refused, Err(ReadError::NotRegular)), "{special:?}");
        }
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "User-agent: *").unwrap();
        let text = read_capped(open_portably(&plain).unwrap(), 100).unwrap();
        assert_eq!(text, b"User-agent: *");
        assert!(matches!(
            open_portably(&dir.path().join("missing")),
            Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound
        ));
    }

    #[test]
    fn special_files_and_long_files_are_refused_unread() {
        use rustix::fs::Mode;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.yaml");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, Mode::RUSR | Mode::WUSR).unwrap();
        assert!(matches!(read_bytes(&fifo, 10), Err(ReadError::NotRegular)));
        assert!(matches!(
            read_bytes(Path::new("/dev/zero"), 10),
            Err(ReadError::NotRegular)
        ));
        let long = dir.path().join("long");
        std::fs::write(&long, [b'x'; 11]).unwrap();
        assert!(matches!(
            read_bytes(&long, 10),
            Err(ReadError::TooLong { size: Some(11), .. })
        ));
        assert_eq!(read_bytes(&long, 11).unwrap().len(), 11);
        assert!(matches!(
            read_capped(&[0u8; 11][..], 10),
            Err(ReadError::TooLong { size: None, .. })
        ));
    }

    #[test]
    fn errors_name_the_file_line_and_column() {
        let file = Path::new("x.json");
        let bytes = b"{\"a\": [1,\n  2,, 3]}".to_vec();
        let input = Input::from_bytes(file, bytes, Format::Json, BOUNDS).unwrap();
        let error = input.parse::<serde_json::Value>().unwrap_err();
        assert_eq!((error.line, error.column), (Some(2), Some(5)), "{error}");
        let error =
            Input::from_bytes(file, b"[\n[[[[1]]]]]".to_vec(), Format::Json, BOUNDS).unwrap_err();
        assert_eq!((error.line, error.column), (Some(2), Some(4)), "{error}");
        assert!(error.message.contains("nested more than 4"), "{error}");
        let error =
            Input::from_bytes(file, b"\n\n \xff".to_vec(), Format::Json, BOUNDS).unwrap_err();
        assert_eq!((error.line, error.column), (Some(3), Some(2)), "{error}");
        let lines = b"{\"n\": 1}\n\n{\"n\": 2}\n{\"n\": x}\n".to_vec();
        let input = Input::from_bytes(file, lines, Format::JsonLines, BOUNDS).unwrap();
        let rest: Vec<(usize, &str)> = input.rest_lines().collect();
        assert_eq!(rest, [(3, "{\"n\": 2}"), (4, "{\"n\": x}")]);
        let error = input
            .parse_line::<serde_json::Value>(4, rest[1].1)
            .unwrap_err();
        assert_eq!((error.line, error.column), (Some(4), Some(7)), "{error}");
    }
}
