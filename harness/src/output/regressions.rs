//! A gate's regressions counted by group, as every format of a gated run ends with them: the
//! groups are `run`'s ([`crate::grouping`]), so that seventy regressions of two bugs read as two
//! lines, each with its count, before any detail.

use std::collections::BTreeMap;

use robotstxt_suite::cases::Case;
use robotstxt_suite::cause::{self, Cause};
use robotstxt_suite::expectations::gate::{Judged, Status};
use robotstxt_suite::run::CheckResult;

/// The regressions of one cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegressionGroup {
    pub cause: Cause,
    /// Indexes into the run's results, in corpus order.
    pub members: Vec<usize>,
}

impl RegressionGroup {
    /// `64 regressions: an Allow line decides`.
    pub fn counted(&self) -> String {
        let n = self.members.len();
        format!(
            "{n} {}: {}",
            super::plural(n, "regression", "regressions"),
            self.cause
        )
    }

    /// The first member's check id, `case#N`, to name an example by.
    pub fn example(&self, cases: &[Case], results: &[CheckResult]) -> String {
        check_id(cases, &results[self.members[0]])
    }
}

/// `case#N`.
pub fn check_id(cases: &[Case], result: &CheckResult) -> String {
    format!("{}#{}", cases[result.case].id, result.check)
}

/// The regressions of a judged run by cause: the largest group first, ties by label.
pub fn groups(judged: &Judged, cases: &[Case], results: &[CheckResult]) -> Vec<RegressionGroup> {
    let mut by_cause: BTreeMap<Cause, Vec<usize>> = BTreeMap::new();
    for (i, (status, result)) in judged.statuses.iter().zip(results).enumerate() {
        if matches!(status, Status::Regression(_)) {
            let cause = cause::of_result(&cases[result.case], result);
            by_cause.entry(cause).or_default().push(i);
        }
    }
    let mut groups: Vec<RegressionGroup> = by_cause
        .into_iter()
        .map(|(cause, members)| RegressionGroup { cause, members })
        .collect();
    groups.sort_by(|a, b| {
        (b.members.len(), a.cause.label()).cmp(&(a.members.len(), b.cause.label()))
    });
    groups
}

/// The count lines a text format shows: `  64 regressions: an Allow line decides (e.g. a#0)`.
pub fn count_lines(groups: &[RegressionGroup], cases: &[Case], results: &[CheckResult]) -> String {
    let total: usize = groups.iter().map(|g| g.members.len()).sum();
    if total == 0 {
        return String::new();
    }
    let mut out = format!(
        "{total} {} in {} {}, by what they have in common:\n",
        super::plural(total, "regression", "regressions"),
        groups.len(),
        super::plural(groups.len(), "group", "groups")
    );
    for group in groups {
        out.push_str(&format!(
            "  {} (e.g. {})\n",
            super::cut_middle(&group.counted(), 100),
            super::cut_middle(&group.example(cases, results), 60)
        ));
    }
    out
}
