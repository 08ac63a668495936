//! Settling a run before anything is decided from it: the one place where `run` and `report` ask
//! checks again (the rules are the library's, in [`robotstxt_suite::reask`]).
//!
//! - **Before a run is judged** against an expectation file ([`judged`]): a check that timed out
//!   where the file lists another outcome is asked again alone with more time, then every
//!   regression (and under `--strict` every unexpected pass) is asked again for stability. A
//!   timeout that then answers as listed passes, and is counted as slow under load.
//! - **Before a file is written**: the corpus is asked again whole ([`confirming_rounds`],
//!   through the engine loop), every timeout again alone with more time ([`patient_timeouts`]),
//!   then every non-pass, every check whose answer differed between rounds and every pass the
//!   earlier file lists, for stability ([`stable_for_update`]). What varies is written as
//!   `unstable`.
//! - **Before a report is published**: every timeout alone with more time
//!   ([`patient_timeouts`]), then every failure and refusal (and every check already known to
//!   vary) for stability ([`stable_for_report`]).
//!
//! A timeout is asked again alone (after the side-by-side run, one case at a time), so that the
//! rest of the corpus does not slow it down a second time. `run` asks them engine after engine;
//! a report settles every engine at the same time, each in a thread of its own, since nearly
//! every report timeout is a parser that never answers (a matcher that backtracks without end)
//! and waiting those out one engine after another cost minutes. Asking for stability may run
//! side by side.

use std::collections::BTreeMap;
use std::time::Duration;

use robotstxt_runtime::lifecycle::{between, Lifecycle};
use robotstxt_runtime::side_by_side::run_engines;
use robotstxt_suite::cases::Case;
use robotstxt_suite::engine::Engine;
use robotstxt_suite::expectations::gate::{judge, update_suspects, Judged, Status};
use robotstxt_suite::expectations::{ExpectationFile, Listed};
use robotstxt_suite::reask::CONFIRMING_ROUNDS;
use robotstxt_suite::reask::{ask_patiently, ask_patiently_up_to, reask, reask_after_rounds};
use robotstxt_suite::reask::{Patient, GATE_PATIENT_ASKS};
use robotstxt_suite::run::{CheckResult, Outcome, Scoring};

/// Judges one engine's results against `expectations`, after asking its suspects again (see the
/// module's first rule). The judged run names the checks that were only slow; beside it, how long
/// each timeout that answered took when asked alone (by result index).
pub fn judged(
    engine: &mut dyn Lifecycle,
    cases: &[Case],
    results: &mut [CheckResult],
    scoring: Scoring,
    expectations: &ExpectationFile,
    strict: bool,
) -> (Judged, BTreeMap<usize, Duration>) {
    let first = judge(expectations, cases, results);
    // The file lists an answer for these (a pass is one): it came when the file was written, so
    // each gets the gate's third, longest ask before a busy machine can make it a regression. A
    // check the file lists as a fault (a crash) is a parser that gives no answer there: asked
    // again once, as a report asks it, rather than waited on for minutes.
    let listed_fault = |i: &usize| {
        let id = &cases[results[*i].case].id;
        (expectations.entries.iter()).any(|e| {
            e.check.case == *id
                && e.check.index == results[*i].check
                && matches!(e.outcome, Listed::Crash | Listed::Timeout)
        })
    };
    let (faults, answers): (Vec<usize>, Vec<usize>) =
        first.timed_out(results).into_iter().partition(listed_fault);
    let mut patient = ask_patiently_up_to(
        engine,
        between(),
        cases,
        results,
        scoring,
        &answers,
        GATE_PATIENT_ASKS,
    );
    let again = ask_patiently_up_to(engine, between(), cases, results, scoring, &faults, 1);
    patient.answered.extend(again.answered);
    patient.took.extend(again.took);
    let second = judge(expectations, cases, results);
    reask(
        engine,
        between(),
        cases,
        results,
        scoring,
        &second.suspects(strict),
    );
    let mut judged = judge(expectations, cases, results);
    judged.slow = (patient.answered.into_iter())
        .filter(|&i| {
            matches!(
                judged.statuses[i],
                Status::Pass | Status::AsListed(_) | Status::NotScored
            )
        })
        .collect();
    (judged, patient.took)
}

/// Asks every engine the whole corpus [`CONFIRMING_ROUNDS`] more times, each round after a fresh
/// start of every engine, through the engine loop: per engine, its rounds (none for an engine
/// that is unavailable). `progress` as in [`run_engines`].
pub fn confirming_rounds(
    cases: &[Case],
    engines: &mut [Box<dyn Lifecycle>],
    scoring: &(dyn Fn(&dyn Engine) -> Scoring + Sync),
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Vec<Vec<Vec<CheckResult>>> {
    let mut rounds: Vec<Vec<Vec<CheckResult>>> = engines.iter().map(|_| Vec::new()).collect();
    for _ in 0..CONFIRMING_ROUNDS {
        for engine in engines.iter_mut() {
            engine.fresh_start();
        }
        let round = run_engines(cases, engines, scoring, progress);
        for ((kept, results), engine) in rounds.iter_mut().zip(round).zip(engines.iter()) {
            if engine.unavailable().is_none() {
                kept.push(results);
            }
        }
    }
    rounds
}

/// Every timeout of one engine's results asked again alone with more time (the first step
/// before a file is written or a report published). Returns what they answered.
pub fn patient_timeouts(
    engine: &mut dyn Lifecycle,
    cases: &[Case],
    results: &mut [CheckResult],
    scoring: Scoring,
) -> Patient {
    ask_patiently(
        engine,
        between(),
        cases,
        results,
        scoring,
        &timeouts(results),
    )
}

/// As [`patient_timeouts`], for a report: a timeout that the engine's expectation file already
/// lists as one, or as a crash (`hanging`: case id and check index) is asked again once, with [`PATIENCE`] times
/// the deadline, rather than also with `PATIENCE * PATIENCE`: nearly every such check is a
/// matcher that never ends, and its longest wait bounded a whole report. Every other timeout
/// gets both asks, so a parser that is only slow still answers.
///
/// [`PATIENCE`]: robotstxt_suite::reask::PATIENCE
pub fn patient_timeouts_for_report(
    engine: &mut dyn Lifecycle,
    cases: &[Case],
    results: &mut [CheckResult],
    scoring: Scoring,
    hanging: &[(String, usize)],
) -> Patient {
    let listed = |i: &usize| {
        let r = &results[*i];
        hanging
            .iter()
            .any(|(case, check)| *case == cases[r.case].id && *check == r.check)
    };
    let (known, new): (Vec<usize>, Vec<usize>) = timeouts(results).into_iter().partition(listed);
    let mut found = ask_patiently(engine, between(), cases, results, scoring, &new);
    let again = ask_patiently_up_to(engine, between(), cases, results, scoring, &known, 1);
    found.answered.extend(again.answered);
    found.took.extend(again.took);
    found.replies.extend(again.replies);
    found
}

/// Before a file is written: every non-pass, every check whose answer differed between `rounds`
/// (the engine's [`confirming_rounds`]) and every pass `previous` (the file being replaced)
/// lists, asked again for stability.
pub fn stable_for_update(
    engine: &mut dyn Lifecycle,
    cases: &[Case],
    results: &mut [CheckResult],
    scoring: Scoring,
    rounds: &[Vec<CheckResult>],
    previous: Option<&ExpectationFile>,
) {
    let suspects = update_suspects(previous, cases, results, rounds);
    reask_after_rounds(
        engine,
        between(),
        cases,
        results,
        scoring,
        &suspects,
        rounds,
    );
}

/// Before a report is published: every failure and refusal, and every check of `known` (case
/// id, check index: already known to vary), asked again for stability.
pub fn stable_for_report(
    engine: &mut dyn Lifecycle,
    cases: &[Case],
    results: &mut [CheckResult],
    scoring: Scoring,
    known: &[(String, usize)],
) {
    let suspects: Vec<usize> = (results.iter().enumerate())
        .filter(|(_, r)| {
            matches!(r.outcome, Outcome::Fail | Outcome::Error)
                || (known.iter())
                    .any(|(case, check)| *case == cases[r.case].id && *check == r.check)
        })
        .map(|(i, _)| i)
        .collect();
    reask(engine, between(), cases, results, scoring, &suspects);
}

fn timeouts(results: &[CheckResult]) -> Vec<usize> {
    (results.iter().enumerate())
        .filter(|(_, r)| r.outcome == Outcome::Timeout)
        .map(|(i, _)| i)
        .collect()
}
