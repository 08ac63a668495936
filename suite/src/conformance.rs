//! The corpus as tests in a Rust parser's own `cargo test`, in-process: one `libtest-mimic` test
//! per case, each running every check of the case through an [`Engine`] and scoring it under the
//! profile the engine's handshake claims, as `run` does. Open points are run but never scored.
//!
//! A parser crate adds `robotstxt-suite` (with its `conformance` feature, which brings
//! `libtest-mimic`) and `libtest-mimic` as dev-dependencies and a `tests/conformance.rs` with
//! `harness = false` (`examples/conformance.rs` is one, tested by this crate's `cargo test`):
//!
//! ```no_run
//! # use robotstxt_suite::{Engine, Profile, ReferenceEngine};
//! # fn my_engine() -> ReferenceEngine { ReferenceEngine::new(Profile::Rfc9309) }
//! fn main() {
//!     let args = libtest_mimic::Arguments::from_args();
//!     let trials = robotstxt_suite::conformance::trials(my_engine).expect("the corpus loads");
//!     libtest_mimic::run(&args, trials).exit();
//! }
//! ```
//!
//! Filter as with any test: `cargo test --test conformance -- line-endings/`.

use libtest_mimic::{Failed, Trial};

use crate::blocks::failure_block;
use crate::cases::{Case, CaseError};
use crate::embedded;
use crate::engine::{ClaimedProfile, Engine};
use crate::run::{run_case, Outcome, Scoring};

/// One test per case of the corpus this crate carries, each on an engine from `make`.
pub fn trials<E, F>(make: F) -> Result<Vec<Trial>, Vec<CaseError>>
where
    E: Engine + 'static,
    F: Fn() -> E + Clone + Send + Sync + 'static,
{
    let cases = embedded::embedded_cases()?;
    Ok(cases
        .into_iter()
        .map(|case| {
            let make = make.clone();
            Trial::test(case.id.clone(), move || check(&case, &mut make()))
        })
        .collect())
}

/// Every check of `case` on `engine`; a failed test shows each check not passed.
fn check(case: &Case, engine: &mut dyn Engine) -> Result<(), Failed> {
    let scoring = Scoring::Claimed(engine.handshake().claimed_profile());
    let failures: Vec<String> = run_case(0, case, engine, scoring)
        .iter()
        .filter(|r| !matches!(r.outcome, Outcome::Pass | Outcome::Unspecified))
        .map(|r| failure_block(case, r))
        .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Failed::from(failures.join("\n")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Failure, Handshake, Query, ReferenceEngine, Reply};
    use robotstxt_reference::{Profile, Verdict};

    /// A parser that allows everything.
    struct AllowAll(Handshake);

    impl Engine for AllowAll {
        fn handshake(&self) -> &Handshake {
            &self.0
        }
        fn check(&mut self, _: &str, _: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
            Ok(Reply::Verdicts(vec![Verdict::Allowed; queries.len()]))
        }
    }

    #[test]
    fn one_test_per_case_passing_for_the_reference_and_failing_for_a_wrong_parser() {
        let cases = embedded::embedded_cases().unwrap();
        let made = trials(|| ReferenceEngine::new(Profile::Rfc9309)).unwrap();
        let names: Vec<&str> = made.iter().map(Trial::name).collect();
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(names, ids);

        let mut reference = ReferenceEngine::new(Profile::Rfc9309);
        assert!(cases.iter().all(|case| check(case, &mut reference).is_ok()));
        let mut wrong = AllowAll(reference.handshake().clone());
        let failed: Vec<Failed> = cases
            .iter()
            .filter_map(|case| check(case, &mut wrong).err())
            .collect();
        assert!(!failed.is_empty() && failed.len() < cases.len());
        let message = failed[0].message().unwrap();
        assert!(message.contains("expected: disallowed"), "{message}");
    }
}
