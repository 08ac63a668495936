//! `index.html`: one self-contained page (no external assets) with the coloured matrix, adapters
//! as rows and checks as columns, grouped by topic; clicking a cell shows the case.
//!
//! The page is `page.html` (inline CSS and JavaScript) with the report's data embedded as JSON in
//! a `<script type="application/json">` block. The JSON is made safe for that spot with
//! [`markup::json_in_script`], and the page's script puts case content into the document with
//! `textContent` only, so a robots.txt holding `<script>` or `"><img onerror=...>` shows as text.
//! Bodies are shown with their bytes made visible by
//! [`visible_body`], and each check carries the reference's
//! explanation under every profile.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::grouping;
use robotstxt_reference::{Profile, Robots};
use robotstxt_suite::blocks::visible_body;
use robotstxt_suite::cause::Cause;
use robotstxt_suite::readings::Reading;
use robotstxt_suite::run::Outcome;
use robotstxt_suite::visible::Outside;
use robotstxt_suite::visible::{json_escaped, shown};
use serde::Serialize;

use robotstxt_runtime::markup;

use super::json::expect_map;
use super::matrix;
use super::versions;
use super::Report;

const TEMPLATE: &str = include_str!("page.html");
const PLACEHOLDER: &str = "/*DATA*/";
/// Where the charts go: drawn here, not by the page's script.
const CHARTS: &str = "<!--CHARTS-->";

#[derive(Serialize)]
struct PageData<'a> {
    suite_commit: &'a str,
    suite_modified: bool,
    tool_version: &'a str,
    /// The corpus's suite version, which a cited score names.
    suite_version: String,
    command: &'a str,
    date: &'a str,
    /// `claimed`, then every profile name.
    scorings: Vec<String>,
    groups: Vec<GroupData>,
    cases: Vec<CaseData<'a>>,
    adapters: Vec<AdapterData<'a>>,
    /// Adapter indices, in display order, grouped where they answer every check alike.
    rows: Vec<Vec<usize>>,
    /// One parser at two versions: the checks they answered differently.
    versions: Vec<VersionData>,
    /// Every cause of a non-pass, by label, as [`crate::grouping`] groups them.
    causes: Vec<&'static str>,
    /// Every reading (see [`robotstxt_suite::readings`]), in order: its name, profile and what it says.
    readings: Vec<ReadingData>,
}

#[derive(Serialize)]
struct ReadingData {
    name: &'static str,
    profile: &'static str,
    summary: &'static str,
}

#[derive(Serialize)]
struct VersionData {
    /// Adapter indices.
    older: usize,
    newer: usize,
    changes: Vec<ChangeData>,
}

#[derive(Serialize)]
struct ChangeData {
    /// Flat check index, as in `AdapterData::answers`.
    check: usize,
    older: String,
    newer: String,
    /// `fixed`, `broken` or `changed`.
    direction: &'static str,
}

/// The page's view of [`versions::pairs`], checks numbered flat over the corpus.
fn version_data(report: &Report) -> Vec<VersionData> {
    let mut first_check = Vec::with_capacity(report.cases.len());
    let mut total = 0;
    for case in &report.cases {
        first_check.push(total);
        total += case.checks.len();
    }
    versions::pairs(report)
        .into_iter()
        .map(|pair| VersionData {
            older: pair.older,
            newer: pair.newer,
            changes: pair
                .changes
                .iter()
                .map(|c| ChangeData {
                    check: first_check[c.case] + c.check,
                    older: c.older.shown(),
                    newer: c.newer.shown(),
                    direction: c.direction().as_str(),
                })
                .collect(),
        })
        .collect()
}

#[derive(Serialize)]
struct GroupData {
    name: String,
    cases: Vec<usize>,
}

#[derive(Serialize)]
struct CaseData<'a> {
    id: &'a str,
    name: &'a str,
    spec: Cow<'a, str>,
    note: Option<Cow<'a, str>>,
    reported: Option<&'a str>,
    bytes: usize,
    /// The body with line numbers and invisible bytes made visible.
    body: String,
    checks: Vec<CheckData<'a>>,
}

#[derive(Serialize)]
struct CheckData<'a> {
    agent: &'a str,
    path: &'a str,
    expect: BTreeMap<&'static str, String>,
    /// The reference's verdict and explanation, per profile.
    explain: BTreeMap<&'static str, String>,
    /// The readings the check names; each applies where its profile scores the check.
    readings: Vec<&'static str>,
    /// On a check that tests what its case's thread reported, the answer that behaviour gives.
    reported: Option<&'static str>,
}

#[derive(Serialize)]
struct AdapterData<'a> {
    name: Cow<'a, str>,
    parser: Cow<'a, str>,
    version: Cow<'a, str>,
    language: Cow<'a, str>,
    homepage: Cow<'a, str>,
    profile: Cow<'a, str>,
    has_data: bool,
    /// The headline's line to cite (decided checks under the claimed profile, with the suite
    /// version), as `run` and the badge print it; `null` without data.
    citation: Option<String>,
    unavailable: Option<Cow<'a, str>>,
    /// One letter per check, over the whole corpus (see [`matrix::letter`]).
    answers: String,
    /// Error messages and failures, by flat check index.
    details: BTreeMap<usize, Cow<'a, str>>,
    /// Per scoring, one letter per check: `P`ass, `F`ail, `V` unstable (varies), `U`nspecified,
    /// `E`rror, `C`rash, `T`imeout, protocol error `X`, `S`kipped.
    outcomes: BTreeMap<String, String>,
    /// The cause of each check not passed under the claimed profile (an index into
    /// `PageData::causes`), by flat check index: the grouping `run` and the pages show.
    causes: BTreeMap<usize, usize>,
    /// What the adapter handed its parser as the robot's name, by flat check index, where that
    /// is not the agent as given.
    handed: BTreeMap<usize, Cow<'a, str>>,
}

fn outcome_letter(outcome: Outcome) -> char {
    match outcome {
        Outcome::Pass => 'P',
        Outcome::Fail => 'F',
        Outcome::Unstable => 'V',
        Outcome::Unspecified => 'U',
        Outcome::Error => 'E',
        Outcome::QueryError => 'Q',
        Outcome::Crash => 'C',
        Outcome::Timeout => 'T',
        Outcome::ProtocolError => 'X',
        Outcome::Skipped => 'S',
    }
}

/// The whole page.
pub fn page(report: &Report) -> String {
    let mut causes: Vec<Cause> = Vec::new();
    let cause_maps: Vec<BTreeMap<usize, usize>> = (report.adapters.iter())
        .map(|run| {
            let mut map = BTreeMap::new();
            for group in grouping::group(&report.cases, &run.claimed) {
                let index = causes
                    .iter()
                    .position(|&c| c == group.cause)
                    .unwrap_or_else(|| {
                        causes.push(group.cause);
                        causes.len() - 1
                    });
                map.extend(group.results.iter().map(|&i| (i, index)));
            }
            map
        })
        .collect();
    let data = PageData {
        suite_commit: &report.suite_commit,
        suite_modified: report.suite_modified,
        tool_version: &report.tool_version,
        suite_version: report.corpus.version_shown(),
        command: &report.command,
        date: &report.date,
        scorings: matrix::scorings().into_iter().map(|(n, _)| n).collect(),
        groups: matrix::groups(&report.cases)
            .into_iter()
            .map(|g| GroupData {
                name: g.name,
                cases: g.cases,
            })
            .collect(),
        cases: report
            .cases
            .iter()
            .map(|case| {
                let parsed: Vec<(Profile, Robots<'_>)> = Profile::ALL
                    .iter()
                    .map(|&p| (p, Robots::parse(p, &case.robots)))
                    .collect();
                CaseData {
                    id: &case.id,
                    name: &case.name,
                    spec: case.spec.shown(),
                    note: case.note.as_ref().map(Outside::shown),
                    reported: case.reported.as_deref(),
                    bytes: case.robots.len(),
                    body: visible_body(&case.robots),
                    checks: case
                        .checks
                        .iter()
                        .map(|c| CheckData {
                            agent: &c.agent,
                            path: &c.path,
                            expect: expect_map(&c.expect),
                            explain: parsed
                                .iter()
                                .map(|(p, robots)| {
                                    let d = robots.decide(&c.agent, &c.path);
                                    let explanation = d.explanation.to_string();
                                    let explanation = shown(&explanation);
                                    (p.name(), format!("{} — {explanation}", d.verdict))
                                })
                                .collect(),
                            readings: c.readings.iter().map(Reading::name).collect(),
                            reported: c.reported.map(|r| r.as_str()),
                        })
                        .collect(),
                }
            })
            .collect(),
        adapters: report
            .adapters
            .iter()
            .zip(cause_maps)
            .map(|(run, causes)| {
                let h = &run.handshake;
                AdapterData {
                    name: h.name.shown(),
                    parser: h.parser.shown(),
                    version: h.version.shown(),
                    language: h.language.shown(),
                    homepage: h.homepage.shown(),
                    profile: h.profile.shown(),
                    has_data: run.has_data(),
                    citation: run
                        .has_data()
                        .then(|| run.headline(&report.corpus.version_shown()).citation()),
                    causes,
                    unavailable: run.unavailable.as_ref().map(Outside::shown),
                    answers: run
                        .claimed
                        .iter()
                        .map(|r| matrix::letter(matrix::answer(r)))
                        .collect(),
                    details: run
                        .claimed
                        .iter()
                        .enumerate()
                        // A skipped check's detail repeats the adapter's `unavailable`.
                        .filter(|(_, r)| r.outcome != Outcome::Skipped)
                        .filter_map(|(i, r)| r.detail.as_ref().map(|d| (i, d.shown())))
                        .collect(),
                    handed: run
                        .claimed
                        .iter()
                        .enumerate()
                        .filter_map(|(i, r)| {
                            let agent = &report.cases[r.case].checks[r.check].agent;
                            (r.handed.as_deref())
                                .filter(|h| h != agent)
                                .map(|h| (i, shown(h)))
                        })
                        .collect(),
                    outcomes: matrix::scorings()
                        .into_iter()
                        .map(|(name, p)| {
                            let letters = run
                                .results(p)
                                .iter()
                                .map(|r| outcome_letter(r.outcome))
                                .collect();
                            (name, letters)
                        })
                        .collect(),
                }
            })
            .collect(),
        rows: matrix::identical_rows(report),
        versions: version_data(report),
        causes: causes.into_iter().map(Cause::label).collect(),
        readings: Reading::ALL
            .into_iter()
            .map(|r| ReadingData {
                name: r.name(),
                profile: r.profile().name(),
                summary: r.summary(),
            })
            .collect(),
    };
    let json = json_escaped(serde_json::to_string(&data).expect("the page data always serializes"));
    // `replacen` does not look for the placeholder again inside what it inserted.
    TEMPLATE
        .replacen(CHARTS, &super::chart::section(report, &report.history), 1)
        .replacen(PLACEHOLDER, &markup::json_in_script(&json), 1)
}
