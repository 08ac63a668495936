//! One parser at several released versions: which checks each release changed.
//!
//! An adapter's manifest may list other versions of its package (`versions:` in `adapter.yaml`);
//! each runs as its own adapter named `<name>@<version>` beside `<name>`, the pinned version.
//! [`series`] finds each parser's versions in a report, oldest first, and [`pairs`] compares each
//! release with the next through [`crate::diff`], the same comparison `robotstxt-test diff`
//! makes of two results files: every check marked as fixed, broken or changed from the older
//! release to the newer. The Markdown and HTML pages, and the chart of scores over versions,
//! render this data.

use std::cmp::Ordering;

use crate::diff::{self, from_run};
pub use crate::diff::{ChangeDirection, RunAnswer};
use robotstxt_suite::visible::Outside;

use super::{AdapterRun, Report};

/// One parser's versions in a report, each with data: indices into the report's adapters,
/// oldest release first. Only parsers with two versions or more make a series.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    /// The pinned version's adapter name (`python-protego`).
    pub name: Outside,
    pub members: Vec<usize>,
}

/// Two consecutive versions of one parser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// Indices into the report's adapters: the older release and the newer one.
    pub older: usize,
    pub newer: usize,
    /// Every check whose outcome or answer differs, in corpus order.
    pub changes: Vec<Change>,
}

/// One check answered differently by the two versions (scored under the profile each claims).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// Indices of the case in the report and of the check within it.
    pub case: usize,
    pub check: usize,
    pub older: RunAnswer,
    pub newer: RunAnswer,
    direction: ChangeDirection,
}

impl Change {
    pub fn direction(&self) -> ChangeDirection {
        self.direction
    }
}

impl Pair {
    /// How many changes go each way: fixed, broken, changed.
    pub fn counts(&self) -> (usize, usize, usize) {
        let count = |d| self.changes.iter().filter(|c| c.direction() == d).count();
        (
            count(ChangeDirection::Fixed),
            count(ChangeDirection::Broken),
            count(ChangeDirection::Changed),
        )
    }

    /// The file name of the step's diff page, under `diffs/`: `python-protego-0.3.1-0.6.2.md`.
    pub fn page(&self, report: &Report) -> String {
        let [older, newer] = [self.older, self.newer].map(|i| &report.adapters[i].handshake);
        // A file name: made of the exact text, which the slug makes safe.
        let base = older.name.raw().split('@').next().unwrap_or_default();
        let (from, to) = (older.version.raw(), newer.version.raw());
        crate::limits::path_slug(&format!("{base}-{from}-{to}")) + ".md"
    }
}

/// Every parser of `report` with several versions: `<name>` and each `<name>@<version>` from the
/// same parser with data, oldest first, in report order of the pinned one.
pub fn series(report: &Report) -> Vec<Series> {
    let adapters = &report.adapters;
    let mut out = Vec::new();
    for (pinned, run) in adapters.iter().enumerate() {
        if run.handshake.name.raw().contains('@') || !run.has_data() {
            continue;
        }
        let prefix = format!("{}@", run.handshake.name.raw());
        let mut members: Vec<usize> = std::iter::once(pinned)
            .chain((0..adapters.len()).filter(|&i| {
                let other = &adapters[i];
                other.handshake.name.raw().starts_with(&prefix)
                    && other.has_data()
                    && other.handshake.parser == run.handshake.parser
            }))
            .collect();
        if members.len() < 2 {
            continue;
        }
        members.sort_by(|&a, &b| {
            compare_versions(
                adapters[a].handshake.version.raw(),
                adapters[b].handshake.version.raw(),
            )
        });
        out.push(Series {
            name: run.handshake.name.clone(),
            members,
        });
    }
    out
}

/// Each release of every series beside the next one, oldest first.
pub fn pairs(report: &Report) -> Vec<Pair> {
    series(report)
        .iter()
        .flat_map(|s| {
            s.members
                .windows(2)
                .map(|w| (w[0], w[1]))
                .collect::<Vec<_>>()
        })
        .map(|(older, newer)| Pair {
            older,
            newer,
            changes: changes(report, &report.adapters[older], &report.adapters[newer]),
        })
        .collect()
}

/// The results as a results file records them, for [`crate::diff`].
pub fn results_of(report: &Report, run: &AdapterRun) -> diff::AdapterResults {
    let h = &run.handshake;
    from_run(
        h.name.raw(),
        h.version.raw(),
        run.has_data(),
        &report.cases,
        &run.claimed,
    )
}

/// The checks the two runs answered differently, as `diff` finds them.
fn changes(report: &Report, older: &AdapterRun, newer: &AdapterRun) -> Vec<Change> {
    let found = diff::compare(&results_of(report, older), &results_of(report, newer));
    found
        .moved
        .iter()
        .map(|m| {
            let r = &newer.claimed[m.index];
            Change {
                case: r.case,
                check: r.check,
                older: m.old,
                newer: m.new,
                direction: m.direction,
            }
        })
        .collect()
}

/// Orders release numbers part by part (`2.10.0` after `2.9.1`), numbers as numbers and any
/// other part as text.
pub fn compare_versions(a: &str, b: &str) -> Ordering {
    let parts = |v: &str| -> Vec<(u64, String)> {
        v.split(['.', '-', '+'])
            .map(|p| (p.parse().unwrap_or(u64::MAX), p.to_owned()))
            .collect()
    };
    parts(a).cmp(&parts(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_order_by_number() {
        assert_eq!(compare_versions("2.10.0", "2.9.1"), Ordering::Greater);
        assert_eq!(compare_versions("0.1.16", "0.7.0"), Ordering::Less);
        assert_eq!(compare_versions("3.0.1", "3.0.1"), Ordering::Equal);
        assert_eq!(compare_versions("3.0", "3.0.1"), Ordering::Less);
    }
}
