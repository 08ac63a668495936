//! Non-passes grouped by what causes them, computed once, as data, for every format that shows a
//! run: the terminal (`run`), the Markdown report and its adapter pages, the HTML page, and the
//! reasons `--update-expectations` writes.
//!
//! A parser that splits lines on LF only fails every case with lone CRs, whatever topic the case
//! is filed under; one that ignores Allow fails wherever an Allow line decides. So a check's
//! cause is read from the check itself, most telling first:
//!
//! 1. how the adapter failed, when it gave no answer: it rejected the body (and, if the body
//!    holds bytes that are not UTF-8, says so), crashed, timed out, broke the protocol; or its
//!    answer varied between runs;
//! 2. what is unusual about the body: lone CR line endings, a byte-order mark, NUL bytes, bytes
//!    that are not UTF-8;
//! 3. what decided under the profile the check is scored by, in the reference's own terms: an
//!    Allow line, a rule with `*` or `$`, a rule or path with percent-encoding, the implicit
//!    /robots.txt, no record applying, or which record applied (one naming the robot, the `*`
//!    one, several combined).
//!
//! The labels are short sentences a person reads as the cause ("CR-only line endings", "an Allow
//! line decides"); they are the same in every format, and `--update-expectations` starts each
//! reason with one, so an expectation file reads by cause.

use std::collections::BTreeMap;

use robotstxt_reference::lines::{field_is, lines, LineKind};
use robotstxt_reference::rfc9309::matches;
use robotstxt_reference::{GroupChoice, MatchedBy, Profile, Robots, RuleBy, RuleChoice, RuleKind};

use crate::cases::Case;
use crate::run::{CheckResult, Outcome};

/// The non-passes of one cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// What causes them, as a short sentence ("CR-only line endings").
    pub cause: String,
    /// Indexes into the results, in result (corpus) order.
    pub results: Vec<usize>,
    /// The one shown in full: the member whose case has the shortest body, so it reads fastest.
    pub representative: usize,
    /// How many distinct cases those results come from.
    pub cases: usize,
}

impl Group {
    /// `CR-only line endings: 14 checks in 6 cases`.
    pub fn heading(&self) -> String {
        let checks = self.results.len();
        let (s, cs) = (plural(checks, "check"), plural(self.cases, "case"));
        format!("{}: {checks} {s} in {} {cs}", self.cause, self.cases)
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    }
}

/// Whether a result is a non-pass the grouping covers: everything but a pass, an open check and
/// a check never asked.
pub fn is_grouped(result: &CheckResult) -> bool {
    !matches!(
        result.outcome,
        Outcome::Pass | Outcome::Unspecified | Outcome::Skipped
    )
}

/// The non-passes of `results` (one engine's, over `cases`) grouped by cause: the largest group
/// first, ties by cause.
pub fn group(cases: &[Case], results: &[CheckResult]) -> Vec<Group> {
    let mut by_cause: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, result) in results.iter().enumerate() {
        if is_grouped(result) {
            by_cause
                .entry(cause(&cases[result.case], result))
                .or_default()
                .push(i);
        }
    }
    let mut groups: Vec<Group> = by_cause
        .into_iter()
        .map(|(cause, members)| {
            let mut seen: Vec<usize> = members.iter().map(|&i| results[i].case).collect();
            seen.dedup();
            seen.sort_unstable();
            seen.dedup();
            let representative = *members
                .iter()
                .min_by_key(|&&i| cases[results[i].case].robots.len())
                .expect("a group has members");
            Group {
                cause,
                cases: seen.len(),
                results: members,
                representative,
            }
        })
        .collect();
    groups.sort_by(|a, b| (b.results.len(), &a.cause).cmp(&(a.results.len(), &b.cause)));
    groups
}

/// The cause of one non-pass (see the module docs).
pub fn cause(case: &Case, result: &CheckResult) -> String {
    let body = &case.robots;
    let not_utf8 = std::str::from_utf8(body).is_err();
    match result.outcome {
        Outcome::Error if not_utf8 => return "rejects a body that is not UTF-8".to_owned(),
        Outcome::Error => return "rejects the body".to_owned(),
        Outcome::QueryError => return "refuses the query (or its URL)".to_owned(),
        Outcome::Crash => return "the adapter crashes".to_owned(),
        Outcome::Timeout => return "no answer in time".to_owned(),
        Outcome::ProtocolError => return "the adapter breaks the protocol".to_owned(),
        Outcome::Unstable => return "the answer varies from run to run".to_owned(),
        _ => {}
    }
    if robotstxt_reference::lines::raw_lines(body).any(|l| l.terminator == b"\r") {
        return "CR-only line endings".to_owned();
    }
    if body.starts_with(b"\xEF\xBB\xBF") {
        return "a byte-order mark".to_owned();
    }
    if body.contains(&0) {
        return "NUL bytes".to_owned();
    }
    if not_utf8 {
        return "bytes that are not UTF-8".to_owned();
    }
    let check = &case.checks[result.check];
    let profile = result.scored_under.unwrap_or(Profile::Norobots1994);
    let decision = Robots::parse(profile, body).decide(&check.agent, &check.path);
    let explanation = decision.explanation;
    let deciding = match &explanation.rule {
        RuleChoice::ImplicitRobotsTxt => return "/robots.txt is implicitly allowed".to_owned(),
        RuleChoice::Matched {
            kind, value, by, ..
        } => {
            if value.contains(['*', '$']) {
                return "a rule with `*` or `$` decides".to_owned();
            }
            if *kind == RuleKind::Allow {
                return "an Allow line decides".to_owned();
            }
            if matches!(by, RuleBy::LongestMatch { .. })
                && several_rules_match(body, &explanation.groups, &check.path)
            {
                return "several rules match: the longest decides, not the first".to_owned();
            }
            value.as_str()
        }
        RuleChoice::NotReached | RuleChoice::NoRuleMatched { .. } => "",
    };
    if deciding.contains('%') || check.path.contains('%') {
        return "percent-encoding in the rule or the path".to_owned();
    }
    if allow_matches(body, &explanation.groups, &check.path) {
        return "an Allow line matches the path too".to_owned();
    }
    if deciding.contains('?') || check.path.contains('?') {
        return "a query string (`?`) in the rule or the path".to_owned();
    }
    if check.agent.contains(['/', ' ']) {
        return "the robot's name carries a version or more words (`FooBot/2.1`)".to_owned();
    }
    let (record, _) = profile.group_words();
    match &explanation.groups {
        GroupChoice::NoGroups | GroupChoice::NoneMatched { .. } => {
            format!("no {record} applies to the robot")
        }
        GroupChoice::Chosen { groups, .. } if groups.len() > 1 => {
            format!("several {record}s for the robot, combined")
        }
        GroupChoice::Chosen {
            by: MatchedBy::Star,
            ..
        } => format!("the `*` {record} applies"),
        GroupChoice::Chosen {
            by: MatchedBy::Name,
            ..
        } => format!("a {record} naming the robot applies"),
    }
}

/// Whether an Allow line of the chosen record(s) matches `path` (as a prefix, or as an RFC 9309
/// pattern): the line a parser that reads Allow, or reads rules in order, follows.
pub fn allow_matches(body: &[u8], groups: &GroupChoice, path: &str) -> bool {
    let GroupChoice::Chosen { groups, .. } = groups else {
        return false;
    };
    let last = groups.iter().map(|g| g.last_line).max().unwrap_or(0);
    lines(body)
        .take_while(|line| line.number <= last)
        .filter(|line| {
            groups
                .iter()
                .any(|g| (g.first_line..=g.last_line).contains(&line.number))
        })
        .any(|line| match line.kind {
            LineKind::Field { name, value } => {
                field_is(name, "allow") && !value.is_empty() && matches(value, path.as_bytes())
            }
            _ => false,
        })
}

/// Whether more than one rule line of the chosen group(s) matches `path` (RFC 9309 patterns): a
/// parser that takes the first match, not the longest, answers otherwise.
fn several_rules_match(body: &[u8], groups: &GroupChoice, path: &str) -> bool {
    let GroupChoice::Chosen { groups, .. } = groups else {
        return false;
    };
    let inside = |n: u32| {
        groups
            .iter()
            .any(|g| (g.first_line..=g.last_line).contains(&n))
    };
    let matching = lines(body)
        .filter(|line| inside(line.number))
        .filter(|line| match line.kind {
            LineKind::Field { name, value } => {
                (field_is(name, "allow") || field_is(name, "disallow"))
                    && !value.is_empty()
                    && matches(value, path.as_bytes())
            }
            _ => false,
        })
        .count();
    matching > 1
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::cases::parse_file;
    use crate::engine::{Failure, Fault, Reply};
    use crate::run::{score, Scoring};
    use robotstxt_reference::Verdict::{Allowed, Disallowed};

    const CORPUS: &str = r#"
cases:
  - name: cr-only
    spec: t
    robots: "User-agent: *\rDisallow: /a\r"
    checks:
      - { agent: FooBot, path: /a, expect: disallowed }
      - { agent: FooBot, path: /a/b, expect: disallowed }
  - name: allow
    spec: t
    robots: "User-agent: *\nDisallow: /a\nAllow: /a/b\n"
    checks:
      - { agent: FooBot, path: /a/b, expect: { norobots-1994: disallowed, rfc9309: allowed } }
  - name: star
    spec: t
    robots: "User-agent: FooBot\nDisallow: /x\n\nUser-agent: *\nDisallow: /a\n"
    checks:
      - { agent: BarBot, path: /a, expect: disallowed }
"#;

    #[test]
    fn non_passes_group_by_cause_largest_first() {
        let cases = parse_file(CORPUS, Path::new("t.yaml"), "t").unwrap();
        let scoring = Scoring::Claimed(Some(Profile::Rfc9309));
        let replies = [
            Ok(Reply::Verdicts(vec![Allowed, Allowed])),
            Ok(Reply::Verdicts(vec![Disallowed])),
            Err(Failure {
                fault: Fault::Crash,
                detail: "gone".to_owned(),
            }),
        ];
        let results: Vec<CheckResult> = (cases.iter().zip(&replies).enumerate())
            .flat_map(|(i, (case, reply))| score(i, case, reply, scoring))
            .collect();
        let groups = group(&cases, &results);
        let headings: Vec<String> = groups.iter().map(Group::heading).collect();
        assert_eq!(
            headings,
            [
                "CR-only line endings: 2 checks in 1 case",
                "an Allow line decides: 1 check in 1 case",
                "the adapter crashes: 1 check in 1 case",
            ]
        );
        assert_eq!(groups[0].results, [0, 1]);
    }
}
