//! Reported cases an adapter does not pass, and whether what it fails is what was reported.
//!
//! A reported case (`cases/README.md`, "Reported cases") marks the checks that test the reported
//! behaviour with the answer that behaviour gives there. An adapter that gives that answer on a
//! marked check it fails still behaves as reported; one that fails only other checks of the case,
//! or a marked check with another answer, fails something else (often the corpus's own extension
//! of the reported point), which its page must not present as the reported bug still being there.

use robotstxt_reference::Verdict;

use crate::grouping::is_grouped;
use robotstxt_suite::cases::{Case, Reported};
use robotstxt_suite::run::{CheckResult, Outcome};

/// How a check an adapter does not pass relates to what its case's thread reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// A check that tests the reported behaviour, answered as that behaviour answers.
    AsReported,
    /// A check that tests the reported behaviour, failed some other way.
    OtherwiseOnReported,
    /// Another check of the case.
    Other,
}

impl Relation {
    /// How a report says it.
    pub fn shown(self) -> &'static str {
        match self {
            Relation::AsReported => "the reported behaviour",
            Relation::OtherwiseOnReported => {
                "a check of the reported behaviour, failed otherwise than reported"
            }
            Relation::Other => "another check, not the reported behaviour",
        }
    }
}

/// One check not passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failed {
    pub check: usize,
    pub outcome: Outcome,
    pub relation: Relation,
}

/// One reported case not passed: its index, its thread, and each check not passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotPassed<'a> {
    pub case: usize,
    pub url: &'a str,
    pub checks: Vec<Failed>,
}

impl NotPassed<'_> {
    /// Whether the adapter answers some check as the reported behaviour does.
    pub fn shows_the_reported_behaviour(&self) -> bool {
        self.checks
            .iter()
            .any(|c| c.relation == Relation::AsReported)
    }
}

fn relation(reported: Option<Reported>, actual: Option<Verdict>) -> Relation {
    match (reported, actual) {
        (None, _) => Relation::Other,
        (Some(Reported::Answer(answer)), Some(actual)) if actual == answer => Relation::AsReported,
        (Some(Reported::Fault), None) => Relation::AsReported,
        (Some(_), _) => Relation::OtherwiseOnReported,
    }
}

/// Every reported case with a scored check not passed in `results`, in corpus order.
pub fn not_passed<'a>(cases: &'a [Case], results: &[CheckResult]) -> Vec<NotPassed<'a>> {
    let mut out: Vec<NotPassed<'a>> = Vec::new();
    for r in results {
        if !is_grouped(r) {
            continue;
        }
        let case = &cases[r.case];
        let Some(url) = case.reported.as_deref() else {
            continue;
        };
        let failed = Failed {
            check: r.check,
            outcome: r.outcome,
            relation: relation(case.checks[r.check].reported, r.actual),
        };
        match out.last_mut() {
            Some(last) if last.case == r.case => last.checks.push(failed),
            _ => out.push(NotPassed {
                case: r.case,
                url,
                checks: vec![failed],
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Allowed, Disallowed};

    #[test]
    fn a_failure_is_the_reported_behaviour_only_with_the_reported_answer() {
        let allowed = Some(Reported::Answer(Allowed));
        assert_eq!(relation(None, Some(Allowed)), Relation::Other);
        assert_eq!(relation(allowed, Some(Allowed)), Relation::AsReported);
        assert_eq!(
            relation(allowed, Some(Disallowed)),
            Relation::OtherwiseOnReported
        );
        assert_eq!(relation(allowed, None), Relation::OtherwiseOnReported);
        assert_eq!(relation(Some(Reported::Fault), None), Relation::AsReported);
        assert_eq!(
            relation(Some(Reported::Fault), Some(Allowed)),
            Relation::OtherwiseOnReported
        );
    }
}
