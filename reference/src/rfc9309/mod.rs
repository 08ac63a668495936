//! The `rfc9309` profile: RFC 9309, "Robots Exclusion Protocol" (September 2022), section by
//! section.
//!
//! - §2.1 and §2.2 (groups and their grammar) and §2.2.4 (other records): [`Robots::parse`].
//! - §2.2.1 (the user-agent line, combining groups, the `*` group): [`groups`](self) and
//!   `Robots::select`.
//! - §2.2.2 (allow and disallow, the most specific match, percent-encoding) and §2.2.3 (`*`, `$`):
//!   `Robots::best_rule`, `pattern` and `percent`.
//! - §2.5 (limits): [`Robots::parse`].
//!
//! Line splitting and comments (§2.2's `NL`, `WS`, `comment`, `emptyline`) come from
//! [`crate::lines`], shared with the 1994 profile. Where the RFC settles a point, this module does
//! what it says and the doc comment quotes it; where it leaves a point to the implementer (a MAY, an
//! open question, or a line its grammar does not cover), the choice is marked "Choice:" here and
//! argued in the table of `reference/README.md`. A SHOULD is followed as written.

mod groups;
mod pattern;
mod percent;
mod reading;

use std::borrow::Cow;
use std::ops::Range;

pub use groups::{is_token_byte, product_token};
pub use pattern::matches;
pub use percent::{normalize_rule, normalize_uri};
pub(crate) use percent::{push_encoded, triplet};

use self::groups::Names;
use crate::explain::{
    ChosenGroup, Decision, Explanation, GroupChoice, MatchedBy, RuleBy, RuleChoice, RuleKind,
    Verdict,
};
use crate::lines::{field_is, lines, Line, LineKind};
use crate::profile::Profile;

/// The field of a line, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    UserAgent,
    Rule(RuleKind),
    Other,
}

impl Field {
    /// RFC 9309 §2.2: the names `user-agent`, `allow` and `disallow`, case-insensitive as every
    /// ABNF string is (RFC 5234 §2.3).
    ///
    /// RFC 9309 §2.2.4: "Crawlers MAY be lenient when interpreting other records. For example,
    /// crawlers may accept common misspellings of the record." Choice: not for the three records
    /// of §2.2: a misspelt name (`useragent`, `user agent`, `user_agent`, `disalow`) is an other
    /// record, and so skipped.
    fn of(name: &[u8]) -> Field {
        match name.len() {
            10 if field_is(name, "user-agent") => Field::UserAgent,
            8 if field_is(name, "disallow") => Field::Rule(RuleKind::Disallow),
            5 if field_is(name, "allow") => Field::Rule(RuleKind::Allow),
            _ => Field::Other,
        }
    }
}

/// A robots.txt body parsed under RFC 9309. Borrows the body; parse once, query many times.
#[derive(Debug, Clone, Default)]
pub struct Robots<'a> {
    groups: Vec<Group>,
    agents: Vec<AgentLine<'a>>,
    rules: Vec<RuleLine<'a>>,
    /// The lines passed over after the first user-agent line (blank lines, comments, other
    /// records, lines without a colon), in file order: kept only to be shown.
    passed_over: Vec<Line<'a>>,
    /// The rules before the first user-agent line, which are in no group: kept only to be shown.
    outside: Vec<RuleLine<'a>>,
}

/// One group by line numbers, as [`Robots::groups`] shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupLines {
    /// Its user-agent lines.
    pub agents: Vec<u32>,
    /// Its allow and disallow lines.
    pub rules: Vec<u32>,
}

/// RFC 9309 §2.1: "Group: One or more user-agent lines that are followed by one or more rules."
/// The lines live in [`Robots`]'s flat lists; a group holds their ranges.
#[derive(Debug, Clone)]
struct Group {
    agents: Range<usize>,
    rules: Range<usize>,
    /// Its first user-agent line.
    first_line: u32,
    /// Its last user-agent or rule line.
    last_line: u32,
}

#[derive(Debug, Clone, Copy)]
struct AgentLine<'a> {
    line: u32,
    /// The value as written (trimmed).
    value: &'a [u8],
    names: Names<'a>,
}

#[derive(Debug, Clone)]
struct RuleLine<'a> {
    line: u32,
    kind: RuleKind,
    /// The value as written (trimmed).
    value: &'a [u8],
    /// The value in normal form, when that differs from `value`.
    normalized: Option<Box<[u8]>>,
}

impl RuleLine<'_> {
    /// The rule's path in normal form: what is matched, and what is counted.
    fn pattern(&self) -> &[u8] {
        self.normalized.as_deref().unwrap_or(self.value)
    }
}

/// The deciding rule among those that matched.
#[derive(Debug, Clone, Copy)]
struct Best {
    index: usize,
    octets: usize,
    /// An allow rule won over an equally long disallow rule.
    tie: bool,
}

impl<'a> Robots<'a> {
    /// Parses `body`: any bytes at all. One pass, linear time; never fails and never panics.
    ///
    /// RFC 9309 §2.2: `robotstxt = *(group / emptyline)`, `group = startgroupline
    /// *(startgroupline / emptyline) *(rule / emptyline)`. So a group runs from a user-agent line
    /// through every following user-agent line and rule, blank lines included, until a user-agent
    /// line that follows a rule or the end of the file (§2.1: "The group is terminated by a
    /// user-agent line or end of file."). Blank lines never end a group, and user-agent lines
    /// with only blank lines between them are one group.
    ///
    /// RFC 9309 §2.2's ABNF strings are case-insensitive (RFC 5234), and it allows `*WS` before
    /// the field name, around the colon and after the value.
    ///
    /// RFC 9309 §2.5: "Crawlers SHOULD impose a parsing limit to protect their systems [...]. The
    /// parsing limit MUST be at least 500 kibibytes \[KiB\]." Choice: the reference imposes none and
    /// parses the whole body, whatever its size; what a file means does not depend on where some
    /// crawler stops reading it (the corpus leaves content past 500 KiB unspecified).
    ///
    /// RFC 9309 §2.3: "The file MUST be UTF-8 encoded"; §2.2.2: "Implementors MAY bridge encoding
    /// mismatches if they detect that the robots.txt file is not UTF-8 encoded." Choice: no
    /// bridging; octets that are not UTF-8 are kept as octets (and percent-encoded in a rule).
    pub fn parse(body: &'a [u8]) -> Robots<'a> {
        Robots::from_lines(lines(body))
    }

    /// Parses lines already split and classified (what [`Robots::parse`] does after
    /// [`lines`]): for analyses that hold a body as lines and need its groups by their numbers.
    pub fn from_lines(body: impl IntoIterator<Item = Line<'a>>) -> Robots<'a> {
        let mut robots = Robots::default();
        for line in body {
            match line.kind {
                // RFC 9309 §2.2: `emptyline = EOL` with `EOL = *WS [comment] NL`: nothing to do
                // but keep it for explanations.
                LineKind::Blank | LineKind::CommentOnly => robots.pass_over(line),
                LineKind::Field { name, value } => match Field::of(name) {
                    Field::UserAgent => robots.user_agent(line.number, value),
                    Field::Rule(kind) => robots.rule(line.number, kind, value),
                    // RFC 9309 §2.2.4: "Parsing of other records MUST NOT interfere with the
                    // parsing of explicitly defined records in Section 2. For example, a
                    // "Sitemaps" record MUST NOT terminate a group." Other records (Sitemap,
                    // Crawl-delay, anything else) are skipped: they neither start nor end a group.
                    Field::Other => robots.pass_over(line),
                },
                // Choice: a line without a colon (`Disallow /a`) fits no record of the grammar;
                // it is skipped like an other record (§2.3.1.5: "Crawlers MUST use the parseable
                // rules": it is not one).
                LineKind::NoColon(_) => robots.pass_over(line),
            }
        }
        robots
    }

    /// The groups in file order, each by the line numbers of its user-agent lines and rules:
    /// the structure every decision reads, for analyses that must group lines exactly as this
    /// profile does.
    pub fn groups(&self) -> impl Iterator<Item = GroupLines> + '_ {
        self.groups.iter().map(|group| GroupLines {
            agents: self.agents[group.agents.clone()]
                .iter()
                .map(|a| a.line)
                .collect(),
            rules: self.rules[group.rules.clone()]
                .iter()
                .map(|r| r.line)
                .collect(),
        })
    }

    /// RFC 9309 §2.2: `startgroupline = *WS "user-agent" *WS ":" *WS product-token EOL`. It
    /// starts a group unless it continues the user-agent lines of a group that has no rule yet.
    fn user_agent(&mut self, line: u32, value: &'a [u8]) {
        let starts_group = match self.groups.last() {
            None => true,
            Some(group) => !group.rules.is_empty(),
        };
        if starts_group {
            self.groups.push(Group {
                agents: self.agents.len()..self.agents.len(),
                rules: self.rules.len()..self.rules.len(),
                first_line: line,
                last_line: line,
            });
        }
        self.agents.push(AgentLine {
            line,
            value,
            names: Names::of_value(value),
        });
        if let Some(group) = self.groups.last_mut() {
            group.agents.end = self.agents.len();
            group.last_line = line;
        }
    }

    /// RFC 9309 §2.2: `rule = *WS ("allow" / "disallow") *WS ":" *WS (path-pattern /
    /// empty-pattern) EOL`. The rule belongs to the group of the user-agent lines above it.
    ///
    /// RFC 9309 §2.2.2: "The crawler SHOULD ignore "disallow" and "allow" rules that are not in any
    /// group (for example, any rule that precedes the first user-agent line)." Only rules before the
    /// first user-agent line are outside every group, since nothing else ends a group.
    ///
    /// RFC 9309 §2.2.2: "Duplicate rules in a group MAY be deduplicated." Choice: they are kept;
    /// deduplicating cannot change a verdict, and an explanation names the first of equals.
    fn rule(&mut self, line: u32, kind: RuleKind, value: &'a [u8]) {
        let normalized = match normalize_rule(value) {
            Cow::Borrowed(_) => None,
            Cow::Owned(owned) => Some(owned.into_boxed_slice()),
        };
        let rule = RuleLine {
            line,
            kind,
            value,
            normalized,
        };
        if self.groups.is_empty() {
            self.outside.push(rule);
            return;
        }
        self.rules.push(rule);
        if let Some(group) = self.groups.last_mut() {
            group.rules.end = self.rules.len();
            group.last_line = line;
        }
    }

    /// A line that is neither a user-agent line nor a rule: kept, once a group has begun, for
    /// explanations.
    fn pass_over(&mut self, line: Line<'a>) {
        if !self.groups.is_empty() {
            self.passed_over.push(line);
        }
    }

    /// Decides whether `agent` may fetch `path` (the local URL: `/` path and optional `?query`).
    pub fn decide(&self, agent: &str, path: &str) -> Decision {
        let token = product_token(agent.as_bytes());
        let uri = normalize_uri(path.as_bytes());
        let by = self.select(token);
        let groups = match by {
            None if self.groups.is_empty() => GroupChoice::NoGroups,
            None => GroupChoice::NoneMatched {
                groups: self.groups.len(),
            },
            Some(by) => GroupChoice::Chosen {
                groups: self
                    .groups
                    .iter()
                    .enumerate()
                    .filter_map(|(index, group)| {
                        let agent = self.applying_agent(group, token, by)?;
                        Some(ChosenGroup {
                            first_line: group.first_line,
                            last_line: group.last_line,
                            agent_line: agent.line,
                            agent_value: lossy(agent.value),
                            by_part_of_name: false,
                            begins: self.boundary_before(index),
                            ends: self.boundary_before(index + 1),
                        })
                    })
                    .collect(),
                by,
            },
        };
        let (rule, verdict) = match by {
            _ if is_robots_txt(&uri) => (RuleChoice::ImplicitRobotsTxt, Verdict::Allowed),
            // RFC 9309 §2.2.1: "If no group matches the product token and there is no group with
            // a user-agent line with the "*" value, or no groups are present at all, no rules
            // apply."
            None => (RuleChoice::NotReached, Verdict::Allowed),
            Some(by) => match self.best_rule(token, by, &uri) {
                None => {
                    let applying: Vec<&RuleLine> = (self.groups.iter())
                        .filter(|g| self.applying_agent(g, token, by).is_some())
                        .flat_map(|g| &self.rules[g.rules.clone()])
                        .collect();
                    let empty = applying.iter().filter(|r| r.value.is_empty()).count();
                    let rules = applying.len();
                    (RuleChoice::NoRuleMatched { rules, empty }, Verdict::Allowed)
                }
                Some(best) => {
                    let rule = &self.rules[best.index];
                    let by = if best.tie {
                        RuleBy::AllowOnTie {
                            octets: best.octets,
                        }
                    } else {
                        RuleBy::LongestMatch {
                            octets: best.octets,
                        }
                    };
                    let verdict = match rule.kind {
                        RuleKind::Allow => Verdict::Allowed,
                        RuleKind::Disallow => Verdict::Disallowed,
                    };
                    let choice = RuleChoice::Matched {
                        line: rule.line,
                        kind: rule.kind,
                        value: lossy(rule.value),
                        by,
                    };
                    (choice, verdict)
                }
            },
        };
        Decision {
            verdict,
            explanation: Explanation {
                profile: Profile::Rfc9309,
                agent: agent.to_owned(),
                name: lossy(token).to_ascii_lowercase(),
                groups,
                rule,
                lines: by.map_or_else(Vec::new, |by| self.read_groups(token, by, &uri)),
                outside: self.read_outside(&uri),
                star_passed_over: self.star_passed_over(token, by),
            },
        }
    }

    /// The verdict alone, without building an explanation: the same rules as [`Robots::decide`].
    pub fn is_allowed(&self, agent: &str, path: &str) -> bool {
        let token = product_token(agent.as_bytes());
        let Some(by) = self.select(token) else {
            return true;
        };
        let uri = normalize_uri(path.as_bytes());
        if is_robots_txt(&uri) {
            return true;
        }
        match self.best_rule(token, by, &uri) {
            None => true,
            Some(best) => self.rules[best.index].kind == RuleKind::Allow,
        }
    }

    /// How the crawler's groups are chosen: by name, by `*`, or not at all.
    ///
    /// RFC 9309 §2.2.1: "If there is more than one group matching the user-agent, the matching
    /// groups' rules MUST be combined into one group" and "If no matching group exists, crawlers
    /// MUST obey the group with a user-agent line with the "*" value, if present." So every group
    /// naming the crawler applies; only when none does, every `*` group applies (several `*`
    /// groups are combined like several named ones).
    fn select(&self, token: &[u8]) -> Option<MatchedBy> {
        let mut star = false;
        for agent in &self.agents {
            match agent.names {
                Names::Star => star = true,
                names if names.names(token) => return Some(MatchedBy::Name),
                Names::Token(_) => {}
            }
        }
        star.then_some(MatchedBy::Star)
    }

    /// The first user-agent line of `group` through which it applies, if it does.
    fn applying_agent(&self, group: &Group, token: &[u8], by: MatchedBy) -> Option<&AgentLine<'a>> {
        self.agents[group.agents.clone()]
            .iter()
            .find(|agent| match by {
                MatchedBy::Name => agent.names.names(token),
                MatchedBy::Star => agent.names == Names::Star,
            })
    }

    /// The deciding rule of the combined groups, if any rule matches.
    ///
    /// RFC 9309 §2.2.2: "The most specific match found MUST be used. The most specific match is
    /// the match that has the most octets." Choice: a rule's octets are those of its path in
    /// normal form (after percent-encoding, see `percent`), counting `*` and a final `$` like any
    /// other octet: `/a$` (3) beats `/a` (2), `/*` (2) beats `/` (1).
    ///
    /// RFC 9309 §2.2.2: "If an "allow" rule and a "disallow" rule are equivalent, then the "allow"
    /// rule SHOULD be used." Equivalent: equally specific, the same number of octets.
    ///
    /// An empty value (§2.2's `empty-pattern`, for allow and disallow alike) matches nothing, so
    /// `Disallow:` alone allows everything as it always has: §2.2.2 matches "the paths in "allow"
    /// and "disallow" rules" and "the matching MUST start with the first octet of the path"; an
    /// `empty-pattern` is not a `path-pattern` and has no first octet for a match to start at.
    fn best_rule(&self, token: &[u8], by: MatchedBy, uri: &[u8]) -> Option<Best> {
        let mut best: Option<Best> = None;
        for group in &self.groups {
            if self.applying_agent(group, token, by).is_none() {
                continue;
            }
            for index in group.rules.clone() {
                let rule = &self.rules[index];
                let pattern = rule.pattern();
                let octets = pattern.len();
                if octets == 0 {
                    continue;
                }
                let tie = match best {
                    Some(b) if octets < b.octets => continue,
                    Some(b) if octets == b.octets => {
                        match (self.rules[b.index].kind, rule.kind) {
                            // Only an allow rule can change a tie: it beats a disallow rule, and
                            // among equals the first one stays.
                            (RuleKind::Disallow, RuleKind::Allow) => true,
                            (RuleKind::Allow, RuleKind::Disallow) if !b.tie => {
                                if pattern::matches(pattern, uri) {
                                    best = Some(Best { tie: true, ..b });
                                }
                                continue;
                            }
                            _ => continue,
                        }
                    }
                    _ => false,
                };
                if pattern::matches(pattern, uri) {
                    best = Some(Best { index, octets, tie });
                }
            }
        }
        best
    }
}

/// RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed." §2.3: the file is named
/// "/robots.txt" (all lowercase). Choice: the URI in normal form must be exactly `/robots.txt`;
/// with a query (`/robots.txt?x`) it is another URI, subject to the rules.
fn is_robots_txt(uri: &[u8]) -> bool {
    uri == b"/robots.txt"
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
mod tests;
