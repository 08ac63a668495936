//! Benchmark 1: parse and decide one query per file over a corpus, in process: the reference
//! under each profile beside the Rust parser crates that also serve as adapters.
//!
//! Every parser gets the same bytes and the same question (`Googlebot`, `/search/about`). The
//! robotstxt crate takes `&str`, so its figure includes the lossy UTF-8 conversion its users
//! have to do; it also panics on some real files, which are caught and counted. The crates are
//! called through their adapters' library functions (`adapters/rust-*/src/lib.rs`), guarded as
//! the adapter kit guards them.

use std::time::{Duration, Instant};

use robotstxt_protocol::{check_guarded, per_query, Query};
use robotstxt_reference::{Profile, Robots};

const AGENT: &str = "Googlebot";
const PATH: &str = "/search/about";

/// One parser's figure.
pub struct ThroughputFigure {
    pub parser: String,
    pub seconds: f64,
    pub megabytes_per_second: f64,
    /// Files the parser refused or panicked on.
    pub failures: usize,
    pub failure_kind: &'static str,
}

/// Runs every parser over `files`, `rounds` times each, keeping the fastest round.
pub fn run(files: &[Vec<u8>], rounds: usize) -> Vec<ThroughputFigure> {
    let bytes: usize = files.iter().map(Vec::len).sum();
    let mut figures = Vec::new();
    for &profile in Profile::ALL {
        let (time, _) = best_of(rounds, || {
            files
                .iter()
                .filter(|f| !Robots::parse(profile, f).is_allowed(AGENT, PATH))
                .count()
        });
        figures.push(figure(
            format!("robotstxt-reference ({profile})"),
            time,
            bytes,
            0,
            "",
        ));
    }
    // The parser crates through their adapters' own calls, so that these figures and the
    // adapters measure the same code at the same pinned versions; a panic is caught as the
    // adapter kit catches it.
    let query = [Query::new(AGENT, PATH)];
    let mut texting_robots = adapter_rust_texting_robots::check;
    let (time, refused) = best_of(rounds, || {
        files
            .iter()
            .filter(|f| {
                std::hint::black_box(check_guarded(&mut texting_robots, f, &query)).is_err()
            })
            .count()
    });
    figures.push(figure(
        format!(
            "texting_robots {}",
            adapter_rust_texting_robots::handshake().version
        ),
        time,
        bytes,
        refused,
        "refused",
    ));
    // Its panics are caught by the kit's guard; the default hook would print each one.
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut robotstxt = per_query(adapter_rust_robotstxt::allowed);
    let (time, panicked) = best_of(rounds, || {
        files
            .iter()
            .filter(|f| std::hint::black_box(check_guarded(&mut robotstxt, f, &query)).is_err())
            .count()
    });
    std::panic::set_hook(previous_hook);
    figures.push(figure(
        format!("robotstxt {}", adapter_rust_robotstxt::handshake().version),
        time,
        bytes,
        panicked,
        "panicked",
    ));
    figures
}

fn figure(
    parser: String,
    time: Duration,
    bytes: usize,
    failures: usize,
    kind: &'static str,
) -> ThroughputFigure {
    let seconds = time.as_secs_f64();
    ThroughputFigure {
        parser,
        seconds,
        megabytes_per_second: bytes as f64 / 1e6 / seconds,
        failures,
        failure_kind: kind,
    }
}

/// The fastest of `rounds` runs of `work`, and what the last run returned.
fn best_of<T>(rounds: usize, mut work: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..rounds.max(1) {
        let started = Instant::now();
        result = Some(std::hint::black_box(work()));
        best = best.min(started.elapsed());
    }
    (best, result.expect("at least one round"))
}
