//! Benchmark 5: the whole access corpus against every carried crawler that can run here, side by
//! side as `crawl --crawler all` runs them: when each crawler's last case ended, and the whole.

use std::path::Path;
use std::time::{Duration, Instant};

use std::sync::Mutex;

use robotstxt_crawl::app::{carried, load_cases};
use robotstxt_crawl::runner::run_crawlers;
use robotstxt_crawl::session::CaseBounds;
use robotstxt_runtime::adapter::install::{self, Availability};

/// `crawl`'s default of cases run at once, over every crawler.
pub const JOBS: usize = 12;

pub struct CrawlFigure {
    pub cases: usize,
    pub checks: usize,
    /// (crawler, seconds from the start until its last case ended, cases with data).
    pub crawlers: Vec<(String, Duration, usize)>,
    pub total: Duration,
    /// Carried crawlers that cannot run here, with why.
    pub left_out: Vec<String>,
}

pub fn run(cases_dir: &Path, crawlers_dir: &Path) -> anyhow::Result<CrawlFigure> {
    let cases = load_cases(&[cases_dir.to_owned()])?;
    let mut figure = CrawlFigure {
        cases: cases.len(),
        checks: cases.iter().map(|c| c.checks.len()).sum(),
        crawlers: Vec::new(),
        total: Duration::ZERO,
        left_out: Vec::new(),
    };
    let started = Instant::now();
    let mut tests = Vec::new();
    for crawler in carried(Some(crawlers_dir), None)? {
        let adapter = crawler.install_as();
        if let Availability::Unavailable(why) = install::availability(&adapter) {
            figure
                .left_out
                .push(format!("{}: {why}", crawler.manifest.name));
            continue;
        }
        install::install(&adapter, false, &mut |line| eprintln!("{line}"))?;
        tests.push(crawler.under_test(None));
    }
    let crawling = Instant::now();
    let last_ended: Mutex<Vec<Duration>> = Mutex::new(vec![Duration::ZERO; tests.len()]);
    let progress = |crawler: &robotstxt_crawl::runner::CrawlerUnderTest, _: &_| {
        let at = crawling.elapsed();
        if let (Some(i), Ok(mut ended)) = (
            tests.iter().position(|t| t.name == crawler.name),
            last_ended.lock(),
        ) {
            ended[i] = ended[i].max(at);
        }
    };
    let runs = run_crawlers(&tests, &cases, CaseBounds::default(), JOBS, &progress);
    let ended = last_ended.into_inner().unwrap_or_default();
    for ((run, took), test) in runs.iter().zip(ended).zip(&tests) {
        let data = run.counts().cases_with_data;
        figure.crawlers.push((test.name.to_string(), took, data));
    }
    figure.total = started.elapsed();
    Ok(figure)
}
