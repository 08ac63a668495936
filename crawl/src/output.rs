//! What `crawl` prints: the counts per crawler, the failures grouped by cause with one case of
//! each shown in full (every one with `-v`), the request log of every failed case; or the whole
//! run as JSON, JUnit XML or a Markdown table.

use robotstxt_suite::visible::path_shown;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use robotstxt_suite::visible::{shown, Outside};
use serde::Serialize;

use crate::case::{AccessCase, AccessVerdict, ServedFault, SiteAnswer};
use crate::runner::{Counts, CrawlerRun};
use crate::score::{AccessOutcome, AccessResult};
use crate::session::{CaseRun, AGENT};

/// The output formats of `crawl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrawlFormat {
    Text,
    Json,
    Junit,
    Markdown,
    /// GitHub Actions annotations: an `::error` per failed check, on its case's line.
    Github,
}

/// One line of counts.
pub fn counts_line(run: &CrawlerRun) -> String {
    let c = run.counts();
    format!(
        "{} ({}): {} cases, {} with data; {} passed, {} failed, {} faults, {} unspecified, {} no data",
        run.crawler, run.profile, c.cases, c.cases_with_data, c.pass, c.fail, c.fault, c.unspecified, c.no_data
    )
}

/// What robots.txt of `a` answered first, in a few words: the situation a cause is named by.
pub fn situation(case: &AccessCase) -> String {
    let describe = |r: &SiteAnswer| match r.fault {
        Some(ServedFault::Reset) => "a reset".to_owned(),
        Some(ServedFault::CloseMidBody) => "a body cut short".to_owned(),
        Some(ServedFault::Stall) => "a stall".to_owned(),
        None if r.location.is_some() => {
            let hops = 1
                + case
                    .a
                    .paths
                    .values()
                    .filter(|p| p.location.is_some())
                    .count()
                + case
                    .b
                    .paths
                    .values()
                    .filter(|p| p.location.is_some())
                    .count();
            format!("{hops} redirect(s)")
        }
        None if r.padding_kib > 0 => {
            format!("{} with {} KiB before the rule", r.status, r.padding_kib)
        }
        None if r.body.is_empty() => format!("{}, empty", r.status),
        None => format!(
            "{} {}",
            r.status,
            r.content_type.as_deref().unwrap_or("text/plain")
        ),
    };
    match case.a.robots.as_slice() {
        [] => "robots.txt 404".to_owned(),
        [only] => format!("robots.txt {}", describe(only)),
        [first, rest @ ..] => format!(
            "robots.txt {}, then {}",
            describe(first),
            describe(rest.last().unwrap_or(first))
        ),
    }
}

/// The cause a failed check is grouped under.
pub fn cause(case: &AccessCase, run: &CaseRun, check: &AccessResult) -> String {
    let what = match (check.outcome, check.expected) {
        (AccessOutcome::Fault, _) => {
            let fault = run
                .faults
                .first()
                .map_or("a fault".to_owned(), |f| f.shown());
            return format!("stopped: {fault}");
        }
        (_, AccessVerdict::NotFetched) => "fetched a page it must leave alone",
        (_, AccessVerdict::Fetched) => "left alone a page it may fetch",
        _ => "fetched a page before robots.txt",
    };
    format!("{what}, after {}", situation(case))
}

/// The text report of every crawler: counts, failures by cause, cases in full.
pub fn text(runs: &[CrawlerRun], cases: &[AccessCase], verbose: bool) -> String {
    let by_id: BTreeMap<&str, &AccessCase> = cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut out = String::new();
    for run in runs {
        let _ = writeln!(out, "{}", counts_line(run));
        for departure in &run.departures {
            let _ = writeln!(out, "  flag: {departure}");
        }
        let mut groups: BTreeMap<String, Vec<(&CaseRun, &AccessResult)>> = BTreeMap::new();
        for case_run in &run.cases {
            let Some(case) = by_id.get(case_run.case_id.as_str()) else {
                continue;
            };
            for check in case_run.checks.iter().filter(|c| c.outcome.is_failure()) {
                groups
                    .entry(cause(case, case_run, check))
                    .or_default()
                    .push((case_run, check));
            }
        }
        let mut shown_cases: Vec<&str> = Vec::new();
        for (cause, members) in &groups {
            let _ = writeln!(out, "\n  {cause} ({}):", members.len());
            for (case_run, check) in members {
                let _ = writeln!(out, "    {} {}: {}", check.id, check.target, check.observed);
                let first_of_group = std::ptr::eq(*case_run, members[0].0);
                if (verbose || first_of_group) && !shown_cases.contains(&case_run.case_id.as_str())
                {
                    shown_cases.push(&case_run.case_id);
                }
            }
        }
        for id in shown_cases {
            if let (Some(case), Some(case_run)) =
                (by_id.get(id), run.cases.iter().find(|c| c.case_id == id))
            {
                out.push('\n');
                out.push_str(&case_block(case, case_run));
            }
        }
        let no_data: Vec<&CaseRun> = run.cases.iter().filter(|c| !c.data).collect();
        if !no_data.is_empty() {
            let _ = writeln!(
                out,
                "\n  no data ({} cases: the control was never fetched):",
                no_data.len()
            );
            for case_run in no_data.iter().take(if verbose { usize::MAX } else { 5 }) {
                let why = case_run.faults.first().map_or_else(
                    || {
                        format!(
                            "{} requests, {}",
                            case_run.log.len(),
                            case_run.exit.as_deref().unwrap_or("stopped")
                        )
                    },
                    |f| f.shown(),
                );
                let _ = writeln!(out, "    {}: {why}", case_run.case_id);
            }
            if let Some(first) = no_data
                .first()
                .filter(|_| verbose || no_data.len() == run.cases.len())
            {
                let _ = writeln!(
                    out,
                    "    stderr of {}:\n{}",
                    first.case_id,
                    indent(&first.stderr_tail, 6)
                );
            }
        }
        out.push('\n');
    }
    out
}

/// Each line of `text` shown, after `by` spaces.
fn indent(text: &Outside, by: usize) -> String {
    let pad = " ".repeat(by);
    (text.raw().lines())
        .map(|l| format!("{pad}{}\n", Outside::from(l)))
        .collect()
}

/// One case in full: where it is, what it quotes, what the site answered, every check, the
/// request log, the faults and the end of the crawler's stderr.
pub fn case_block(case: &AccessCase, run: &CaseRun) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  == {} ({}:{})",
        case.id,
        path_shown(&case.file),
        case.line
    );
    let spec = match &case.spec {
        crate::case::AccessSpec::Plain(s) => s.clone(),
        crate::case::AccessSpec::PerProfile(map) => map
            .iter()
            .map(|(p, s)| format!("{p}: {s}"))
            .collect::<Vec<_>>()
            .join("\n     "),
    };
    let _ = writeln!(out, "     {}", shown(&spec));
    if let Some(note) = &case.note {
        let _ = writeln!(out, "     note: {}", shown(note));
    }
    if let Some(reported) = &case.reported {
        let _ = writeln!(out, "     reported: {}", shown(reported));
    }
    let _ = writeln!(
        out,
        "     serves: {}; the crawler was told to send User-agent {AGENT:?}",
        situation(case)
    );
    for check in &run.checks {
        let expected = serde_json::to_value(check.expected).ok();
        let expected = expected.as_ref().and_then(|v| v.as_str()).unwrap_or("?");
        let _ = writeln!(
            out,
            "     {:<11} {} expected {expected} under {}: {}",
            check.outcome.as_str(),
            check.target,
            run.profile,
            check.observed
        );
    }
    for fault in &run.faults {
        let _ = writeln!(out, "     fault: {}", fault.shown());
    }
    let _ = writeln!(
        out,
        "     request log ({} requests, crawler {}, {:.1} s):",
        run.log.len(),
        run.exit.as_deref().unwrap_or("stopped"),
        run.seconds
    );
    for request in run.log.iter().take(60) {
        let _ = writeln!(out, "       {}", request.shown());
    }
    if run.log.len() > 60 {
        let _ = writeln!(out, "       ... {} more", run.log.len() - 60);
    }
    if !run.stderr_tail.raw().trim().is_empty() {
        let _ = writeln!(out, "     stderr (end):\n{}", indent(&run.stderr_tail, 7));
    }
    out
}

#[derive(Serialize)]
struct JsonRun<'a> {
    #[serde(flatten)]
    run: &'a CrawlerRun,
    counts: Counts,
}

/// The run as JSON: `{"tool": ..., "crawlers": [...]}`, every case with its log.
pub fn json(runs: &[CrawlerRun]) -> String {
    let crawlers: Vec<JsonRun> = runs
        .iter()
        .map(|run| JsonRun {
            run,
            counts: run.counts(),
        })
        .collect();
    let document = serde_json::json!({
        "tool": format!("robotstxt-test {}", env!("CARGO_PKG_VERSION")),
        "kind": "crawl",
        "agent": AGENT,
        "crawlers": crawlers,
    });
    robotstxt_suite::visible::json_text(&document).unwrap_or_default() + "\n"
}

fn xml(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '&' => "&amp;".to_owned(),
            '<' => "&lt;".to_owned(),
            '>' => "&gt;".to_owned(),
            '"' => "&quot;".to_owned(),
            c if c.is_control() && c != '\n' && c != '\t' => format!("\\u{{{:x}}}", c as u32),
            c => c.to_string(),
        })
        .collect()
}

/// JUnit XML: a test suite per crawler, a test case per check; a failure carries the case in
/// full with its request log; unspecified and no-data checks are skipped.
pub fn junit(runs: &[CrawlerRun], cases: &[AccessCase]) -> String {
    let by_id: BTreeMap<&str, &AccessCase> = cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n");
    for run in runs {
        let c = run.counts();
        let _ = writeln!(
            out,
            "  <testsuite name=\"crawl {}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">",
            xml(run.crawler.raw()),
            c.pass + c.fail + c.fault + c.unspecified + c.no_data,
            c.fail,
            c.fault,
            c.unspecified + c.no_data
        );
        for case_run in &run.cases {
            for check in &case_run.checks {
                let _ = write!(
                    out,
                    "    <testcase classname=\"{}\" name=\"{}\"",
                    xml(run.crawler.raw()),
                    xml(&check.id)
                );
                match check.outcome {
                    AccessOutcome::Pass => out.push_str("/>\n"),
                    AccessOutcome::Unspecified | AccessOutcome::NoData => {
                        let _ = writeln!(
                            out,
                            "><skipped message=\"{}\"/></testcase>",
                            check.outcome.as_str()
                        );
                    }
                    AccessOutcome::Fail | AccessOutcome::Fault => {
                        let tag = if check.outcome == AccessOutcome::Fail {
                            "failure"
                        } else {
                            "error"
                        };
                        let block = by_id
                            .get(case_run.case_id.as_str())
                            .map(|case| case_block(case, case_run))
                            .unwrap_or_default();
                        let _ = writeln!(
                            out,
                            "><{tag} message=\"{}: {}\">{}</{tag}></testcase>",
                            xml(&check.target),
                            xml(&check.observed),
                            xml(&block)
                        );
                    }
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

/// GitHub Actions annotations: each failed check an `::error` on its case's `name:` line, then
/// the counts of each crawler.
pub fn github(runs: &[CrawlerRun], cases: &[AccessCase]) -> String {
    // Workflow commands end at a line feed and take `%`, `\r`, `\n` escaped.
    let escape = |s: &str| {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let mut out = String::new();
    for run in runs {
        for case_run in &run.cases {
            let Some(case) = cases.iter().find(|c| c.id == case_run.case_id) else {
                continue;
            };
            for check in case_run.checks.iter().filter(|c| c.outcome.is_failure()) {
                let file = escape(&case.file.display().to_string()).replace(',', "%2C");
                let _ = writeln!(
                    out,
                    "::error file={file},line={},title={}::{}",
                    case.line,
                    escape(&format!("{} {}", run.crawler, check.id))
                        .replace(',', "%2C")
                        .replace(':', "%3A"),
                    escape(&format!(
                        "{}: {} ({})",
                        check.target,
                        check.observed,
                        cause(case, case_run, check)
                    ))
                );
            }
        }
        let _ = writeln!(out, "{}", counts_line(run));
    }
    out
}

/// A Markdown table, one row per crawler.
pub fn markdown(runs: &[CrawlerRun]) -> String {
    let mut out = String::from(
        "| crawler | profile | passed | failed | faults | unspecified | no data | cases with data |\n|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for run in runs {
        let c = run.counts();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {}/{} |",
            run.crawler,
            run.profile,
            c.pass,
            c.fail,
            c.fault,
            c.unspecified,
            c.no_data,
            c.cases_with_data,
            c.cases
        );
    }
    out
}
