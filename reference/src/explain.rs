//! Decisions and the explanations that come with them.
//!
//! Every answer of the reference says why: which record (1994) or groups (RFC 9309) were chosen
//! and how, and which rule line decided, or why none did. The data is structured so tools can
//! show it their own way; [`Explanation`]'s `Display` gives one readable sentence.

use std::fmt;

use crate::Profile;

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
}

/// How the chosen records or groups matched the robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchedBy {
    /// A User-agent value matched the robot's name.
    Name,
    /// Nothing named the robot; the `*` record applies.
    Star,
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
                write!(f, "none of its {rules} rule line(s) matches the path")?;
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
                        write!(f, "is the longest match ({octets} octets)")
                    }
                    RuleBy::AllowOnTie { octets } => write!(
                        f,
                        "ties with a disallow rule at {octets} octets, and allow wins a tie"
                    ),
                }
            }
        }
    }
}
