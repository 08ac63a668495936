//! Every case against every crawler, a few cases at a time: each case has a site and a crawler
//! process of its own, and most of a case is spent waiting (on a stall, on a crawler's timeout),
//! so cases, and crawlers, overlap rather than queue.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

use robotstxt_reference::Profile;
use robotstxt_suite::visible::Outside;
use serde::Serialize;

use crate::case::AccessCase;
use crate::command::CommandTemplate;
use crate::score::AccessOutcome;
use crate::session::{run_case, CaseBounds, CaseRun};

/// A crawler to run: its name, the profile it is scored under, and its command.
#[derive(Debug, Clone)]
pub struct CrawlerUnderTest {
    /// Its manifest's name, or `crawler-cmd`.
    pub name: Outside,
    pub profile: Profile,
    pub command: CommandTemplate,
    /// Flags that depart from the crawler's defaults, and why, shown with its results.
    pub departures: Vec<Outside>,
}

/// What one crawler did on every case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CrawlerRun {
    pub crawler: Outside,
    pub profile: String,
    pub departures: Vec<Outside>,
    pub cases: Vec<CaseRun>,
}

/// Counts of a crawler's checks by outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub pass: usize,
    pub fail: usize,
    pub fault: usize,
    pub unspecified: usize,
    pub no_data: usize,
    /// Cases with data (the control fetched).
    pub cases_with_data: usize,
    pub cases: usize,
}

impl CrawlerRun {
    pub fn counts(&self) -> Counts {
        let mut counts = Counts {
            cases: self.cases.len(),
            ..Counts::default()
        };
        for case in &self.cases {
            counts.cases_with_data += usize::from(case.data);
            for check in &case.checks {
                match check.outcome {
                    AccessOutcome::Pass => counts.pass += 1,
                    AccessOutcome::Fail => counts.fail += 1,
                    AccessOutcome::Fault => counts.fault += 1,
                    AccessOutcome::Unspecified => counts.unspecified += 1,
                    AccessOutcome::NoData => counts.no_data += 1,
                }
            }
        }
        counts
    }

    /// Whether no case has data: nothing about this crawler can be scored.
    pub fn has_no_data(&self) -> bool {
        self.cases.iter().all(|c| !c.data)
    }
}

/// Runs every case of `cases` against `crawler`, `jobs` at a time, in the cases' order;
/// `progress` is called after each case.
pub fn run_crawler(
    crawler: &CrawlerUnderTest,
    cases: &[AccessCase],
    bounds: CaseBounds,
    jobs: usize,
    progress: &(dyn Fn(&CaseRun) + Sync),
) -> CrawlerRun {
    let each = |_: &CrawlerUnderTest, run: &CaseRun| progress(run);
    let mut runs = run_crawlers(std::slice::from_ref(crawler), cases, bounds, jobs, &each);
    runs.pop().unwrap_or_else(|| CrawlerRun {
        crawler: crawler.name.clone(),
        profile: crawler.profile.name().to_owned(),
        departures: crawler.departures.clone(),
        cases: Vec::new(),
    })
}

/// Most cases run at once, over every crawler.
pub const MAX_JOBS: usize = 32;

/// Runs every case of `cases` against every crawler of `crawlers`, `jobs` (crawler, case) pairs
/// at a time over all of them: the crawlers overlap as their cases do, so the whole takes about
/// as long as its longest cases rather than the sum of every crawler's run. The pairs start
/// case by case (every crawler on the first case, then on the second), so that one crawler's
/// slow cases do not all wait at the end. Each crawler's results keep the cases' order;
/// `progress` is called after each pair.
pub fn run_crawlers(
    crawlers: &[CrawlerUnderTest],
    cases: &[AccessCase],
    bounds: CaseBounds,
    jobs: usize,
    progress: &(dyn Fn(&CrawlerUnderTest, &CaseRun) + Sync),
) -> Vec<CrawlerRun> {
    let pairs = crawlers.len() * cases.len();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<CaseRun>>> = Mutex::new(vec![None; pairs]);
    thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, MAX_JOBS).min(pairs.max(1)) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= pairs {
                    break;
                }
                let (case, crawler) = (index / crawlers.len(), index % crawlers.len());
                let crawler = &crawlers[crawler];
                let run = run_case(&cases[case], &crawler.command, crawler.profile, bounds);
                progress(crawler, &run);
                if let Ok(mut results) = results.lock() {
                    results[index] = Some(run);
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    crawlers
        .iter()
        .enumerate()
        .map(|(c, crawler)| CrawlerRun {
            crawler: crawler.name.clone(),
            profile: crawler.profile.name().to_owned(),
            departures: crawler.departures.clone(),
            cases: (0..cases.len())
                .filter_map(|case| results[case * crawlers.len() + c].take())
                .collect(),
        })
        .collect()
}
