//! The crawlers in a report: what each carried crawler fetched over the access cases
//! (`robotstxt-crawl`), beside the parsers. `README.md` gets a section with a table per crawler
//! (its checks under each profile, its failures by cause), `index.html` a section of its own,
//! `results.json` the crawlers' results (which `diff` and the history read as entries named
//! `crawler-<name>`), and each crawler a page under `crawlers/` with every case it did not pass
//! and the site's request log, as `crawl --pages` writes them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use robotstxt_crawl::app::CrawlReport;
use robotstxt_crawl::case::{AccessCase, AccessVerdict};
use robotstxt_crawl::crawler::{Carried, RobotsParser};
use robotstxt_crawl::output::cause;
use robotstxt_crawl::pages;
use robotstxt_crawl::runner::CrawlerRun;
use robotstxt_crawl::score::{AccessOutcome, AccessResult};
use robotstxt_crawl::session::AGENT;
use robotstxt_reference::Profile;
use robotstxt_runtime::adapter::manifest::Package;
use robotstxt_runtime::markup::{html, md, md_code};
use robotstxt_suite::visible::Outside;
use serde::Serialize;

/// The name a crawler's results go by in `diff` and the history, apart from the adapters'.
pub fn results_name(crawler: &str) -> String {
    format!("crawler-{crawler}")
}

/// Where the report's section of crawlers goes in `page.html`.
const PLACEHOLDER: &str = "<!--CRAWLERS-->";

/// The files the crawlers add to a report: `crawlers.md`, `crawlers/<name>.md` and
/// `crawl-results.json`.
pub fn files(crawl: &CrawlReport) -> Vec<(String, Vec<u8>)> {
    pages::files(&crawl.runs, &crawl.cases, &crawl.carried)
}

fn described<'a>(crawl: &'a CrawlReport, name: &str) -> Option<&'a Carried> {
    crawl.carried.iter().find(|c| c.manifest.name == name)
}

/// The access case of `id`.
fn case<'a>(crawl: &'a CrawlReport, id: &str) -> Option<&'a AccessCase> {
    crawl.cases.iter().find(|c| c.id == id)
}

/// Every check of `run` under each scoring: `claimed` (as run), then each profile.
fn scored(crawl: &CrawlReport, run: &CrawlerRun) -> Vec<(String, Vec<AccessResult>)> {
    let mut scorings = vec![(
        "claimed".to_owned(),
        run.cases.iter().flat_map(|c| c.checks.clone()).collect(),
    )];
    for profile in Profile::ALL {
        let results = (run.cases.iter())
            .flat_map(|c| match case(crawl, &c.case_id) {
                Some(case) => c.rescored(case, *profile),
                None => Vec::new(),
            })
            .collect();
        scorings.push((profile.name().to_owned(), results));
    }
    scorings
}

/// Counts of a list of checks by outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct CrawlTotals {
    pub passed: usize,
    /// Passed, failed and faults: the checks the profile decides and the crawler gave data for.
    pub scored: usize,
    pub failed: usize,
    pub faults: usize,
    pub unspecified: usize,
    pub no_data: usize,
}

impl CrawlTotals {
    pub fn of(results: &[AccessResult]) -> CrawlTotals {
        let mut t = CrawlTotals::default();
        for r in results {
            match r.outcome {
                AccessOutcome::Pass => t.passed += 1,
                AccessOutcome::Fail => t.failed += 1,
                AccessOutcome::Fault => t.faults += 1,
                AccessOutcome::Unspecified => t.unspecified += 1,
                AccessOutcome::NoData => t.no_data += 1,
            }
        }
        t.scored = t.passed + t.failed + t.faults;
        t
    }

    fn shown(&self) -> String {
        match (self.passed * 100).checked_div(self.scored) {
            Some(percent) => format!("{}/{} ({percent}%)", self.passed, self.scored),
            None => "no data".to_owned(),
        }
    }
}

/// The section of `README.md`: a row per crawler, then a table per crawler with its failures by
/// cause; empty without crawlers.
pub fn readme_section(crawl: Option<&CrawlReport>) -> String {
    let Some(crawl) = crawl else {
        return String::new();
    };
    let checks: usize = crawl.cases.iter().map(|c| c.checks.len()).sum();
    let mut out = format!(
        "\n## Crawlers in the loop\n\n\
         What real crawlers *fetch* around robots.txt: the {} access cases ({checks} checks, \
         `cases/access/`) against every carried crawler (`crawlers/`), a loopback site and a fresh \
         crawler process per case, each told to send `User-agent: {AGENT}`. A crawler is scored \
         under the profile it claims; a case whose control page it never fetched is *no data*, \
         never a pass. [crawlers.md](crawlers.md) has the same, and each crawler's page every case \
         it did not pass with the site's request log.\n\n\
         | crawler | package | robots.txt parser | claims | scored checks passed | faults | cases with data |\n\
         |---|---|---|---|---:|---:|---:|\n",
        crawl.cases.len()
    );
    for run in &crawl.runs {
        let carried = described(crawl, run.crawler.raw());
        let counts = run.counts();
        let totals = CrawlTotals::of(&scored(crawl, run)[0].1);
        let _ = writeln!(
            out,
            "| [{}]({}) | {} | {} | {} | {} | {} | {}/{} |",
            md(run.crawler.raw()),
            pages::page_name(run.crawler.raw()),
            carried.map_or(String::new(), |c| package_shown(&c.manifest.package)),
            carried.map_or(String::new(), |c| md(c.manifest.robots_parser.name.raw())),
            md(&run.profile),
            totals.shown(),
            counts.fault,
            counts.cases_with_data,
            counts.cases
        );
    }
    for (name, why) in &crawl.unavailable {
        let _ = writeln!(
            out,
            "| {} | | | | not run here: {} | | |",
            md(name.raw()),
            md(first_line(why.raw()))
        );
    }
    for run in &crawl.runs {
        let _ = write!(
            out,
            "\n### [{}]({})\n{}",
            md(run.crawler.raw()),
            pages::page_name(run.crawler.raw()),
            pages::crawler_section(run, &crawl.cases)
        );
    }
    out
}

fn package_shown(package: &Package) -> String {
    format!(
        "{} {} ({})",
        md_code(&package.name),
        md(&package.version),
        md(&package.registry)
    )
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// `page` with the crawlers' section in its place (nothing there without crawlers).
pub fn into_page(page: String, crawl: Option<&CrawlReport>) -> String {
    page.replacen(PLACEHOLDER, &html_section(crawl), 1)
}

/// The section of `index.html`: a row per crawler with its checks under each profile, then per
/// crawler its failures by cause and every case it did not pass with the site's request log,
/// folded. Drawn here, escaped, with no script.
fn html_section(crawl: Option<&CrawlReport>) -> String {
    let Some(crawl) = crawl else {
        return String::new();
    };
    let mut out = String::from(
        "<section id=\"crawlers\"><style>\
         #crawler-totals td, #crawler-totals th { border: 1px solid #ddd; padding: 2px 6px; \
         text-align: right; white-space: nowrap; } #crawler-totals .l { text-align: left; } \
         #crawlers pre { background: #fafafa; border: 1px solid #ddd; padding: .5em; \
         overflow-x: auto; font-size: 12px; } #crawlers summary { cursor: pointer; }</style>\n\
         <h2>Crawlers in the loop</h2>\n<p class=\"hint\">What real \
         crawlers fetch around robots.txt: the access cases (<code>cases/access/</code>) against \
         every carried crawler, a loopback site and a fresh crawler process per case. A cell is \
         scored checks passed / scored, under the profile named; a case whose control page the \
         crawler never fetched is no data, never a pass.</p>\n<div class=\"scroll\"><table \
         id=\"crawler-totals\"><tr><th class=\"l\">crawler</th><th class=\"l\">package</th>\
         <th class=\"l\">robots.txt parser</th><th class=\"l\">claims</th><th>claimed</th>",
    );
    for profile in Profile::ALL {
        let _ = write!(out, "<th>{}</th>", html(profile.name()));
    }
    out.push_str("<th>faults</th><th>cases with data</th></tr>\n");
    for run in &crawl.runs {
        let carried = described(crawl, run.crawler.raw());
        let counts = run.counts();
        let _ = write!(
            out,
            "<tr><td class=\"l\"><a href=\"#crawler-{0}\">{0}</a></td><td class=\"l\">{1}</td>\
             <td class=\"l\">{2}</td><td class=\"l\">{3}</td>",
            html(run.crawler.raw()),
            carried.map_or(String::new(), |c| {
                let p = &c.manifest.package;
                html(&format!("{} {} ({})", p.name, p.version, p.registry))
            }),
            carried.map_or(String::new(), |c| html(c.manifest.robots_parser.name.raw())),
            html(&run.profile)
        );
        for (_, results) in scored(crawl, run) {
            let _ = write!(out, "<td>{}</td>", html(&CrawlTotals::of(&results).shown()));
        }
        let _ = writeln!(
            out,
            "<td>{}</td><td>{}/{}</td></tr>",
            counts.fault, counts.cases_with_data, counts.cases
        );
    }
    for (name, why) in &crawl.unavailable {
        let _ = writeln!(
            out,
            "<tr><td class=\"l\">{}</td><td class=\"l nodata\" colspan=\"{}\">not run here: {}</td></tr>",
            html(name.raw()),
            6 + Profile::ALL.len(),
            html(first_line(why.raw()))
        );
    }
    out.push_str("</table></div>\n");
    for run in &crawl.runs {
        out.push_str(&crawler_details(crawl, run));
    }
    out.push_str("</section>\n");
    out
}

fn crawler_details(crawl: &CrawlReport, run: &CrawlerRun) -> String {
    let mut out = format!("<h3 id=\"crawler-{0}\">{0}</h3>\n", html(run.crawler.raw()));
    if !run.departures.is_empty() {
        out.push_str("<p class=\"hint\">Flags that depart from its defaults:</p><ul>");
        for d in &run.departures {
            let _ = write!(out, "<li>{}</li>", html(d.raw()));
        }
        out.push_str("</ul>\n");
    }
    let causes = pages::causes(run, &crawl.cases);
    if causes.is_empty() {
        out.push_str("<p>No scored check failed.</p>\n");
    } else {
        out.push_str("<p>Failures by cause:</p><ul>");
        for (cause, n) in &causes {
            let _ = write!(out, "<li>{}: {n}</li>", html(cause));
        }
        out.push_str("</ul>\n");
    }
    for case_run in &run.cases {
        let failed = case_run.checks.iter().any(|k| k.outcome.is_failure());
        if !(failed || !case_run.data || !case_run.faults.is_empty()) {
            continue;
        }
        let Some(case) = case(crawl, &case_run.case_id) else {
            continue;
        };
        let what = if failed {
            "failed"
        } else if !case_run.data {
            "no data"
        } else {
            "fault"
        };
        let _ = writeln!(
            out,
            "<details><summary>{} ({what})</summary><pre>{}</pre></details>",
            html(&case.id),
            html(&robotstxt_crawl::output::case_block(case, case_run))
        );
    }
    out
}

/// An access case as `results.json` records it.
#[derive(Serialize)]
pub struct AccessCaseDoc<'a> {
    id: &'a str,
    file: String,
    line: usize,
    checks: Vec<AccessCheckDoc>,
}

#[derive(Serialize)]
struct AccessCheckDoc {
    id: String,
    /// `a:/path`, `b:/path`, or `robots.txt first on a`.
    target: String,
    /// Per profile: `fetched`, `not-fetched`, `holds` or `unspecified`.
    expect: BTreeMap<&'static str, AccessVerdict>,
}

/// One crawler as `results.json` records it.
#[derive(Serialize)]
pub struct CrawlerDoc<'a> {
    name: &'a Outside,
    /// The name `diff` and the history give its results: `crawler-<name>`.
    results_name: String,
    crawler: Option<&'a Outside>,
    package: Option<&'a Package>,
    robots_parser: Option<&'a RobotsParser>,
    profile: &'a str,
    departures: &'a [Outside],
    has_data: bool,
    /// Why it did not run here, for a crawler that did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    unavailable: Option<&'a Outside>,
    /// Per scoring (`claimed`, then each profile), its checks counted by outcome.
    totals: BTreeMap<String, CrawlTotals>,
    /// Per case, in corpus order: how the crawler ran.
    cases: Vec<CaseRunDoc<'a>>,
    /// Every check, in corpus order.
    checks: Vec<CrawlCheckDoc<'a>>,
}

#[derive(Serialize)]
struct CaseRunDoc<'a> {
    id: &'a str,
    seconds: f64,
    /// How the crawler ended (`exit status: 0`), or `null` when it was stopped.
    exit: Option<&'a str>,
    data: bool,
    requests: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    faults: Vec<String>,
}

#[derive(Serialize)]
struct CrawlCheckDoc<'a> {
    id: &'a str,
    /// What the request log shows, in words.
    observed: &'a str,
    /// Whether what the check looks for happened: the page was fetched, or robots.txt was asked
    /// first.
    held: bool,
    /// Per scoring: `pass`, `fail`, `fault`, `unspecified` or `no-data`.
    outcome: BTreeMap<String, AccessOutcome>,
    /// What causes a failure under the claimed profile, as `crawl` groups it.
    #[serde(skip_serializing_if = "Option::is_none")]
    cause: Option<String>,
}

/// The access cases, for `results.json`.
pub fn case_docs(crawl: Option<&CrawlReport>) -> Vec<AccessCaseDoc<'_>> {
    let Some(crawl) = crawl else {
        return Vec::new();
    };
    (crawl.cases.iter())
        .map(|case| AccessCaseDoc {
            id: &case.id,
            file: case.file.display().to_string(),
            line: case.line,
            checks: (case.checks.iter().enumerate())
                .map(|(i, check)| AccessCheckDoc {
                    id: format!("{}#{i}", case.id),
                    target: check.target.shown(),
                    expect: (Profile::ALL.iter())
                        .map(|p| (p.name(), check.verdict(*p)))
                        .collect(),
                })
                .collect(),
        })
        .collect()
}

/// The crawlers, run or not, for `results.json`.
pub fn crawler_docs(crawl: Option<&CrawlReport>) -> Vec<CrawlerDoc<'_>> {
    let Some(crawl) = crawl else {
        return Vec::new();
    };
    let mut docs: Vec<CrawlerDoc> = (crawl.runs.iter())
        .map(|run| {
            let carried = described(crawl, run.crawler.raw()).map(|c| &c.manifest);
            let scorings = scored(crawl, run);
            let claimed: Vec<(&AccessResult, String)> = (run.cases.iter())
                .flat_map(|c| {
                    c.checks.iter().map(move |check| {
                        let cause = case(crawl, &c.case_id)
                            .map_or_else(String::new, |case| cause(case, c, check));
                        (check, cause)
                    })
                })
                .collect();
            CrawlerDoc {
                name: &run.crawler,
                results_name: results_name(run.crawler.raw()),
                crawler: carried.map(|m| &m.crawler),
                package: carried.map(|m| &m.package),
                robots_parser: carried.map(|m| &m.robots_parser),
                profile: &run.profile,
                departures: &run.departures,
                has_data: !run.has_no_data(),
                unavailable: None,
                totals: (scorings.iter())
                    .map(|(name, results)| (name.clone(), CrawlTotals::of(results)))
                    .collect(),
                cases: (run.cases.iter())
                    .map(|c| CaseRunDoc {
                        id: &c.case_id,
                        seconds: (c.seconds * 1000.0).round() / 1000.0,
                        exit: c.exit.as_deref(),
                        data: c.data,
                        requests: c.log.len(),
                        faults: c.faults.iter().map(|f| f.shown()).collect(),
                    })
                    .collect(),
                checks: (claimed.iter().enumerate())
                    .map(|(i, (check, cause))| CrawlCheckDoc {
                        id: &check.id,
                        observed: &check.observed,
                        held: check.held,
                        outcome: (scorings.iter())
                            .filter_map(|(name, results)| {
                                results.get(i).map(|r| (name.clone(), r.outcome))
                            })
                            .collect(),
                        cause: check.outcome.is_failure().then(|| cause.clone()),
                    })
                    .collect(),
            }
        })
        .collect();
    for (name, why) in &crawl.unavailable {
        let carried = described(crawl, name.raw()).map(|c| &c.manifest);
        docs.push(CrawlerDoc {
            name,
            results_name: results_name(name.raw()),
            crawler: carried.map(|m| &m.crawler),
            package: carried.map(|m| &m.package),
            robots_parser: carried.map(|m| &m.robots_parser),
            profile: carried.map_or("", |m| m.profile.as_str()),
            departures: &[],
            has_data: false,
            unavailable: Some(why),
            totals: BTreeMap::new(),
            cases: Vec::new(),
            checks: Vec::new(),
        });
    }
    docs
}
