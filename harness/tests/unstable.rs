//! A parser whose answer changes from one process to the next is reported as unstable, not as a
//! regression: the gate asks a regressing check again, each time after a fresh start.

use std::path::{Path, PathBuf};
use std::time::Duration;

use robotstxt_runtime::adapter::{AdapterProcess, Limits};
use robotstxt_runtime::lifecycle::between;
use robotstxt_suite::cases::{load_corpus, Case};
use robotstxt_suite::expectations::gate::{judge, updated, Status};
use robotstxt_suite::expectations::{ExpectationFile, Listed};
use robotstxt_suite::reask::{reask, REASKS};
use robotstxt_suite::run::{run_cases, Outcome, Scoring};

fn corpus(dir: &Path) -> Vec<Case> {
    let yaml = "cases:\n  - name: one\n    spec: test\n    robots: \"User-agent: *\\n\"\n    checks:\n      - { agent: FooBot, path: /a, expect: allowed }\n";
    std::fs::write(dir.join("t.yaml"), yaml).unwrap();
    load_corpus(&[PathBuf::from(dir)]).unwrap()
}

fn adapter(mode: &str, state: &Path) -> AdapterProcess {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adapters/chaos.py");
    let argv = vec![
        "python3".into(),
        script.to_string_lossy().into_owned(),
        mode.into(),
        state.to_string_lossy().into_owned(),
    ];
    let limits = Limits {
        timeout: Duration::from_secs(5),
        start_timeout: Duration::from_secs(10),
        max_consecutive_faults: 3,
    };
    AdapterProcess::start(argv, limits).expect("the chaos adapter starts")
}

#[test]
fn an_answer_that_alternates_between_processes_is_unstable_not_a_regression() {
    let dir = tempfile::tempdir().unwrap();
    let cases = corpus(dir.path());
    let state = dir.path().join("starts");
    let mut engine = adapter("alternate", &state);
    let scoring = Scoring::Claimed(None);
    let mut results = run_cases(&cases, &mut engine, scoring, &mut |_, _| {});
    assert_eq!(
        results[0].outcome,
        Outcome::Fail,
        "the first process says disallowed"
    );

    let nothing_listed = ExpectationFile::empty("chaos-alternate");
    let suspects = judge(&nothing_listed, &cases, &results).regressions();
    assert_eq!(suspects, vec![0]);
    assert_eq!(
        reask(
            &mut engine,
            between(),
            &cases,
            &mut results,
            scoring,
            &suspects
        ),
        1
    );
    assert_eq!(results[0].outcome, Outcome::Unstable);
    let detail = results[0].detail.as_ref().map(|d| d.raw()).unwrap();
    assert!(
        detail.ends_with("disallowed, allowed, disallowed, allowed, disallowed"),
        "{detail}"
    );
    // One process per ask: the first, then one per fresh start.
    let starts = std::fs::read_to_string(&state).unwrap();
    assert_eq!(starts.trim(), (1 + REASKS).to_string());

    let judged = judge(&nothing_listed, &cases, &results);
    assert_eq!(judged.statuses, vec![Status::Unstable(None)]);
    assert!(judged.fails(false));
    assert_eq!(judged.tally().regressions, 0);

    // Listed as unstable, it is as listed whatever it answers, and an update keeps it listed
    // even after a run in which it happened to pass.
    let listed = updated("chaos-alternate", None, &cases, &results);
    assert_eq!(listed.entries[0].outcome, Listed::Unstable);
    let mut passing = results.clone();
    passing[0].outcome = Outcome::Pass;
    assert_eq!(
        judge(&listed, &cases, &passing).statuses,
        vec![Status::AsListed(0)]
    );
    let kept = updated("chaos-alternate", Some(&listed), &cases, &passing);
    assert_eq!(kept.entries[0].outcome, Listed::Unstable);
}

#[test]
fn an_answer_that_stays_the_same_stays_a_regression() {
    let dir = tempfile::tempdir().unwrap();
    let cases = corpus(dir.path());
    let mut engine = adapter("reject", &dir.path().join("unused"));
    let scoring = Scoring::Claimed(None);
    // `reject` answers "allowed" unless the body says FAULT: make the check expect the other.
    let mut results = run_cases(&cases, &mut engine, scoring, &mut |_, _| {});
    results[0].outcome = Outcome::Fail;
    let nothing_listed = ExpectationFile::empty("chaos-reject");
    let suspects = judge(&nothing_listed, &cases, &results).regressions();
    assert_eq!(
        reask(
            &mut engine,
            between(),
            &cases,
            &mut results,
            scoring,
            &suspects
        ),
        0
    );
    assert_eq!(
        judge(&nothing_listed, &cases, &results).statuses,
        vec![Status::Regression(None)]
    );
}
