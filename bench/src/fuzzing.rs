//! Benchmark 3: out-of-process differential fuzzing against one adapter, in checks per second.
//! The same loop as `robotstxt-test fuzz`; reductions are timed apart, since they depend on what
//! is found rather than on the protocol's speed.

use std::time::Duration;

use robotstxt_fuzzer::known::Known;
use robotstxt_fuzzer::reduce::DEFAULT_BUDGET;
use robotstxt_fuzzer::session::{fuzz, Settings, Stats};
use robotstxt_runtime::adapter::{self, Adapter, Limits};
use robotstxt_runtime::lifecycle;

pub struct FuzzFigure {
    pub adapter: String,
    pub stats: Stats,
}

impl FuzzFigure {
    pub fn checks_per_second(&self) -> f64 {
        self.stats.checks as f64 / self.stats.elapsed.as_secs_f64()
    }

    /// Excluding the time spent reducing findings.
    pub fn checks_per_second_asking(&self) -> f64 {
        let asking = self.stats.elapsed.saturating_sub(self.stats.reducing);
        self.stats.checks as f64 / asking.as_secs_f64()
    }
}

pub fn run(adapter: &Adapter, seconds: u64) -> anyhow::Result<FuzzFigure> {
    let mut engine = adapter::open(adapter, Limits::default(), &mut |line| eprintln!("{line}"));
    if let Some(why) = engine.unavailable() {
        anyhow::bail!("{}: {why}", adapter.name());
    }
    let settings = Settings {
        seed: 1,
        time: Some(Duration::from_secs(seconds)),
        docs: None,
        budget: DEFAULT_BUDGET,
    };
    let stats = fuzz(
        engine.as_mut(),
        lifecycle::between(),
        &settings,
        &mut Known::default(),
        &mut |_| {},
    )?;
    Ok(FuzzFigure {
        adapter: adapter.name().to_owned(),
        stats,
    })
}
