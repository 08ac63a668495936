//! What `run` prints and writes: a JSON document per engine and the human text (here, with the
//! blocks of text that show a case and a result to people from `robotstxt_suite::blocks`), a
//! Markdown summary for CI job pages ([`summary`]), JUnit XML ([`junit`]), and the escaping every
//! writer uses is the runtime's (`robotstxt_runtime::markup`).

pub mod fit;
pub mod github;
pub mod grouped;
pub mod junit;
pub mod regressions;
pub mod summary;

use robotstxt_suite::visible::path_shown;
use std::collections::BTreeMap;
use std::time::Duration;

use robotstxt_reference::Profile;
use robotstxt_suite::blocks::{decision_diff, failure_block};
use robotstxt_suite::cases::Case;
use robotstxt_suite::engine::Handshake;
use robotstxt_suite::expectations::gate::{Judged, Status, Tally};
use robotstxt_suite::expectations::ExpectationFile;
use robotstxt_suite::headline::Headline;
use robotstxt_suite::reask::{GATE_PATIENT_ASKS, PATIENCE};
use robotstxt_suite::release::{CheckDigests, CorpusId};
use robotstxt_suite::run::{CheckResult, Outcome, Summary};
use robotstxt_suite::visible::{shown, Outside};
use serde::Serialize;

use crate::repeats::ShownOnce;

/// One engine's run as every output format sees it: who answered, the results, and the
/// expectation file it was judged against, if any.
#[derive(Debug, Clone, Copy)]
pub struct EngineRun<'a> {
    pub handshake: &'a Handshake,
    pub results: &'a [CheckResult],
    /// Why the engine could not run (or broke down), if so.
    pub unavailable: Option<&'a Outside>,
    pub gate: Option<(&'a ExpectationFile, &'a Judged)>,
    /// The results (indexes) that timed out first and answered when asked again with more time.
    pub slow: &'a [usize],
    /// How long each timeout that answered took when asked alone, by result index.
    pub took: &'a BTreeMap<usize, Duration>,
    /// The `--timeout` the run was given, in seconds (`None` for the reference, which has none).
    pub timeout: Option<f64>,
    /// What to try when the engine broke down: `try: robotstxt-test adapters check ...`.
    pub check_hint: Option<&'a str>,
    /// The score every format prints, with the suite version.
    pub headline: &'a Headline,
}

/// No timeout asked again: what [`EngineRun::plain`] points at.
static NO_TIMES: BTreeMap<usize, Duration> = BTreeMap::new();

/// Lines of an adapter's stderr (a traceback's end) shown under a breakdown, on a terminal and
/// in the Markdown summary; the rest is in `--format json` and `junit`.
const STDERR_LINES: usize = 8;

impl EngineRun<'_> {
    /// An engine's run with nothing but its results: no gate, nothing slow, no hint.
    pub fn plain<'a>(
        handshake: &'a Handshake,
        results: &'a [CheckResult],
        unavailable: Option<&'a Outside>,
        headline: &'a Headline,
    ) -> EngineRun<'a> {
        EngineRun {
            handshake,
            results,
            unavailable,
            gate: None,
            slow: &[],
            took: &NO_TIMES,
            timeout: None,
            check_hint: None,
            headline,
        }
    }

    /// Whether the engine never answered: it could not start (or broke before its first answer),
    /// so every check was skipped. Such a run is one line, not a block per check.
    pub fn never_answered(&self) -> bool {
        self.unavailable.is_some() && self.results.iter().all(|r| r.outcome == Outcome::Skipped)
    }

    /// Where the engine's breakdown begins in its results, when it answered some checks and then
    /// broke down (see [`robotstxt_suite::run::breakdown_start`]).
    pub fn broke_down_at(&self) -> Option<usize> {
        if self.unavailable.is_none() || self.never_answered() {
            return None;
        }
        robotstxt_suite::run::breakdown_start(self.results)
    }

    /// The results before the breakdown (all of them when there was none): what is judged and
    /// shown check by check.
    pub fn answered(&self) -> &[CheckResult] {
        &self.results[..self.broke_down_at().unwrap_or(self.results.len())]
    }

    /// The breakdown, for a terminal: what happened and where, the tail of the adapter's stderr,
    /// how many checks it took, and what to try. Empty when the engine did not break down.
    pub fn breakdown_text(&self, cases: &[Case]) -> String {
        let Some(start) = self.broke_down_at() else {
            return String::new();
        };
        let why = self.unavailable.map(Outside::raw).unwrap_or_default();
        let (what, stderr) = match why.split_once("\nstderr (tail):\n") {
            Some((what, tail)) => (what, Some(tail)),
            None => (why, None),
        };
        let case = &cases[self.results[start].case];
        let mut out = format!(
            "{}: broke down part way, at {} ({} of {} cases): {}\n",
            self.handshake.name,
            case.id,
            self.results[start].case + 1,
            self.results.last().map_or(0, |r| r.case + 1),
            shown(&cut_middle(what.trim_end(), 400))
        );
        if let Some(tail) = stderr {
            let lines: Vec<&str> = tail.lines().collect();
            let cut = lines.len().saturating_sub(STDERR_LINES);
            let more = if cut > 0 {
                format!(" (its last {STDERR_LINES} lines)")
            } else {
                String::new()
            };
            out.push_str(&format!("  stderr{more}:\n"));
            for line in &lines[cut..] {
                out.push_str(&format!("    {}\n", shown(&cut_middle(line, 200))));
            }
        }
        let lost = self.results.len() - start;
        out.push_str(&format!(
            "  {lost} {} from there on {} counted once, as this breakdown: not judged one by one\n",
            plural(lost, "check", "checks"),
            if lost == 1 { "is" } else { "are" }
        ));
        if let Some(hint) = self.check_hint {
            out.push_str(&format!("  {hint}\n"));
        }
        out
    }

    /// The one line (and the adapter's stderr, for a crash) that stands for a run that never
    /// answered, with what to try next.
    pub fn unavailable_text(&self, hint: &str) -> String {
        let why = self.unavailable.map(Outside::raw).unwrap_or_default();
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
            self.handshake.name,
            shown(why).trim_end()
        )
    }
}

/// One engine's run, as `run --format json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct RunDocument {
    /// The adapter's name (`reference` for the reference).
    pub adapter: Outside,
    /// The profile checks were scored under by preference: forced, or claimed by the engine.
    pub profile: String,
    /// The corpus's suite version (`1.0.0`, `1.0.0+changes`, `none`) and digest, as in
    /// `results.json`.
    pub suite_version: String,
    pub corpus_digest: String,
    /// The headline score, as every output prints it.
    pub score: ScoreDocument,
    /// When the run was filtered (`--topic`, `--case`, `--group`): what it kept. The result is
    /// then of part of the suite.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial: Option<String>,
    pub handshake: Handshake,
    pub summary: Summary,
    /// Why the adapter could not run, or how it broke down part way (with its stderr tail).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
    /// Check ids: the checks that timed out and answered when asked again with more time.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub slow_under_load_ids: Vec<String>,
    /// Per check id of `slow_under_load_ids`: the seconds it took when asked again alone.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub slow_seconds_alone: BTreeMap<String, f64>,
    /// With `--expectations`: the file, the counts, and which checks broke the gate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<GateDocument>,
    pub results: Vec<ResultRow>,
}

/// The headline score ([`Headline`]) in a JSON document.
#[derive(Debug, Clone, Serialize)]
pub struct ScoreDocument {
    /// `95.4%`, as every output shows it.
    pub percent: String,
    /// `95.4% of decided checks (rfc9309)`.
    pub label: String,
    /// The line to cite: `passes robotstxt-test suite 1.0.0: 95.4% of decided checks (rfc9309)`.
    pub citation: String,
    pub passed: usize,
    pub decided: usize,
    /// Whether only part of the corpus was run (a filtered run).
    pub partial: bool,
}

impl From<&Headline> for ScoreDocument {
    fn from(h: &Headline) -> ScoreDocument {
        ScoreDocument {
            percent: h.percent(),
            label: h.label(),
            citation: h.citation(),
            passed: h.passed,
            decided: h.decided,
            partial: h.partial,
        }
    }
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
    /// The regressions counted by group, largest first: `group` (its label), `count`, `ids`.
    pub regression_groups: Vec<RegressionGroupDocument>,
}

/// One group of a gate's regressions.
#[derive(Debug, Clone, Serialize)]
pub struct RegressionGroupDocument {
    pub group: robotstxt_suite::cause::Cause,
    pub label: &'static str,
    pub count: usize,
    pub ids: Vec<String>,
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
            regression_groups: (regressions::groups(judged, cases, results).into_iter())
                .map(|g| RegressionGroupDocument {
                    group: g.cause,
                    label: g.cause.label(),
                    count: g.members.len(),
                    ids: (g.members.iter())
                        .map(|&i| regressions::check_id(cases, &results[i]))
                        .collect(),
                })
                .collect(),
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
    pub detail: Option<Outside>,
}

impl RunDocument {
    pub fn new(
        run: &EngineRun<'_>,
        profile: Option<Profile>,
        corpus: &CorpusId,
        cases: &[Case],
    ) -> RunDocument {
        let (handshake, results) = (run.handshake, run.results);
        let id = |i: &usize| format!("{}#{}", cases[results[*i].case].id, results[*i].check);
        let digest = |r: &CheckResult| CheckDigests::of(&cases[r.case], r.check).short();
        RunDocument {
            suite_version: corpus.version_shown(),
            corpus_digest: corpus.digest.clone(),
            score: run.headline.into(),
            partial: None,
            adapter: handshake.name.clone(),
            profile: profile.map_or_else(
                || handshake.profile.raw().to_owned(),
                |p| p.name().to_owned(),
            ),
            handshake: handshake.clone(),
            summary: Summary::of(results),
            unavailable: run.unavailable.map(|why| why.raw().to_owned()),
            slow_under_load_ids: run.slow.iter().map(id).collect(),
            slow_seconds_alone: (run.slow.iter())
                .filter_map(|i| run.took.get(i).map(|t| (id(i), t.as_secs_f64())))
                .collect(),
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
                        cause: crate::grouping::cause_of(&cases[r.case], r),
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
    headline: &Headline,
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
    out.push_str(&score_line(headline));
    out
}

/// `  cite as: passes robotstxt-test suite 1.0.0: 95.4% of decided checks (rfc9309)`, under the
/// summary line of every text format.
/// A partial run's line says it is no score of the suite.
pub fn score_line(headline: &Headline) -> String {
    if headline.partial {
        format!(
            "  score of a partial run (not the suite's): {}\n",
            headline.with_suite()
        )
    } else {
        format!("  cite as: {}\n", headline.citation())
    }
}

/// What the run's timeouts were, said as the parser's slowness: the checks that timed out and
/// then answered when asked again alone (how long each took alone, and the `--timeout` that lets
/// every one answer the first time), and those that never answered. Nothing when none timed out.
/// Long lists are cut, so that every line fits 120 columns.
pub fn slow_text(run: &EngineRun<'_>, cases: &[Case]) -> String {
    let id = |i: usize| format!("{}#{}", cases[run.results[i].case].id, run.results[i].check);
    let mut out = String::new();
    let deadline = run
        .timeout
        .map_or_else(String::new, |t| format!(" at {t} s"));
    if !run.slow.is_empty() {
        let n = run.slow.len();
        // By case, each case's checks together, with the time its ask took alone.
        let mut by_case: Vec<(usize, Vec<usize>, Option<Duration>)> = Vec::new();
        for &i in run.slow {
            let r = &run.results[i];
            match by_case.last_mut() {
                Some((case, checks, _)) if *case == r.case => checks.push(r.check),
                _ => by_case.push((r.case, vec![r.check], run.took.get(&i).copied())),
            }
        }
        let listed: Vec<String> = (by_case.iter().take(4))
            .map(|(case, checks, took)| {
                let checks: Vec<String> = checks.iter().map(ToString::to_string).collect();
                let took =
                    took.map_or_else(String::new, |t| format!(" in {:.1} s", t.as_secs_f64()));
                format!("{}#{}{took}", cases[*case].id, checks.join(","))
            })
            .collect();
        let more = by_case.len() - listed.len();
        let more = if more > 0 {
            format!(" and {more} more cases")
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  slow: {n} {} timed out{deadline}, then answered when asked again alone (the \
             parser's slowness,\n    not a change of its answers): {}{more}\n",
            plural(n, "check", "checks"),
            listed.join(", ")
        ));
        let longest = (run.slow.iter())
            .filter_map(|i| run.took.get(i))
            .max()
            .map(Duration::as_secs_f64);
        if let (Some(longest), Some(_)) = (longest, run.timeout) {
            out.push_str(&format!(
                "    --timeout {} lets {} answer the first time\n",
                enough_timeout(longest),
                if n == 1 { "it" } else { "every one" }
            ));
        }
    }
    let never: Vec<usize> = (run.answered().iter().enumerate())
        .filter(|(_, r)| r.outcome == Outcome::Timeout)
        .map(|(i, _)| i)
        .collect();
    if let (false, Some(timeout)) = (never.is_empty(), run.timeout) {
        let most = timeout * f64::from(PATIENCE.pow(GATE_PATIENT_ASKS as u32));
        let listed: Vec<String> = never.iter().take(4).map(|&i| id(i)).collect();
        let more = never.len() - listed.len();
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  timed out: {} {} gave no answer{deadline}, nor when asked again alone with more time \
             (its detail says how much):\n    {}{more}; if the parser is that slow, try \
             --timeout {}\n",
            never.len(),
            plural(never.len(), "check", "checks"),
            listed.join(", "),
            enough_timeout(most)
        ));
    }
    out
}

/// A `--timeout` with room above `seconds` (half again, rounded up to a whole second).
pub fn enough_timeout(seconds: f64) -> u64 {
    (seconds * 1.5).ceil().max(1.0) as u64
}

/// `one` when there is exactly one, else `many`: `1 check`, `2 checks`, `0 queries`.
pub fn plural<'w>(n: usize, one: &'w str, many: &'w str) -> &'w str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// `text` cut in the middle when it holds more than `max` characters, the cut saying how many:
/// `/aaaa…[2,873 characters]…aaaa`. A long path or value keeps its start and its end, which are
/// what tell two of them apart.
pub fn cut_middle(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    robotstxt_suite::visible::cut_middle(text, max)
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
        handshake.name,
        handshake.version,
        handshake.profile,
        s.passed,
        s.failed,
        s.unspecified,
        s.errored
    )
}

/// The human report of a run judged against an expectation file: the summary, the gate's
/// verdict and its regressions counted by group first (so that they fit the first screen), then
/// each group with one regression in full and the ids of the others (`long`: every one in full),
/// every unstable check, a line for every unexpected pass, and at the end the counts by group
/// again.
pub fn human_gated(
    run: EngineRun<'_>,
    expectations: &ExpectationFile,
    judged: &Judged,
    cases: &[Case],
    strict: bool,
    long: bool,
) -> String {
    let groups = regressions::groups(judged, cases, run.results);
    let counts = regressions::count_lines(&groups, cases, run.results);
    let t = judged.tally();
    let verdict = if run.broke_down_at().is_some() {
        "BROKE DOWN"
    } else if judged.fails(strict) {
        "FAILS the gate"
    } else {
        "as expected"
    };
    let broke_down = if t.broke_down > 0 {
        format!(", {} not judged (the breakdown)", t.broke_down)
    } else {
        String::new()
    };
    let mut out = format!(
        "{}\n{}  against {}: {} non-passes as listed, {} {}, {} unstable, {} unexpected \
         {}{broke_down}{}: {verdict}\n",
        summary_line(run.handshake, run.results),
        score_line(run.headline),
        path_shown(&expectations.file),
        t.as_listed,
        t.regressions,
        plural(t.regressions, "regression", "regressions"),
        t.unstable,
        t.unexpected_passes,
        plural(t.unexpected_passes, "pass", "passes"),
        if strict { " (strict)" } else { "" },
    );
    out.push_str(&counts);
    let mut once = ShownOnce::default();
    let mut block = |out: &mut String, i: usize| {
        let result = &run.results[i];
        let case = &cases[result.case];
        out.push_str("REGRESSION ");
        if let Status::Regression(Some(entry)) = judged.statuses[i] {
            let entry = &expectations.entries[entry];
            out.push_str(&format!(
                "(listed as {}: {}) ",
                entry.outcome,
                shown(entry.reason.trim())
            ));
        }
        let text = failure_block(case, &once.result(case, result));
        out.push_str(&fit::block(&text, (!long).then_some(2)));
    };
    for group in &groups {
        out.push_str(&format!("\n== {}\n", group.counted()));
        let shown_in_full = if long { group.members.len() } else { 1 };
        for &i in &group.members[..shown_in_full] {
            block(&mut out, i);
        }
        let others: Vec<String> = (group.members[shown_in_full..].iter())
            .map(|&i| regressions::check_id(cases, &run.results[i]))
            .collect();
        if !others.is_empty() {
            out.push_str(&grouped::wrapped("  also: ", &others));
        }
    }
    let mut surprises = String::new();
    for (result, status) in run.results.iter().zip(&judged.statuses) {
        let case = &cases[result.case];
        match *status {
            Status::Unstable(_) => {
                out.push_str("\nUNSTABLE (list it as `unstable`, and report it to the parser) ");
                out.push_str(&failure_block(case, &once.result(case, result)));
            }
            Status::UnexpectedPass(entry) => {
                let entry = &expectations.entries[entry];
                surprises.push_str(&format!(
                    "UNEXPECTED PASS {}#{}: listed as {} ({}), now {}\n",
                    case.id,
                    result.check,
                    entry.outcome,
                    shown(&cut_middle(entry.reason.trim(), 60)),
                    result.outcome
                ));
            }
            _ => {}
        }
    }
    if !surprises.is_empty() {
        out.push('\n');
        out.push_str(&surprises);
    }
    out.push_str(&slow_text(&run, cases));
    out.push_str(&run.breakdown_text(cases));
    if !groups.is_empty() {
        out.push('\n');
        out.push_str(&counts);
        out.push_str(&format!("{}: {verdict}\n", run.handshake.name));
    }
    out
}
