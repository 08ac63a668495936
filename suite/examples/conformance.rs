//! A Rust parser's `tests/conformance.rs`: the robotstxt-test corpus in its own `cargo test`, one
//! test per case (dev-dependencies `robotstxt-suite` with its `conformance` feature, and
//! `libtest-mimic`; set `harness = false` for it in Cargo.toml). The reference stands in for the
//! parser under test; put yours in `check`.
//!
//! Checks listed in `tests/expectations.yaml` (the format `run --expectations` reads) are expected
//! failures: a case holding one shows as `[listed]` and passes while it fails as listed. Write
//! the file from the parser as it is with `ROBOTSTXT_TEST_UPDATE_EXPECTATIONS=1 cargo test`. A
//! listed check that now passes says so on stderr; `ROBOTSTXT_TEST_STRICT=1 cargo test` fails on
//! it instead (the in-process `run --strict`).
use robotstxt_suite::reference::Robots;
use robotstxt_suite::{Engine, Failure, Handshake, Profile, Query, Reply, Verdict};

struct MyParser(Handshake);

impl Engine for MyParser {
    fn handshake(&self) -> &Handshake {
        &self.0
    }
    fn check(&mut self, _id: &str, robots: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        let parsed = Robots::parse(Profile::Rfc9309, robots);
        let verdict = |q: &Query| match parsed.is_allowed(&q.agent, &q.path) {
            true => Verdict::Allowed,
            false => Verdict::Disallowed,
        };
        Ok(Reply::Verdicts(queries.iter().map(verdict).collect()))
    }
}

fn main() {
    let handshake = Handshake {
        name: "my-parser".into(),
        parser: "my-parser".into(),
        version: "0.1.0".into(),
        language: "Rust".into(),
        homepage: "https://example.org".into(),
        profile: "rfc9309".into(), // the profile whose expectations it is scored against
    };
    let make = move || MyParser(handshake.clone());
    let expectations = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/expectations.yaml");
    let trials = robotstxt_suite::conformance::gated_trials(make, expectations)
        .unwrap_or_else(|e| panic!("{e}"));
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), trials).exit();
}
