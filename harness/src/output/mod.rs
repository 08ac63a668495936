//! What `run` prints and writes: a JSON document per engine and the human text (here, with the
//! blocks of text that show a case and a result to people from `robotstxt_suite::blocks`), a
//! Markdown summary for CI job pages ([`summary`]), JUnit XML ([`junit`]), and the escaping every
//! writer uses ([`markup`]).

pub mod github;
pub mod grouped;
pub mod junit;
pub mod markup;
pub mod summary;

use robotstxt_reference::Profile;
use robotstxt_suite::blocks::{decision_diff, failure_block};
use robotstxt_suite::cases::Case;
use robotstxt_suite::engine::Handshake;
use robotstxt_suite::expectations::gate::{Judged, Status, Tally};
use robotstxt_suite::expectations::ExpectationFile;
use robotstxt_suite::release::{CheckDigests, CorpusId};
use robotstxt_suite::run::{CheckResult, Outcome, Summary};
use robotstxt_suite::visible::shown;
use serde::Serialize;

use crate::repeats::ShownOnce;

/// One engine's run as every output format sees it: who answered, the results, and the
/// expectation file it was judged against, if any.
#[derive(Debug, Clone, Copy)]
pub struct EngineRun<'a> {
    pub handshake: &'a Handshake,
    pub results: &'a [CheckResult],
    /// Why the engine could not run (or broke down), if so.
    pub unavailable: Option<&'a str>,
    pub gate: Option<(&'a ExpectationFile, &'a Judged)>,
}

impl EngineRun<'_> {
    /// Whether the engine never answered: it could not start (or broke before its first answer),
    /// so every check was skipped. Such a run is one line, not a block per check.
    pub fn never_answered(&self) -> bool {
        self.unavailable.is_some() && self.results.iter().all(|r| r.outcome == Outcome::Skipped)
    }

    /// The one line (and the adapter's stderr, for a crash) that stands for a run that never
    /// answered, with what to try next.
    pub fn unavailable_text(&self, hint: &str) -> String {
        let why = self.unavailable.unwrap_or_default();
        // The fault the start ended in, said as what happened at start.
        let said = [
            ("unavailable: ", ""),
            ("crash: ", "it crashed at start: "),
            ("timeout: ", "no hello in time: "),
            ("protocol-error: ", "its hello breaks the protocol: "),
        ]
        .into_iter()
        .find_map(|(fault, said)| why.strip_prefix(fault).map(|rest| format!("{said}{rest}")))
        .unwrap_or_else(|| why.to_owned());
        let why = said.as_str();
        format!(
            "{}: unavailable: {}\n  {hint}\n",
            shown(&self.handshake.name),
            shown(why).trim_end()
        )
    }
}

/// One engine's run, as `run --format json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct RunDocument {
    /// The adapter's name (`reference` for the reference).
    pub adapter: String,
    /// The profile checks were scored under by preference: forced, or claimed by the engine.
    pub profile: String,
    /// The corpus's suite version (`1.0.0`, `1.0.0+changes`, `none`) and digest, as in
    /// `results.json`.
    pub suite_version: String,
    pub corpus_digest: String,
    pub handshake: Handshake,
    pub summary: Summary,
    /// With `--expectations`: the file, the counts, and which checks broke the gate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<GateDocument>,
    pub results: Vec<ResultRow>,
}

/// A run judged against an expectation file.
#[derive(Debug, Clone, Serialize)]
pub struct GateDocument {
    pub file: String,
    #[serde(flatten)]
    pub tally: Tally,
    /// Check ids: unlisted non-passes, and listed checks with another outcome.
    pub regression_ids: Vec<String>,
    /// Check ids: regressions whose answer changed when asked again.
    pub unstable_ids: Vec<String>,
    /// Check ids: listed, but now passing or no longer scored.
    pub unexpected_pass_ids: Vec<String>,
}

impl GateDocument {
    pub fn new(
        expectations: &ExpectationFile,
        judged: &Judged,
        cases: &[Case],
        results: &[CheckResult],
    ) -> GateDocument {
        let ids = |wanted: fn(&Status) -> bool| -> Vec<String> {
            judged
                .statuses
                .iter()
                .zip(results)
                .filter(|(s, _)| wanted(s))
                .map(|(_, r)| format!("{}#{}", cases[r.case].id, r.check))
                .collect()
        };
        GateDocument {
            file: expectations.file.display().to_string(),
            tally: judged.tally(),
            regression_ids: ids(|s| matches!(s, Status::Regression(_))),
            unstable_ids: ids(|s| matches!(s, Status::Unstable(_))),
            unexpected_pass_ids: ids(|s| matches!(s, Status::UnexpectedPass(_))),
        }
    }
}

/// One check's result.
#[derive(Debug, Clone, Serialize)]
pub struct ResultRow {
    pub case: String,
    pub check: usize,
    pub agent: String,
    pub path: String,
    /// What the check asks and how it is scored, as one short digest (as in `results.json`).
    pub digest: String,
    /// `allowed`, `disallowed` or `unspecified` (also when the check names no profile to score).
    pub expected: String,
    /// The engine's verdict; `null` when it gave none.
    pub actual: Option<String>,
    pub outcome: Outcome,
    /// The profile whose expectation scored the check; `null` when none did.
    pub scored_under: Option<String>,
    /// What causes a non-pass, as `run` groups it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<robotstxt_suite::cause::Cause>,
    /// The parser's error message or the engine's failure, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl RunDocument {
    pub fn new(
        handshake: &Handshake,
        profile: Option<Profile>,
        corpus: &CorpusId,
        cases: &[Case],
        results: &[CheckResult],
    ) -> RunDocument {
        let digest = |r: &CheckResult| CheckDigests::of(&cases[r.case], r.check).short();
        RunDocument {
            suite_version: corpus.version_shown(),
            corpus_digest: corpus.digest.clone(),
            adapter: handshake.name.clone(),
            profile: profile.map_or_else(|| handshake.profile.clone(), |p| p.name().to_owned()),
            handshake: handshake.clone(),
            summary: Summary::of(results),
            gate: None,
            results: results
                .iter()
                .map(|r| {
                    let check = &cases[r.case].checks[r.check];
                    ResultRow {
                        case: cases[r.case].id.clone(),
                        check: r.check,
                        agent: check.agent.clone(),
                        path: check.path.clone(),
                        digest: digest(r),
                        expected: r
                            .expected
                            .map_or_else(|| "unspecified".to_owned(), |e| e.to_string()),
                        actual: r.actual.map(|v| v.as_str().to_owned()),
                        outcome: r.outcome,
                        scored_under: r.scored_under.map(|p| p.name().to_owned()),
                        detail: r.detail.clone(),
                        cause: crate::report::json::cause_of(&cases[r.case], r),
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
    let mut once = ShownOnce::default();
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
            let case = &cases[case_index];
            out.push_str(&failure_block(case, &once.result(case, result)));
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
    out.push_str(&summary_line(handshake, results));
    out.push('\n');
    out
}

/// `name version (profile): N passed, N failed, N unspecified, N errored[, N skipped]`.
pub(crate) fn summary_line(handshake: &Handshake, results: &[CheckResult]) -> String {
    let s = Summary::of(results);
    let skipped = if s.skipped > 0 {
        format!(", {} skipped", s.skipped)
    } else {
        String::new()
    };
    format!(
        "{} {} ({}): {} passed, {} failed, {} unspecified, {} errored{skipped}",
        shown(&handshake.name),
        shown(&handshake.version),
        shown(&handshake.profile),
        s.passed,
        s.failed,
        s.unspecified,
        s.errored
    )
}

/// The human report of a run judged against an expectation file: a block for every regression
/// (the checks listed and still failing as listed are not shown again), a line for every
/// unexpected pass, then the summary line and the gate's counts.
pub fn human_gated(
    run: EngineRun<'_>,
    expectations: &ExpectationFile,
    judged: &Judged,
    cases: &[Case],
    strict: bool,
) -> String {
    let mut out = String::new();
    let mut once = ShownOnce::default();
    for (result, status) in run.results.iter().zip(&judged.statuses) {
        let case = &cases[result.case];
        match *status {
            Status::Regression(listed) => {
                out.push_str("REGRESSION ");
                if let Some(entry) = listed {
                    let entry = &expectations.entries[entry];
                    out.push_str(&format!(
                        "(listed as {}: {}) ",
                        entry.outcome,
                        entry.reason.trim()
                    ));
                }
                out.push_str(&failure_block(case, &once.result(case, result)));
                out.push('\n');
            }
            Status::Unstable(_) => {
                out.push_str("UNSTABLE (list it as `unstable`, and report it to the parser) ");
                out.push_str(&failure_block(case, &once.result(case, result)));
                out.push('\n');
            }
            Status::UnexpectedPass(entry) => {
                let entry = &expectations.entries[entry];
                out.push_str(&format!(
                    "UNEXPECTED PASS {}#{}: listed as {} ({}), now {}\n",
                    case.id,
                    result.check,
                    entry.outcome,
                    entry.reason.trim(),
                    result.outcome
                ));
            }
            Status::Pass | Status::NotScored | Status::AsListed(_) => {}
        }
    }
    let t = judged.tally();
    let verdict = if judged.fails(strict) {
        "FAILS the gate"
    } else {
        "as expected"
    };
    out.push_str(&format!(
        "{}\n  against {}: {} non-passes as listed, {} regressions, {} unstable, {} unexpected \
         passes{}: {verdict}\n",
        summary_line(run.handshake, run.results),
        expectations.file.display(),
        t.as_listed,
        t.regressions,
        t.unstable,
        t.unexpected_passes,
        if strict { " (strict)" } else { "" },
    ));
    out
}
