//! `results.json`: the whole report, machine-readable. The schema is documented in `schema.md`
//! beside this file, which the report writes out as `SCHEMA.md` next to the data it describes;
//! change both together (and bump [`SCHEMA_VERSION`] when a field changes meaning or goes away).

use std::collections::BTreeMap;

use base64::Engine as _;
use serde::Serialize;

use robotstxt_suite::cases::{Case, Ruling};
use robotstxt_suite::cause::Cause;
use robotstxt_suite::engine::Handshake;
use robotstxt_suite::readings::Reading;
use robotstxt_suite::release::digest::short_check_digests;
use robotstxt_suite::run::{CheckResult, Outcome};
use robotstxt_suite::spec::Spec;
use robotstxt_suite::visible::Outside;

use super::matrix::{self, Cell};
use super::{AdapterRun, Report};

/// The documentation of the format, written as `SCHEMA.md`.
pub const SCHEMA: &str = include_str!("schema.md");
/// Bumped when a field changes meaning or is removed; adding fields does not bump it.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Document<'a> {
    schema: u32,
    suite_commit: &'a str,
    suite_modified: bool,
    tool_version: &'a str,
    /// The corpus's version (`1.0.0`, `1.0.0+changes`, `none`) and its digest.
    suite_version: String,
    corpus_digest: &'a str,
    command: &'a str,
    date: &'a str,
    profiles: Vec<&'static str>,
    cases: Vec<CaseDoc<'a>>,
    adapters: Vec<AdapterDoc<'a>>,
    /// The access cases and the crawlers over them, when the report ran crawlers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    access_cases: Vec<super::crawlers::AccessCaseDoc<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    crawlers: Vec<super::crawlers::CrawlerDoc<'a>>,
}

#[derive(Serialize)]
struct CaseDoc<'a> {
    id: &'a str,
    group: &'a str,
    spec: &'a str,
    /// Per profile, the clause the case gives for it, when it gives one per profile.
    #[serde(skip_serializing_if = "Option::is_none")]
    spec_by_profile: Option<BTreeMap<&'static str, &'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reported: Option<&'a str>,
    robots_base64: String,
    checks: Vec<CheckDoc<'a>>,
}

#[derive(Serialize)]
struct CheckDoc<'a> {
    id: String,
    agent: &'a str,
    path: &'a str,
    /// What the check asks and how it is scored, as one short digest: two files whose check of
    /// one id has the same digest can be compared there.
    digest: String,
    /// Per profile: `allowed`, `disallowed` or `unspecified`; a profile the check does not name
    /// is absent.
    expect: BTreeMap<&'static str, String>,
    /// The readings the check names (each applies where its profile scores the check).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    readings: Vec<&'static str>,
    /// On a check that tests what the case's `reported` thread reported: the answer the reported
    /// behaviour gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    reported: Option<&'static str>,
}

#[derive(Serialize)]
struct AdapterDoc<'a> {
    name: &'a str,
    handshake: &'a Handshake,
    input: Option<&'a str>,
    note: Option<&'a str>,
    /// `as-given`, `product-token` or `name`: the form of the robot's name the adapter hands its
    /// parser (adapters/PROTOCOL.md); `null` for an adapter run as a bare command.
    agent: Option<&'static str>,
    has_data: bool,
    /// The headline score as every output prints it; `null` without data.
    score: Option<Score>,
    unavailable: Option<&'a str>,
    timings: Timings,
    totals: BTreeMap<String, Totals>,
    checks: Vec<Outcomes<'a>>,
}

/// The headline ([`robotstxt_suite::headline::Headline`]): the decided checks under the claimed
/// profile, with the suite version.
#[derive(Serialize)]
struct Score {
    percent: String,
    label: String,
    citation: String,
}

#[derive(Serialize)]
struct Timings {
    seconds: f64,
    /// Per case, in corpus order: milliseconds spent waiting for the adapter's answer.
    case_ms: Vec<f64>,
}

#[derive(Serialize)]
struct Totals {
    /// The decided checks (resting on no reading): the headline and the ranking.
    decided: Count,
    /// Per reading, the checks that rest on it.
    readings: BTreeMap<&'static str, Count>,
    passed: usize,
    scored: usize,
    failed: usize,
    unspecified: usize,
    /// Rejected bodies, crashes, timeouts and protocol errors.
    errored: usize,
    skipped: usize,
}

#[derive(Serialize)]
struct Count {
    passed: usize,
    scored: usize,
}

impl From<Cell> for Count {
    fn from(cell: Cell) -> Count {
        Count {
            passed: cell.passed,
            scored: cell.scored,
        }
    }
}

#[derive(Serialize)]
struct Outcomes<'a> {
    id: String,
    answer: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    /// What the adapter handed its parser as the robot's name, where that is not the agent as
    /// given.
    #[serde(skip_serializing_if = "Option::is_none")]
    handed: Option<&'a str>,
    outcome: BTreeMap<String, Outcome>,
    /// Per scoring, the readings the check rests on there; absent where it rests on none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    rests_on: BTreeMap<String, Vec<&'static str>>,
    /// What causes a non-pass under the claimed profile, as `run` groups it, or what decides
    /// the reference's verdict on an open point the adapter answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    cause: Option<Cause>,
}

/// The document, with one check per line (see `Lines`) so that regenerated files diff by line.
pub fn document(report: &Report) -> std::io::Result<String> {
    let doc = Document {
        schema: SCHEMA_VERSION,
        suite_commit: &report.suite_commit,
        suite_modified: report.suite_modified,
        tool_version: &report.tool_version,
        suite_version: report.corpus.version_shown(),
        corpus_digest: &report.corpus.digest,
        command: &report.command,
        date: &report.date,
        profiles: robotstxt_reference::Profile::ALL
            .iter()
            .map(|p| p.name())
            .collect(),
        cases: report.cases.iter().map(case_doc).collect(),
        adapters: report
            .adapters
            .iter()
            .map(|a| adapter_doc(a, &report.cases, &report.corpus.version_shown()))
            .collect(),
        access_cases: super::crawlers::case_docs(report.crawl.as_ref()),
        crawlers: super::crawlers::crawler_docs(report.crawl.as_ref()),
    };
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, Lines::default());
    doc.serialize(&mut serializer)?;
    out.push(b'\n');
    let text = String::from_utf8(out).expect("serde_json writes UTF-8");
    // The exact texts, with what a JSON writer leaves raw written as escapes.
    Ok(robotstxt_suite::visible::json_escaped(text))
}

fn case_doc(case: &Case) -> CaseDoc<'_> {
    let digests = short_check_digests(case);
    CaseDoc {
        id: &case.id,
        group: &case.group,
        spec: case.spec.raw(),
        spec_by_profile: match &case.clauses {
            Spec::Same(_) => None,
            Spec::PerProfile(map) => Some(
                map.iter()
                    .map(|(p, text)| (p.name(), text.as_str()))
                    .collect(),
            ),
        },
        note: case.note.as_ref().map(Outside::raw),
        reported: case.reported.as_deref(),
        robots_base64: base64::engine::general_purpose::STANDARD.encode(&case.robots),
        checks: case
            .checks
            .iter()
            .enumerate()
            .map(|(i, c)| CheckDoc {
                id: format!("{}#{i}", case.id),
                agent: &c.agent,
                path: &c.path,
                digest: digests[i].clone(),
                expect: expect_map(&c.expect),
                readings: c.readings.iter().map(Reading::name).collect(),
                reported: c.reported.map(|r| r.as_str()),
            })
            .collect(),
    }
}

/// A check's expectation per profile, with a single `allowed`/`disallowed` spelled out for
/// every profile.
pub fn expect_map(expect: &robotstxt_suite::cases::Expected) -> BTreeMap<&'static str, String> {
    robotstxt_reference::Profile::ALL
        .iter()
        .filter_map(|&p| {
            expect.for_profile(p).map(|e| {
                let shown = match e {
                    Ruling::Is(v) => v.as_str().to_owned(),
                    Ruling::Unspecified => "unspecified".to_owned(),
                };
                (p.name(), shown)
            })
        })
        .collect()
}

fn totals(results: &[CheckResult]) -> Totals {
    let cell = Cell::of(results);
    let count = |o: Outcome| results.iter().filter(|r| r.outcome == o).count();
    Totals {
        decided: Cell::decided(results).into(),
        readings: Reading::ALL
            .into_iter()
            .map(|r| (r.name(), Cell::on_reading(results, r).into()))
            .collect(),
        passed: cell.passed,
        scored: cell.scored,
        failed: count(Outcome::Fail) + count(Outcome::Unstable),
        unspecified: count(Outcome::Unspecified),
        errored: cell.scored - cell.passed - count(Outcome::Fail) - count(Outcome::Unstable),
        skipped: cell.skipped,
    }
}

fn adapter_doc<'a>(run: &'a AdapterRun, cases: &[Case], suite_version: &str) -> AdapterDoc<'a> {
    let headline = run.headline(suite_version);
    let scorings = matrix::scorings();
    let checks = run
        .claimed
        .iter()
        .enumerate()
        .map(|(i, r)| Outcomes {
            id: format!("{}#{}", cases[r.case].id, r.check),
            answer: matrix::answer(r),
            // A skipped check's detail only repeats the adapter's `unavailable`.
            detail: r
                .detail
                .as_ref()
                .map(Outside::raw)
                .filter(|_| r.outcome != Outcome::Skipped),
            handed: r
                .handed
                .as_deref()
                .filter(|h| *h != cases[r.case].checks[r.check].agent),
            outcome: scorings
                .iter()
                .map(|(name, p)| (name.clone(), run.results(*p)[i].outcome))
                .collect(),
            rests_on: scorings
                .iter()
                .filter_map(|(name, p)| {
                    let rests = run.results(*p)[i].rests_on;
                    (!rests.is_empty())
                        .then(|| (name.clone(), rests.iter().map(Reading::name).collect()))
                })
                .collect(),
            cause: crate::diff::recorded_cause(&cases[r.case], r),
        })
        .collect();
    AdapterDoc {
        name: run.handshake.name.raw(),
        handshake: &run.handshake,
        input: run.about.as_ref().map(|a| a.input.as_str()),
        note: run.about.as_ref().and_then(|a| a.note.as_deref()),
        agent: run.about.as_ref().map(|a| a.agent.as_str()),
        has_data: run.has_data(),
        score: run.has_data().then(|| Score {
            percent: headline.percent(),
            label: headline.label(),
            citation: headline.citation(),
        }),
        unavailable: run.unavailable.as_ref().map(Outside::raw),
        timings: Timings {
            seconds: round(run.wall().as_secs_f64(), 3),
            case_ms: run
                .case_times
                .iter()
                .map(|t| round(t.as_secs_f64() * 1000.0, 2))
                .collect(),
        },
        totals: scorings
            .iter()
            .map(|(name, p)| (name.clone(), totals(run.results(*p))))
            .collect(),
        checks,
    }
}

/// A `serde_json` formatter that puts each value of the outer containers on its own line and
/// writes anything nested deeper than [`Lines::DEPTH`] compactly: a check's result, a case's check
/// or an adapter's per-case timings each take one line. Pretty-printing everything would
/// double the file's size; printing nothing on its own line would make every diff one line.
#[derive(Default)]
struct Lines {
    depth: usize,
    has_value: bool,
}

impl Lines {
    const DEPTH: usize = 4;

    fn newline<W: ?Sized + std::io::Write>(&self, w: &mut W, depth: usize) -> std::io::Result<()> {
        w.write_all(b"\n")?;
        w.write_all(" ".repeat(depth).as_bytes())
    }

    fn open<W: ?Sized + std::io::Write>(&mut self, w: &mut W, c: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(c)
    }

    fn close<W: ?Sized + std::io::Write>(&mut self, w: &mut W, c: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        if self.has_value && self.depth < Self::DEPTH {
            self.newline(w, self.depth)?;
        }
        w.write_all(c)
    }

    fn item<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.depth <= Self::DEPTH {
            self.newline(w, self.depth)?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Lines {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(if self.depth <= Self::DEPTH {
            b": "
        } else {
            b":"
        })
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

fn round(value: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (value * scale).round() / scale
}
