//! Reading a results file: a report's `results.json`, or what `run --format json` prints (one
//! document, or an array of them for several engines). Files written before results
//! carried a suite version and digests still read; they are compared check by check on ids alone.
//!
//! A results file may be large (a report of every adapter is about 11 MB; the cap is 256 MiB),
//! and `report --history` reads one per report kept. So it is screened a piece at a time and
//! deserialized as a stream, straight into what `diff` keeps: an answer and an outcome as one
//! byte each, every other field read past. What a file takes is about what its check ids take,
//! never its text, nor a tree of its values.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use robotstxt_reference::Verdict;
use robotstxt_suite::cause::Cause;
use robotstxt_suite::input::screened_json_stream;
use robotstxt_suite::located::LocatedError;
use robotstxt_suite::run::Outcome;
use robotstxt_suite::visible::{path_shown, shown_line, Outside};

use crate::{AdapterResults, CheckState, RunAnswer, RESULTS_JSON};

/// One results file, whatever wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultsFile {
    pub path: PathBuf,
    /// `1.0.0`, `1.0.0+changes`, `none`; absent in files older than the suite version.
    pub suite_version: Option<Outside>,
    pub corpus_digest: Option<Outside>,
    /// When the report was made (reports only).
    pub date: Option<Outside>,
    pub adapters: Vec<AdapterResults>,
}

impl ResultsFile {
    /// The adapter named `name`.
    pub fn adapter(&self, name: &str) -> Option<&AdapterResults> {
        self.adapters.iter().find(|a| a.name.raw() == name)
    }

    /// `suite 1.0.0, corpus sha256:1a2b3c4d5e6f`, or what the file does not say. Both are the
    /// file's words: shown on one line, visibly (a line feed in a version once forged a line).
    pub fn corpus_shown(&self) -> String {
        let version = (self.suite_version.as_ref()).map_or("not recorded", Outside::raw);
        let digest = (self.corpus_digest.as_ref())
            .map(|d| {
                let hex = d.raw().strip_prefix("sha256:").unwrap_or(d.raw());
                let short: String = hex.chars().take(12).collect();
                format!("sha256:{}", shown_line(&short))
            })
            .unwrap_or_else(|| "not recorded".to_owned());
        format!("suite {}, corpus {digest}", shown_line(version))
    }
}

/// Why a results file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ResultsLoadError {
    /// Not read: not a regular file, past its bounds, not UTF-8 or not JSON nested within them.
    #[error(transparent)]
    Input(#[from] LocatedError),
    /// Named as a file's name is shown: a name may hold a line feed.
    #[error(
        "{}:{line}: not a results file of `run --format json` or `report`: {message}",
        path_shown(path)
    )]
    Shape {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// A results file as read: an array of runs, or one object with the fields of a report or of a
/// run (which it is is decided once it is read, by the fields it has). Deserialized by hand from
/// the first token, so that nothing is buffered to try one shape and then another.
enum Raw {
    Object(Box<RawObject>),
    Runs(Vec<RawRun>),
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Raw, D::Error> {
        struct Top;
        impl<'de> Visitor<'de> for Top {
            type Value = Raw;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a report or a run (an object), or an array of runs")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
                let mut runs = Vec::new();
                while let Some(run) = seq.next_element()? {
                    runs.push(run);
                }
                Ok(Raw::Runs(runs))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Raw, A::Error> {
                let object = RawObject::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(Raw::Object(Box::new(object)))
            }
        }
        deserializer.deserialize_any(Top)
    }
}

/// The fields of a report and of a run, each optional: which are there says which it is.
#[derive(Deserialize)]
struct RawObject {
    schema: Option<IgnoredAny>,
    suite_version: Option<String>,
    corpus_digest: Option<String>,
    date: Option<String>,
    cases: Option<Vec<RawCase>>,
    adapters: Option<Vec<RawReportAdapter>>,
    adapter: Option<String>,
    handshake: Option<RawHandshake>,
    results: Option<Vec<RawRow>>,
    crawlers: Option<Vec<RawCrawler>>,
}

struct RawReport {
    suite_version: Option<String>,
    corpus_digest: Option<String>,
    date: Option<String>,
    cases: Vec<RawCase>,
    adapters: Vec<RawReportAdapter>,
    /// The crawlers over the access cases, in reports that ran them.
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

impl RawObject {
    /// A report or a run, by the fields it has.
    fn into_raw(self) -> Option<Result<RawReport, RawRun>> {
        match self {
            RawObject {
                schema: Some(_),
                cases: Some(cases),
                adapters: Some(adapters),
                suite_version,
                corpus_digest,
                date,
                crawlers,
                ..
            } => Some(Ok(RawReport {
                suite_version,
                corpus_digest,
                date,
                cases,
                adapters,
                crawlers: crawlers.unwrap_or_default(),
            })),
            RawObject {
                adapter: Some(adapter),
                handshake: Some(handshake),
                results: Some(results),
                suite_version,
                corpus_digest,
                ..
            } => Some(Err(RawRun {
                adapter,
                suite_version,
                corpus_digest,
                handshake,
                results,
            })),
            _ => None,
        }
    }
}

/// An answer as a results file writes it: `allowed`, `disallowed`, or anything else (no
/// verdict), kept as one byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum RawAnswer {
    Allowed,
    Disallowed,
    #[serde(other)]
    Other,
}

impl RawAnswer {
    fn verdict(self) -> Option<Verdict> {
        match self {
            RawAnswer::Allowed => Some(Verdict::Allowed),
            RawAnswer::Disallowed => Some(Verdict::Disallowed),
            RawAnswer::Other => None,
        }
    }
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
    answer: RawAnswer,
    outcome: RawOutcomes,
    cause: Option<Cause>,
}

/// A report check's outcome under each profile: only the claimed one is kept.
#[derive(Deserialize)]
struct RawOutcomes {
    claimed: Option<Outcome>,
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
    actual: Option<RawAnswer>,
    outcome: Outcome,
    cause: Option<Cause>,
}

/// Reads the results file at `path`.
pub fn load(path: &Path) -> Result<ResultsFile, ResultsLoadError> {
    let shape = |line: usize, message: String| ResultsLoadError::Shape {
        path: path.to_owned(),
        line,
        message,
    };
    let located = |e: serde_json::Error| {
        let mut message = e.to_string();
        // serde_json appends " at line L column C"; the line is shown in front instead.
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        if let Some(stripped) = message.strip_suffix(&suffix) {
            message = format!("column {}: {stripped}", e.column());
        }
        shape(e.line().max(1), message)
    };
    let raw: Raw = match serde_json::from_reader(screened_json_stream(path, RESULTS_JSON)?) {
        Ok(raw) => raw,
        Err(e) => {
            // A syntax error is named where it is, even past a field of the wrong type.
            let syntax =
                serde_json::from_reader::<_, IgnoredAny>(screened_json_stream(path, RESULTS_JSON)?)
                    .err();
            return Err(located(syntax.unwrap_or(e)));
        }
    };
    let neither = || {
        shape(
            1,
            "neither a report (`schema`, `cases`, `adapters`) nor a run (`adapter`, `handshake`, \
             `results`) with the fields `diff` needs"
                .to_owned(),
        )
    };
    let file = match raw {
        Raw::Object(object) => match object.into_raw().ok_or_else(neither)? {
            Ok(report) => from_report(report, path).map_err(|m| shape(1, m))?,
            Err(run) => from_runs(vec![run], path),
        },
        Raw::Runs(runs) if !runs.is_empty() => from_runs(runs, path),
        Raw::Runs(_) => return Err(shape(1, "an empty array: no run in it".to_owned())),
    };
    Ok(file)
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
            let outcome = check.outcome.claimed.ok_or_else(|| {
                format!(
                    "adapter `{}`, check `{}`: no `claimed` outcome",
                    shown_line(&adapter.name),
                    shown_line(&check.id)
                )
            })?;
            checks.push(CheckState {
                digest: digests.get(&check.id).cloned().flatten(),
                answer: RunAnswer {
                    outcome,
                    verdict: check.answer.verdict(),
                },
                cause: check.cause,
                id: Outside::new(check.id),
            });
        }
        adapters.push(AdapterResults {
            name: Outside::new(adapter.name),
            version: Outside::new(adapter.handshake.version),
            has_data: adapter.has_data,
            checks,
        });
    }
    for crawler in report.crawlers {
        adapters.push(from_crawler(crawler)?);
    }
    Ok(ResultsFile {
        path: path.to_owned(),
        suite_version: report.suite_version.map(Outside::new),
        corpus_digest: report.corpus_digest.map(Outside::new),
        date: report.date.map(Outside::new),
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
                    shown_line(&crawler.results_name),
                    shown_line(&check.id)
                ))
            }
        };
        checks.push(CheckState {
            id: Outside::new(check.id),
            digest: None,
            answer: RunAnswer {
                outcome,
                verdict: None,
            },
            cause: None,
        });
    }
    Ok(AdapterResults {
        name: Outside::new(crawler.results_name),
        version: Outside::new(crawler.package.map_or_else(String::new, |p| p.version)),
        has_data: crawler.has_data,
        checks,
    })
}

fn from_runs(runs: Vec<RawRun>, path: &Path) -> ResultsFile {
    let suite_version = runs[0].suite_version.clone().map(Outside::new);
    let corpus_digest = runs[0].corpus_digest.clone().map(Outside::new);
    let adapters = (runs.into_iter())
        .map(|run| AdapterResults {
            has_data: run.results.iter().any(|r| r.outcome != Outcome::Skipped),
            name: Outside::new(run.adapter),
            version: Outside::new(run.handshake.version),
            checks: (run.results.into_iter())
                .map(|row| CheckState {
                    id: Outside::new(format!("{}#{}", row.case, row.check)),
                    digest: row.digest,
                    answer: RunAnswer {
                        outcome: row.outcome,
                        verdict: row.actual.and_then(RawAnswer::verdict),
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
