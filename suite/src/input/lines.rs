//! A JSON-lines file read one line at a time, for files too large to hold whole (a census plan
//! holds a line per capture of a WARC file). The file passes the same gates as a file read whole
//! (a regular file, its size cap), and each line the same screen (UTF-8, nesting within the
//! bounds) before it is deserialized; a line is also capped, so what is held at any moment is
//! one line, whatever the file.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Take};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::{json, open_regular, position, Bounds, ReadError};
use crate::located::LocatedError;

/// The lines of a JSON-lines file, read as they are asked for.
pub struct JsonLines {
    path: PathBuf,
    bounds: Bounds,
    max_line: usize,
    reader: BufReader<Take<File>>,
    /// The 1-based number of the line last read.
    number: usize,
    line: Vec<u8>,
}

impl JsonLines {
    /// Opens the file at `path` under `bounds`; each line may hold at most `max_line` bytes.
    pub fn open(path: &Path, bounds: Bounds, max_line: usize) -> Result<JsonLines, LocatedError> {
        let cannot = |e: ReadError| LocatedError::new(path, Some(1), format!("cannot read: {e}"));
        let file = open_regular(path).map_err(cannot)?;
        let size = file.metadata().map_err(|e| cannot(e.into()))?.len();
        if size > bounds.max_bytes {
            return Err(cannot(ReadError::TooLong {
                cap: bounds.max_bytes,
                size: Some(size),
            }));
        }
        Ok(JsonLines {
            path: path.to_owned(),
            bounds,
            max_line,
            // A file that grows while it is read is still read no further than its cap.
            reader: BufReader::new(file.take(bounds.max_bytes)),
            number: 0,
            line: Vec::new(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn error(&self, column: Option<usize>, message: String) -> LocatedError {
        LocatedError {
            file: self.path.clone(),
            line: Some(self.number.max(1)),
            column,
            message,
        }
    }

    /// The next line's text, screened, without its line ending; `None` at the end of the file.
    fn next_text(&mut self) -> Result<Option<&str>, LocatedError> {
        self.line.clear();
        let limit = self.max_line as u64 + 1;
        let read = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.line);
        let read = read.map_err(|e| self.error(None, format!("cannot read: {e}")))?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        if self.line.last() == Some(&b'\n') {
            self.line.pop();
        } else if self.line.len() > self.max_line {
            let message = format!("a line longer than the limit of {} bytes", self.max_line);
            return Err(self.error(Some(1), message));
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        let text = match std::str::from_utf8(&self.line) {
            Ok(text) => text,
            Err(e) => {
                let at = e.valid_up_to();
                let (_, column) = position(&self.line, at);
                let message = format!("not UTF-8 (byte 0x{:02x})", self.line[at]);
                return Err(self.error(Some(column), message));
            }
        };
        if let Err(refusal) = json::screen(text, self.bounds) {
            return Err(self.error(Some(refusal.column), refusal.message));
        }
        // Checked just above; borrowed again for the caller.
        Ok(std::str::from_utf8(&self.line).ok())
    }

    /// The next line deserialized, with its 1-based number; `None` at the end of the file. With
    /// `skip_blank`, blank lines are passed over.
    pub fn next<T: DeserializeOwned>(
        &mut self,
        skip_blank: bool,
    ) -> Option<Result<(usize, T), LocatedError>> {
        loop {
            let text = match self.next_text() {
                Ok(Some(text)) => text,
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            };
            if skip_blank && text.trim().is_empty() {
                continue;
            }
            let parsed = serde_json::from_str(text).map_err(|e| {
                let mut message = e.to_string();
                // serde_json appends " at line L column C"; the place is shown in front instead.
                let suffix = format!(" at line {} column {}", e.line(), e.column());
                if let Some(stripped) = message.strip_suffix(&suffix) {
                    message = stripped.to_owned();
                }
                self.error((e.column() > 0).then_some(e.column()), message)
            });
            return Some(parsed.map(|value| (self.number, value)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: Bounds = Bounds {
        what: "test file",
        max_bytes: 1 << 10,
        max_depth: 2,
        hint: "",
    };

    fn lines(text: &[u8], max_line: usize) -> (tempfile::TempDir, JsonLines) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.jsonl");
        std::fs::write(&path, text).unwrap();
        let lines = JsonLines::open(&path, BOUNDS, max_line).unwrap();
        (dir, lines)
    }

    #[test]
    fn each_line_is_screened_and_placed() {
        let (_dir, mut read) = lines(b"{\"n\": 1}\r\n\n{\"n\": 2}\n{\"n\": x}\n", 64);
        let first: (usize, serde_json::Value) = read.next(false).unwrap().unwrap();
        assert_eq!(first.0, 1);
        let second: (usize, serde_json::Value) = read.next(true).unwrap().unwrap();
        assert_eq!((second.0, &second.1["n"]), (3, &serde_json::json!(2)));
        let error = read.next::<serde_json::Value>(true).unwrap().unwrap_err();
        assert_eq!((error.line, error.column), (Some(4), Some(7)), "{error}");
        assert!(read.next::<serde_json::Value>(true).is_none());

        let (_dir, mut read) = lines(b"[1]\n[[[1]]]\n", 64);
        assert!(read.next::<serde_json::Value>(true).unwrap().is_ok());
        let error = read.next::<serde_json::Value>(true).unwrap().unwrap_err();
        assert_eq!((error.line, error.column), (Some(2), Some(3)), "{error}");
        assert!(error.message.contains("nested more than 2"), "{error}");

        let (_dir, mut read) = lines(b"1\n\"a\xffb\"\n", 64);
        assert!(read.next::<serde_json::Value>(true).unwrap().is_ok());
        let error = read.next::<serde_json::Value>(true).unwrap().unwrap_err();
        assert_eq!((error.line, error.column), (Some(2), Some(3)), "{error}");
    }

    #[test]
    fn a_long_line_and_a_long_file_are_refused() {
        let (_dir, mut read) = lines(b"1\n\"aaaaaaaaaaaaaaaaaaaa\"\n", 8);
        assert!(read.next::<serde_json::Value>(true).unwrap().is_ok());
        let error = read.next::<serde_json::Value>(true).unwrap().unwrap_err();
        assert_eq!(error.line, Some(2), "{error}");
        assert!(
            error.message.contains("longer than the limit of 8"),
            "{error}"
        );
        // A last line without its line feed, exactly at the limit, is read.
        let (_dir, mut read) = lines(b"12345678", 8);
        assert!(read.next::<u64>(true).unwrap().is_ok());

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long.jsonl");
        std::fs::write(&path, vec![b'\n'; 2000]).unwrap();
        let error = JsonLines::open(&path, BOUNDS, 64).err().unwrap();
        assert!(error.message.contains("longer than the limit"), "{error}");
        let error = JsonLines::open(Path::new("/dev/zero"), BOUNDS, 64)
            .err()
            .unwrap();
        assert!(error.message.contains("not a regular file"), "{error}");
    }
}
