//! Decisions and the explanations that come with them.
//!
//! Every answer of the reference says why: which record (1994) or groups (RFC 9309) were chosen
//! and how, and which rule line decided, or why none did. The data is structured so tools can
//! show it their own way; [`Explanation`]'s `Display` gives one readable sentence.

use std::fmt;

use crate::lines::LineKind;
use crate::profile::Profile;

/// Allowed or disallowed: the whole answer to "may this robot fetch this URL?".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    Allowed,
    Disallowed,
}

impl Verdict {
    /// `"allowed"` or `"disallowed"`, the spelling used by case files and the adapter protocol.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Disallowed => "disallowed",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A verdict and the reasons for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub verdict: Verdict,
    pub explanation: Explanation,
}

/// Why a [`Decision`] came out as it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    pub profile: Profile,
    /// The agent as the caller gave it.
    pub agent: String,
    /// The name actually matched against User-agent values (version and case dropped).
    pub name: String,
    pub groups: GroupChoice,
    pub rule: RuleChoice,
    /// Every line of the chosen record(s) or group(s), in file order, as the profile read it:
    /// each User-agent line, each rule line and whether it matches the path (not only the one that
    /// decided), and each line passed over inside them, and why. Empty when no record applies.
    pub lines: Vec<LineReading>,
    /// The rule lines outside every record or group, which apply to no robot, each with whether
    /// it would match the path: 1994, a Disallow line before the first User-agent line or after a
    /// blank line; RFC 9309 §2.2.2, "any rule that precedes the first user-agent line".
    pub outside: Vec<LineReading>,
    /// The `*` User-agent lines outside the chosen record(s) that do not apply because a record
    /// names the robot: 1994, *User-agent*, `*` is "the default access policy for any robot that
    /// has not not matched any of the other records"; RFC 9309 §2.2.1, the `*` group is obeyed
    /// only "If no matching group exists". Empty unless the robot is named.
    pub star_passed_over: Vec<u32>,
}

/// Which record(s) or group(s) the robot obeys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupChoice {
    /// The file has no record at all (for example, it is empty).
    NoGroups,
    /// No record names the robot and there is no `*` record.
    NoneMatched { groups: usize },
    /// The robot obeys these: one record under 1994, every matching group under RFC 9309.
    Chosen {
        groups: Vec<ChosenGroup>,
        by: MatchedBy,
    },
}

/// One chosen record or group, by line numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChosenGroup {
    pub first_line: u32,
    pub last_line: u32,
    /// The User-agent line that matched.
    pub agent_line: u32,
    pub agent_value: String,
    /// 1994, *User-agent*: "A case insensitive substring match of the name without version
    /// information is recommended": the value (without its version) is a part of the robot's name
    /// and not all of it, as `Foo` is of `foobot`. Always false under RFC 9309, which compares
    /// whole product tokens.
    pub by_part_of_name: bool,
    /// What stands between it and the record or group before it.
    pub begins: Boundary,
    /// What stands between it and the record or group after it.
    pub ends: Boundary,
}

/// What stands between a record or group and the one before or after it, as the profile split
/// the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    /// Nothing: it is the first (or last) in the file. (A 1994 record after which only lines of
    /// no record follow ends here too, unless they are Disallow lines.)
    File,
    /// A blank line. Under 1994 it is what ends a record (*Format*: "records separated by one or
    /// more blank lines"); under RFC 9309 blank lines end nothing (§2.2: `emptyline`), but one
    /// stands there.
    BlankLine,
    /// The next one's User-agent line, right after a rule line, with no blank line between: 1994,
    /// a choice (a record *starts* with its User-agent lines, so it begins one); RFC 9309 §2.1,
    /// "The group is terminated by a user-agent line".
    UserAgent,
}

/// How the chosen records or groups matched the robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchedBy {
    /// A User-agent value matched the robot's name.
    Name,
    /// Nothing named the robot; the `*` record applies.
    Star,
}

/// One line of the body and what the profile made of it, as an [`Explanation`] lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineReading {
    /// Its line number, as [`crate::lines`] counts them.
    pub line: u32,
    pub reading: LineMeaning,
}

/// What a profile made of one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineMeaning {
    /// A User-agent line, and whether the record applies through it (it names the robot, or it
    /// is the `*` line of the `*` record chosen because nothing names the robot).
    Agent { value: String, applies: bool },
    /// A rule line (1994: Disallow; RFC 9309: allow and disallow), and whether it matches the
    /// path, as the profile matches: whether or not it decided.
    Rule {
        kind: RuleKind,
        value: String,
        matches: bool,
    },
    /// Passed over: a blank line, inside an RFC 9309 group (§2.2: `emptyline`). A blank line ends
    /// a 1994 record, so none is ever inside one.
    Blank,
    /// Passed over: a line holding only a comment (1994, *Format*: "discarded completely").
    Comment,
    /// Passed over: a field the profile does not know. 1994, *Format*: "Unrecognised headers are
    /// ignored", `Allow` among them; RFC 9309 §2.2.4, other records, misspellings included.
    Other { name: String, value: String },
    /// Passed over: a line with no colon, of no form the texts describe.
    NoColon { text: String },
}

/// Lists of lines, each already in file order, merged into one in file order: in linear time,
/// where sorting would not be (deciding stays linear in the size of the body).
pub(crate) fn in_file_order(lists: [Vec<LineReading>; 3]) -> Vec<LineReading> {
    let merge = |a: Vec<LineReading>, b: Vec<LineReading>| {
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
        while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
            let next = if x.line <= y.line { a.next() } else { b.next() };
            out.extend(next);
        }
        out.extend(a);
        out.extend(b);
        out
    };
    let [a, b, c] = lists;
    merge(merge(a, b), c)
}

impl LineMeaning {
    /// The reading of a line a profile passes over: what it was.
    pub(crate) fn passed_over(kind: LineKind<'_>) -> LineMeaning {
        let lossy = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        match kind {
            LineKind::Blank => LineMeaning::Blank,
            LineKind::CommentOnly => LineMeaning::Comment,
            LineKind::Field { name, value } => LineMeaning::Other {
                name: lossy(name),
                value: lossy(value),
            },
            LineKind::NoColon(text) => LineMeaning::NoColon { text: lossy(text) },
        }
    }
}

/// Which rule line decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleChoice {
    /// No record applies, so no rule was looked at.
    NotReached,
    /// RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed."
    ImplicitRobotsTxt,
    /// The chosen record(s) hold `rules` rule lines, `empty` of them with an empty value, and none
    /// matched the path.
    NoRuleMatched { rules: usize, empty: usize },
    /// This line matched the path and decided.
    Matched {
        line: u32,
        kind: RuleKind,
        value: String,
        by: RuleBy,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleKind {
    Allow,
    Disallow,
}

/// Why the deciding rule won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleBy {
    /// 1994, *Disallow*: "any URL that starts with this value will not be retrieved."
    Prefix,
    /// RFC 9309 §2.2.2: the match with the most octets (`octets` long) wins.
    LongestMatch { octets: usize },
    /// RFC 9309 §2.2.2: an allow and a disallow rule matched equally long; allow wins.
    AllowOnTie { octets: usize },
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (record, records) = self.profile.group_words();
        write!(f, "{}: robot name `{}`", self.profile, self.name)?;
        if self.agent != self.name {
            write!(f, " (from `{}`)", self.agent)?;
        }
        f.write_str("; ")?;
        match &self.groups {
            GroupChoice::NoGroups => write!(f, "the file has no {records}")?,
            GroupChoice::NoneMatched { groups } => write!(
                f,
                "none of the {groups} {records} names the robot and there is no `*` {record}"
            )?,
            GroupChoice::Chosen { groups, by } => {
                for (i, g) in groups.iter().enumerate() {
                    let sep = if i == 0 { "" } else { " and " };
                    write!(
                        f,
                        "{sep}{record} at lines {}-{} (User-agent `{}`, line {})",
                        g.first_line, g.last_line, g.agent_value, g.agent_line
                    )?;
                }
                let several = groups.len() > 1;
                match by {
                    MatchedBy::Name if several => f.write_str(" name the robot (combined)")?,
                    MatchedBy::Name => f.write_str(" names the robot")?,
                    MatchedBy::Star if several => {
                        f.write_str(" apply (combined) because nothing else names the robot")?
                    }
                    MatchedBy::Star => {
                        f.write_str(" applies because nothing else names the robot")?
                    }
                }
            }
        }
        f.write_str("; ")?;
        self.write_rule(f)
    }
}

impl Explanation {
    /// The part of the explanation that says which rule line decided, or why none did.
    pub fn rule_sentence(&self) -> String {
        struct Rule<'a>(&'a Explanation);
        impl fmt::Display for Rule<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write_rule(f)
            }
        }
        Rule(self).to_string()
    }

    fn write_rule(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (record, _) = self.profile.group_words();
        match &self.rule {
            RuleChoice::NotReached => f.write_str("no rule applies"),
            RuleChoice::ImplicitRobotsTxt => f.write_str("/robots.txt is implicitly allowed"),
            RuleChoice::NoRuleMatched { rules: 0, .. } => write!(f, "the {record} has no rules"),
            RuleChoice::NoRuleMatched { rules, empty } => {
                if *rules == 1 {
                    f.write_str("its one rule line does not match the path")?;
                } else {
                    write!(f, "none of its {rules} rule lines matches the path")?;
                }
                // Said only where it is why: an empty value is a rule line that matches nothing.
                match empty {
                    0 => Ok(()),
                    1 => f.write_str(" (one has an empty value, which matches nothing)"),
                    n => write!(f, " ({n} have an empty value, which matches nothing)"),
                }
            }
            RuleChoice::Matched {
                line,
                kind,
                value,
                by,
            } => {
                let kind = match kind {
                    RuleKind::Allow => "Allow",
                    RuleKind::Disallow => "Disallow",
                };
                write!(f, "{kind} `{value}` (line {line}) ")?;
                match by {
                    RuleBy::Prefix => f.write_str("is a prefix of the path"),
                    RuleBy::LongestMatch { octets } => {
                        let unit = if *octets == 1 { "octet" } else { "octets" };
                        write!(f, "is the longest match ({octets} {unit})")
                    }
                    RuleBy::AllowOnTie { octets } => {
                        let unit = if *octets == 1 { "octet" } else { "octets" };
                        write!(
                            f,
                            "ties with a disallow rule at {octets} {unit}, and allow wins a tie"
                        )
                    }
                }
            }
        }
    }
}
