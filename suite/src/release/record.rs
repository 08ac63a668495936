//! The record kept of the corpus at its last released version (`cases/suite-version.json`): the
//! version, the corpus digest, and each check's short question and scoring digests, so that what
//! changed since can be named case by case ([`Record::changes_since`]).
//!
//! ```json
//! {
//!  "version": "1.0.0",
//!  "corpus_digest": "sha256:…",
//!  "checks": {
//!   "agents/exact-name": ["<question>:<scoring>", "…"],
//!   …
//!  }
//! }
//! ```
//!
//! One case per line, so that a release's change to the record reads as a diff of the cases it
//! touched. It is written by `robotstxt-test cases freeze` only, when a version is released.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use semver::Version;
use serde::Deserialize;

use super::digest::{corpus_digest, short_hex, CheckDigests};
use crate::cases::Case;
use crate::input::{Format, Input};
use crate::limits::RELEASE_RECORD;
use crate::located::LocatedError;

/// The record's file name, at the root of the corpus.
pub const RECORD_FILE: &str = "suite-version.json";

/// The corpus as it was released at `version`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub version: Version,
    /// [`corpus_digest`] of the released corpus.
    pub corpus_digest: String,
    /// Per case id, per check: its short question and scoring digests.
    pub checks: BTreeMap<String, Vec<(String, String)>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecord {
    version: String,
    corpus_digest: String,
    checks: BTreeMap<String, Vec<String>>,
}

/// How one case differs from the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    /// A case the record does not have.
    Added,
    /// The body, or a check's agent or path, changed; or checks were added or removed.
    Changed,
    /// Only expectations changed: every check asks what it asked, and one is scored otherwise.
    Rescored,
    /// A case of the record that is gone.
    Removed,
}

impl ChangeKind {
    pub const ALL: [ChangeKind; 4] = [
        ChangeKind::Added,
        ChangeKind::Changed,
        ChangeKind::Rescored,
        ChangeKind::Removed,
    ];

    /// As the CHANGELOG's headings name it: `Added`, `Changed`, `Rescored`, `Removed`.
    pub fn heading(self) -> &'static str {
        match self {
            ChangeKind::Added => "Added",
            ChangeKind::Changed => "Changed",
            ChangeKind::Rescored => "Rescored",
            ChangeKind::Removed => "Removed",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.heading().to_lowercase())
    }
}

/// How large a version step a set of changes asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bump {
    /// Nothing a run sees changed (notes, spec quotes).
    Patch,
    /// Only additions: a new case, or new checks after a case's existing ones.
    Minor,
    /// A check of the released version is gone, asks something else, or is scored otherwise: a
    /// result under the old version no longer means the same under the new one.
    Major,
}

/// One case that differs from the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseChange {
    pub case: String,
    pub kind: ChangeKind,
    pub bump: Bump,
}

impl Record {
    /// The record of `cases` released as `version`.
    pub fn of(version: Version, cases: &[Case]) -> Record {
        Record {
            version,
            corpus_digest: corpus_digest(cases),
            checks: cases
                .iter()
                .map(|case| (case.id.clone(), parts(case)))
                .collect(),
        }
    }

    /// Reads the record from `text`; `file` names it in errors.
    pub fn parse(text: &str, file: &Path) -> Result<Record, LocatedError> {
        let at = |message: String| LocatedError::new(file, Some(1), message);
        let input =
            Input::from_bytes(file, text.as_bytes().to_vec(), Format::Json, RELEASE_RECORD)?;
        let raw: RawRecord = input.parse().map_err(|mut e| {
            e.message = format!("not a release record: {}", e.message);
            e
        })?;
        let version = Version::parse(&raw.version)
            .map_err(|e| at(format!("version: `{}` is not a version: {e}", raw.version)))?;
        let mut checks = BTreeMap::new();
        for (case, list) in raw.checks {
            let line = text
                .lines()
                .position(|l| l.trim_start().starts_with(&format!("\"{case}\"")))
                .map(|i| i + 1);
            let pairs = list
                .iter()
                .map(|pair| {
                    pair.split_once(':')
                        .map(|(q, s)| (q.to_owned(), s.to_owned()))
                        .ok_or_else(|| {
                            LocatedError::new(
                                file,
                                line,
                                format!("checks.{case}: `{pair}` is not `<question>:<scoring>`"),
                            )
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            checks.insert(case, pairs);
        }
        Ok(Record {
            version,
            corpus_digest: raw.corpus_digest,
            checks,
        })
    }

    /// The record's text: see the module docs.
    pub fn to_json(&self) -> String {
        let quote = |s: &str| serde_json::to_string(s).expect("a string serializes");
        let mut out = format!(
            "{{\n \"version\": {},\n \"corpus_digest\": {},\n \"checks\": {{",
            quote(&self.version.to_string()),
            quote(&self.corpus_digest)
        );
        for (i, (case, pairs)) in self.checks.iter().enumerate() {
            let list: Vec<String> = pairs
                .iter()
                .map(|(q, s)| quote(&format!("{q}:{s}")))
                .collect();
            let comma = if i == 0 { "" } else { "," };
            out.push_str(&format!(
                "{comma}\n  {}: [{}]",
                quote(case),
                list.join(", ")
            ));
        }
        out.push_str("\n }\n}\n");
        out
    }

    /// Every case of `cases` or of the record that differs between them, in case id order.
    pub fn changes_since(&self, cases: &[Case]) -> Vec<CaseChange> {
        let now: BTreeMap<&str, Vec<(String, String)>> =
            cases.iter().map(|c| (c.id.as_str(), parts(c))).collect();
        let mut changes = Vec::new();
        for (case, before) in &self.checks {
            let change = match now.get(case.as_str()) {
                None => Some((ChangeKind::Removed, Bump::Major)),
                Some(after) => compare(before, after),
            };
            if let Some((kind, bump)) = change {
                changes.push(CaseChange {
                    case: case.clone(),
                    kind,
                    bump,
                });
            }
        }
        for case in now.keys().filter(|id| !self.checks.contains_key(**id)) {
            changes.push(CaseChange {
                case: (*case).to_owned(),
                kind: ChangeKind::Added,
                bump: Bump::Minor,
            });
        }
        changes.sort_by(|a, b| a.case.cmp(&b.case));
        changes
    }
}

/// How a case's checks changed, if they did: see [`ChangeKind`] and [`Bump`].
fn compare(before: &[(String, String)], after: &[(String, String)]) -> Option<(ChangeKind, Bump)> {
    if before == after {
        return None;
    }
    let common = before.len().min(after.len());
    let asks_otherwise = (0..common).any(|i| before[i].0 != after[i].0);
    let scored_otherwise = (0..common).any(|i| before[i].1 != after[i].1);
    let removed = after.len() < before.len();
    let kind = if asks_otherwise || before.len() != after.len() {
        ChangeKind::Changed
    } else {
        ChangeKind::Rescored
    };
    let bump = if asks_otherwise || scored_otherwise || removed {
        Bump::Major
    } else {
        Bump::Minor
    };
    Some((kind, bump))
}

/// A case's checks as the record keeps them.
fn parts(case: &Case) -> Vec<(String, String)> {
    (0..case.checks.len())
        .map(|i| {
            let d = CheckDigests::of(case, i);
            (short_hex(&d.question), short_hex(&d.scoring))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::parse_file;

    const BASE: &str = r#"
cases:
  - name: kept
    spec: t
    robots: "User-agent: *\nDisallow: /a\n"
    checks:
      - { agent: FooBot, path: /a, expect: disallowed }
  - name: rescored
    spec: t
    robots: "User-agent: *\nDisallow: /b\n"
    checks:
      - { agent: FooBot, path: /b, expect: disallowed }
  - name: grown
    spec: t
    robots: "User-agent: *\nDisallow: /c\n"
    checks:
      - { agent: FooBot, path: /c, expect: disallowed }
  - name: edited
    spec: t
    robots: "User-agent: *\nDisallow: /d\n"
    checks:
      - { agent: FooBot, path: /d, expect: disallowed }
  - name: gone
    spec: t
    robots: "User-agent: *\nDisallow: /e\n"
    checks:
      - { agent: FooBot, path: /e, expect: disallowed }
"#;

    fn cases(yaml: &str) -> Vec<Case> {
        parse_file(yaml, Path::new("t.yaml"), "t").unwrap()
    }

    #[test]
    fn every_kind_of_change_is_named_with_the_step_it_asks_for() {
        let record = Record::of(Version::new(1, 0, 0), &cases(BASE));
        assert!(record.changes_since(&cases(BASE)).is_empty());
        let next = BASE
            .replace("/b, expect: disallowed", "/b, expect: allowed")
            .replace(
                "      - { agent: FooBot, path: /c, expect: disallowed }\n",
                "      - { agent: FooBot, path: /c, expect: disallowed }\n      - { agent: FooBot, path: /x, expect: allowed }\n",
            )
            .replace("Disallow: /d\\n", "Disallow: /D\\n")
            .replace("  - name: gone", "  - name: new");
        let changes: Vec<(String, ChangeKind, Bump)> = record
            .changes_since(&cases(&next))
            .into_iter()
            .map(|c| (c.case, c.kind, c.bump))
            .collect();
        let expected = [
            ("t/edited", ChangeKind::Changed, Bump::Major),
            ("t/gone", ChangeKind::Removed, Bump::Major),
            ("t/grown", ChangeKind::Changed, Bump::Minor),
            ("t/new", ChangeKind::Added, Bump::Minor),
            ("t/rescored", ChangeKind::Rescored, Bump::Major),
        ]
        .map(|(c, k, b)| (c.to_owned(), k, b));
        assert_eq!(changes, expected);
    }

    #[test]
    fn the_record_reads_back_what_it_wrote() {
        let record = Record::of(Version::new(1, 2, 3), &cases(BASE));
        let text = record.to_json();
        assert_eq!(
            text.lines().filter(|l| l.contains("\"t/")).count(),
            5,
            "{text}"
        );
        assert_eq!(Record::parse(&text, Path::new("r.json")).unwrap(), record);
        let bad = Record::parse(&text.replace("1.2.3", "one"), Path::new("r.json")).unwrap_err();
        assert!(
            bad.to_string().starts_with("r.json:1: version: `one`"),
            "{bad}"
        );
        let broken = Record::parse("{\n \"version\": 1", Path::new("r.json")).unwrap_err();
        assert!(
            broken.to_string().contains("not a release record"),
            "{broken}"
        );
    }
}
