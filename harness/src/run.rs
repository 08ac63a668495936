//! Running cases against an engine and scoring every check.
//!
//! This is the one loop behind `cargo test`, `run` and `report`: each case's body goes to the
//! engine once with all of its checks as one batch, and each answer is scored under the profile
//! the engine claims (or the one forced by `--profile`), as `cases/README.md` describes.

use robotstxt_reference::{Profile, Verdict};
use serde::{Deserialize, Serialize};

use crate::cases::{Case, Expectation};
use crate::engine::{Engine, Failure, Fault, Query, Reply};

/// How one check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Pass,
    Fail,
    /// The scored profile leaves this check open (or the check names no profile to score under).
    Unspecified,
    /// The parser rejected the input.
    Error,
    Crash,
    Timeout,
    ProtocolError,
    /// The engine was unavailable or broken.
    Skipped,
}

impl Outcome {
    pub const ALL: [Outcome; 8] = [
        Outcome::Pass,
        Outcome::Fail,
        Outcome::Unspecified,
        Outcome::Error,
        Outcome::Crash,
        Outcome::Timeout,
        Outcome::ProtocolError,
        Outcome::Skipped,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Unspecified => "unspecified",
            Outcome::Error => "error",
            Outcome::Crash => "crash",
            Outcome::Timeout => "timeout",
            Outcome::ProtocolError => "protocol-error",
            Outcome::Skipped => "skipped",
        }
    }

    /// Whether the check counts toward a score (passed / scored).
    pub fn is_scored(self) -> bool {
        !matches!(self, Outcome::Unspecified | Outcome::Skipped)
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of one check of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult {
    /// Index of the case in the slice that was run.
    pub case: usize,
    /// Index of the check within its case.
    pub check: usize,
    /// The profile whose expectation scored this check, if any.
    pub scored_under: Option<Profile>,
    pub expected: Option<Expectation>,
    pub actual: Option<Verdict>,
    pub outcome: Outcome,
    /// The parser's error message, or what went wrong with the engine.
    pub detail: Option<String>,
}

/// Which profile's expectations score an engine's answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// The profile the engine claims, falling back to `norobots-1994` per check.
    Claimed(Option<Profile>),
    /// `--profile P`: P's expectation, falling back to `norobots-1994` per check.
    Forced(Profile),
}

impl Scoring {
    fn preferred(self) -> Option<Profile> {
        match self {
            Scoring::Claimed(p) => p,
            Scoring::Forced(p) => Some(p),
        }
    }
}

/// The queries of a case, in check order.
pub fn queries_of(case: &Case) -> Vec<Query> {
    case.checks
        .iter()
        .map(|c| Query {
            agent: c.agent.clone(),
            path: c.path.clone(),
        })
        .collect()
}

/// Runs one case (index `case_index` in the caller's list) against `engine`.
pub fn run_case(
    case_index: usize,
    case: &Case,
    engine: &mut dyn Engine,
    scoring: Scoring,
) -> Vec<CheckResult> {
    let reply = engine.check(&case.id, &case.robots, &queries_of(case));
    score(case_index, case, &reply, scoring)
}

/// Scores an engine's answer to a case's queries. Separate from asking, so that one answer can
/// be scored under several profiles.
pub fn score(
    case_index: usize,
    case: &Case,
    reply: &Result<Reply, Failure>,
    scoring: Scoring,
) -> Vec<CheckResult> {
    let miscounted;
    let reply = match reply {
        Ok(Reply::Verdicts(v)) if v.len() != case.checks.len() => {
            miscounted = Err(Failure {
                fault: Fault::ProtocolError,
                detail: format!("{} results for {} queries", v.len(), case.checks.len()),
            });
            &miscounted
        }
        other => other,
    };
    case.checks
        .iter()
        .enumerate()
        .map(|(check_index, check)| {
            let scored = check.expect.scored_under(scoring.preferred());
            let (outcome, actual, detail) = match reply {
                Ok(Reply::Verdicts(verdicts)) => {
                    let actual = verdicts[check_index];
                    let outcome = match scored {
                        Some((_, Expectation::Is(expected))) if expected == actual => Outcome::Pass,
                        Some((_, Expectation::Is(_))) => Outcome::Fail,
                        Some((_, Expectation::Unspecified)) | None => Outcome::Unspecified,
                    };
                    (outcome, Some(actual), None)
                }
                Ok(Reply::Rejected(message)) => (Outcome::Error, None, Some(message.clone())),
                Err(failure) => {
                    let outcome = match failure.fault {
                        Fault::Crash => Outcome::Crash,
                        Fault::Timeout => Outcome::Timeout,
                        Fault::ProtocolError => Outcome::ProtocolError,
                        Fault::Unavailable => Outcome::Skipped,
                    };
                    (outcome, None, Some(failure.detail.clone()))
                }
            };
            CheckResult {
                case: case_index,
                check: check_index,
                scored_under: scored.map(|(p, _)| p),
                expected: scored.map(|(_, e)| e),
                actual,
                outcome,
                detail,
            }
        })
        .collect()
}

/// Runs every case against `engine`, calling `progress` after each case with (done, total).
pub fn run_cases(
    cases: &[Case],
    engine: &mut dyn Engine,
    scoring: Scoring,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<CheckResult> {
    let mut results = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        results.extend(run_case(index, case, engine, scoring));
        progress(index + 1, cases.len());
    }
    results
}

/// Runs every case against each engine, each engine on its own thread. Adapters spend their time
/// in their own processes, so they overlap well even on few cores. Results come back in engine
/// order; `progress` is called with (engine index, cases done, total).
pub fn run_engines(
    cases: &[Case],
    engines: &mut [Box<dyn Engine>],
    scoring: &(dyn Fn(&dyn Engine) -> Scoring + Sync),
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Vec<Vec<CheckResult>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = engines
            .iter_mut()
            .enumerate()
            .map(|(index, engine)| {
                scope.spawn(move || {
                    let scoring = scoring(engine.as_ref());
                    run_cases(cases, engine.as_mut(), scoring, &mut |done, total| {
                        progress(index, done, total)
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an engine thread panicked"))
            .collect()
    })
}

/// Counts per outcome, in the shape of the JSON summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub unspecified: usize,
    /// Every other outcome: rejected inputs, crashes, timeouts, protocol errors, skips.
    pub errored: usize,
}

impl Summary {
    pub fn of(results: &[CheckResult]) -> Summary {
        let mut summary = Summary::default();
        for r in results {
            match r.outcome {
                Outcome::Pass => summary.passed += 1,
                Outcome::Fail => summary.failed += 1,
                Outcome::Unspecified => summary.unspecified += 1,
                _ => summary.errored += 1,
            }
        }
        summary
    }
}
