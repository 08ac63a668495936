//! The `norobots-1994` profile: "A Standard for Robot Exclusion" (30 June 1994), clause by clause.
//!
//! Where the text settles a point, this module does exactly what it says, and the doc comment
//! quotes the clause. Where it leaves a point open, the choice is named here and argued in the
//! table of `reference/README.md`; cases on those points are `unspecified` in the corpus.

use crate::explain::{
    in_file_order, Boundary, ChosenGroup, Decision, Explanation, GroupChoice, LineMeaning,
    LineReading, MatchedBy, RuleBy, RuleChoice, RuleKind, Verdict,
};
use crate::lines::{contains_ci, field_is, lines, trim, Line, LineKind};
use crate::profile::Profile;

/// A robots.txt body parsed under the 1994 text. Borrows the body; parse once, query many times.
#[derive(Debug, Clone, Default)]
pub struct Robots<'a> {
    records: Vec<Record>,
    agents: Vec<AgentLine<'a>>,
    disallows: Vec<DisallowLine<'a>>,
    /// The lines passed over inside records (unrecognised fields, lines without a colon,
    /// comments), in file order: kept only to be shown.
    passed_over: Vec<Line<'a>>,
    /// Disallow lines outside any record: kept only to be shown.
    outside: Vec<DisallowLine<'a>>,
}

/// One record by line numbers, as [`Robots::records`] shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordLines {
    /// Its User-agent lines.
    pub agents: Vec<u32>,
    /// Its Disallow lines.
    pub disallows: Vec<u32>,
}

/// *Format*: "The record starts with one or more User-agent lines, followed by one or more
/// Disallow lines". The lines live in [`Robots`]'s flat lists; a record holds their ranges.
#[derive(Debug, Clone)]
struct Record {
    agents: std::ops::Range<usize>,
    disallows: std::ops::Range<usize>,
    first_line: u32,
    last_line: u32,
    /// What ended it.
    ends: Boundary,
}

#[derive(Debug, Clone, Copy)]
struct AgentLine<'a> {
    line: u32,
    /// The value as written (trimmed).
    value: &'a [u8],
}

#[derive(Debug, Clone, Copy)]
struct DisallowLine<'a> {
    line: u32,
    value: &'a [u8],
}

impl<'a> Robots<'a> {
    /// Parses `body`: any bytes at all. Linear time; never fails and never panics.
    pub fn parse(body: &'a [u8]) -> Robots<'a> {
        Robots::from_lines(lines(body))
    }

    /// Parses lines already split and classified (what [`Robots::parse`] does after
    /// [`lines`]): for analyses that hold a body as lines and need its records by their numbers.
    pub fn from_lines(body: impl IntoIterator<Item = Line<'a>>) -> Robots<'a> {
        let mut robots = Robots::default();
        let mut open: Option<Record> = None;
        for line in body {
            match line.kind {
                // *Format*: records are "separated by one or more blank lines". Choice: a line of
                // only spaces and tabs is blank too (see `lines`).
                LineKind::Blank => robots.close(&mut open, Boundary::BlankLine),
                // *Format*: "Lines containing only a comment are discarded completely, and
                // therefore do not indicate a record boundary."
                LineKind::CommentOnly => {
                    if open.is_some() {
                        robots.passed_over.push(line);
                    }
                }
                // *Format*: "The field name is case insensitive."
                LineKind::Field { name, value } if field_is(name, "user-agent") => {
                    // Choice: a User-agent line that follows Disallow lines can only begin the
                    // next record, since a record *starts* with its User-agent lines.
                    if open.as_ref().is_some_and(|r| !r.disallows.is_empty()) {
                        robots.close(&mut open, Boundary::UserAgent);
                    }
                    let record = open.get_or_insert(Record {
                        agents: robots.agents.len()..robots.agents.len(),
                        disallows: robots.disallows.len()..robots.disallows.len(),
                        first_line: line.number,
                        last_line: line.number,
                        ends: Boundary::File,
                    });
                    robots.agents.push(AgentLine {
                        line: line.number,
                        value,
                    });
                    record.agents.end = robots.agents.len();
                    record.last_line = line.number;
                }
                LineKind::Field { name, value } if field_is(name, "disallow") => {
                    // Choice: a Disallow line outside any record (before the first User-agent
                    // line, or after a blank line) belongs to no robot and is ignored.
                    match open.as_mut() {
                        Some(record) => {
                            robots.disallows.push(DisallowLine {
                                line: line.number,
                                value,
                            });
                            record.disallows.end = robots.disallows.len();
                            record.last_line = line.number;
                        }
                        None => robots.outside.push(DisallowLine {
                            line: line.number,
                            value,
                        }),
                    }
                }
                // *Format*: "Unrecognised headers are ignored." Choice: so is a line with no
                // colon. Neither ends a record.
                LineKind::Field { .. } | LineKind::NoColon(_) => {
                    if let Some(record) = open.as_mut() {
                        record.last_line = line.number;
                        robots.passed_over.push(line);
                    }
                }
            }
        }
        robots.close(&mut open, Boundary::File);
        // A blank line ends the last record only where something it could have held follows.
        if let Some(last) = robots.records.last_mut() {
            let held = |line: &DisallowLine| line.line > last.last_line;
            if last.ends == Boundary::BlankLine && !robots.outside.iter().any(held) {
                last.ends = Boundary::File;
            }
        }
        robots
    }

    /// The records in file order, each by the line numbers of its User-agent and Disallow
    /// lines: the structure every decision reads, for analyses that must group lines exactly as
    /// this profile does.
    pub fn records(&self) -> impl Iterator<Item = RecordLines> + '_ {
        self.records.iter().map(|record| RecordLines {
            agents: self.agents[record.agents.clone()]
                .iter()
                .map(|a| a.line)
                .collect(),
            disallows: self.disallows[record.disallows.clone()]
                .iter()
                .map(|d| d.line)
                .collect(),
        })
    }

    /// The Disallow lines outside any record (before the first User-agent line, or after a blank
    /// line), by line number: they belong to no robot.
    pub fn disallows_outside(&self) -> impl Iterator<Item = u32> + '_ {
        self.outside.iter().map(|d| d.line)
    }

    fn close(&mut self, open: &mut Option<Record>, ends: Boundary) {
        if let Some(record) = open.take() {
            self.records.push(Record { ends, ..record });
        }
    }

    /// Decides whether `agent` may fetch `path` (the local URL: `/` path and optional `?query`).
    pub fn decide(&self, agent: &str, path: &str) -> Decision {
        let name = robot_name(agent);
        let mut lines = Vec::new();
        let mut star_passed_over = Vec::new();
        let (groups, rule, verdict) = match self.select(name.as_bytes()) {
            None if self.records.is_empty() => {
                // *Disallow*: an empty file "will be treated as if it was not present, i.e. all
                // robots will consider themselves welcome."
                (
                    GroupChoice::NoGroups,
                    RuleChoice::NotReached,
                    Verdict::Allowed,
                )
            }
            None => (
                GroupChoice::NoneMatched {
                    groups: self.records.len(),
                },
                RuleChoice::NotReached,
                Verdict::Allowed,
            ),
            Some((index, agent_index, by)) => {
                let record = &self.records[index];
                let agent_line = self.agents[agent_index];
                let chosen = ChosenGroup {
                    first_line: record.first_line,
                    last_line: record.last_line,
                    agent_line: agent_line.line,
                    agent_value: lossy(agent_line.value),
                    by_part_of_name: by == MatchedBy::Name
                        && without_version(agent_line.value).len() != name.len(),
                    begins: match index {
                        0 => Boundary::File,
                        i => self.records[i - 1].ends,
                    },
                    ends: record.ends,
                };
                lines = self.read_record(record, name.as_bytes(), by, path.as_bytes());
                if by == MatchedBy::Name {
                    star_passed_over = (self.records.iter().enumerate())
                        .filter(|&(other, _)| other != index)
                        .flat_map(|(_, r)| &self.agents[r.agents.clone()])
                        .filter(|a| a.value == b"*")
                        .map(|a| a.line)
                        .collect();
                }
                let (rule, verdict) = match self.first_disallow(record, path.as_bytes()) {
                    Some(d) => (
                        RuleChoice::Matched {
                            line: d.line,
                            kind: RuleKind::Disallow,
                            value: lossy(d.value),
                            by: RuleBy::Prefix,
                        },
                        Verdict::Disallowed,
                    ),
                    None => (
                        RuleChoice::NoRuleMatched {
                            rules: record.disallows.len(),
                            empty: self.disallows[record.disallows.clone()]
                                .iter()
                                .filter(|d| d.value.is_empty())
                                .count(),
                        },
                        Verdict::Allowed,
                    ),
                };
                let groups = GroupChoice::Chosen {
                    groups: vec![chosen],
                    by,
                };
                (groups, rule, verdict)
            }
        };
        Decision {
            verdict,
            explanation: Explanation {
                profile: Profile::Norobots1994,
                agent: agent.to_owned(),
                name,
                groups,
                rule,
                lines,
                outside: (self.outside.iter())
                    .map(|d| disallow_reading(d, path.as_bytes()))
                    .collect(),
                star_passed_over,
            },
        }
    }

    /// Every line of `record`, in file order, as [`Explanation::lines`] lists them.
    fn read_record(
        &self,
        record: &Record,
        name: &[u8],
        by: MatchedBy,
        path: &[u8],
    ) -> Vec<LineReading> {
        let agents = self.agents[record.agents.clone()].iter().map(|a| {
            let applies = match by {
                MatchedBy::Name => names(a.value, name),
                MatchedBy::Star => a.value == b"*",
            };
            LineReading {
                line: a.line,
                reading: LineMeaning::Agent {
                    value: lossy(a.value),
                    applies,
                },
            }
        });
        let disallows =
            (self.disallows[record.disallows.clone()].iter()).map(|d| disallow_reading(d, path));
        let start = (self.passed_over).partition_point(|l| l.number < record.first_line);
        let passed_over = self.passed_over[start..]
            .iter()
            .take_while(|l| l.number <= record.last_line)
            .map(|l| LineReading {
                line: l.number,
                reading: LineMeaning::passed_over(l.kind),
            });
        in_file_order([agents.collect(), disallows.collect(), passed_over.collect()])
    }

    /// The verdict alone, without building an explanation: the same rules as [`Robots::decide`].
    pub fn is_allowed(&self, agent: &str, path: &str) -> bool {
        let name = robot_name(agent);
        match self.select(name.as_bytes()) {
            None => true,
            Some((index, _, _)) => self
                .first_disallow(&self.records[index], path.as_bytes())
                .is_none(),
        }
    }

    /// The record the robot obeys: `(record index, matching agent line index, how)`.
    ///
    /// *User-agent*: "A case insensitive substring match of the name without version information
    /// is recommended." Choice: the User-agent value (without its own version) must occur in the
    /// robot's name, and the first record in the file that matches wins.
    ///
    /// *User-agent*: "If the value is '*', the record describes the default access policy for any
    /// robot that has not not matched any of the other records." Choice: with several `*` records
    /// (which the text forbids), the first one applies.
    fn select(&self, name: &[u8]) -> Option<(usize, usize, MatchedBy)> {
        let mut star = None;
        for (index, record) in self.records.iter().enumerate() {
            for agent_index in record.agents.clone() {
                let value = self.agents[agent_index].value;
                if value == b"*" {
                    star = star.or(Some((index, agent_index, MatchedBy::Star)));
                } else if names(value, name) {
                    return Some((index, agent_index, MatchedBy::Name));
                }
            }
        }
        star
    }

    /// *Disallow*: "any URL that starts with this value will not be retrieved." A plain,
    /// case-sensitive octet prefix: no wildcards, no `$`, no percent-decoding.
    ///
    /// *Disallow*: "Any empty value, indicates that all URLs can be retrieved." Choice: an empty
    /// value excludes nothing and leaves the record's other Disallow lines in force.
    fn first_disallow(&self, record: &Record, path: &[u8]) -> Option<DisallowLine<'a>> {
        self.disallows[record.disallows.clone()]
            .iter()
            .find(|d| excludes(d.value, path))
            .copied()
    }
}

/// Whether a Disallow `value` excludes `path`: *Disallow*, "any URL that starts with this
/// value will not be retrieved"; an empty value excludes nothing (see `first_disallow`).
fn excludes(value: &[u8], path: &[u8]) -> bool {
    !value.is_empty() && path.starts_with(value)
}

fn disallow_reading(d: &DisallowLine<'_>, path: &[u8]) -> LineReading {
    LineReading {
        line: d.line,
        reading: LineMeaning::Rule {
            kind: RuleKind::Disallow,
            value: lossy(d.value),
            matches: excludes(d.value, path),
        },
    }
}

/// The robot's name "without version information", lowercased: the agent up to its first `/`,
/// trimmed. Choice: a browser-style string such as `Mozilla/5.0 (compatible; FooBot/2.1)` names
/// the robot `mozilla`; a robot that wants its own records passes its own name.
pub fn robot_name(agent: &str) -> String {
    let bytes = agent.as_bytes();
    let end = memchr::memchr(b'/', bytes).unwrap_or(bytes.len());
    String::from_utf8_lossy(trim(&bytes[..end])).to_ascii_lowercase()
}

/// Whether a User-agent `value` names the robot called `name` (already lowercase). The value's
/// own version, if any, is dropped; an empty value names no robot.
pub(crate) fn names(value: &[u8], name: &[u8]) -> bool {
    contains_ci(name, without_version(value))
}

/// A User-agent value without its own version (from its first `/`), trimmed.
pub(crate) fn without_version(value: &[u8]) -> &[u8] {
    let end = memchr::memchr(b'/', value).unwrap_or(value.len());
    trim(&value[..end])
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(body: &str, agent: &str, path: &str) -> Verdict {
        let robots = Robots::parse(body.as_bytes());
        let decision = robots.decide(agent, path);
        assert_eq!(
            decision.verdict == Verdict::Allowed,
            robots.is_allowed(agent, path),
            "decide and is_allowed disagree"
        );
        decision.verdict
    }

    #[test]
    fn the_second_example_of_the_text() {
        let body = "# robots.txt for http://www.site.com/\n\nUser-agent: *\n\
                    Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n\
                    # Cybermapper knows where to go.\nUser-agent: cybermapper\nDisallow:\n";
        assert_eq!(
            verdict(body, "cybermapper", "/cyberworld/map/x"),
            Verdict::Allowed
        );
        assert_eq!(
            verdict(body, "OtherBot", "/cyberworld/map/x"),
            Verdict::Disallowed
        );
        assert_eq!(verdict(body, "OtherBot", "/cyberworld/"), Verdict::Allowed);
    }

    #[test]
    fn explanation_names_record_and_line() {
        let robots = Robots::parse(b"User-agent: FooBot\nDisallow: /a\nDisallow: /private\n");
        let decision = robots.decide("FooBot/2.1", "/private/x");
        let text = decision.explanation.to_string();
        assert!(text.contains("record at lines 1-3"), "{text}");
        assert!(text.contains("Disallow `/private` (line 3)"), "{text}");
        assert!(
            text.contains("robot name `foobot` (from `FooBot/2.1`)"),
            "{text}"
        );
    }

    /// An explanation lists the chosen record's lines as the text reads them: Disallow lines and
    /// whether each is a prefix of the path, unrecognised headers (`Allow` among them) and
    /// comments passed over; then the Disallow lines outside any record, and the `*` record passed
    /// over for the one naming the robot, here by a part of its name.
    #[test]
    fn explanation_lists_the_lines_of_the_chosen_record() {
        let body = "Disallow: /x\nUser-agent: Foo\n# note\nAllow: /a\nUser-agent: *\n\
                    Disallow: /\nDisallow: /a/b/c\n\nDisallow: /a\nUser-agent: *\nDisallow: /y\n";
        let e = Robots::parse(body.as_bytes())
            .decide("FooBot", "/a/b")
            .explanation;
        let GroupChoice::Chosen { groups, .. } = &e.groups else {
            panic!("a record names the robot: {e}");
        };
        assert!(groups[0].by_part_of_name);
        // A blank line ends it, with a record after it.
        assert_eq!(
            (groups[0].begins, groups[0].ends),
            (Boundary::File, Boundary::BlankLine)
        );
        let disallow = |value: &str, matches| LineMeaning::Rule {
            kind: RuleKind::Disallow,
            value: value.to_owned(),
            matches,
        };
        let agent = |value: &str, applies| LineMeaning::Agent {
            value: value.to_owned(),
            applies,
        };
        let lines: Vec<(u32, LineMeaning)> =
            e.lines.into_iter().map(|l| (l.line, l.reading)).collect();
        assert_eq!(
            lines,
            vec![
                (2, agent("Foo", true)),
                (3, LineMeaning::Comment),
                (
                    4,
                    LineMeaning::Other {
                        name: "Allow".into(),
                        value: "/a".into()
                    }
                ),
                (5, agent("*", false)),
                (6, disallow("/", true)),
                (7, disallow("/a/b/c", false)),
            ]
        );
        let outside: Vec<(u32, LineMeaning)> = (e.outside.into_iter())
            .map(|l| (l.line, l.reading))
            .collect();
        assert_eq!(
            outside,
            vec![(1, disallow("/x", false)), (9, disallow("/a", true))]
        );
        assert_eq!(e.star_passed_over, vec![10]);
        let e = Robots::parse(body.as_bytes())
            .decide("Foo", "/")
            .explanation;
        let GroupChoice::Chosen { groups, .. } = &e.groups else {
            panic!("a record names the robot: {e}");
        };
        assert!(!groups[0].by_part_of_name, "the whole name");
    }

    #[test]
    fn user_agent_after_disallow_starts_a_record() {
        let body = "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n";
        assert_eq!(verdict(body, "b", "/x"), Verdict::Allowed);
        assert_eq!(verdict(body, "b", "/y"), Verdict::Disallowed);
        let e = Robots::parse(body.as_bytes()).decide("b", "/y").explanation;
        let GroupChoice::Chosen { groups, .. } = &e.groups else {
            panic!("b is named: {e}");
        };
        assert_eq!(
            (groups[0].begins, groups[0].ends),
            (Boundary::UserAgent, Boundary::File)
        );
        // A blank line that only Sitemap lines follow ends nothing a parser could read on.
        let body = "User-agent: a\nDisallow: /x\n\nSitemap: /s\n";
        let e = Robots::parse(body.as_bytes()).decide("a", "/x").explanation;
        let GroupChoice::Chosen { groups, .. } = &e.groups else {
            panic!("a is named: {e}");
        };
        assert_eq!(groups[0].ends, Boundary::File);
    }

    #[test]
    fn substring_direction_and_empty_value() {
        let body = "User-agent: foo\nDisallow: /\n\nUser-agent:\nDisallow: /e\n";
        assert_eq!(verdict(body, "FooBot", "/x"), Verdict::Disallowed);
        assert_eq!(verdict(body, "fo", "/x"), Verdict::Allowed);
        assert_eq!(verdict(body, "other", "/e"), Verdict::Allowed);
    }
}
