//! Asking again: whether a parser's answer is its answer, and whether a timeout is the parser's.
//!
//! A parser whose answer depends on something outside the body and the query (a hash seed, the
//! order of a set, the clock) can pass a check in one run and fail it in the next. Such a check
//! is neither a regression nor a settled failure: it is **unstable**, a bug of its own. So a
//! suspect check (a regression in the gate, an unexpected pass under `--strict`; any non-pass in
//! a report or an update) is asked [`REASKS`] more times, each round after a fresh start of the
//! engine (a new process for an adapter, so a new hash seed too). A check whose answers differ
//! becomes [`Outcome::Unstable`], and its detail lists every answer in the order they came.
//! [`reask_after_rounds`] also counts the answers of whole rounds already asked (an update asks
//! the corpus [`CONFIRMING_ROUNDS`] more times, so that a failure that passed once by chance is
//! seen too).
//!
//! Only the parser's own answers are compared (a verdict, or the parser rejecting the body): a
//! crash or a timeout in a later round says something about the machine, not about the check.
//!
//! A timeout is not the parser's answer either. On a loaded machine (a shared CI runner) a slow
//! check misses its deadline without anything having changed in the parser, so a check that
//! timed out is asked again before it counts ([`ask_patiently`]): **alone** (one case, one
//! engine, after the side-by-side run), with [`PATIENCE`] times the usual deadline, then
//! [`PATIENCE`] times that again ([`PATIENT_ASKS`] asks): a machine with every core busy slows a
//! check by a factor, and the second ask outlasts any load a CI runner sees. An answer then takes
//! the timeout's place, and how long it took alone is kept ([`Patient::took`]), so that the
//! message can name the `--timeout` that lets it answer the first time; two more timeouts leave
//! it a timeout, with a detail saying so.

use std::collections::BTreeMap;

use crate::cases::Case;
use crate::engine::{Engine, Failure, Reply};
use crate::run::{queries_of, score_handed, CheckResult, Outcome, Scoring};
use crate::visible::Outside;

/// What asking again does to an engine between its answers: a fresh start before each round,
/// more time for a check asked again after a timeout, and whether the engine broke down (then
/// nothing more is asked). The [`Engine`] trait carries none of it: an engine in-process has
/// nothing to restart and no deadline ([`Between::in_process`]), and the runtime, which starts
/// and stops processes, says what it does to one (`robotstxt_runtime::lifecycle::between`).
pub struct Between<E: ?Sized> {
    /// Forgets any state kept between batches, as a new process would.
    pub fresh_start: fn(&mut E),
    /// Gives every later batch `times` its usual time to answer (`1` restores it). While
    /// `times` is above 1 a fault does not count toward giving the engine up: the check asked
    /// again is judged by its own answer.
    pub set_patience: fn(&mut E, u32),
    /// Why the engine cannot answer at all (it could not start, or broke down), if so.
    pub unavailable: for<'e> fn(&'e E) -> Option<&'e Outside>,
}

impl<E: ?Sized> Clone for Between<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: ?Sized> Copy for Between<E> {}

impl<E: ?Sized> Between<E> {
    /// For an engine in-process: nothing to restart, no deadline, and always there.
    pub fn in_process() -> Between<E> {
        Between {
            fresh_start: |_| {},
            set_patience: |_, _| {},
            unavailable: |_| None,
        }
    }
}

/// How many more times a suspect check is asked, each after a fresh start. Five answers in all:
/// an answer that flips on a coin's toss per process shows it with a chance of 15 in 16.
pub const REASKS: usize = 4;

/// How many more times an update asks the whole corpus, each after a fresh start, before it
/// writes a file: a failure that happens to pass in one round is then still seen failing in
/// another (for a parser that flips 1% of its answers, a failure is missed once in a million).
pub const CONFIRMING_ROUNDS: usize = 2;

/// How many times its usual deadline a check that timed out gets when it is asked again; each
/// further ask multiplies it again.
pub const PATIENCE: u32 = 4;

/// How many times at most a check that timed out is asked again: with [`PATIENCE`] times its
/// deadline, then `PATIENCE * PATIENCE` times.
pub const PATIENT_ASKS: usize = 2;

/// The most a check asked again gets, in times its usual deadline: what a timeout that never
/// answered was given.
pub const MOST_PATIENCE: u32 = PATIENCE.pow(PATIENT_ASKS as u32);

/// How many times a gate asks again a check that timed out where its expectation file lists an
/// answer: the file was written from a run that saw the check answer, so it does answer, and on a
/// machine slowed by more than [`MOST_PATIENCE`] times it gets a third ask, with
/// `PATIENCE * MOST_PATIENCE` times its deadline, before it counts as a regression.
pub const GATE_PATIENT_ASKS: usize = PATIENT_ASKS + 1;

/// Asks the cases of `suspects` (indexes into `results`, one engine's results over `cases`)
/// again, and marks every suspect whose answer changed as unstable. Returns how many were.
pub fn reask<E: Engine + ?Sized>(
    engine: &mut E,
    between: Between<E>,
    cases: &[Case],
    results: &mut [CheckResult],
    scoring: Scoring,
    suspects: &[usize],
) -> usize {
    reask_after_rounds(engine, between, cases, results, scoring, suspects, &[])
}

/// As [`reask`], counting first the answers that `rounds` (whole runs of the same engine over the
/// same cases, in the same order as `results`) gave to each suspect.
pub fn reask_after_rounds<E: Engine + ?Sized>(
    engine: &mut E,
    between: Between<E>,
    cases: &[Case],
    results: &mut [CheckResult],
    scoring: Scoring,
    suspects: &[usize],
    rounds: &[Vec<CheckResult>],
) -> usize {
    if suspects.is_empty() || (between.unavailable)(engine).is_some() {
        return 0;
    }
    let mut by_case: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &i in suspects {
        by_case.entry(results[i].case).or_default().push(i);
    }
    let mut answers: BTreeMap<usize, Vec<String>> = suspects
        .iter()
        .map(|&i| {
            let said = std::iter::once(&results[i])
                .chain(rounds.iter().filter_map(|round| round.get(i)))
                .filter_map(answer)
                .collect();
            (i, said)
        })
        .collect();
    for _ in 0..REASKS {
        (between.fresh_start)(engine);
        for (&case, asked) in &by_case {
            let again = crate::run::run_case(case, &cases[case], engine, scoring);
            for &i in asked {
                if let Some(a) = again.get(results[i].check).and_then(answer) {
                    answers
                        .get_mut(&i)
                        .expect("every suspect has a list")
                        .push(a);
                }
            }
        }
        if (between.unavailable)(engine).is_some() {
            return 0;
        }
    }
    let mut unstable = 0;
    for (i, said) in answers {
        if said.iter().any(|a| *a != said[0]) {
            let result = &mut results[i];
            result.outcome = Outcome::Unstable;
            result.detail = Some(
                format!(
                    "the answer changes when asked again, each time after a fresh start: {}",
                    said.join(", ")
                )
                .into(),
            );
            unstable += 1;
        }
    }
    unstable
}

/// The checks whose answer differs between `results` and any of `rounds` (the same engine over
/// the same cases again): suspects however they came out first.
pub fn differing(results: &[CheckResult], rounds: &[Vec<CheckResult>]) -> Vec<usize> {
    (0..results.len())
        .filter(|&i| {
            let first = answer(&results[i]);
            rounds
                .iter()
                .filter_map(|round| round.get(i).and_then(answer))
                .any(|a| first.as_ref().is_none_or(|f| *f != a))
        })
        .collect()
}

/// What [`ask_patiently`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Patient {
    /// The results (indexes) that answered when asked again with more time.
    pub answered: Vec<usize>,
    /// How long the ask that answered took, alone, per result index of `answered`.
    pub took: BTreeMap<usize, std::time::Duration>,
    /// The reply each case asked again gave in the end (case index, reply), for callers that
    /// keep replies to score them again (a report scores one reply under every profile).
    pub replies: Vec<(usize, Result<Reply, Failure>)>,
}

/// Asks the cases of `timed_out` (indexes into `results` whose outcome is a timeout) again, one
/// case at a time, with [`PATIENCE`] times the usual deadline, at most [`PATIENT_ASKS`] times
/// each. A case that answers takes its new results; one that never does keeps its timeouts,
/// their detail saying it was asked again.
pub fn ask_patiently<E: Engine + ?Sized>(
    engine: &mut E,
    between: Between<E>,
    cases: &[Case],
    results: &mut [CheckResult],
    scoring: Scoring,
    timed_out: &[usize],
) -> Patient {
    ask_patiently_up_to(
        engine,
        between,
        cases,
        results,
        scoring,
        timed_out,
        PATIENT_ASKS,
    )
}

/// As [`ask_patiently`], asking each case up to `asks` times, each with [`PATIENCE`] times more
/// than the last ([`GATE_PATIENT_ASKS`] for a gate).
pub fn ask_patiently_up_to<E: Engine + ?Sized>(
    engine: &mut E,
    between: Between<E>,
    cases: &[Case],
    results: &mut [CheckResult],
    scoring: Scoring,
    timed_out: &[usize],
    asks: usize,
) -> Patient {
    let mut found = Patient::default();
    if timed_out.is_empty() || (between.unavailable)(engine).is_some() {
        return found;
    }
    let mut by_case: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &i in timed_out {
        by_case.entry(results[i].case).or_default().push(i);
    }
    for (&case, asked) in &by_case {
        let queries = queries_of(&cases[case]);
        let mut reply = None;
        let mut took = std::time::Duration::ZERO;
        for ask in 1..=asks.max(1) {
            (between.set_patience)(engine, PATIENCE.pow(ask as u32));
            let start = std::time::Instant::now();
            let got = engine.check(&cases[case].id, &cases[case].robots, &queries);
            took = start.elapsed();
            let timed_out = matches!(&got, Err(f) if f.fault == crate::engine::Fault::Timeout);
            reply = Some(got);
            if !timed_out {
                break;
            }
        }
        let reply = reply.expect("asked at least once");
        let again = score_handed(case, &cases[case], &reply, scoring, engine.agent_form());
        for &i in asked {
            let Some(new) = again.get(results[i].check) else {
                continue;
            };
            if new.outcome == Outcome::Timeout {
                let detail = results[i].detail.take().unwrap_or_default();
                let then = match asks {
                    0 | 1 => String::new(),
                    _ => format!(", then up to {} times", PATIENCE.pow(asks as u32)),
                };
                results[i].detail = Some(
                    format!(
                        "{}\nasked again alone with {PATIENCE} times the time{then}: no answer \
                         either",
                        detail.raw(),
                    )
                    .into(),
                );
            } else {
                results[i] = new.clone();
                found.answered.push(i);
                found.took.insert(i, took);
            }
        }
        found.replies.push((case, reply));
    }
    (between.set_patience)(engine, 1);
    found
}

/// The parser's own answer in a result: its verdict, or that it rejected the body.
fn answer(result: &CheckResult) -> Option<String> {
    match (result.actual, result.outcome) {
        (Some(verdict), _) => Some(verdict.as_str().to_owned()),
        (None, Outcome::Error) => Some("error".to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{AgentForm, Failure, Fault, ReferenceEngine};
    use crate::run::score;
    use robotstxt_reference::Profile;

    /// A check that timed out and answers when asked again keeps saying what the parser was
    /// handed, as a check answered the first time does.
    #[test]
    fn an_answer_asked_again_says_what_was_handed() {
        let yaml = "cases:\n- name: a\n  spec: s\n  robots: \"User-agent: *\\nDisallow: /\\n\"\n  \
                    checks:\n  - {agent: FooBot/2.1, path: /, expect: allowed}\n";
        let cases = crate::cases::parse_file(yaml, std::path::Path::new("t.yaml"), "t").unwrap();
        let timeout = Err(Failure {
            fault: Fault::Timeout,
            detail: "no answer in 5 s".into(),
        });
        let scoring = Scoring::Claimed(None);
        let mut results = score(0, &cases[0], &timeout, scoring);
        assert_eq!(results[0].outcome, Outcome::Timeout);
        // The reference, handing its parser the product token: what a Google-family adapter says.
        let reference = ReferenceEngine::new(Profile::Norobots1994);
        let mut engine = reference.handing(AgentForm::ProductToken);
        let between = Between::in_process();
        let found = ask_patiently(&mut engine, between, &cases, &mut results, scoring, &[0]);
        assert_eq!(found.answered, [0]);
        assert_eq!(results[0].outcome, Outcome::Fail);
        assert_eq!(results[0].handed.as_deref(), Some("FooBot"));
    }
}
