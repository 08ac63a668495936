//! Running cases against an engine and scoring every check.
//!
//! Each case's body goes to the engine once with all of its checks as one batch, and each answer
//! is scored under the profile the engine claims (or the one forced by `--profile`), as
//! `cases/README.md` describes. `cargo test` runs the corpus through [`run_case`]; `run` and
//! `report` drive many engines at once through `side_by_side`, which scores with [`score`].

use robotstxt_reference::{Profile, Verdict};
use serde::{Deserialize, Serialize};

use crate::cases::{Case, Ruling};
use crate::engine::{AgentForm, Engine, Failure, Fault, Query, Reply};
use crate::readings::Readings;
use crate::visible::Outside;

/// How one check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Pass,
    Fail,
    /// The parser's answer changed when the check was asked again (see [`crate::reask`]).
    Unstable,
    /// The scored profile leaves this check open (or the check names no profile to score under).
    Unspecified,
    /// The parser rejected the body.
    Error,
    /// The parser (or the adapter's URL building) refused the query; the body was read.
    QueryError,
    Crash,
    Timeout,
    ProtocolError,
    /// The engine was unavailable or broken.
    Skipped,
}

impl Outcome {
    pub const ALL: [Outcome; 10] = [
        Outcome::Pass,
        Outcome::Fail,
        Outcome::Unstable,
        Outcome::Unspecified,
        Outcome::Error,
        Outcome::QueryError,
        Outcome::Crash,
        Outcome::Timeout,
        Outcome::ProtocolError,
        Outcome::Skipped,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Unstable => "unstable",
            Outcome::Unspecified => "unspecified",
            Outcome::Error => "error",
            Outcome::QueryError => "query-error",
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
    pub expected: Option<Ruling>,
    pub actual: Option<Verdict>,
    pub outcome: Outcome,
    /// The parser's error message, or what went wrong with the engine: outside text.
    pub detail: Option<Outside>,
    /// On a check its profile leaves open, the fault that came instead of an answer (`error`,
    /// `crash`...): shown, never scored, so `outcome` is `unspecified`.
    pub open_fault: Option<Outcome>,
    /// The readings the check rests on under `scored_under` (see [`crate::readings`]): empty for
    /// a decided check, and for one that is not scored.
    pub rests_on: Readings,
    /// What the engine handed its parser as the robot's name, when the engine says which form it
    /// hands (see [`score_handed`]).
    pub handed: Option<String>,
}

impl CheckResult {
    /// Whether the engine gave no answer here (a crash, a timeout, a protocol error), counting
    /// one it gave on an open point too: the faults a breakdown is made of.
    pub fn is_fault(&self) -> bool {
        matches!(
            self.open_fault.unwrap_or(self.outcome),
            Outcome::Crash | Outcome::Timeout | Outcome::ProtocolError
        )
    }
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
pub fn run_case<E: Engine + ?Sized>(
    case_index: usize,
    case: &Case,
    engine: &mut E,
    scoring: Scoring,
) -> Vec<CheckResult> {
    let reply = engine.check(&case.id, &case.robots, &queries_of(case));
    score_handed(case_index, case, &reply, scoring, engine.agent_form())
}

/// [`score`], each result then recording what an engine handing `form` gave its parser as the
/// robot's name (nothing when the form is not known): how every engine's answer is scored, so
/// that no path (a first asking, a second one alone, another profile) loses what was handed.
pub fn score_handed(
    case_index: usize,
    case: &Case,
    reply: &Result<Reply, Failure>,
    scoring: Scoring,
    form: Option<AgentForm>,
) -> Vec<CheckResult> {
    let mut results = score(case_index, case, reply, scoring);
    if let Some(form) = form {
        for r in &mut results {
            r.handed = Some(form.handed(&case.checks[r.check].agent).to_owned());
        }
    }
    results
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
                detail: format!("{} results for {} queries", v.len(), case.checks.len()).into(),
            });
            &miscounted
        }
        Ok(Reply::Refused(v)) if v.len() != case.checks.len() => {
            miscounted = Err(Failure {
                fault: Fault::ProtocolError,
                detail: format!("{} results for {} queries", v.len(), case.checks.len()).into(),
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
            let verdict_outcome = |actual: Verdict| match scored {
                Some((_, Ruling::Is(expected))) if expected == actual => Outcome::Pass,
                Some((_, Ruling::Is(_))) => Outcome::Fail,
                Some((_, Ruling::Unspecified)) | None => Outcome::Unspecified,
            };
            let (outcome, actual, detail) = match reply {
                Ok(Reply::Verdicts(verdicts)) => {
                    let actual = verdicts[check_index];
                    (verdict_outcome(actual), Some(actual), None)
                }
                Ok(Reply::Rejected(message)) => (Outcome::Error, None, Some(message.clone())),
                Ok(Reply::Refused(answers)) => match &answers[check_index] {
                    Ok(actual) => (verdict_outcome(*actual), Some(*actual), None),
                    Err(message) => (Outcome::QueryError, None, Some(message.clone())),
                },
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
            // The scoring rule (reports/README.md): a check its profile leaves open is never
            // scored, whatever came back; an error there is kept in `detail`, shown but not
            // counted. Only a check that was never asked (`skipped`) says so instead.
            let open = matches!(scored, Some((_, Ruling::Unspecified)) | None);
            let open_fault =
                (open && actual.is_none() && outcome != Outcome::Skipped).then_some(outcome);
            let outcome = if open && outcome != Outcome::Skipped {
                Outcome::Unspecified
            } else {
                outcome
            };
            let rests_on = match scored {
                Some((profile, Ruling::Is(_))) => check.readings.under(profile),
                _ => Readings::NONE,
            };
            CheckResult {
                case: case_index,
                check: check_index,
                scored_under: scored.map(|(p, _)| p),
                expected: scored.map(|(_, e)| e),
                actual,
                outcome,
                detail,
                open_fault,
                rests_on,
                handed: None,
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

/// Where an engine's breakdown begins in its results (over cases in order): the first check of
/// the faults in a row (crashes, timeouts, protocol errors, case after case) that made it give
/// up, followed by the checks never asked. `None` when every check was asked. An engine that
/// could not start at all broke down at 0.
///
/// Those faults and the checks after them are one event, the breakdown: a run counts it once
/// rather than as one failure per check (see [`crate::expectations::gate`]).
pub fn breakdown_start(results: &[CheckResult]) -> Option<usize> {
    let first_skipped = results.iter().position(|r| r.outcome == Outcome::Skipped)?;
    let mut start = first_skipped;
    while start > 0 {
        // The case just before `start`, whole: a batch faults as one.
        let case = results[start - 1].case;
        let begins = results[..start]
            .iter()
            .rposition(|r| r.case != case)
            .map_or(0, |i| i + 1);
        if !results[begins..start].iter().all(CheckResult::is_fault) {
            break;
        }
        start = begins;
    }
    Some(start)
}

/// Counts per outcome, in the shape of the JSON summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub unspecified: usize,
    /// Rejected inputs, crashes, timeouts and protocol errors on scored checks.
    pub errored: usize,
    /// Checks never asked: the adapter was unavailable, or broke down before them.
    pub skipped: usize,
}

impl Summary {
    pub fn of(results: &[CheckResult]) -> Summary {
        let mut summary = Summary::default();
        for r in results {
            match r.outcome {
                Outcome::Pass => summary.passed += 1,
                Outcome::Fail | Outcome::Unstable => summary.failed += 1,
                Outcome::Unspecified => summary.unspecified += 1,
                Outcome::Skipped => summary.skipped += 1,
                _ => summary.errored += 1,
            }
        }
        summary
    }
}
