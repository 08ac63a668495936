//! `diff`: what changed between two runs, per adapter — the checks fixed, broken and changed
//! otherwise, grouped by the same causes as `run` — read from two results files (`run --format
//! json` or a report's `results.json`), or from two adapters of one report (one parser at two
//! versions, which the report's version pages show through the same code).
//!
//! Two runs are compared only where their checks are the same: a check whose digest differs
//! between the files (it asks something else, or is scored otherwise) is counted as not
//! comparable, and a check in one file only is new in the suite or removed, never a change in
//! behaviour.

pub mod render;

use std::collections::BTreeMap;

use serde::Serialize;

use robotstxt_suite::cases::Case;
use robotstxt_suite::cause::Cause;
use robotstxt_suite::release::CheckDigests;
use robotstxt_suite::run::{CheckResult, Outcome};
use robotstxt_suite::visible::Outside;

// The results files and their reader: a crate of their own, which the readers' fuzz targets link.
pub use robotstxt_results::{
    expected_by, load, AdapterResults, CheckState, ResultsFile, ResultsLoadError, RunAnswer,
};

/// Which way a check moved from the old run to the new.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeDirection {
    /// Not passed before, passed now.
    Fixed,
    /// Passed before, not now.
    Broken,
    /// Anything else: a different wrong answer, or a different answer to an unscored check.
    Changed,
    /// One run timed out where the other did not: the parser's (or the machine's) slowness,
    /// counted apart from the verdicts that changed.
    #[serde(rename = "timed-out")]
    TimedOut,
}

impl ChangeDirection {
    pub const ALL: [ChangeDirection; 4] = [
        ChangeDirection::Broken,
        ChangeDirection::Fixed,
        ChangeDirection::Changed,
        ChangeDirection::TimedOut,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ChangeDirection::Fixed => "fixed",
            ChangeDirection::Broken => "broken",
            ChangeDirection::Changed => "changed",
            ChangeDirection::TimedOut => "timed out",
        }
    }

    /// How `old` moved to `new`, if it moved at all.
    pub fn of(old: RunAnswer, new: RunAnswer) -> Option<ChangeDirection> {
        if old == new {
            return None;
        }
        Some(match (old.outcome, new.outcome) {
            (Outcome::Timeout, _) | (_, Outcome::Timeout) => ChangeDirection::TimedOut,
            (o, Outcome::Pass) if o != Outcome::Pass => ChangeDirection::Fixed,
            (Outcome::Pass, n) if n != Outcome::Pass => ChangeDirection::Broken,
            _ => ChangeDirection::Changed,
        })
    }
}

/// One check answered differently by the two runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Moved {
    pub id: Outside,
    pub direction: ChangeDirection,
    pub old: RunAnswer,
    pub new: RunAnswer,
    /// Its cause, as `run` groups it: the new run's for a check that does not pass now, else
    /// the old run's. `None` when the files do not say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    /// Its index in the new run's checks, in corpus order.
    #[serde(skip)]
    pub index: usize,
}

/// The difference between one adapter's two runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AdapterDiff {
    pub old_name: Outside,
    pub new_name: Outside,
    pub old_version: Outside,
    pub new_version: Outside,
    /// Every check that moved, in the new run's corpus order.
    pub moved: Vec<Moved>,
    /// Checks only the new file has, and only the old.
    pub new_in_suite: usize,
    pub removed: usize,
    /// Checks of one id whose digests differ: they ask or score something else, so their
    /// answers are not compared.
    pub not_comparable: usize,
    /// Checks compared.
    pub compared: usize,
}

impl AdapterDiff {
    pub fn count(&self, direction: ChangeDirection) -> usize {
        self.moved
            .iter()
            .filter(|m| m.direction == direction)
            .count()
    }

    /// The moved checks of one direction grouped by cause, the largest group first (as `run`
    /// orders its groups), each group's checks in corpus order.
    pub fn groups(&self, direction: ChangeDirection) -> Vec<(Option<Cause>, Vec<&Moved>)> {
        let mut by_cause: BTreeMap<Option<Cause>, Vec<&Moved>> = BTreeMap::new();
        for moved in self.moved.iter().filter(|m| m.direction == direction) {
            by_cause.entry(moved.cause).or_default().push(moved);
        }
        let mut groups: Vec<_> = by_cause.into_iter().collect();
        groups.sort_by_key(|(_, members)| std::cmp::Reverse(members.len()));
        groups
    }
}

/// Compares one adapter's old and new runs.
pub fn compare(old: &AdapterResults, new: &AdapterResults) -> AdapterDiff {
    let before: BTreeMap<&str, &CheckState> = old.checks.iter().map(|c| (c.id.raw(), c)).collect();
    let mut diff = AdapterDiff {
        old_name: old.name.clone(),
        new_name: new.name.clone(),
        old_version: old.version.clone(),
        new_version: new.version.clone(),
        moved: Vec::new(),
        new_in_suite: 0,
        removed: 0,
        not_comparable: 0,
        compared: 0,
    };
    let mut seen = 0;
    for (index, now) in new.checks.iter().enumerate() {
        let Some(then) = before.get(now.id.raw()) else {
            diff.new_in_suite += 1;
            continue;
        };
        seen += 1;
        if let (Some(a), Some(b)) = (&then.digest, &now.digest) {
            if a != b {
                diff.not_comparable += 1;
                continue;
            }
        }
        diff.compared += 1;
        if let Some(direction) = ChangeDirection::of(then.answer, now.answer) {
            let cause = match direction {
                ChangeDirection::Fixed => then.cause,
                _ => now.cause.or(then.cause),
            };
            diff.moved.push(Moved {
                id: now.id.clone(),
                direction,
                old: then.answer,
                new: now.answer,
                cause,
                index,
            });
        }
    }
    diff.removed = old.checks.len() - seen;
    diff
}

/// The cause a results file records for `result`: a non-pass's, as `run` groups it, and, where
/// the text leaves the check open and the parser answered, what decides the reference's verdict
/// there, so that a change between two answers to an open point is grouped like any other.
pub fn recorded_cause(case: &Case, result: &CheckResult) -> Option<Cause> {
    match result.outcome {
        Outcome::Unspecified if result.actual.is_some() => {
            Some(robotstxt_suite::cause::of_result(case, result))
        }
        _ => crate::grouping::cause_of(case, result),
    }
}

/// An adapter's results as a results file records them, from a run in memory: the same
/// records `results.json` writes, so that a report's version pages and `diff` of its files
/// agree.
pub fn from_run(
    name: &str,
    version: &str,
    has_data: bool,
    cases: &[Case],
    results: &[CheckResult],
) -> AdapterResults {
    AdapterResults {
        name: Outside::new(name),
        version: Outside::new(version),
        has_data,
        checks: results
            .iter()
            .map(|r| CheckState {
                id: Outside::new(format!("{}#{}", cases[r.case].id, r.check)),
                digest: Some(CheckDigests::of(&cases[r.case], r.check).short()),
                answer: RunAnswer::of(r),
                cause: recorded_cause(&cases[r.case], r),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use robotstxt_reference::Verdict;

    fn answer(outcome: Outcome, verdict: Option<Verdict>) -> RunAnswer {
        RunAnswer { outcome, verdict }
    }

    fn state(id: &str, digest: &str, answer: RunAnswer) -> CheckState {
        CheckState {
            id: Outside::new(id),
            digest: Some(digest.to_owned()),
            answer,
            cause: None,
        }
    }

    #[test]
    fn directions() {
        let pass = answer(Outcome::Pass, Some(Verdict::Allowed));
        let fail = answer(Outcome::Fail, Some(Verdict::Disallowed));
        let error = answer(Outcome::Error, None);
        let open_a = answer(Outcome::Unspecified, Some(Verdict::Allowed));
        let open_d = answer(Outcome::Unspecified, Some(Verdict::Disallowed));
        assert_eq!(
            ChangeDirection::of(fail, pass),
            Some(ChangeDirection::Fixed)
        );
        assert_eq!(
            ChangeDirection::of(error, pass),
            Some(ChangeDirection::Fixed)
        );
        assert_eq!(
            ChangeDirection::of(pass, error),
            Some(ChangeDirection::Broken)
        );
        assert_eq!(
            ChangeDirection::of(fail, error),
            Some(ChangeDirection::Changed)
        );
        assert_eq!(
            ChangeDirection::of(open_a, open_d),
            Some(ChangeDirection::Changed)
        );
        assert_eq!(ChangeDirection::of(pass, pass), None);
        assert_eq!(fail.shown(), "fail (disallowed)");
        assert_eq!(error.shown(), "error");
    }

    #[test]
    fn new_removed_and_redefined_checks_are_no_change_in_behaviour() {
        let pass = answer(Outcome::Pass, Some(Verdict::Allowed));
        let fail = answer(Outcome::Fail, Some(Verdict::Disallowed));
        let adapter = |checks| AdapterResults {
            name: "p".into(),
            version: "1".into(),
            has_data: true,
            checks,
        };
        let old = adapter(vec![
            state("a#0", "d0", pass),
            state("a#1", "d1", pass),
            state("gone#0", "g", pass),
        ]);
        let new = adapter(vec![
            state("a#0", "d0", fail),
            state("a#1", "other", fail),
            state("new#0", "n", fail),
        ]);
        let diff = compare(&old, &new);
        assert_eq!(diff.count(ChangeDirection::Broken), 1);
        assert_eq!(diff.moved[0].id, "a#0");
        assert_eq!(
            (
                diff.new_in_suite,
                diff.removed,
                diff.not_comparable,
                diff.compared
            ),
            (1, 1, 1, 1)
        );
    }
}
