//! The shapes `run` prints: a JSON document per engine, and the human text.

use robotstxt_reference::Profile;
use serde::Serialize;

use crate::cases::Case;
use crate::engine::Handshake;
use crate::render::{decision_diff, failure_block};
use crate::run::{CheckResult, Outcome, Summary};

/// One engine's run, as `run --format json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct RunDocument {
    /// The adapter's name (`reference` for the reference).
    pub adapter: String,
    /// The profile checks were scored under by preference: forced, or claimed by the engine.
    pub profile: String,
    pub handshake: Handshake,
    pub summary: Summary,
    pub results: Vec<ResultRow>,
}

/// One check's result.
#[derive(Debug, Clone, Serialize)]
pub struct ResultRow {
    pub case: String,
    pub check: usize,
    pub agent: String,
    pub path: String,
    /// `allowed`, `disallowed` or `unspecified` (also when the check names no profile to score).
    pub expected: String,
    /// The engine's verdict; `null` when it gave none.
    pub actual: Option<String>,
    pub outcome: Outcome,
    /// The profile whose expectation scored the check; `null` when none did.
    pub scored_under: Option<String>,
    /// The parser's error message or the engine's failure, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl RunDocument {
    pub fn new(
        handshake: &Handshake,
        profile: Option<Profile>,
        cases: &[Case],
        results: &[CheckResult],
    ) -> RunDocument {
        RunDocument {
            adapter: handshake.name.clone(),
            profile: profile.map_or_else(|| handshake.profile.clone(), |p| p.name().to_owned()),
            handshake: handshake.clone(),
            summary: Summary::of(results),
            results: results
                .iter()
                .map(|r| {
                    let check = &cases[r.case].checks[r.check];
                    ResultRow {
                        case: cases[r.case].id.clone(),
                        check: r.check,
                        agent: check.agent.clone(),
                        path: check.path.clone(),
                        expected: r
                            .expected
                            .map_or_else(|| "unspecified".to_owned(), |e| e.to_string()),
                        actual: r.actual.map(|v| v.as_str().to_owned()),
                        outcome: r.outcome,
                        scored_under: r.scored_under.map(|p| p.name().to_owned()),
                        detail: r.detail.clone(),
                    }
                })
                .collect(),
        }
    }
}

/// The human report of one engine's run: a block for every check that did not pass (with a
/// decision-table diff per case for adapters), then a summary line.
pub fn human(
    handshake: &Handshake,
    cases: &[Case],
    results: &[CheckResult],
    color: bool,
) -> String {
    let mut out = String::new();
    let is_reference = handshake.name == "reference";
    let mut index = 0;
    while index < results.len() {
        let case_index = results[index].case;
        let end = results[index..]
            .iter()
            .position(|r| r.case != case_index)
            .map_or(results.len(), |n| index + n);
        let of_case = &results[index..end];
        let bad: Vec<&CheckResult> = of_case
            .iter()
            .filter(|r| !matches!(r.outcome, Outcome::Pass | Outcome::Unspecified))
            .collect();
        for result in &bad {
            out.push_str(&failure_block(&cases[case_index], result));
        }
        if !bad.is_empty() && !is_reference {
            let all: Vec<&CheckResult> = of_case.iter().collect();
            out.push_str(&decision_diff(&cases[case_index], &all, color));
        }
        if !bad.is_empty() {
            out.push('\n');
        }
        index = end;
    }
    let s = Summary::of(results);
    out.push_str(&format!(
        "{} {} ({}): {} passed, {} failed, {} unspecified, {} errored\n",
        handshake.name,
        handshake.version,
        handshake.profile,
        s.passed,
        s.failed,
        s.unspecified,
        s.errored
    ));
    out
}
