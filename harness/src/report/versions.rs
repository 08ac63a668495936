//! One parser at two released versions, side by side: which checks changed between them.
//!
//! An adapter's manifest may list other versions of its package (`versions:` in `adapter.yaml`);
//! each runs as its own adapter named `<name>@<version>` beside `<name>`, the pinned version.
//! [`pairs`] finds those pairs in a report and lists every check whose answer differs between
//! the two, each marked as fixed, broken or changed from the older release to the newer: what
//! answers "which release fixed or broke this?". The Markdown and HTML pages render this data.

use std::cmp::Ordering;

use robotstxt_reference::Verdict;

use robotstxt_suite::run::{CheckResult, Outcome};

use super::{AdapterRun, Report};

/// Two versions of one parser, both with data.
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
    pub older: Answer,
    pub newer: Answer,
}

/// What one version made of a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer {
    pub outcome: Outcome,
    pub verdict: Option<Verdict>,
}

impl Answer {
    fn of(result: &CheckResult) -> Answer {
        Answer {
            outcome: result.outcome,
            verdict: result.actual,
        }
    }

    /// `pass`, or `fail (allowed)`: the outcome with the verdict given, if any.
    pub fn shown(&self) -> String {
        match self.verdict {
            Some(v) => format!("{} ({v})", self.outcome),
            None => self.outcome.to_string(),
        }
    }
}

/// Which way a check moved from the older release to the newer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Not passed before, passed now.
    Fixed,
    /// Passed before, not now.
    Broken,
    /// Anything else: a different wrong answer, or a different answer to an unscored check.
    Changed,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Fixed => "fixed",
            Direction::Broken => "broken",
            Direction::Changed => "changed",
        }
    }
}

impl Change {
    pub fn direction(&self) -> Direction {
        match (self.older.outcome, self.newer.outcome) {
            (old, Outcome::Pass) if old != Outcome::Pass => Direction::Fixed,
            (Outcome::Pass, new) if new != Outcome::Pass => Direction::Broken,
            _ => Direction::Changed,
        }
    }
}

impl Pair {
    /// How many changes go each way: fixed, broken, changed.
    pub fn counts(&self) -> (usize, usize, usize) {
        let count = |d| self.changes.iter().filter(|c| c.direction() == d).count();
        (
            count(Direction::Fixed),
            count(Direction::Broken),
            count(Direction::Changed),
        )
    }
}

/// Every pair of adapters in `report` that are one parser at two versions: `<name>@<version>`
/// beside `<name>`, both with data and from the same parser, in report order.
pub fn pairs(report: &Report) -> Vec<Pair> {
    let adapters = &report.adapters;
    let mut out = Vec::new();
    for (other, run) in adapters.iter().enumerate() {
        let Some((base, _)) = run.handshake.name.split_once('@') else {
            continue;
        };
        let Some(pinned) = adapters.iter().position(|a| a.handshake.name == base) else {
            continue;
        };
        let pinned_run = &adapters[pinned];
        if !run.has_data()
            || !pinned_run.has_data()
            || pinned_run.handshake.parser != run.handshake.parser
        {
            continue;
        }
        let (older, newer) =
            match compare_versions(&run.handshake.version, &pinned_run.handshake.version) {
                Ordering::Greater => (pinned, other),
                _ => (other, pinned),
            };
        out.push(Pair {
            older,
            newer,
            changes: changes(&adapters[older], &adapters[newer]),
        });
    }
    out
}

/// The checks the two runs answered differently.
fn changes(older: &AdapterRun, newer: &AdapterRun) -> Vec<Change> {
    older
        .claimed
        .iter()
        .zip(&newer.claimed)
        .filter_map(|(o, n)| {
            let (older, newer) = (Answer::of(o), Answer::of(n));
            (older != newer).then_some(Change {
                case: o.case,
                check: o.check,
                older,
                newer,
            })
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

    fn answer(outcome: Outcome, verdict: Option<Verdict>) -> Answer {
        Answer { outcome, verdict }
    }

    #[test]
    fn directions() {
        let change = |older, newer| Change {
            case: 0,
            check: 0,
            older,
            newer,
        };
        let pass = answer(Outcome::Pass, Some(Verdict::Allowed));
        let fail = answer(Outcome::Fail, Some(Verdict::Disallowed));
        let error = answer(Outcome::Error, None);
        let open_a = answer(Outcome::Unspecified, Some(Verdict::Allowed));
        let open_d = answer(Outcome::Unspecified, Some(Verdict::Disallowed));
        assert_eq!(change(fail, pass).direction(), Direction::Fixed);
        assert_eq!(change(error, pass).direction(), Direction::Fixed);
        assert_eq!(change(pass, error).direction(), Direction::Broken);
        assert_eq!(change(fail, error).direction(), Direction::Changed);
        assert_eq!(change(open_a, open_d).direction(), Direction::Changed);
        assert_eq!(fail.shown(), "fail (disallowed)");
        assert_eq!(error.shown(), "error");
    }
}
