//! Scoring what a crawler fetched against a case's checks, under one profile.
//!
//! The no-data rule comes first: a crawler that never fetched the case's control (the page on
//! `home` that every working crawler fetches, whatever robots.txt of `a` and `b` say) tells
//! nothing about the case, so none of its checks is scored, and the case never counts as passed.
//! A crawler stopped for a fault (a hang, a flood, children left running) fails every scored check
//! it has data for.

use robotstxt_reference::Profile;
use serde::Serialize;

use crate::case::{AccessCase, AccessCheck, AccessVerdict, AuthorityId, Target};
use crate::site::answer::CONTROL;
use crate::site::{LoggedRequest, Where};

/// How one check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccessOutcome {
    Pass,
    Fail,
    /// The crawler was stopped for a fault: a scored check it cannot pass.
    Fault,
    /// Not scored under this profile; what happened is still shown.
    Unspecified,
    /// The crawler never fetched the control: nothing to score.
    NoData,
}

impl AccessOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            AccessOutcome::Pass => "pass",
            AccessOutcome::Fail => "fail",
            AccessOutcome::Fault => "fault",
            AccessOutcome::Unspecified => "unspecified",
            AccessOutcome::NoData => "no data",
        }
    }

    /// A scored check not passed.
    pub fn is_failure(self) -> bool {
        matches!(self, AccessOutcome::Fail | AccessOutcome::Fault)
    }
}

/// One check's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AccessResult {
    /// `<case id>#<index>`.
    pub id: String,
    pub target: String,
    pub expected: AccessVerdict,
    /// What the log shows, in words.
    pub observed: String,
    /// Whether what the check looks for happened: the page was fetched, or robots.txt was asked
    /// before any page of its authority.
    pub held: bool,
    pub outcome: AccessOutcome,
}

/// Whether the log holds a fetch of the control.
pub fn has_control(log: &[LoggedRequest]) -> bool {
    log.iter()
        .any(|r| r.authority == Where::Home && r.path() == CONTROL)
}

/// Scores every check of `case` under `profile` from `log`. `fault` says the crawler was stopped
/// for one.
pub fn score(
    case: &AccessCase,
    log: &[LoggedRequest],
    profile: Profile,
    fault: bool,
) -> Vec<AccessResult> {
    let data = has_control(log);
    case.checks
        .iter()
        .enumerate()
        .map(|(index, check)| {
            let expected = check.verdict(profile);
            let (held, observed) = observe(case, check, log);
            let outcome = if !data {
                AccessOutcome::NoData
            } else if expected == AccessVerdict::Unspecified {
                AccessOutcome::Unspecified
            } else if fault {
                AccessOutcome::Fault
            } else if held == (expected != AccessVerdict::NotFetched) {
                AccessOutcome::Pass
            } else {
                AccessOutcome::Fail
            };
            AccessResult {
                id: format!("{}#{index}", case.id),
                target: check.target.shown(),
                expected,
                observed,
                held,
                outcome,
            }
        })
        .collect()
}

/// For a page: whether it was fetched. For robots-first: whether the order held.
fn observe(case: &AccessCase, check: &AccessCheck, log: &[LoggedRequest]) -> (bool, String) {
    match &check.target {
        Target::Page { side, path } => {
            let at = Where::of(*side);
            match log
                .iter()
                .position(|r| r.authority == at && r.path() == path)
            {
                Some(i) => (true, format!("fetched (request {})", i + 1)),
                None => (false, "not fetched".to_owned()),
            }
        }
        Target::RobotsFirst(side) => robots_first(case, *side, log),
    }
}

fn robots_first(case: &AccessCase, side: AuthorityId, log: &[LoggedRequest]) -> (bool, String) {
    let at = Where::of(side);
    let fixed = &case.authority(side).paths;
    let on_side = || log.iter().enumerate().filter(|(_, r)| r.authority == at);
    let robots = on_side()
        .find(|(_, r)| r.path() == "/robots.txt")
        .map(|(i, _)| i);
    let page = on_side()
        .find(|(_, r)| r.path() != "/robots.txt" && !fixed.contains_key(r.path()))
        .map(|(i, _)| i);
    match (robots, page) {
        (_, None) => (true, "no page of the authority fetched".to_owned()),
        (Some(r), Some(p)) if r < p => (
            true,
            format!("robots.txt at request {}, first page at {}", r + 1, p + 1),
        ),
        (Some(r), Some(p)) => (
            false,
            format!(
                "first page at request {}, robots.txt only at {}",
                p + 1,
                r + 1
            ),
        ),
        (None, Some(p)) => (
            false,
            format!("first page at request {}, robots.txt never asked", p + 1),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::parse;
    use std::path::Path;

    fn case() -> AccessCase {
        let text = r#"cases:
  - name: ok
    spec: { norobots-1994: 'Disallow: "a"', rfc9309: 'RFC 9309 2.3: "a"' }
    a: { robots: [ { body: "User-agent: *\nDisallow: /private\n" } ] }
    checks:
      - { url: a:/private, expect: not-fetched }
      - { url: a:/public, expect: fetched }
      - { robots-first: a, expect: holds }
      - { url: a:/other, expect: { norobots-1994: unspecified, rfc9309: unspecified } }
"#;
        parse(text, Path::new("t.yaml"), "t").unwrap().remove(0)
    }

    fn request(authority: Where, target: &str) -> LoggedRequest {
        LoggedRequest {
            at_ms: 0,
            authority,
            host: String::new(),
            method: "GET".into(),
            target: target.into(),
            user_agent: None,
            answer: String::new(),
        }
    }

    fn outcomes(log: &[LoggedRequest], fault: bool) -> Vec<AccessOutcome> {
        score(&case(), log, Profile::Rfc9309, fault)
            .iter()
            .map(|r| r.outcome)
            .collect()
    }

    #[test]
    fn an_obedient_log_passes_and_the_open_check_is_shown_unscored() {
        let log = [
            request(Where::Home, "/"),
            request(Where::A, "/robots.txt"),
            request(Where::A, "/public"),
            request(Where::A, "/other"),
            request(Where::Home, "/control"),
        ];
        use AccessOutcome::*;
        assert_eq!(outcomes(&log, false), [Pass, Pass, Pass, Unspecified]);
        assert_eq!(outcomes(&log, true), [Fault, Fault, Fault, Unspecified]);
    }

    #[test]
    fn a_page_before_robots_txt_and_a_disallowed_fetch_fail() {
        let log = [
            request(Where::A, "/private?x=1"),
            request(Where::A, "/robots.txt"),
            request(Where::Home, "/control"),
        ];
        use AccessOutcome::*;
        assert_eq!(outcomes(&log, false), [Fail, Fail, Fail, Unspecified]);
    }

    #[test]
    fn without_the_control_nothing_is_scored() {
        let log = [request(Where::A, "/private")];
        assert!(outcomes(&log, false)
            .iter()
            .all(|o| *o == AccessOutcome::NoData));
        assert!(outcomes(&[], true)
            .iter()
            .all(|o| *o == AccessOutcome::NoData));
    }
}
