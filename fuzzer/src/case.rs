//! Writing a finding as a case file in the corpus format (`cases/README.md`), labelled with its
//! [`Cause`].
//!
//! The body is written as a YAML double-quoted string with escapes for every byte that is not
//! plainly visible, so the file holds the exact bytes; a body that is not UTF-8 is written as
//! `robots_base64`. The check's `expect` names the scored profile, as a map, so the case says
//! which text settles it; its `spec` is the clause its cause comes from.

use std::fmt::Write as _;

use base64::Engine as _;
use robotstxt_reference::{Profile, Robots, Verdict};
use robotstxt_suite::cause::{self, BodyMarks, Cause, ProfileClause};

use super::candidate::Candidate;

/// Everything a case file for one finding says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingCase {
    /// kebab-case, unique within the file.
    pub name: String,
    pub spec: String,
    pub note: String,
    pub case: Candidate,
    pub profile: Profile,
    /// The reference's verdict: what the case expects.
    pub expect: Verdict,
    /// What causes the disagreement, as `run` and the survey name causes.
    pub cause: Cause,
}

/// What causes a parser to answer `c` otherwise than the reference under `profile`, read by
/// [`robotstxt_suite::cause`] from the reference's decision: the same causes `run` groups by.
pub fn cause_of(profile: Profile, c: &Candidate) -> Cause {
    let decision = Robots::parse(profile, &c.body).decide(&c.agent, &c.path);
    cause::of_decision(&BodyMarks::of(&c.body), &c.path, &decision)
}

/// The clause a disagreement is about: the one its cause comes from.
pub fn clause_for(profile: Profile, c: &Candidate) -> ProfileClause {
    cause_of(profile, c)
        .clause(profile)
        .expect("a cause read from a decision is never an adapter's fault: it has a clause")
}

impl FindingCase {
    /// The case file: one case, one check.
    pub fn to_yaml(&self) -> String {
        let mut out = String::from("cases:\n");
        let _ = writeln!(out, "  - name: {}", self.name);
        let _ = writeln!(out, "    spec: {}", quote(&self.spec));
        out.push_str("    note: >-\n");
        for line in wrap(&self.note, 90) {
            let _ = writeln!(out, "      {line}");
        }
        match std::str::from_utf8(&self.case.body) {
            Ok(text) => {
                let _ = writeln!(out, "    robots: {}", quote(text));
            }
            Err(_) => {
                let b64 = base64::engine::general_purpose::STANDARD.encode(&self.case.body);
                let _ = writeln!(out, "    robots_base64: {b64}");
            }
        }
        out.push_str("    checks:\n");
        let _ = writeln!(
            out,
            "      - {{ agent: {}, path: {}, expect: {{ {}: {} }} }}",
            quote(&self.case.agent),
            quote(&self.case.path),
            self.profile,
            self.expect
        );
        out
    }
}

/// A YAML double-quoted scalar holding exactly `text`.
pub fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\0' => out.push_str("\\0"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            ' '..='~' => out.push(c),
            c if (c as u32) < 0x100 && (c.is_control() || c == '\u{a0}') => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if c.is_control()
                || c.is_whitespace()
                || matches!(
                    c,
                    '\u{feff}' | '\u{fffe}' | '\u{ffff}' | '\u{200b}'..='\u{200f}'
                ) =>
            {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Words of `text` in lines of at most `width` characters (a longer word stands alone).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("never empty");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_owned());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use robotstxt_suite::cases::parse_file;
    use std::path::Path;

    #[test]
    fn every_body_round_trips_through_the_case_loader() {
        let bodies: [&[u8]; 5] = [
            b"User-agent: *\r\nDisallow: /a\"b\\c\n",
            "\u{feff}User-agent: FooBot\x0b\x0c\u{85}\u{a0}\u{2028}x\0\x7f\n".as_bytes(),
            "Disallow: /café\t#x\r".as_bytes(),
            b"Disallow: /\xff\xfe\n",
            b"",
        ];
        for body in bodies {
            let finding = FindingCase {
                name: "python-urllib-1a2b".to_owned(),
                spec: "Disallow: \"quoted\"".to_owned(),
                note: "Found by the fuzzer. ".repeat(12),
                case: Candidate {
                    body: body.to_vec(),
                    agent: "FooBot/2.1 (x; y)".to_owned(),
                    path: "/a?b=1&c=%7E".to_owned(),
                },
                profile: Profile::Norobots1994,
                expect: Verdict::Disallowed,
                cause: Cause::LoneCr,
            };
            let yaml = finding.to_yaml();
            let cases = parse_file(&yaml, Path::new("f.yaml"), "fuzz").expect(&yaml);
            assert_eq!(cases[0].robots, body, "{yaml}");
            assert_eq!(cases[0].checks[0].agent, finding.case.agent);
            assert_eq!(cases[0].checks[0].path, finding.case.path);
            assert_eq!(cases[0].spec.raw(), finding.spec);
        }
    }
}
