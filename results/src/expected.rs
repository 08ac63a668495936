//! The run an expectation file expects, as a results file would hold it.

use std::collections::HashMap;

use robotstxt_suite::expectations::{Entry, ExpectationFile};
use robotstxt_suite::run::Outcome;

use crate::{AdapterResults, CheckState, RunAnswer};

/// The run an expectation file expects, over the checks of `actual`: a listed check with its
/// listed outcome, any other scored check passing. Where the expectation and the run agree on
/// the outcome, the run's verdict is taken too, so that only a change of outcome shows: `diff`
/// of this against the run is the gate's judgement, check by check.
pub fn expected_by(file: &ExpectationFile, actual: &AdapterResults) -> AdapterResults {
    let listed: HashMap<String, &Entry> = (file.entries.iter())
        .map(|e| (e.check.to_string(), e))
        .collect();
    let checks = (actual.checks.iter())
        .map(|check| {
            let now = check.answer.outcome;
            let entry = listed.get(check.id.raw());
            let outcome = match entry.map(|e| e.outcome.outcome()) {
                // An unstable check may answer anything.
                Some(Outcome::Unstable) => now,
                Some(outcome) => outcome,
                None if matches!(now, Outcome::Unspecified | Outcome::Skipped) => now,
                None => Outcome::Pass,
            };
            CheckState {
                answer: RunAnswer {
                    outcome,
                    verdict: (outcome == now).then_some(check.answer.verdict).flatten(),
                },
                cause: entry.and_then(|e| e.cause),
                ..check.clone()
            }
        })
        .collect();
    AdapterResults {
        name: actual.name.clone(),
        version: actual.version.clone(),
        has_data: actual.has_data,
        checks,
    }
}
