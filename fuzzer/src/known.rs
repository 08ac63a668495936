//! Disagreements not to report again: corpus checks an adapter's expectations file already lists,
//! and findings already written to the output folder by an earlier run.
//!
//! Both are compared by what a case is: the exact body, the agent and the path. A listed check is
//! also compared by what it reduces to: the fuzzer re-finds a listed bug under other names and
//! bytes, so [`super::session`] reduces every listed check that is a scored disagreement and
//! records its [`shape`] with [`Known::add_listed`]; a finding of that shape and verdict is the
//! listed bug again. Bugs are also known by group, as `run` groups them (a [`Cause`]): the groups
//! of the listed checks, as the engine answers them, and of the findings already written. The
//! expectations file (`adapters/<name>/expectations.yaml`, or the one `fuzz --expectations`
//! names) is read with
//! [`ExpectationFile::load`], the same reader as the gate's, and only its check ids are used.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use robotstxt_suite::cases::{load_corpus, Case, CaseError, Ruling};
use robotstxt_suite::cause::{self, Cause};
use robotstxt_suite::expectations::ExpectationFile;
use robotstxt_suite::located::LocatedError;

use super::candidate::Candidate;
use robotstxt_reference::Verdict;

/// What makes two cases the same disagreement.
type Key = (Vec<u8>, String, String);

/// The known disagreements of one adapter.
#[derive(Debug, Default)]
pub struct Known {
    listed: HashSet<Key>,
    /// The shapes the listed checks reduce to, with the reference's verdict.
    listed_shapes: HashSet<(Vec<u8>, Verdict)>,
    reported: HashSet<Key>,
    shapes: HashSet<(Vec<u8>, Verdict)>,
    /// The groups of the listed checks, and of what they reduce to.
    listed_groups: HashSet<Cause>,
    /// The groups of the findings already written, by this run or an earlier one.
    reported_groups: HashSet<Cause>,
}

/// A body's shape: every run of letters and digits written `w`, every run of control bytes
/// (other than tab, CR and LF) written as one control byte, and every run of bytes outside ASCII
/// as one such byte. Two reduced cases of one shape and one verdict differ only in names, path
/// words and which odd bytes they hold: the same disagreement, reported once.
pub fn shape(body: &[u8]) -> Vec<u8> {
    let class = |b: u8| -> u8 {
        match b {
            b if b.is_ascii_alphanumeric() => b'w',
            b'\t' | b'\n' | b'\r' => b,
            0..=0x1f | 0x7f => 0x01,
            0x80.. => 0x80,
            _ => b,
        }
    };
    let mut out: Vec<u8> = Vec::with_capacity(body.len());
    for &b in body {
        let c = class(b);
        let repeats = matches!(c, b'w' | 0x01 | 0x80) && out.last() == Some(&c);
        if !repeats {
            out.push(c);
        }
    }
    out
}

fn key(c: &Candidate) -> Key {
    (c.body.clone(), c.agent.clone(), c.path.clone())
}

/// Why the known disagreements could not be read: a bad expectations file, or bad case files
/// (in the corpus or among earlier findings), each problem on a line of its own.
#[derive(Debug, thiserror::Error)]
pub enum KnownError {
    #[error(transparent)]
    Expectations(#[from] LocatedError),
    #[error("{}", lines(.0))]
    Cases(Vec<CaseError>),
}

fn lines(errors: &[CaseError]) -> String {
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    lines.join("\n")
}

impl Known {
    /// Reads `expectations` (if it exists) against the corpus in `cases`, and every case file in
    /// `out` (if it exists).
    pub fn load(expectations: &Path, cases: &[PathBuf], out: &Path) -> Result<Known, KnownError> {
        let mut known = Known::default();
        if expectations.is_file() {
            let file = ExpectationFile::load(expectations)?;
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
                .entries
                .iter()
                .filter_map(|e| by_id.get(&e.check.to_string()).cloned())
                .collect();
        }
        if out.is_dir() {
            for case in load(&[out.to_owned()])? {
                for check in &case.checks {
                    if let Some((profile, Ruling::Is(v))) = check.expect.scored_under(None) {
                        known.shapes.insert((shape(&case.robots), v));
                        // A finding expects the reference's verdict; the parser answered the other.
                        let theirs = match v {
                            Verdict::Allowed => Verdict::Disallowed,
                            Verdict::Disallowed => Verdict::Allowed,
                        };
                        let (agent, path) = (&check.agent, &check.path);
                        let group =
                            cause::of_answer(profile, &case.robots, agent, path, Some(theirs));
                        known.reported_groups.insert(group);
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

    /// Whether the expectations file lists this disagreement, or a check that reduces to the
    /// same shape with the same reference verdict.
    pub fn is_listed(&self, c: &Candidate, reference: Verdict) -> bool {
        self.listed.contains(&key(c)) || self.listed_shapes.contains(&(shape(&c.body), reference))
    }

    /// The listed checks as candidates for the reducer, in a stable order.
    pub fn listed_candidates(&self) -> Vec<Candidate> {
        let mut keys: Vec<&Key> = self.listed.iter().collect();
        keys.sort();
        keys.into_iter()
            .map(|(body, agent, path)| Candidate {
                body: body.clone(),
                agent: agent.clone(),
                path: path.clone(),
            })
            .collect()
    }

    /// Records what a listed check reduced to.
    pub fn add_listed(&mut self, reduced: &Candidate, reference: Verdict) {
        self.listed_shapes.insert((shape(&reduced.body), reference));
    }

    /// Whether this disagreement, or one of the same shape and reference verdict, was reported
    /// before (by this run or an earlier one).
    pub fn is_reported(&self, c: &Candidate, reference: Verdict) -> bool {
        self.reported.contains(&key(c)) || self.shapes.contains(&(shape(&c.body), reference))
    }

    /// Records the group of a listed check, as the engine answers it.
    pub fn add_listed_group(&mut self, group: Cause) {
        self.listed_groups.insert(group);
    }

    /// Whether the expectations file lists checks of this group.
    pub fn is_listed_group(&self, group: Cause) -> bool {
        self.listed_groups.contains(&group)
    }

    pub fn add_reported_group(&mut self, group: Cause) {
        self.reported_groups.insert(group);
    }

    /// Whether a finding of this group was written, by this run or an earlier one.
    pub fn is_reported_group(&self, group: Cause) -> bool {
        self.reported_groups.contains(&group)
    }

    pub fn add_reported(&mut self, c: &Candidate, reference: Verdict) {
        self.reported.insert(key(c));
        self.shapes.insert((shape(&c.body), reference));
    }
}

fn load(dirs: &[PathBuf]) -> Result<Vec<Case>, KnownError> {
    load_corpus(dirs).map_err(KnownError::Cases)
}

#[cfg(test)]
mod listed_tests {
    use super::*;

    #[test]
    fn shapes_keep_punctuation_and_merge_words_and_odd_bytes() {
        assert_eq!(
            shape(b"Disallow: /cgi-bin\x19\x03"),
            shape(b"Allow: /a-b\x08")
        );
        assert_eq!(
            shape("Disallow: /é".as_bytes()),
            shape("Disallow: /\u{a0}".as_bytes())
        );
        assert_ne!(shape(b"Disallow: /a?"), shape(b"Disallow: /a["));
        assert_ne!(
            shape(b"Disallow: /a\x19"),
            shape("Disallow: /a\u{a0}".as_bytes())
        );
        assert_ne!(shape(b"Disallow: /a\t"), shape(b"Disallow: /a\x19"));
    }

    #[test]
    fn a_check_the_expectations_file_lists_is_known() {
        let dir = tempfile::tempdir().unwrap();
        let cases = dir.path().join("cases");
        std::fs::create_dir(&cases).unwrap();
        std::fs::write(
            cases.join("topic.yaml"),
            "cases:\n  - name: one\n    spec: Format\n    robots: \"User-agent: *\\rDisallow: /a\\r\"\n    checks:\n      - { agent: FooBot, path: /a, expect: disallowed }\n      - { agent: FooBot, path: /b, expect: allowed }\n",
        )
        .unwrap();
        let expectations = dir.path().join("expectations.yaml");
        std::fs::write(
            &expectations,
            "adapter: some-parser\nexpectations:\n  - check: topic/one#0\n    outcome: fail\n    reason: no CR-only line endings\n",
        )
        .unwrap();
        let mut known = Known::load(&expectations, &[cases], &dir.path().join("out")).unwrap();
        let candidate = |path: &str| Candidate {
            body: b"User-agent: *\rDisallow: /a\r".to_vec(),
            agent: "FooBot".to_owned(),
            path: path.to_owned(),
        };
        assert!(known.is_listed(&candidate("/a"), Verdict::Disallowed));
        assert!(
            !known.is_listed(&candidate("/b"), Verdict::Allowed),
            "check #1 is not listed"
        );
        assert_eq!(known.listed_candidates(), vec![candidate("/a")]);
        let reduced = Candidate {
            body: b"User-agent: *\rDisallow: /a\r".to_vec(),
            agent: "FooBot".to_owned(),
            path: "/a".to_owned(),
        };
        known.add_listed(&reduced, Verdict::Disallowed);
        let renamed = Candidate {
            body: b"User-agent: *\rDisallow: /b\r".to_vec(),
            ..reduced.clone()
        };
        assert!(known.is_listed(&renamed, Verdict::Disallowed), "same shape");
        assert!(
            !known.is_listed(&renamed, Verdict::Allowed),
            "other verdict"
        );
    }
}
