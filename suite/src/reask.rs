//! Asking again: whether a parser's answer is its answer.
//!
//! A parser whose answer depends on something outside the body and the query (a hash seed, the
//! order of a set, the clock) can pass a check in one run and fail it in the next. Such a check
//! is neither a regression nor a settled failure: it is **unstable**, a bug of its own. So a
//! suspect check (a regression in the gate; any non-pass in a report) is asked [`REASKS`] more
//! times, each round after a fresh start of the engine (a new process for an adapter, so a new
//! hash seed too). A check whose answers differ becomes [`Outcome::Unstable`], and its detail
//! lists every answer in the order they came.
//!
//! Only the parser's own answers are compared (a verdict, or the parser rejecting the body): a
//! crash or a timeout in a later round says something about the machine, not about the check.

use std::collections::BTreeMap;

use crate::cases::Case;
use crate::engine::Engine;
use crate::run::{run_case, CheckResult, Outcome, Scoring};

/// How many more times a suspect check is asked, each after a fresh start. Five answers in all:
/// an answer that flips on a coin's toss per process shows it with a chance of 15 in 16.
pub const REASKS: usize = 4;

/// Asks the cases of `suspects` (indexes into `results`, one engine's results over `cases`)
/// again, and marks every suspect whose answer changed as unstable. Returns how many were.
pub fn reask(
    engine: &mut dyn Engine,
    cases: &[Case],
    results: &mut [CheckResult],
    scoring: Scoring,
    suspects: &[usize],
) -> usize {
    if suspects.is_empty() || engine.unavailable().is_some() {
        return 0;
    }
    let mut by_case: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &i in suspects {
        by_case.entry(results[i].case).or_default().push(i);
    }
    let mut answers: BTreeMap<usize, Vec<String>> = suspects
        .iter()
        .map(|&i| (i, answer(&results[i]).into_iter().collect()))
        .collect();
    for _ in 0..REASKS {
        engine.fresh_start();
        for (&case, asked) in &by_case {
            let again = run_case(case, &cases[case], engine, scoring);
            for &i in asked {
                if let Some(a) = again.get(results[i].check).and_then(answer) {
                    answers
                        .get_mut(&i)
                        .expect("every suspect has a list")
                        .push(a);
                }
            }
        }
        if engine.unavailable().is_some() {
            return 0;
        }
    }
    let mut unstable = 0;
    for (i, said) in answers {
        if said.iter().any(|a| *a != said[0]) {
            let result = &mut results[i];
            result.outcome = Outcome::Unstable;
            result.detail = Some(
                format!(
                    "the answer changes when asked again, each time after a fresh start: {}",
                    said.join(", ")
                )
                .into(),
            );
            unstable += 1;
        }
    }
    unstable
}

/// The parser's own answer in a result: its verdict, or that it rejected the body.
fn answer(result: &CheckResult) -> Option<String> {
    match (result.actual, result.outcome) {
        (Some(verdict), _) => Some(verdict.as_str().to_owned()),
        (None, Outcome::Error) => Some("error".to_owned()),
        _ => None,
    }
}
