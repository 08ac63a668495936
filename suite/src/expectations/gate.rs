//! Comparing a run with an expectation file, and rewriting the file from a run.
//!
//! The rules, per check:
//!
//! | listed? | result | status |
//! |---|---|---|
//! | no | pass | [`Status::Pass`] |
//! | no | unspecified | [`Status::NotScored`] |
//! | no | fail, error, crash, timeout, protocol-error | [`Status::Regression`] |
//! | no | unstable (a regression whose answer changed when asked again) | [`Status::Unstable`] |
//! | yes | the listed outcome | [`Status::AsListed`] |
//! | yes, as `unstable` | anything | [`Status::AsListed`] (its answer is known to vary) |
//! | yes | another non-pass | [`Status::Regression`] |
//! | yes | pass or unspecified | [`Status::UnexpectedPass`] (fails the run under `--strict`) |
//! | either | skipped, or a fault of a run that broke down | [`Status::BrokeDown`] unless listed so |
//!
//! A check that was never asked (`skipped`: the adapter was unavailable, or broke down before
//! it) is never a regression, whatever the file lists: nothing is known about it. Nor are the
//! faults in a row that made the adapter break down ([`crate::run::breakdown_start`]), nor, in a
//! run that broke down, its other faults (crashes, timeouts, protocol errors) not listed as such:
//! they are the breakdown, which fails the run once, on its own (exit 3), rather than once per
//! check.
//!
//! Before a run is judged, its suspects are asked again (see [`crate::reask`]): a check that
//! timed out where the file lists another outcome ([`Judged::timed_out`]) alone with more
//! time, then every regression (and under `--strict` every unexpected pass) for stability
//! ([`Judged::suspects`]). Before a file is written, every non-pass, every check whose answer
//! differed between rounds, and every pass the earlier file lists ([`update_suspects`]).

use crate::cases::Case;
use crate::cause;
use crate::run::{breakdown_start, CheckResult, Outcome};
use crate::visible::shown;

use super::{CheckId, Entry, ExpectationFile, Listed};

/// How one check's result compares with the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Passed, and not listed.
    Pass,
    /// Not scored (unspecified, or skipped) and not listed.
    NotScored,
    /// Listed, with exactly this outcome: entry index.
    AsListed(usize),
    /// A non-pass that is not listed (`None`) or listed with another outcome (entry index).
    Regression(Option<usize>),
    /// Listed (entry index), but it now passes or is no longer scored.
    UnexpectedPass(usize),
    /// A regression (not listed, or listed otherwise: entry index) whose answer changed when it
    /// was asked again: the parser's bug, not a change in it.
    Unstable(Option<usize>),
    /// Never asked, or one of the faults in a row that made the adapter break down: counted once,
    /// as the breakdown, and judged no further.
    BrokeDown,
}

/// A run judged against a file: one status per result, in result order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    pub statuses: Vec<Status>,
    /// The results (indexes) that timed out first and answered as listed when asked again with
    /// more time: slow under load, not changed. Set by whoever asked them again.
    pub slow: Vec<usize>,
}

/// Counts of a [`Judged`] run, in the shape of the JSON output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Listed non-passes that came out as listed.
    pub as_listed: usize,
    pub regressions: usize,
    pub unexpected_passes: usize,
    pub unstable: usize,
    /// Checks never asked, or lost in the adapter's breakdown.
    pub broke_down: usize,
    /// Checks that timed out first and answered as listed when asked again with more time.
    pub slow_under_load: usize,
}

impl Judged {
    pub fn tally(&self) -> Tally {
        let mut tally = Tally {
            slow_under_load: self.slow.len(),
            ..Tally::default()
        };
        for status in &self.statuses {
            match status {
                Status::AsListed(_) => tally.as_listed += 1,
                Status::Regression(_) => tally.regressions += 1,
                Status::UnexpectedPass(_) => tally.unexpected_passes += 1,
                Status::Unstable(_) => tally.unstable += 1,
                Status::BrokeDown => tally.broke_down += 1,
                Status::Pass | Status::NotScored => {}
            }
        }
        tally
    }

    /// Whether the run fails the gate: a regression, an unstable answer, or (under `strict`) an
    /// unexpected pass.
    pub fn fails(&self, strict: bool) -> bool {
        let tally = self.tally();
        tally.regressions > 0 || tally.unstable > 0 || (strict && tally.unexpected_passes > 0)
    }

    /// The results a regression makes suspect: asked again before the run is judged (see
    /// [`crate::reask`]).
    pub fn regressions(&self) -> Vec<usize> {
        (self.statuses.iter().enumerate())
            .filter(|(_, s)| matches!(s, Status::Regression(_)))
            .map(|(i, _)| i)
            .collect()
    }

    /// The results asked again for stability before the run is judged: every regression, and
    /// under `strict` every unexpected pass (which would fail the run too).
    pub fn suspects(&self, strict: bool) -> Vec<usize> {
        (self.statuses.iter().enumerate())
            .filter(|(_, s)| match s {
                Status::Regression(_) => true,
                Status::UnexpectedPass(_) => strict,
                _ => false,
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// The regressions that are timeouts (`results` is the run judged): asked again alone, with
    /// more time, before they count (see [`crate::reask::ask_patiently`]).
    pub fn timed_out(&self, results: &[CheckResult]) -> Vec<usize> {
        (self.statuses.iter().zip(results).enumerate())
            .filter(|(_, (s, r))| {
                matches!(s, Status::Regression(_)) && r.outcome == Outcome::Timeout
            })
            .map(|(i, _)| i)
            .collect()
    }
}

/// Judges `results` (of a run over `cases`) against `expectations`. The file should have been
/// [resolved](ExpectationFile::resolve) against the same corpus.
pub fn judge(expectations: &ExpectationFile, cases: &[Case], results: &[CheckResult]) -> Judged {
    let broke_down_from = breakdown_start(results).unwrap_or(results.len());
    let broke_down = broke_down_from < results.len();
    let index: std::collections::HashMap<&CheckId, usize> = expectations
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (&e.check, i))
        .collect();
    let statuses = results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let id = CheckId::new(&cases[r.case].id, r.check);
            let entry = index.get(&id).copied();
            let as_listed = entry.filter(|&e| {
                let listed = expectations.entries[e].outcome;
                listed == Listed::Unstable || Listed::of(r.outcome) == Some(listed)
            });
            if let Some(entry) = as_listed {
                return Status::AsListed(entry);
            }
            // Once the adapter broke down, its faults (the same debug print or crash, now and
            // then before it gave up) are the breakdown's, judged with it.
            if i >= broke_down_from || (broke_down && r.is_fault()) {
                return Status::BrokeDown;
            }
            match (entry, Listed::of(r.outcome)) {
                (entry, Some(Listed::Unstable)) => Status::Unstable(entry),
                (None, None) if r.outcome == Outcome::Pass => Status::Pass,
                (None, None) => Status::NotScored,
                (None, Some(_)) => Status::Regression(None),
                (Some(entry), None) => Status::UnexpectedPass(entry),
                (Some(entry), Some(_)) => Status::Regression(Some(entry)),
            }
        })
        .collect();
    Judged {
        statuses,
        slow: Vec::new(),
    }
}

/// The results an update asks again before it writes a file from them: every non-pass (a
/// failure, a refusal, a fault: is it the parser's steady answer?), every check whose answer
/// differed in one of `rounds` (the corpus asked again; a failure that passed once by chance),
/// and every pass that `previous`, the file being replaced, lists (it failed before: is the pass
/// steady?).
pub fn update_suspects(
    previous: Option<&ExpectationFile>,
    cases: &[Case],
    results: &[CheckResult],
    rounds: &[Vec<CheckResult>],
) -> Vec<usize> {
    let differing = crate::reask::differing(results, rounds);
    (0..results.len())
        .filter(|&i| {
            let r = &results[i];
            let listed = || {
                previous
                    .is_some_and(|p| p.entry(&CheckId::new(&cases[r.case].id, r.check)).is_some())
            };
            match r.outcome {
                Outcome::Unspecified | Outcome::Skipped => false,
                Outcome::Pass => differing.binary_search(&i).is_ok() || listed(),
                _ => true,
            }
        })
        .collect()
}

/// The file a run calls for: every check that did not pass (or was skipped), in corpus order,
/// keeping the reason and issue of checks `previous` already lists. Entries of `previous` whose
/// check now passes, or no longer exists, are dropped.
pub fn updated(
    adapter: &str,
    previous: Option<&ExpectationFile>,
    cases: &[Case],
    results: &[CheckResult],
) -> ExpectationFile {
    let mut file = ExpectationFile::empty(adapter);
    for r in results {
        let case = &cases[r.case];
        let check = CheckId::new(&case.id, r.check);
        let kept = previous.and_then(|p| p.entry(&check));
        // One run cannot show that an answer no longer varies: an unstable entry stays.
        let known_unstable = kept.is_some_and(|e| e.outcome == Listed::Unstable);
        let outcome = if known_unstable {
            Listed::Unstable
        } else if let Some(outcome) = Listed::of(r.outcome) {
            outcome
        } else {
            continue;
        };
        let cause = if known_unstable && r.outcome != Outcome::Unstable {
            cause::of_result(
                case,
                &CheckResult {
                    outcome: Outcome::Unstable,
                    ..r.clone()
                },
            )
        } else {
            cause::of_result(case, r)
        };
        file.entries.push(Entry {
            cause: Some(cause),
            reason: kept.map_or_else(|| reason_for(case, r), |e| e.reason.clone()),
            issue: kept.and_then(|e| e.issue.clone()),
            check,
            outcome,
            line: None,
        });
    }
    file
}

/// What changed between two files, for the message after an update: the checks added, removed
/// and listed with another outcome, each as (cause, count), the largest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    pub added: Vec<(String, usize)>,
    pub removed: Vec<(String, usize)>,
    pub changed: Vec<(String, usize)>,
}

impl Changes {
    pub fn between(previous: &ExpectationFile, next: &ExpectationFile) -> Changes {
        let tally = |entries: Vec<&Entry>| {
            let mut file = ExpectationFile::empty("");
            file.entries = entries.into_iter().cloned().collect();
            file.counts_by_cause()
        };
        Changes {
            added: tally(
                (next.entries.iter())
                    .filter(|e| previous.entry(&e.check).is_none())
                    .collect(),
            ),
            removed: tally(
                (previous.entries.iter())
                    .filter(|e| next.entry(&e.check).is_none())
                    .collect(),
            ),
            changed: tally(
                (next.entries.iter())
                    .filter(|e| (previous.entry(&e.check)).is_some_and(|p| p.outcome != e.outcome))
                    .collect(),
            ),
        }
    }

    /// `added 14 (12 CR-only line endings, 2 rejects the body); removed 0; ...`.
    pub fn describe(&self) -> String {
        let part = |what: &str, counts: &[(String, usize)]| {
            let total: usize = counts.iter().map(|(_, n)| n).sum();
            if counts.is_empty() {
                format!("{what} 0")
            } else {
                let causes: Vec<String> = counts.iter().map(|(c, n)| format!("{n} {c}")).collect();
                format!("{what} {total} ({})", causes.join(", "))
            }
        };
        format!(
            "{}; {}; {}",
            part("added", &self.added),
            part("removed", &self.removed),
            part("with another outcome", &self.changed)
        )
    }
}

/// A first reason for a new entry, from what the run saw and the clause the case checks; people
/// are expected to improve it (an update keeps what they write).
fn reason_for(case: &Case, r: &CheckResult) -> String {
    let detail = r
        .detail
        .as_ref()
        .map(|d| d.shown())
        .and_then(|d| {
            d.lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(str::to_owned)
        })
        .map(|l| shorten(&l, 120))
        .unwrap_or_default();
    match r.outcome {
        Outcome::Fail => {
            let actual = r.actual.map_or("nothing", |v| v.as_str());
            let expected = r
                .expected
                .map_or_else(|| "nothing".to_owned(), |e| e.to_string());
            let profile = r.scored_under.map_or("the profile", |p| p.name());
            // The clause of the profile that scored the check, not every profile's.
            let clause = r
                .scored_under
                .and_then(|p| case.clauses.for_profile(p))
                .map_or_else(|| case.spec.shown(), shown);
            format!(
                "answers {actual} where {profile} expects {expected} ({})",
                shorten(clause.trim(), 100)
            )
        }
        Outcome::Unstable => format!("the parser's answer varies: {detail}"),
        Outcome::Error => format!("the parser rejects the body: {detail}"),
        Outcome::Crash => format!("the adapter crashes: {detail}"),
        Outcome::Timeout => "no answer within the time limit".to_owned(),
        Outcome::ProtocolError => format!("the adapter breaks the protocol: {detail}"),
        _ => format!("not run: {detail}"),
    }
}

fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}
