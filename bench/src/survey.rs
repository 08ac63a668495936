//! Benchmark 4: the survey of a real corpus against every available adapter, wall time.

use std::path::Path;
use std::time::{Duration, Instant};

use robotstxt_runtime::adapter::{self, Adapter, Limits};
use robotstxt_survey::{survey, Options};

pub struct SurveyFigure {
    pub files: usize,
    pub adapters: usize,
    pub start: Duration,
    pub run: Duration,
}

pub fn run(corpus: &Path, adapters: &[Adapter]) -> anyhow::Result<SurveyFigure> {
    let started = Instant::now();
    let mut engines = adapter::open_all(
        adapters,
        Limits::default(),
        &|line| eprintln!("{line}"),
        &|_| {},
    );
    let start = started.elapsed();
    let started = Instant::now();
    let result = survey(corpus, &mut engines, &Options::default(), &|_, _| {})?;
    Ok(SurveyFigure {
        files: result.files,
        adapters: engines.len(),
        start,
        run: started.elapsed(),
    })
}
