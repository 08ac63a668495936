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
//!     let trials = robotstxt_suite::conformance::gated_trials(my_engine, "tests/expectations.yaml")
//!         .unwrap_or_else(|e| panic!("{e}"));
//!     libtest_mimic::run(&args, trials).exit();
//! }
//! ```
//!
//! Filter as with any test: `cargo test --test conformance -- line-endings/`.
//!
//! **The gate, in-process.** A parser that does not pass every check would have a red `cargo test`
//! for good with [`trials`]. [`gated_trials`] reads the same expectation file `run
//! --expectations` reads (the format of `adapters/<name>/expectations.yaml`), and judges each
//! case against it as the gate does: a check failing as listed is an **expected failure**, and
//! only a regression (a check not listed that fails, or fails otherwise than listed) or an
//! unstable answer fails a test.
//!
//! - libtest-mimic has no status for an expected failure, so a case that holds a listed check is
//!   shown with the kind `listed` (`test [listed] line-endings/cr-only ... ok`): it passes while it
//!   fails as listed. A listed check that now passes passes too, and says so on stderr (write the
//!   file again to drop it); with [`STRICT_VARIABLE`] set (`ROBOTSTXT_TEST_STRICT=1 cargo test`)
//!   it fails instead, as `run --strict` does.
//! - Write (or rewrite) the file from the parser as it is today with [`UPDATE_VARIABLE`] set:
//!   `ROBOTSTXT_TEST_UPDATE_EXPECTATIONS=1 cargo test --test conformance`. Every case is run
//!   before the tests are made, each non-pass asked again (a check whose answer varies is written
//!   as `unstable`), and the file written; the reasons of entries already listed are kept. The
//!   tests then run against the new file. Commit it.
//! - A missing file lists nothing: every non-pass fails, and says how to write the file.

use crate::visible::path_shown;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use libtest_mimic::{Failed, Trial};

use crate::blocks::failure_block;
use crate::cases::{Case, CaseError};
use crate::embedded;
use crate::engine::{ClaimedProfile, Engine};
use crate::expectations::gate::{judge, updated, Status};
use crate::expectations::{CheckId, ExpectationFile};
use crate::located::LocatedError;
use crate::reask::{reask, Between};
use crate::run::{run_case, run_cases, Outcome, Scoring};

/// The environment variable that makes [`gated_trials`] write its expectation file from the run
/// (any value but empty or `0`).
pub const UPDATE_VARIABLE: &str = crate::expectations::IN_PROCESS_UPDATE;

/// The environment variable that makes a listed check that now passes fail its test (any value
/// but empty or `0`): the in-process `--strict`.
pub const STRICT_VARIABLE: &str = crate::expectations::IN_PROCESS_STRICT;

/// Whether the environment variable `name` is set to anything but empty or `0`.
fn is_set(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Why the in-process tests could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ConformanceError {
    #[error("the corpus does not load: {}", join(.0))]
    Corpus(Vec<CaseError>),
    #[error("{0}")]
    Expectations(LocatedError),
    #[error("{}", join(.0))]
    Unknown(Vec<LocatedError>),
    #[error("{}: cannot write: {source}", .file.display())]
    Write {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn join(errors: &[LocatedError]) -> String {
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    lines.join("\n")
}

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

/// One test per case of the corpus this crate carries, each on an engine from `make`, judged
/// against the expectation file `file` (see the module's text). With [`UPDATE_VARIABLE`] set, the
/// file is written first from a run of the whole corpus.
pub fn gated_trials<E, F>(make: F, file: impl AsRef<Path>) -> Result<Vec<Trial>, ConformanceError>
where
    E: Engine + 'static,
    F: Fn() -> E + Clone + Send + Sync + 'static,
{
    let file = file.as_ref();
    let cases = embedded::embedded_cases().map_err(ConformanceError::Corpus)?;
    let update = is_set(UPDATE_VARIABLE);
    let strict = is_set(STRICT_VARIABLE);
    let previous = if file.is_file() {
        let loaded = ExpectationFile::load(file).map_err(ConformanceError::Expectations)?;
        if !update {
            loaded.resolve(&cases).map_err(ConformanceError::Unknown)?;
            let name = make().handshake().name.clone();
            loaded
                .check_adapter(name.raw())
                .map_err(ConformanceError::Expectations)?;
        }
        Some(loaded)
    } else {
        None
    };
    let expectations = if update {
        write_from_run(&make, &cases, previous.as_ref(), file)?
    } else {
        previous.unwrap_or_else(|| {
            let mut empty = ExpectationFile::empty(make().handshake().name.raw());
            empty.file = file.to_owned();
            empty
        })
    };
    let expectations = Arc::new(expectations);
    Ok(cases
        .into_iter()
        .map(|case| {
            let listed = (0..case.checks.len())
                .any(|i| expectations.entry(&CheckId::new(&case.id, i)).is_some());
            let make = make.clone();
            let expectations = Arc::clone(&expectations);
            let trial = Trial::test(case.id.clone(), move || {
                gated_check(&case, &mut make(), &expectations, strict)
            });
            if listed {
                trial.with_kind("listed")
            } else {
                trial
            }
        })
        .collect())
}

/// Runs every case, asks each non-pass again, and writes the file an update calls for.
fn write_from_run<E: Engine, F: Fn() -> E>(
    make: &F,
    cases: &[Case],
    previous: Option<&ExpectationFile>,
    file: &Path,
) -> Result<ExpectationFile, ConformanceError> {
    let mut engine = make();
    let scoring = Scoring::Claimed(engine.handshake().claimed_profile());
    let mut results = run_cases(cases, &mut engine, scoring, &mut |_, _| {});
    let suspects: Vec<usize> = (results.iter().enumerate())
        .filter(|(_, r)| !matches!(r.outcome, Outcome::Pass | Outcome::Unspecified))
        .map(|(i, _)| i)
        .collect();
    reask(
        &mut engine,
        Between::in_process(),
        cases,
        &mut results,
        scoring,
        &suspects,
    );
    let name = engine.handshake().name.clone();
    let mut next = updated(name.raw(), previous, cases, &results);
    next.file = file.to_owned();
    next.written_by = Some(format!("{UPDATE_VARIABLE}=1 cargo test"));
    let write_error = |source| ConformanceError::Write {
        file: file.to_owned(),
        source,
    };
    // Whole or not at all: a stopped run leaves the earlier file as it was.
    let partial = file.with_extension("yaml.partial");
    std::fs::write(&partial, next.to_yaml()).map_err(write_error)?;
    std::fs::rename(&partial, file).map_err(write_error)?;
    eprintln!(
        "wrote {}: {} checks listed",
        path_shown(file),
        next.entries.len()
    );
    Ok(next)
}

/// Every check of `case` on `engine`, judged against `expectations`: a failed test shows each
/// regression and each unstable answer (and under `strict` each listed check that now passes);
/// a listed check that now passes says so on stderr either way.
fn gated_check(
    case: &Case,
    engine: &mut dyn Engine,
    expectations: &ExpectationFile,
    strict: bool,
) -> Result<(), Failed> {
    let scoring = Scoring::Claimed(engine.handshake().claimed_profile());
    let cases = std::slice::from_ref(case);
    let mut results = run_case(0, case, engine, scoring);
    let suspects = judge(expectations, cases, &results).suspects(strict);
    reask(
        engine,
        Between::in_process(),
        cases,
        &mut results,
        scoring,
        &suspects,
    );
    let judged = judge(expectations, cases, &results);
    let mut failures: Vec<String> = Vec::new();
    for (r, status) in results.iter().zip(&judged.statuses) {
        let what = match status {
            Status::Regression(None) => "REGRESSION (not listed)".to_owned(),
            Status::Regression(Some(e)) => format!(
                "REGRESSION (listed as {})",
                expectations.entries[*e].outcome
            ),
            Status::Unstable(_) => "UNSTABLE (list it as `unstable`)".to_owned(),
            Status::UnexpectedPass(e) => {
                let said = format!(
                    "{}#{} is listed as {} in {}, and now {}: write the file again \
                     ({UPDATE_VARIABLE}=1 cargo test) to drop it",
                    case.id,
                    r.check,
                    expectations.entries[*e].outcome,
                    path_shown(&expectations.file),
                    r.outcome
                );
                if strict {
                    failures.push(format!("UNEXPECTED PASS ({STRICT_VARIABLE}): {said}"));
                } else {
                    eprintln!("note: {said}");
                }
                continue;
            }
            _ => continue,
        };
        failures.push(format!("{what} {}", failure_block(case, r)));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        let hint = if expectations.entries.is_empty() && !expectations.file.is_file() {
            format!(
                "\n{} does not exist: {UPDATE_VARIABLE}=1 cargo test writes it from this run",
                path_shown(&expectations.file)
            )
        } else {
            String::new()
        };
        Err(Failed::from(failures.join("\n") + &hint))
    }
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

    #[test]
    fn a_listed_check_that_passes_fails_only_when_strict() {
        let cases = embedded::embedded_cases().unwrap();
        let case = cases
            .iter()
            .find(|c| c.checks.len() == 1)
            .expect("a case of one check");
        let yaml = format!(
            "adapter: reference\nexpectations:\n- check: {}#0\n  outcome: fail\n  reason: planted\n",
            case.id
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("expectations.yaml");
        std::fs::write(&file, yaml).unwrap();
        let expectations = ExpectationFile::load(&file).unwrap();
        let mut reference = ReferenceEngine::new(Profile::Rfc9309);
        assert!(gated_check(case, &mut reference, &expectations, false).is_ok());
        let strict = gated_check(case, &mut reference, &expectations, true).unwrap_err();
        let message = strict.message().unwrap();
        assert!(
            message.contains("UNEXPECTED PASS (ROBOTSTXT_TEST_STRICT)"),
            "{message}"
        );
        assert!(message.contains("write the file again"), "{message}");
    }
}
