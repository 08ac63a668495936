//! The corpus as run, reduced to digests: what a check asks, what it is scored by, and the whole
//! corpus, each SHA-256 over a canonical serialization that is the same on every platform.
//!
//! Only what decides a result goes in: the body's bytes, the check's agent and path (its
//! question), and its expectation under every profile with the readings it rests on (its
//! scoring: a reading decides whether reports count the check with the decided ones). The
//! `spec`, the `note` and `reported` are for readers and change no result, so editing them
//! changes no digest. Two
//! spellings that score alike (`expect: allowed`, or the same verdict named per profile) digest
//! alike, since the expectation is read per profile.
//!
//! Each field is written as its name, a NUL, its length as eight little-endian bytes, then its
//! bytes: no value can run into the next one, and nothing depends on the platform.

use robotstxt_reference::Profile;
use sha2::{Digest as _, Sha256};

use crate::cases::{Case, Check, Ruling};

/// How many hexadecimal digits of a check's digests are kept where they are stored per check (in
/// results files and the release record): 64 bits, enough to tell two versions of one check
/// apart, at a quarter of the size.
pub const CHECK_DIGEST_DIGITS: usize = 16;

/// One check's two digests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckDigests {
    /// What the check asks: the case's body, the check's agent and path.
    pub question: [u8; 32],
    /// What scores the answer: the expectation under every profile, and the readings it rests on.
    pub scoring: [u8; 32],
}

impl CheckDigests {
    /// The digests of `case`'s check `index`.
    pub fn of(case: &Case, index: usize) -> CheckDigests {
        let check = &case.checks[index];
        let mut question = Canonical::default();
        question.field("robots", &case.robots);
        question.field("agent", check.agent.as_bytes());
        question.field("path", check.path.as_bytes());
        CheckDigests {
            question: question.finish(),
            scoring: scoring(check),
        }
    }

    /// The check as one short digest (of both parts), as results files carry it beside each
    /// check: two files whose check of one id has the same digest asked and scored it alike.
    pub fn short(&self) -> String {
        let mut both = Canonical::default();
        both.field("question", &self.question);
        both.field("scoring", &self.scoring);
        short_hex(&both.finish())
    }
}

/// Every field of a check that decides how an answer is scored. A new field of the case format
/// that changes scoring is one more `field` line here.
fn scoring(check: &Check) -> [u8; 32] {
    let mut scoring = Canonical::default();
    for profile in Profile::ALL {
        let ruling = match check.expect.for_profile(*profile) {
            Some(Ruling::Is(verdict)) => verdict.as_str(),
            Some(Ruling::Unspecified) => "unspecified",
            None => "not named",
        };
        scoring.field(&format!("expect {}", profile.name()), ruling.as_bytes());
    }
    // The readings a check rests on decide whether reports count it with the decided checks.
    let readings: Vec<&str> = check.readings.iter().map(|r| r.name()).collect();
    scoring.field("readings", readings.join(",").as_bytes());
    scoring.finish()
}

/// The digest of a whole corpus, `sha256:` and 64 hexadecimal digits: over every check's id and
/// digests, cases in id order and checks in their order. The order the files list cases in does
/// not change it; renaming a case does.
pub fn corpus_digest(cases: &[Case]) -> String {
    let mut order: Vec<&Case> = cases.iter().collect();
    order.sort_by(|a, b| a.id.cmp(&b.id));
    let mut corpus = Canonical::default();
    for case in order {
        for index in 0..case.checks.len() {
            let digests = CheckDigests::of(case, index);
            corpus.field("check", format!("{}#{index}", case.id).as_bytes());
            corpus.field("question", &digests.question);
            corpus.field("scoring", &digests.scoring);
        }
    }
    format!("sha256:{}", hex(&corpus.finish()))
}

/// The short digest of each check of `case`, in order.
pub fn short_check_digests(case: &Case) -> Vec<String> {
    (0..case.checks.len())
        .map(|index| CheckDigests::of(case, index).short())
        .collect()
}

/// The first [`CHECK_DIGEST_DIGITS`] hexadecimal digits of a digest.
pub fn short_hex(digest: &[u8; 32]) -> String {
    hex(&digest[..CHECK_DIGEST_DIGITS / 2])
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A SHA-256 over fields written as name, NUL, length, bytes.
#[derive(Default)]
struct Canonical(Sha256);

impl Canonical {
    fn field(&mut self, name: &str, value: &[u8]) {
        self.0.update(name.as_bytes());
        self.0.update([0]);
        self.0.update((value.len() as u64).to_le_bytes());
        self.0.update(value);
    }

    fn finish(self) -> [u8; 32] {
        self.0.finalize().into()
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::cases::parse_file;

    fn corpus(yaml: &str) -> Vec<Case> {
        parse_file(yaml, Path::new("t.yaml"), "t").unwrap()
    }

    const BASE: &str = r#"
cases:
  - name: a
    spec: one
    robots: "User-agent: *\nDisallow: /a\n"
    checks:
      - { agent: FooBot, path: /a, expect: disallowed }
  - name: b
    spec: two
    robots: "User-agent: *\nDisallow: /b\n"
    checks:
      - { agent: FooBot, path: /b, expect: { norobots-1994: disallowed, rfc9309: disallowed } }
"#;

    #[test]
    fn a_known_corpus_has_a_known_digest() {
        // Pinned: the serialization must not drift between platforms or releases of this crate.
        // The value is also what the module docs' serialization gives written anew elsewhere
        // (with Python's hashlib and struct.pack("<Q", ...)).
        assert_eq!(
            corpus_digest(&corpus(BASE)),
            "sha256:c1ba9668a3a56c611962feceed01ca69976975b2fd686abfeea2b990965f0734"
        );
    }

    #[test]
    fn what_readers_read_changes_nothing_and_what_is_run_changes_it() {
        let base = corpus_digest(&corpus(BASE));
        let spec_and_note = BASE
            .replace("spec: one", "spec: other")
            .replace("spec: two", "spec: two\n    note: a note");
        assert_eq!(corpus_digest(&corpus(&spec_and_note)), base);
        // The same expectation, spelled per profile: scored alike, digested alike.
        let spelled = BASE.replace(
            "expect: { norobots-1994: disallowed, rfc9309: disallowed }",
            "expect: disallowed",
        );
        assert_eq!(corpus_digest(&corpus(&spelled)), base);
        // Cases listed in another order: the same corpus.
        let (head, tail) = BASE.split_at(BASE.find("  - name: b").unwrap());
        let cases_part = head.split_once("cases:\n").unwrap().1;
        let reordered = format!("cases:\n{tail}{cases_part}");
        assert_eq!(corpus_digest(&corpus(&reordered)), base);
        for changed in [
            BASE.replace("Disallow: /a", "Disallow: /A"),
            BASE.replace("path: /a", "path: /A"),
            BASE.replace("agent: FooBot, path: /a", "agent: BarBot, path: /a"),
            BASE.replace("path: /a, expect: disallowed", "path: /a, expect: allowed"),
            BASE.replace("rfc9309: disallowed", "rfc9309: unspecified"),
            BASE.replace("name: a", "name: c"),
        ] {
            assert_ne!(corpus_digest(&corpus(&changed)), base, "{changed}");
        }
    }

    #[test]
    fn a_check_digest_is_short_and_tells_question_from_scoring() {
        let cases = corpus(BASE);
        let rescored = corpus(&BASE.replace("/a, expect: disallowed", "/a, expect: allowed"));
        let (before, after) = (
            CheckDigests::of(&cases[0], 0),
            CheckDigests::of(&rescored[0], 0),
        );
        assert_eq!(before.question, after.question);
        assert_ne!(before.scoring, after.scoring);
        assert_eq!(before.short().len(), CHECK_DIGEST_DIGITS);
        assert_ne!(before.short(), after.short());
    }
}
