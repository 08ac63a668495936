//! Errors that point into a file: the file, the line, the column, and what is wrong.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::visible::{path_shown, shown};

/// A problem in an input file (a case file, a manifest, an expectations file), with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedError {
    pub file: PathBuf,
    /// 1-based line and column, when known.
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// What is wrong, starting with the field's path (`cases[3].checks[0].path: ...`).
    pub message: String,
}

impl LocatedError {
    pub fn new(file: &Path, line: Option<usize>, message: String) -> LocatedError {
        LocatedError {
            file: file.to_owned(),
            line,
            column: None,
            message,
        }
    }

    /// A `serde_yaml` error, with its location moved in front of the message.
    pub fn from_yaml(file: &Path, error: &serde_yaml::Error) -> LocatedError {
        let location = error.location();
        let mut message = error.to_string();
        // serde_yaml appends " at line L column C"; the location is shown in front instead.
        if let Some(l) = &location {
            let suffix = format!(" at line {} column {}", l.line(), l.column());
            if let Some(stripped) = message.strip_suffix(&suffix) {
                message = stripped.to_owned();
            }
        }
        LocatedError {
            file: file.to_owned(),
            line: location.as_ref().map(|l| l.line()),
            column: location.as_ref().map(|l| l.column()),
            message,
        }
    }
}

/// The file's name and the message are shown with their control and bidirectional characters
/// made visible: both may quote the file.
impl fmt::Display for LocatedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", path_shown(&self.file))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", shown(&self.message))
    }
}

impl std::error::Error for LocatedError {}
