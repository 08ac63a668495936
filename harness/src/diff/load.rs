//! Reading a results file for `diff`: a report's `results.json`, or what `run --format json`
//! prints (one document, or an array of them for several engines). Files written before results
//! carried a suite version and digests still read; they are compared check by check on ids alone.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use robotstxt_reference::Verdict;
use robotstxt_suite::cause::Cause;
use robotstxt_suite::expectations::{Entry, ExpectationFile};
use robotstxt_suite::input::{Format, Input};
use robotstxt_suite::located::LocatedError;
use robotstxt_suite::run::Outcome;

use super::{AdapterResults, CheckState, RunAnswer};

use crate::limits::RESULTS_JSON;

/// One results file, whatever wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultsFile {
    pub path: PathBuf,
    /// `1.0.0`, `1.0.0+changes`, `none`; absent in files older than the suite version.
    pub suite_version: Option<String>,
    pub corpus_digest: Option<String>,
    /// When the report was made (reports only).
    pub date: Option<String>,
    pub adapters: Vec<AdapterResults>,
}

impl ResultsFile {
    /// The adapter named `name`.
    pub fn adapter(&self, name: &str) -> Option<&AdapterResults> {
        self.adapters.iter().find(|a| a.name == name)
    }

    /// `suite 1.0.0, corpus sha256:1a2b3c4d5e6f`, or what the file does not say.
    pub fn corpus_shown(&self) -> String {
        let version = self.suite_version.as_deref().unwrap_or("not recorded");
        let digest = (self.corpus_digest.as_deref())
            .map(|d| {
                let hex = d.strip_prefix("sha256:").unwrap_or(d);
                format!("sha256:{}", &hex[..hex.len().min(12)])
            })
            .unwrap_or_else(|| "not recorded".to_owned());
        format!("suite {version}, corpus {digest}")
    }
}

/// Why a results file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ResultsLoadError {
    /// Not read: not a regular file, past its bounds, not UTF-8 or not JSON nested within them.
    #[error(transparent)]
    Input(#[from] LocatedError),
    #[error("{}:{line}: not a results file of `run --format json` or `report`: {message}", path.display())]
    Shape {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Raw {
    Report(RawReport),
    Run(RawRun),
    Runs(Vec<RawRun>),
}

#[derive(Deserialize)]
struct RawReport {
    #[allow(dead_code)]
    schema: u32,
    suite_version: Option<String>,
    corpus_digest: Option<String>,
    date: Option<String>,
    cases: Vec<RawCase>,
    adapters: Vec<RawReportAdapter>,
    /// The crawlers over the access cases, in reports that ran them.
    #[serde(default)]
    crawlers: Vec<RawCrawler>,
}

#[derive(Deserialize)]
struct RawCrawler {
    results_name: String,
    package: Option<RawPackage>,
    has_data: bool,
    checks: Vec<RawCrawlCheck>,
}

#[derive(Deserialize)]
struct RawPackage {
    version: String,
}

#[derive(Deserialize)]
struct RawCrawlCheck {
    id: String,
    outcome: HashMap<String, String>,
}

#[derive(Deserialize)]
struct RawCase {
    checks: Vec<RawCaseCheck>,
}

#[derive(Deserialize)]
struct RawCaseCheck {
    id: String,
    digest: Option<String>,
}

#[derive(Deserialize)]
struct RawHandshake {
    version: String,
}

#[derive(Deserialize)]
struct RawReportAdapter {
    name: String,
    handshake: RawHandshake,
    has_data: bool,
    checks: Vec<RawReportCheck>,
}

#[derive(Deserialize)]
struct RawReportCheck {
    id: String,
    answer: String,
    outcome: HashMap<String, Outcome>,
    cause: Option<Cause>,
}

#[derive(Deserialize)]
struct RawRun {
    adapter: String,
    suite_version: Option<String>,
    corpus_digest: Option<String>,
    handshake: RawHandshake,
    results: Vec<RawRow>,
}

#[derive(Deserialize)]
struct RawRow {
    case: String,
    check: usize,
    digest: Option<String>,
    actual: Option<String>,
    outcome: Outcome,
    cause: Option<Cause>,
}

/// Reads the results file at `path`.
pub fn load(path: &Path) -> Result<ResultsFile, ResultsLoadError> {
    let input = Input::read(path, Format::Json, RESULTS_JSON)?;
    let shape = |line: usize, message: String| ResultsLoadError::Shape {
        path: path.to_owned(),
        line,
        message,
    };
    // Parsed once as a value to locate syntax errors by line, then by shape.
    let value: serde_json::Value = input
        .parse()
        .map_err(|e: LocatedError| shape(e.line.unwrap_or(1), e.message))?;
    let raw: Raw = serde_json::from_value(value).map_err(|_| {
        shape(
            1,
            "neither a report (`schema`, `cases`, `adapters`) nor a run (`adapter`, `handshake`, \
             `results`) with the fields `diff` needs"
                .to_owned(),
        )
    })?;
    let file = match raw {
        Raw::Report(report) => from_report(report, path).map_err(|m| shape(1, m))?,
        Raw::Run(run) => from_runs(vec![run], path),
        Raw::Runs(runs) if !runs.is_empty() => from_runs(runs, path),
        Raw::Runs(_) => return Err(shape(1, "an empty array: no run in it".to_owned())),
    };
    Ok(file)
}

fn verdict(text: Option<&str>) -> Option<Verdict> {
    match text {
        Some("allowed") => Some(Verdict::Allowed),
        Some("disallowed") => Some(Verdict::Disallowed),
        _ => None,
    }
}

fn from_report(report: RawReport, path: &Path) -> Result<ResultsFile, String> {
    let digests: HashMap<String, Option<String>> = (report.cases.into_iter())
        .flat_map(|c| c.checks)
        .map(|c| (c.id, c.digest))
        .collect();
    let mut adapters = Vec::new();
    for adapter in report.adapters {
        let mut checks = Vec::with_capacity(adapter.checks.len());
        for check in adapter.checks {
            let outcome = *check.outcome.get("claimed").ok_or_else(|| {
                format!(
                    "adapter `{}`, check `{}`: no `claimed` outcome",
                    adapter.name, check.id
                )
            })?;
            checks.push(CheckState {
                digest: digests.get(&check.id).cloned().flatten(),
                answer: RunAnswer {
                    outcome,
                    verdict: verdict(Some(&check.answer)),
                },
                cause: check.cause,
                id: check.id,
            });
        }
        adapters.push(AdapterResults {
            name: adapter.name,
            version: adapter.handshake.version,
            has_data: adapter.has_data,
            checks,
        });
    }
    for crawler in report.crawlers {
        adapters.push(from_crawler(crawler)?);
    }
    Ok(ResultsFile {
        path: path.to_owned(),
        suite_version: report.suite_version,
        corpus_digest: report.corpus_digest,
        date: report.date,
        adapters,
    })
}

/// A crawler's results as an adapter's, under its own name (`crawler-<name>`): a fault reads as
/// a crash, no data as skipped; a crawler gives no verdict, so only its outcomes are compared.
fn from_crawler(crawler: RawCrawler) -> Result<AdapterResults, String> {
    let mut checks = Vec::with_capacity(crawler.checks.len());
    for check in crawler.checks {
        let claimed = check.outcome.get("claimed").map(String::as_str);
        let outcome = match claimed {
            Some("pass") => Outcome::Pass,
            Some("fail") => Outcome::Fail,
            Some("fault") => Outcome::Crash,
            Some("unspecified") => Outcome::Unspecified,
            Some("no-data") => Outcome::Skipped,
            other => {
                return Err(format!(
                    "crawler `{}`, check `{}`: `claimed` outcome {other:?} is not pass, fail, \
                     fault, unspecified or no-data",
                    crawler.results_name, check.id
                ))
            }
        };
        checks.push(CheckState {
            id: check.id,
            digest: None,
            answer: RunAnswer {
                outcome,
                verdict: None,
            },
            cause: None,
        });
    }
    Ok(AdapterResults {
        name: crawler.results_name,
        version: crawler.package.map_or_else(String::new, |p| p.version),
        has_data: crawler.has_data,
        checks,
    })
}

fn from_runs(runs: Vec<RawRun>, path: &Path) -> ResultsFile {
    let suite_version = runs[0].suite_version.clone();
    let corpus_digest = runs[0].corpus_digest.clone();
    let adapters = (runs.into_iter())
        .map(|run| AdapterResults {
            has_data: run.results.iter().any(|r| r.outcome != Outcome::Skipped),
            name: run.adapter,
            version: run.handshake.version,
            checks: (run.results.into_iter())
                .map(|row| CheckState {
                    id: format!("{}#{}", row.case, row.check),
                    digest: row.digest,
                    answer: RunAnswer {
                        outcome: row.outcome,
                        verdict: verdict(row.actual.as_deref()),
                    },
                    cause: row.cause,
                })
                .collect(),
        })
        .collect();
    ResultsFile {
        path: path.to_owned(),
        suite_version,
        corpus_digest,
        date: None,
        adapters,
    }
}

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
            let entry = listed.get(&check.id);
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
