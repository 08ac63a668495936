//! Benchmark 5: the whole access corpus against every carried crawler that can run here, one
//! crawler after another as `crawl --crawler all` runs them, wall time per crawler and in all.

use std::path::Path;
use std::time::{Duration, Instant};

use robotstxt_crawl::app::{carried, load_cases};
use robotstxt_crawl::runner::run_crawler;
use robotstxt_crawl::session::CaseBounds;
use robotstxt_runtime::adapter::install::{self, Availability};

/// `crawl`'s default of cases run at once.
const JOBS: usize = 4;

pub struct CrawlFigure {
    pub cases: usize,
    pub checks: usize,
    /// (crawler, seconds, cases with data).
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
    for crawler in carried(Some(crawlers_dir))? {
        let adapter = crawler.install_as();
        if let Availability::Unavailable(why) = install::availability(&adapter) {
            figure
                .left_out
                .push(format!("{}: {why}", crawler.manifest.name));
            continue;
        }
        install::install(&adapter, false, &mut |line| eprintln!("{line}"))?;
        let test = crawler.under_test(None);
        let one = Instant::now();
        let run = run_crawler(&test, &cases, CaseBounds::default(), JOBS, &|_| {});
        let data = run.counts().cases_with_data;
        figure.crawlers.push((test.name, one.elapsed(), data));
    }
    figure.total = started.elapsed();
    Ok(figure)
}
