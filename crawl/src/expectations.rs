//! The gate of `crawl`: a file listing, per crawler, every check that does not pass today and how
//! it comes out (`fail`, `fault` or `no-data`). A run matches it when every check comes out as
//! listed; a check that fails otherwise is a regression (exit 1), a listed check that now passes
//! is shown as fixed.
//!
//! ```yaml
//! crawlers:
//!   wget:
//!     access/status/unavailable-503-rules#1: fail
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use robotstxt_suite::input::{Format, Input};
use robotstxt_suite::limits::EXPECTATION_FILE;
use robotstxt_suite::located::LocatedError;
use serde::{Deserialize, Serialize};

use crate::runner::CrawlerRun;
use crate::score::AccessOutcome;

/// How a listed check comes out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ListedAccess {
    Fail,
    Fault,
    NoData,
}

impl ListedAccess {
    fn of(outcome: AccessOutcome) -> Option<ListedAccess> {
        match outcome {
            AccessOutcome::Fail => Some(ListedAccess::Fail),
            AccessOutcome::Fault => Some(ListedAccess::Fault),
            AccessOutcome::NoData => Some(ListedAccess::NoData),
            AccessOutcome::Pass | AccessOutcome::Unspecified => None,
        }
    }
}

/// An expectation file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    pub crawlers: BTreeMap<String, BTreeMap<String, ListedAccess>>,
}

impl Expectations {
    pub fn load(path: &Path) -> Result<Expectations, LocatedError> {
        Input::read(path, Format::Yaml, EXPECTATION_FILE)?.parse()
    }

    /// What `runs` give: every check not passed and not open.
    pub fn from_runs(runs: &[CrawlerRun]) -> Expectations {
        let crawlers = runs
            .iter()
            .map(|run| {
                let listed = (run.cases.iter())
                    .flat_map(|c| &c.checks)
                    .filter_map(|c| ListedAccess::of(c.outcome).map(|l| (c.id.clone(), l)))
                    .collect();
                (run.crawler.raw().to_owned(), listed)
            })
            .collect();
        Expectations { crawlers }
    }

    pub fn to_yaml(&self) -> String {
        let header = "# robotstxt-test crawl: the checks each crawler does not pass today.\n";
        header.to_owned() + &serde_yaml::to_string(self).unwrap_or_default()
    }
}

/// A run judged against an expectation file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JudgedCrawl {
    /// `crawler check-id: listed as X, now Y`.
    pub regressions: Vec<String>,
    pub fixed: Vec<String>,
}

/// Judges the crawlers of `runs` against `expected` (a crawler the file does not name is
/// expected to pass every check).
pub fn judge(expected: &Expectations, runs: &[CrawlerRun]) -> JudgedCrawl {
    let mut judged = JudgedCrawl::default();
    let empty = BTreeMap::new();
    for run in runs {
        let listed = expected.crawlers.get(run.crawler.raw()).unwrap_or(&empty);
        for check in run.cases.iter().flat_map(|c| &c.checks) {
            let now = ListedAccess::of(check.outcome);
            let was = listed.get(&check.id).copied();
            if now == was || check.outcome == AccessOutcome::Unspecified {
                continue;
            }
            let name = |l: Option<ListedAccess>| {
                l.map_or("pass".to_owned(), |l| format!("{l:?}").to_lowercase())
            };
            let line = format!(
                "{} {}: listed as {}, now {}",
                run.crawler,
                check.id,
                name(was),
                name(now)
            );
            if now.is_none() {
                judged.fixed.push(line);
            } else {
                judged.regressions.push(line);
            }
        }
    }
    judged
}
