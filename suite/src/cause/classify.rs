//! Reading one check's [`Cause`] from what the reference already worked out.
//!
//! A parser that splits lines on LF only fails every case with lone CRs, whatever topic the case
//! is filed under; one that ignores Allow fails wherever an Allow line decides. So a check's
//! cause is read from the check itself, most telling first:
//!
//! 1. how the adapter failed, when it gave no answer: it rejected the body (and, if the body
//!    holds bytes that are not UTF-8, says so), crashed, timed out, broke the protocol; or its
//!    answer varied between runs; and when it answered, the misreading its answer shows, named
//!    as the fix (a comment read as a field, white space before the colon, a query string
//!    dropped: see [`super::misreadings`]);
//! 2. what is unusual about the whole body: lone CR line endings, a byte-order mark, NUL bytes,
//!    bytes that are not UTF-8, an HTML page;
//! 3. what decided under the profile the check is scored by, from the reference's explanation:
//!    the implicit /robots.txt, a rule with `*` or `$`, an Allow line, the longest of several
//!    matching rules, percent-encoding, an Allow line that matches without deciding, a query
//!    string, a robot's name with a version, several records combined;
//! 4. what else is there that a parser may read otherwise, from the lines of the chosen records
//!    as the reference read them: white space other than SP and HT, a rule with `*` or `$` that
//!    does not decide, a `*` record passed over for the robot's own, a record naming the robot by
//!    a part of its name, a field the profile does not read inside the record, a blank line
//!    inside the group (RFC 9309), a rule with an empty value or one that does not start with
//!    `/`, a matching rule outside every record, percent-encoding anywhere in the record or the
//!    path, dot segments; last, how the record is set apart from the next: by a blank line (1994)
//!    or by a User-agent line right after a rule;
//! 5. only then, which record applied: one naming the robot, the `*` one, or none.
//!
//! Nothing here walks the body's lines again: the reference lists every line of the chosen
//! records with what it made of it ([`Explanation::lines`]).

use robotstxt_reference::rfc9309::{matches, normalize_uri};
use robotstxt_reference::{
    Boundary, Decision, Explanation, GroupChoice, LineMeaning, MatchedBy, Profile, Robots, RuleBy,
    RuleChoice, RuleKind, Verdict,
};

use super::{BodyMarks, Cause};
use crate::cases::Case;
use crate::run::{CheckResult, Outcome};

/// The cause of one non-pass of a run: how the adapter failed, or else
/// [`of_decision`] under the profile the check was scored by.
pub fn of_result(case: &Case, result: &CheckResult) -> Cause {
    let body = &case.robots;
    let marks = BodyMarks::of(body);
    match result.outcome {
        Outcome::Error if marks.not_utf8 => return Cause::RejectsNotUtf8,
        Outcome::Error => return Cause::RejectsBody,
        Outcome::QueryError => return Cause::RefusesQuery,
        Outcome::Crash => return Cause::Crashes,
        Outcome::Timeout => return Cause::TimesOut,
        Outcome::ProtocolError => return Cause::BreaksProtocol,
        Outcome::Unstable => return Cause::Unstable,
        _ => {}
    }
    let check = &case.checks[result.check];
    let profile = result.scored_under.unwrap_or(Profile::Norobots1994);
    of_answer(profile, body, &check.agent, &check.path, result.actual)
}

/// The cause of a parser answering `theirs` on `body`, `agent` and `path` under `profile`: the
/// misreading its answer shows, if one does ([`super::misreadings`]), else [`of_decision`] on
/// the reference's decision. Without an answer, the decision alone.
pub fn of_answer(
    profile: Profile,
    body: &[u8],
    agent: &str,
    path: &str,
    theirs: Option<Verdict>,
) -> Cause {
    let misread = theirs
        .and_then(|theirs| super::misreadings::explaining(profile, body, agent, path, theirs));
    misread.unwrap_or_else(|| {
        let decision = Robots::parse(profile, body).decide(agent, path);
        of_decision(&BodyMarks::of(body), path, &decision)
    })
}

/// The cause of a parser answering `path` otherwise than the reference did in `decision`, on a
/// body with `marks`: see the module docs (from step 2 on).
pub fn of_decision(marks: &BodyMarks, path: &str, decision: &Decision) -> Cause {
    if let Some(cause) = marks.leading_causes().next() {
        return cause;
    }
    let e = &decision.explanation;
    deciding(e, path)
        .or_else(|| elsewhere(marks, e, path))
        .unwrap_or_else(|| record_fallback(e))
}

/// Step 3: what decided.
fn deciding(e: &Explanation, path: &str) -> Option<Cause> {
    let value = match &e.rule {
        RuleChoice::ImplicitRobotsTxt => return Some(Cause::ImplicitRobotsTxt),
        RuleChoice::Matched {
            kind, value, by, ..
        } => {
            if value.contains(['*', '$']) {
                return Some(Cause::WildcardDecides);
            }
            if *kind == RuleKind::Allow {
                return Some(Cause::AllowDecides);
            }
            // Percent-encoding first: rules match in normal form, so a percent-encoded rule may
            // be one of several that match only once decoded.
            if value.contains('%') || path.contains('%') {
                return Some(Cause::PercentEncoding);
            }
            if matches!(by, RuleBy::LongestMatch { .. }) && matching_rules(e) > 1 {
                return Some(Cause::LongestMatch);
            }
            value.as_str()
        }
        RuleChoice::NotReached | RuleChoice::NoRuleMatched { .. } => "",
    };
    if value.contains('%') || path.contains('%') {
        return Some(Cause::PercentEncoding);
    }
    if allow_matches(e, path) {
        return Some(Cause::AllowMatches);
    }
    if value.contains('?') || path.contains('?') {
        return Some(Cause::QueryString);
    }
    if e.agent.contains(['/', ' ']) {
        return Some(Cause::AgentVersion);
    }
    match &e.groups {
        GroupChoice::Chosen { groups, .. } if groups.len() > 1 => {
            Some(Cause::SeveralRecords(e.profile))
        }
        _ => None,
    }
}

/// Step 4: what else the body holds, in and around the chosen records.
fn elsewhere(marks: &BodyMarks, e: &Explanation, path: &str) -> Option<Cause> {
    let profile = e.profile;
    let rules = || {
        e.lines.iter().filter_map(|l| match &l.reading {
            LineMeaning::Rule { value, .. } => Some(value.as_str()),
            _ => None,
        })
    };
    if marks.other_white_space {
        return Some(Cause::OtherWhiteSpace);
    }
    if rules().any(|v| v.contains(['*', '$'])) {
        return Some(Cause::WildcardRule);
    }
    if !e.star_passed_over.is_empty() {
        return Some(Cause::StarPassedOver(profile));
    }
    if let GroupChoice::Chosen { groups, .. } = &e.groups {
        if groups.iter().any(|g| g.by_part_of_name) {
            return Some(Cause::PartOfName);
        }
    }
    // Lines passed over count where a parser could take them to end the record: before its last
    // User-agent or rule line.
    let last = (e.lines.iter())
        .filter(|l| {
            matches!(
                l.reading,
                LineMeaning::Agent { .. } | LineMeaning::Rule { .. }
            )
        })
        .map(|l| l.line)
        .max()
        .unwrap_or(0);
    let before_last = || e.lines.iter().filter(|l| l.line < last);
    if before_last().any(|l| matches!(l.reading, LineMeaning::Other { .. })) {
        return Some(Cause::OtherField(profile));
    }
    if before_last().any(|l| l.reading == LineMeaning::Blank) {
        return Some(Cause::BlankLine(profile));
    }
    if rules().any(str::is_empty) {
        return Some(Cause::EmptyRule);
    }
    if rules().any(|v| !v.starts_with('/')) {
        return Some(Cause::RuleNotAPath);
    }
    let outside_matches =
        (e.outside.iter()).any(|l| matches!(l.reading, LineMeaning::Rule { matches: true, .. }));
    if outside_matches {
        return Some(Cause::RuleOutside(profile));
    }
    let encoded = |v: &str| v.contains('%') || !v.is_ascii();
    if rules().any(encoded) || normalize_uri(path.as_bytes()) != path.as_bytes() {
        return Some(Cause::PercentEncoding);
    }
    if has_dot_segments(path) || rules().any(has_dot_segments) {
        return Some(Cause::DotSegments);
    }
    // Last, how the chosen record is set apart from its neighbours: by a blank line that ends it
    // (1994), or by a User-agent line right after a rule. Parsers split records differently.
    let GroupChoice::Chosen { groups, .. } = &e.groups else {
        return None;
    };
    let boundaries = || groups.iter().flat_map(|g| [g.begins, g.ends]);
    if profile == Profile::Norobots1994 && boundaries().any(|b| b == Boundary::BlankLine) {
        return Some(Cause::BlankLine(profile));
    }
    if boundaries().any(|b| b == Boundary::UserAgent) {
        return Some(Cause::UserAgentAfterRule(profile));
    }
    None
}

/// Step 5: which record applied.
fn record_fallback(e: &Explanation) -> Cause {
    match &e.groups {
        GroupChoice::NoGroups | GroupChoice::NoneMatched { .. } => Cause::NoRecord(e.profile),
        GroupChoice::Chosen {
            by: MatchedBy::Star,
            ..
        } => Cause::StarRecord(e.profile),
        GroupChoice::Chosen {
            by: MatchedBy::Name,
            ..
        } => Cause::NamedRecord(e.profile),
    }
}

/// Whether a path (or a rule's value) holds a segment that URL normalisation would remove
/// (RFC 3986 §5.2.4: `.` and `..`) or an empty one (`//`). Only the path, before any `?query`.
fn has_dot_segments(path: &str) -> bool {
    let path = path.split('?').next().unwrap_or_default();
    path.contains("//")
        || path
            .split('/')
            .skip(1)
            .any(|segment| segment == "." || segment == "..")
}

/// How many rule lines of the chosen record(s) match the path, as the reference matched them.
fn matching_rules(e: &Explanation) -> usize {
    (e.lines.iter())
        .filter(|l| matches!(l.reading, LineMeaning::Rule { matches: true, .. }))
        .count()
}

/// Whether an Allow line of the chosen record(s) matches `path`, the path `e` explains the
/// decision for: the line a parser that reads
/// Allow, or reads rules in order, follows. Under RFC 9309 an Allow rule is a rule, matched as the
/// reference matched it; the 1994 text does not know Allow, so there it is a field the reference
/// passed over, and it is read as RFC 9309 reads a rule, the reading a parser that knows Allow
/// gives it.
pub fn allow_matches(e: &Explanation, path: &str) -> bool {
    e.lines.iter().any(|l| match &l.reading {
        LineMeaning::Rule {
            kind: RuleKind::Allow,
            matches,
            ..
        } => *matches,
        LineMeaning::Other { name, value } => {
            name.eq_ignore_ascii_case("allow")
                && !value.is_empty()
                && matches(value.as_bytes(), path.as_bytes())
        }
        _ => false,
    })
}
