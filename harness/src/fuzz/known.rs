//! Disagreements not to report again: corpus checks an adapter's expectations file already lists,
//! and findings already written to the output folder by an earlier run.
//!
//! Both are compared by what a case is: the exact body, the agent and the path. The expectations
//! file (`adapters/<name>/expectations.yaml`) is read for its `check` ids only, with every other
//! field ignored, so the fuzzer depends on nothing else of its format.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use robotstxt_reference::Verdict;
use serde::Deserialize;

use super::reduce::Candidate;
use crate::cases::{load_corpus, Case};

/// What makes two cases the same disagreement.
type Key = (Vec<u8>, String, String);

/// The known disagreements of one adapter.
#[derive(Debug, Default)]
pub struct Known {
    listed: HashSet<Key>,
    reported: HashSet<Key>,
    shapes: HashSet<(Vec<u8>, Verdict)>,
}

/// A body's shape: every run of letters and digits written `w`. Two reduced cases of one shape
/// and one verdict differ only in names and path words: the same disagreement, reported once.
pub fn shape(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    for &b in body {
        if !b.is_ascii_alphanumeric() {
            out.push(b);
        } else if out.last() != Some(&b'w') {
            out.push(b'w');
        }
    }
    out
}

#[derive(Deserialize)]
struct ExpectationsFile {
    #[serde(default)]
    expectations: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    check: String,
}

fn key(c: &Candidate) -> Key {
    (c.body.clone(), c.agent.clone(), c.path.clone())
}

impl Known {
    /// Reads `expectations` (if it exists) against the corpus in `cases`, and every case file in
    /// `out` (if it exists).
    pub fn load(expectations: &Path, cases: &[PathBuf], out: &Path) -> Result<Known, String> {
        let mut known = Known::default();
        if expectations.is_file() {
            let text = std::fs::read_to_string(expectations)
                .map_err(|e| format!("{}: {e}", expectations.display()))?;
            let file: ExpectationsFile = serde_yaml::from_str(&text)
                .map_err(|e| format!("{}: {e}", expectations.display()))?;
            let corpus = load(cases)?;
            let by_id: HashMap<String, Key> = corpus
                .iter()
                .flat_map(|case| {
                    case.checks.iter().enumerate().map(move |(i, check)| {
                        let id = format!("{}#{i}", case.id);
                        (
                            id,
                            (case.robots.clone(), check.agent.clone(), check.path.clone()),
                        )
                    })
                })
                .collect();
            known.listed = file
                .expectations
                .iter()
                .filter_map(|e| by_id.get(&e.check).cloned())
                .collect();
        }
        if out.is_dir() {
            for case in load(&[out.to_owned()])? {
                for check in &case.checks {
                    if let Some(crate::cases::Expectation::Is(v)) =
                        check.expect.scored_under(None).map(|(_, e)| e)
                    {
                        known.shapes.insert((shape(&case.robots), v));
                    }
                    known.reported.insert((
                        case.robots.clone(),
                        check.agent.clone(),
                        check.path.clone(),
                    ));
                }
            }
        }
        Ok(known)
    }

    /// Whether the expectations file lists this disagreement.
    pub fn is_listed(&self, c: &Candidate) -> bool {
        self.listed.contains(&key(c))
    }

    /// Whether this disagreement, or one of the same shape and reference verdict, was reported
    /// before (by this run or an earlier one).
    pub fn is_reported(&self, c: &Candidate, reference: Verdict) -> bool {
        self.reported.contains(&key(c)) || self.shapes.contains(&(shape(&c.body), reference))
    }

    pub fn add_reported(&mut self, c: &Candidate, reference: Verdict) {
        self.reported.insert(key(c));
        self.shapes.insert((shape(&c.body), reference));
    }

    /// How many expectations and earlier findings were read.
    pub fn counts(&self) -> (usize, usize) {
        (self.listed.len(), self.reported.len())
    }
}

fn load(dirs: &[PathBuf]) -> Result<Vec<Case>, String> {
    load_corpus(dirs).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        lines.join("\n")
    })
}
