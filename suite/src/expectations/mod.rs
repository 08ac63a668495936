//! Expectation files: the checks one adapter is known not to pass, so that a run can be a
//! regression gate (`run --expectations FILE`) rather than a score.
//!
//! ```yaml
//! adapter: python-urllib
//! expectations:
//!   - check: line-endings/cr-only#0     # case id, '#', check index from 0
//!     outcome: fail                      # fail | unstable | error | crash | timeout | protocol-error | skipped
//!     cause: CR-only line endings        # optional: what `run` groups it under (label or id)
//!     reason: "splits lines on NL only"
//!     issue: https://example.org/...     # optional
//! ```
//!
//! This module reads and writes the file ([`ExpectationFile::parse`],
//! [`ExpectationFile::to_yaml`]) and checks it against the corpus ([`ExpectationFile::resolve`]);
//! [`gate`] compares a run with it and builds an updated file from a run. The format is
//! documented for people in `adapters/README.md`; other commands (the fuzzer) read the same file
//! to skip known disagreements, so its shape is kept stable.
//!
//! Every problem is a [`LocatedError`] naming the file, the line and the field. A check id that
//! is not in the corpus is an error, not a warning: a gate that silently ignores an entry no
//! longer checks what it says. `--update-expectations` drops such stale entries.

pub mod gate;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::cases::Case;
use crate::cause::Cause;
use crate::input::{Format, Input};
use crate::limits::EXPECTATION_FILE;
use crate::located::LocatedError;
use crate::run::Outcome;

/// A check's id: `<case id>#<index>`, e.g. `line-endings/cr-only#0`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CheckId {
    pub case: String,
    pub index: usize,
}

impl CheckId {
    pub fn new(case: &str, index: usize) -> CheckId {
        CheckId {
            case: case.to_owned(),
            index,
        }
    }
}

impl fmt::Display for CheckId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.case, self.index)
    }
}

/// A text that is not a check id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a check id: a case id, `#`, and the check's index from 0 \
     (e.g. `line-endings/cr-only#0`)"
)]
pub struct NotACheckId(pub String);

impl std::str::FromStr for CheckId {
    type Err = NotACheckId;

    fn from_str(text: &str) -> Result<CheckId, NotACheckId> {
        let bad = || NotACheckId(text.to_owned());
        let (case, index) = text.rsplit_once('#').ok_or_else(bad)?;
        let well_formed = !case.is_empty()
            && !case.chars().any(|c| c.is_whitespace() || c == '#')
            && !index.is_empty()
            && index.bytes().all(|b| b.is_ascii_digit());
        if !well_formed {
            return Err(bad());
        }
        let index = index.parse().map_err(|_| bad())?;
        Ok(CheckId::new(case, index))
    }
}

/// The outcomes an entry may list: every outcome but `pass` and `unspecified`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Listed {
    Fail,
    /// Known to answer differently when asked again: any answer is as listed.
    Unstable,
    Error,
    QueryError,
    Crash,
    Timeout,
    ProtocolError,
    Skipped,
}

impl Listed {
    pub const ALL: [Listed; 8] = [
        Listed::Fail,
        Listed::Unstable,
        Listed::Error,
        Listed::QueryError,
        Listed::Crash,
        Listed::Timeout,
        Listed::ProtocolError,
        Listed::Skipped,
    ];

    pub fn outcome(self) -> Outcome {
        match self {
            Listed::Fail => Outcome::Fail,
            Listed::Unstable => Outcome::Unstable,
            Listed::Error => Outcome::Error,
            Listed::QueryError => Outcome::QueryError,
            Listed::Crash => Outcome::Crash,
            Listed::Timeout => Outcome::Timeout,
            Listed::ProtocolError => Outcome::ProtocolError,
            Listed::Skipped => Outcome::Skipped,
        }
    }

    /// The entry outcome for a run's outcome; `None` for `pass` and `unspecified`, which are
    /// never listed.
    pub fn of(outcome: Outcome) -> Option<Listed> {
        Listed::ALL.into_iter().find(|l| l.outcome() == outcome)
    }
}

impl fmt::Display for Listed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.outcome().fmt(f)
    }
}

/// The environment variable with which a parser's own `cargo test` writes its expectation file
/// (see the `conformance` module, behind the feature of that name).
pub const IN_PROCESS_UPDATE: &str = "ROBOTSTXT_TEST_UPDATE_EXPECTATIONS";

/// The environment variable with which a parser's own `cargo test` fails on a listed check that
/// now passes, as `run --strict` does.
pub const IN_PROCESS_STRICT: &str = "ROBOTSTXT_TEST_STRICT";

/// One listed check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub check: CheckId,
    pub outcome: Listed,
    /// What causes it: the cause `run` groups it under. Written by every update, as the cause's
    /// label; read as its label or its id (optional when read: files from before it have none).
    pub cause: Option<Cause>,
    /// Why the parser does not pass: for people reading the file.
    pub reason: String,
    /// Where the difference is tracked (the parser's issue tracker), if anywhere.
    pub issue: Option<String>,
    /// The entry's line in the file it was read from.
    pub line: Option<usize>,
}

/// One adapter's expectation file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectationFile {
    /// The adapter's name, as its handshake gives it.
    pub adapter: String,
    pub entries: Vec<Entry>,
    /// Where the file was read from (empty for one built from a run).
    pub file: PathBuf,
    /// The command that wrote the file, as typed, for its header.
    pub written_by: Option<String>,
    /// The line of the `adapter` field.
    adapter_line: Option<usize>,
}

impl ExpectationFile {
    /// An empty file for `adapter`: every non-pass is a regression.
    pub fn empty(adapter: &str) -> ExpectationFile {
        ExpectationFile {
            adapter: adapter.to_owned(),
            entries: Vec::new(),
            file: PathBuf::new(),
            written_by: None,
            adapter_line: None,
        }
    }

    /// Reads and parses `file`, under the bounds of [`EXPECTATION_FILE`].
    pub fn load(file: &Path) -> Result<ExpectationFile, LocatedError> {
        ExpectationFile::from_input(&Input::read(file, Format::Yaml, EXPECTATION_FILE)?)
    }

    /// Parses an expectation file's text; `file` names it in errors. Checks the shape only: see
    /// [`ExpectationFile::resolve`] for the check ids.
    pub fn parse(text: &str, file: &Path) -> Result<ExpectationFile, LocatedError> {
        let bytes = text.as_bytes().to_vec();
        ExpectationFile::from_input(&Input::from_bytes(
            file,
            bytes,
            Format::Yaml,
            EXPECTATION_FILE,
        )?)
    }

    fn from_input(input: &Input) -> Result<ExpectationFile, LocatedError> {
        let (text, file) = (input.text(), input.path());
        let raw: RawFile = input.parse()?;
        let lines = IdLines::of(text);
        let mut seen: HashMap<&CheckId, usize> = HashMap::new();
        let mut entries = Vec::with_capacity(raw.expectations.len());
        for (index, entry) in raw.expectations.iter().enumerate() {
            let nth = seen.get(&entry.check.0).copied().unwrap_or(0);
            let line = lines.nth(&entry.check.0, nth);
            if nth > 0 {
                let message = format!(
                    "expectations[{index}].check: `{}` is listed twice",
                    entry.check.0
                );
                return Err(LocatedError::new(file, line, message));
            }
            seen.insert(&entry.check.0, nth + 1);
            entries.push(Entry {
                check: entry.check.0.clone(),
                outcome: entry.outcome.0,
                cause: entry.cause.as_ref().map(|c| c.0),
                reason: entry.reason.0.clone(),
                issue: entry.issue.as_ref().map(|i| i.0.clone()),
                line,
            });
        }
        Ok(ExpectationFile {
            adapter: raw.adapter.0,
            entries,
            file: file.to_owned(),
            written_by: None,
            adapter_line: text
                .lines()
                .position(|l| l.starts_with("adapter:"))
                .map(|i| i + 1),
        })
    }

    /// Checks every entry against the corpus: the case must exist and have that check. Returns
    /// every problem found.
    pub fn resolve(&self, cases: &[Case]) -> Result<(), Vec<LocatedError>> {
        let checks: HashMap<&str, usize> = cases
            .iter()
            .map(|c| (c.id.as_str(), c.checks.len()))
            .collect();
        let errors: Vec<LocatedError> = self
            .entries
            .iter()
            .enumerate()
            .filter_map(|(index, entry)| {
                let problem = match checks.get(entry.check.case.as_str()) {
                    None => format!("no case `{}` in the corpus", entry.check.case),
                    Some(&n) if entry.check.index >= n => format!(
                        "case `{}` has {n} check(s), numbered from 0",
                        entry.check.case
                    ),
                    Some(_) => return None,
                };
                let message = format!(
                    "expectations[{index}].check: `{}`: {problem} \
                     (stale after a corpus change? --update-expectations drops such entries)",
                    entry.check
                );
                Some(LocatedError::new(&self.file, entry.line, message))
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Checks that the file is for the adapter being run (by its handshake name).
    pub fn check_adapter(&self, name: &str) -> Result<(), LocatedError> {
        if self.adapter == name {
            return Ok(());
        }
        let message = format!(
            "adapter: the file is for `{}`, but the adapter being run is `{name}`",
            self.adapter
        );
        Err(LocatedError::new(&self.file, self.adapter_line, message))
    }

    /// The entry for a check, if listed.
    pub fn entry(&self, check: &CheckId) -> Option<&Entry> {
        self.entries.iter().find(|e| &e.check == check)
    }

    /// The file's text: a comment saying what it is, then the YAML.
    pub fn to_yaml(&self) -> String {
        let raw = RawFile {
            adapter: Text(self.adapter.clone()),
            expectations: self
                .entries
                .iter()
                .map(|e| RawEntry {
                    check: CheckIdField(e.check.clone()),
                    outcome: ListedField(e.outcome),
                    cause: e.cause.map(CauseField),
                    reason: Text(e.reason.clone()),
                    issue: e.issue.clone().map(Url),
                })
                .collect(),
        };
        let yaml = serde_yaml::to_string(&raw).expect("plain strings always serialize");
        let written_by = self
            .written_by
            .as_deref()
            .map_or_else(String::new, |command| {
                let gate = if command.starts_with(IN_PROCESS_UPDATE) {
                    format!(
                        "cargo test (a listed check is an expected failure; with\n\
                         #   {IN_PROCESS_STRICT}=1 a listed check that now passes fails too)"
                    )
                } else if command.starts_with("robotstxt-test run ") {
                    "the same command with --expectations <this file> in place of\n\
                 #   --update-expectations (add --strict to fail on unexpected passes too)"
                        .to_owned()
                } else {
                    let adapter = &self.adapter;
                    format!(
                        "robotstxt-test run --adapter {adapter} --expectations <this file>\n\
                         #   (add --strict to fail on unexpected passes too)"
                    )
                };
                // One comment line, whatever the command held: a line feed in an argument would
                // otherwise end the comment and write YAML.
                let command = crate::visible::shown_line(command);
                format!("# Written by: {command}\n# Gate: {gate}.\n")
            });
        format!(
            "# The checks `{}` is expected not to pass: its regression gate.\n{written_by}\
             # Every entry was generated from a run: `cause` is what `run` groups it under, and\n\
             # an update keeps a `reason` or `issue` you edit. By cause:\n{}\
             # Format: adapters/README.md.\n{yaml}",
            self.adapter,
            self.counts_by_cause()
                .iter()
                .map(|(cause, n)| format!(
                    "#   {n} {}: {cause}\n",
                    if *n == 1 { "check" } else { "checks" }
                ))
                .collect::<String>()
        )
    }

    /// How many entries each cause has, the largest first (entries without one as `no cause
    /// recorded`).
    pub fn counts_by_cause(&self) -> Vec<(String, usize)> {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for entry in &self.entries {
            let cause = entry.cause.map_or("no cause recorded", Cause::label);
            match counts.iter_mut().find(|(c, _)| c == cause) {
                Some((_, n)) => *n += 1,
                None => counts.push((cause.to_owned(), 1)),
            }
        }
        counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        counts
    }
}

/// Where each check id is written in a file's text, found in one pass: ids are plain text
/// (kebab-case names, `/`, `#`, digits), so a textual search finds them, and it lets errors
/// about an entry point at that entry, which serde alone cannot. (Looking each id up in the whole
/// text again made reading a file of 20 000 entries take minutes.)
struct IdLines<'a> {
    /// Every word of the text that reads as a check id, with the 1-based lines it is on.
    lines: HashMap<&'a str, Vec<usize>>,
}

impl<'a> IdLines<'a> {
    fn of(text: &'a str) -> IdLines<'a> {
        let mut lines: HashMap<&'a str, Vec<usize>> = HashMap::new();
        for (number, line) in text.lines().enumerate() {
            // A comment starts at ` #`; the `#` inside an id follows no space.
            let line = line.split(" #").next().unwrap_or(line);
            let words = line.split(|c: char| c.is_whitespace() || "\"'{}[],".contains(c));
            for word in words.filter(|w| w.contains('#')) {
                if word.parse::<CheckId>().is_ok() {
                    lines.entry(word).or_default().push(number + 1);
                }
            }
        }
        IdLines { lines }
    }

    /// The line of the `nth` (0-based) occurrence of `id`.
    fn nth(&self, id: &CheckId, nth: usize) -> Option<usize> {
        let lines = self.lines.get(id.to_string().as_str())?;
        lines.get(nth).copied()
    }
}

// ---- the raw shapes, validated while deserializing so errors carry line and column ------------

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    adapter: Text,
    #[serde(default)]
    expectations: Vec<RawEntry>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    check: CheckIdField,
    outcome: ListedField,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cause: Option<CauseField>,
    reason: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    issue: Option<Url>,
}

/// Declares a newtype read from a YAML string through `parse`, inside the scalar's own visitor
/// (so serde_yaml reports a bad value at its own line and column), and written back with `show`.
macro_rules! string_field {
    ($name:ident($inner:ty), $parse:expr, $show:expr) => {
        struct $name($inner);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Parse;
                impl<'de> Visitor<'de> for Parse {
                    type Value = $inner;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a string")
                    }
                    fn visit_str<E: de::Error>(self, value: &str) -> Result<$inner, E> {
                        let parse: fn(&str) -> Result<$inner, String> = $parse;
                        parse(value).map_err(E::custom)
                    }
                }
                deserializer.deserialize_string(Parse).map($name)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let show: fn(&$inner) -> String = $show;
                serializer.serialize_str(&show(&self.0))
            }
        }
    };
}

string_field!(
    Text(String),
    |s| if s.trim().is_empty() {
        Err("must not be empty".to_owned())
    } else {
        Ok(s.to_owned())
    },
    |s| s.clone()
);

string_field!(
    CheckIdField(CheckId),
    |s| s.parse().map_err(|e: NotACheckId| e.to_string()),
    |id| id.to_string()
);

string_field!(
    CauseField(Cause),
    |s| s
        .parse()
        .map_err(|e: crate::cause::UnknownCause| e.to_string()),
    |cause| cause.label().to_owned()
);

string_field!(
    ListedField(Listed),
    |s| match Listed::ALL.into_iter().find(|l| l.outcome().as_str() == s) {
        Some(listed) => Ok(listed),
        None if s == "pass" || s == "unspecified" => Err(format!(
            "`{s}` is never listed: only checks expected not to pass are"
        )),
        None => {
            let known: Vec<&str> = Listed::ALL.iter().map(|l| l.outcome().as_str()).collect();
            Err(format!(
                "unknown outcome `{s}` (known: {})",
                known.join(", ")
            ))
        }
    },
    |l| l.outcome().as_str().to_owned()
);

string_field!(
    Url(String),
    |s| if (s.starts_with("https://") || s.starts_with("http://"))
        && !s.contains(char::is_whitespace)
    {
        Ok(s.to_owned())
    } else {
        Err(format!("issue `{s}` is not an http(s) URL"))
    },
    |s| s.clone()
);

#[cfg(test)]
mod tests {
    use super::*;

    /// A cause reads from its label (what updates write, and what files written before causes
    /// were typed hold) or from its id, and is written back as its label.
    #[test]
    fn causes_read_by_label_or_id_and_write_as_labels() {
        let text = "adapter: a\nexpectations:\n\
                    - check: x/y#0\n  outcome: fail\n  cause: CR-only line endings\n  reason: r\n\
                    - check: x/y#1\n  outcome: fail\n  cause: star-group\n  reason: r\n\
                    - check: x/y#2\n  outcome: fail\n  reason: r\n";
        let file = ExpectationFile::parse(text, Path::new("e.yaml")).unwrap();
        let causes: Vec<Option<Cause>> = file.entries.iter().map(|e| e.cause).collect();
        assert_eq!(
            causes,
            [
                Some(Cause::LoneCr),
                Some(Cause::StarRecord(robotstxt_reference::Profile::Rfc9309)),
                None
            ]
        );
        let yaml = file.to_yaml();
        assert!(yaml.contains("  cause: CR-only line endings\n"), "{yaml}");
        assert!(yaml.contains("  cause: the `*` group applies\n"), "{yaml}");
        assert!(yaml.contains("#   1 check: no cause recorded\n"), "{yaml}");
    }
}
