//! Benchmark 2: the whole case corpus against every available adapter, and one adapter started
//! once per case (the way suites without a persistent protocol work) against the same adapter
//! kept running, for the ratio.

use std::path::Path;
use std::time::{Duration, Instant};

use robotstxt_fuzzer::{Judgement, Oracle};
use robotstxt_runtime::adapter::{self, Adapter, AdapterProcess, Availability, Limits};
use robotstxt_runtime::lifecycle::Lifecycle;
use robotstxt_runtime::side_by_side::{run_engines, side_by_side, Worker};
use robotstxt_suite::cases::Case;
use robotstxt_suite::engine::{ClaimedProfile, Engine, Query, Reply};
use robotstxt_suite::run::{queries_of, Scoring};

pub struct AllAdapters {
    pub timeout: Duration,
    pub adapters: Vec<String>,
    pub unavailable: Vec<(String, String)>,
    pub checks: usize,
    /// Starting every adapter process side by side, handshakes included.
    pub start: Duration,
    /// Running the corpus through all of them, side by side.
    pub run: Duration,
}

/// What `compare` costs with every adapter: start them all, ask one body, stop them all.
pub fn compare_all(adapters: &[Adapter], limits: Limits) -> Duration {
    let body = b"User-agent: *\rDisallow: /private\rAllow: /private/ok\r";
    let queries = vec![Query {
        agent: "FooBot".to_owned(),
        path: "/private/ok".to_owned(),
    }];
    let started = Instant::now();
    let mut engines = adapter::open_all(adapters, limits, &|line| eprintln!("{line}"), &|_| {});
    std::hint::black_box(ask_and_judge(body, &queries, &mut engines));
    adapter::stop_all(engines);
    started.elapsed()
}

/// What `compare` does with the engines once they are running: every engine asked the body on
/// its own thread, and each answer judged against the reference under the profile it claims.
fn ask_and_judge(body: &[u8], queries: &[Query], engines: &mut [Box<dyn Lifecycle>]) -> usize {
    struct AskAndJudge(usize);
    impl<'a> Worker<(&'a [u8], &'a [Query])> for AskAndJudge {
        fn item(&mut self, engine: &mut dyn Lifecycle, (body, queries): &(&'a [u8], &'a [Query])) {
            if let Ok(Reply::Verdicts(verdicts)) = engine.check("compare", body, queries) {
                let oracle = Oracle::for_engine(engine.handshake());
                self.0 = queries
                    .iter()
                    .zip(verdicts)
                    .filter(|&(query, theirs)| {
                        !matches!(oracle.judge_one(body, query, theirs), Judgement::Agree)
                    })
                    .count();
            }
        }
    }
    let workers = engines.iter().map(|_| AskAndJudge(0)).collect();
    side_by_side([(body, queries)], engines, workers)
        .iter()
        .map(|judged| judged.0)
        .sum()
}

pub struct PerCase {
    pub adapter: String,
    pub cases: usize,
    pub persistent: Duration,
    pub per_case: Duration,
}

/// Every adapter this machine can run, installed.
pub fn available(adapters_dir: &Path, workspace: &Path) -> anyhow::Result<Vec<Adapter>> {
    let all = adapter::discover(adapters_dir, workspace)?;
    Ok(all
        .into_iter()
        .filter(|a| !matches!(adapter::availability(a), Availability::Unavailable(_)))
        .collect())
}

pub fn all_adapters(cases: &[Case], adapters: &[Adapter], limits: Limits) -> AllAdapters {
    let started = Instant::now();
    let mut engines = adapter::open_all(adapters, limits, &|line| eprintln!("{line}"), &|_| {});
    let start = started.elapsed();
    let unavailable = engines
        .iter()
        .filter_map(|e| {
            e.unavailable()
                .map(|why| (e.handshake().name.to_string(), why.to_string()))
        })
        .collect();
    let started = Instant::now();
    let scoring = |e: &dyn Engine| Scoring::Claimed(e.handshake().claimed_profile());
    let results = run_engines(cases, &mut engines, &scoring, &|_, _, _| {});
    let run = started.elapsed();
    AllAdapters {
        timeout: limits.timeout,
        adapters: adapters.iter().map(|a| a.name().to_owned()).collect(),
        unavailable,
        checks: results.iter().map(Vec::len).sum(),
        start,
        run,
    }
}

/// The corpus through one adapter: kept running, then started afresh for every case.
pub fn per_case(cases: &[Case], adapter: &Adapter) -> anyhow::Result<PerCase> {
    let fail =
        |e: robotstxt_suite::engine::Failure| anyhow::anyhow!("{}: {}", adapter.name(), e.detail);
    let started = Instant::now();
    let mut process = AdapterProcess::start(adapter.argv(), Limits::default()).map_err(fail)?;
    for case in cases {
        process
            .check(&case.id, &case.robots, &queries_of(case))
            .map_err(fail)?;
    }
    drop(process);
    let persistent = started.elapsed();
    let started = Instant::now();
    for case in cases {
        let mut process = AdapterProcess::start(adapter.argv(), Limits::default()).map_err(fail)?;
        process
            .check(&case.id, &case.robots, &queries_of(case))
            .map_err(fail)?;
    }
    Ok(PerCase {
        adapter: adapter.name().to_owned(),
        cases: cases.len(),
        persistent,
        per_case: started.elapsed(),
    })
}
