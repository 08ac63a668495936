//! The results files of robotstxt-test, read back: a report's `results.json`, or what `run
//! --format json` prints (one document, or an array of them for several engines). `diff` compares
//! two of them check by check, and `report --history` charts the reports it kept; both read them
//! through [`load`] into a [`ResultsFile`], each adapter's checks with the outcome and verdict a
//! run gave, the check's digest and the cause of a non-pass, when the file records them.
//!
//! A results file is outside input, however it was made: it may have been edited, or be any
//! file given on the command line. So it is read within its bounds ([`RESULTS_JSON`]) as a
//! stream, keeping about what its check ids take and never a tree of its values; and every text
//! kept from it (an adapter's name and version, the suite version, the corpus digest, the date,
//! a check's id) is held as [`Outside`], whose `Display` shows it made visible, so that no caller
//! prints a file's words as they are. The exact text is there for comparing and for data
//! ([`Outside::raw`]).
//!
//! [`expected_by`] gives the run an expectation file expects, in the same form, so that the gate's
//! judgement of a run is `diff` of the two.

#![forbid(unsafe_code)]

mod expected;
mod load;

use serde::Serialize;

use robotstxt_reference::Verdict;
use robotstxt_suite::cause::Cause;
use robotstxt_suite::input::Bounds;
use robotstxt_suite::run::{CheckResult, Outcome};
use robotstxt_suite::visible::Outside;

pub use expected::expected_by;
pub use load::{load, ResultsFile, ResultsLoadError};

/// A results file's bounds: a report of every adapter is about 11 MB, nested six deep.
pub const RESULTS_JSON: Bounds = Bounds {
    what: "results file",
    max_bytes: 256 << 20,
    max_depth: 32,
    hint: "",
};

/// One adapter's results, as a results file holds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterResults {
    pub name: Outside,
    /// The parser's version, as its handshake says.
    pub version: Outside,
    /// Whether it answered at all; an adapter without data is not compared.
    pub has_data: bool,
    /// Every check, in corpus order.
    pub checks: Vec<CheckState>,
}

impl AdapterResults {
    /// The share of scored checks passed, in percent, as the report's totals count it; `None`
    /// when nothing was scored.
    pub fn score(&self) -> Option<f64> {
        let scored = (self.checks.iter()).filter(|c| c.answer.outcome.is_scored());
        let (passed, total) = scored.fold((0usize, 0usize), |(p, t), c| {
            (p + usize::from(c.answer.outcome == Outcome::Pass), t + 1)
        });
        (self.has_data && total > 0).then(|| 100.0 * passed as f64 / total as f64)
    }
}

/// What one run made of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckState {
    /// `case/id#n`.
    pub id: Outside,
    /// The check's short digest, when the file carries it: compared, never shown.
    pub digest: Option<String>,
    pub answer: RunAnswer,
    /// What causes a non-pass, when the file carries it.
    pub cause: Option<Cause>,
}

/// What one run made of a check: its outcome and the verdict given, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RunAnswer {
    pub outcome: Outcome,
    #[serde(serialize_with = "verdict_text")]
    pub verdict: Option<Verdict>,
}

fn verdict_text<S: serde::Serializer>(v: &Option<Verdict>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.serialize_str(v.as_str()),
        None => s.serialize_none(),
    }
}

impl RunAnswer {
    pub fn of(result: &CheckResult) -> RunAnswer {
        RunAnswer {
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
