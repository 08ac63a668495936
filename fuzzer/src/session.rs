//! The out-of-process fuzzing loop: documents from a seed, asked of an engine in batches, every
//! scored disagreement put in the group `run` would put it in ([`crate::groups`]), and the first
//! document of each new group reduced and turned into a case: one case per bug, with a count of
//! the documents that showed it.
//!
//! The engine is any [`Engine`]; the `fuzz` command passes an adapter process. Documents come
//! from [`SplitMix64`] seeded with `seed`, so for a given seed (and a deterministic parser) the
//! first N documents, and the findings among them, are the same on every run; a time limit only
//! decides how many documents there are.

use std::collections::btree_map::Entry;
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use robotstxt_reference::open_points::OpenPoint;
use robotstxt_reference::{Robots, Verdict};
use robotstxt_suite::cause::{self, Cause};
use robotstxt_suite::engine::{Engine, Failure, Handshake, Query, Reply};
use robotstxt_suite::reask::Between;
use robotstxt_suite::visible::Outside;

use super::candidate::Candidate;
use super::case::FindingCase;
use super::generate::{sample, SplitMix64};
use super::groups::{Fate, FaultSeen, Groups, Tally, FAULTS_KEPT};
use super::judge::EngineJudge;
use super::known::Known;
use super::oracle::{Judgement, Oracle, Signature};
use super::reduce::reduce;

/// What to run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub seed: u64,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Stop after this many documents.
    pub docs: Option<u64>,
    /// Candidates the reducer may probe per finding.
    pub budget: usize,
}

/// Counts so far.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub docs: u64,
    pub checks: u64,
    /// Verdicts that differ from the reference's (before judging them).
    pub different: u64,
    /// Of those, on open points.
    pub open: u64,
    /// How often each open point was among the reasons (one verdict can have several).
    pub open_by_point: std::collections::BTreeMap<OpenPoint, u64>,
    /// Bodies the parser refused.
    pub rejected: u64,
    /// Documents the engine gave no answer for: it crashed, timed out or broke the protocol.
    pub faults: u64,
    /// The first [`FAULTS_KEPT`] of them, each with its document and what the engine said.
    pub fault_list: Vec<FaultSeen>,
    /// Every group of scored disagreements, with how many documents showed it.
    pub groups: Groups,
    /// Listed checks that are scored disagreements, reduced before the run to recognise them.
    pub listed_reduced: usize,
    /// Scored disagreements of a group the expectations file lists (or that reduce to a check
    /// or a shape it lists).
    pub listed: u64,
    /// Scored disagreements of a group already saved, by this run or an earlier one.
    pub known: u64,
    pub findings: usize,
    pub elapsed: Duration,
    /// Time spent reducing findings.
    pub reducing: Duration,
    /// Time spent reducing the listed checks, before the run.
    pub reducing_listed: Duration,
}

/// The first disagreement of a new group, reduced.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The group, as `run` groups: the cause of the reduced case with the parser's answer
    /// (`case.cause`).
    pub group: Cause,
    pub case: FindingCase,
    pub signature: Signature,
    /// The document's number in the run (from 0) and its size before reduction.
    pub document: u64,
    pub original_size: usize,
}

/// What the loop reports as it goes.
pub enum Event<'a> {
    Progress(&'a Stats),
    Finding(&'a Finding),
    Fault(&'a FaultSeen),
}

/// The engine stopped answering: its name and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {why}")]
pub struct BrokeDown {
    pub name: Outside,
    pub why: Outside,
}

/// Runs the loop until the time or document limit, reporting progress and findings to `events`.
pub fn fuzz<E: Engine + ?Sized>(
    engine: &mut E,
    between: Between<E>,
    settings: &Settings,
    known: &mut Known,
    events: &mut dyn FnMut(Event<'_>),
) -> Result<Stats, BrokeDown> {
    let oracle = Oracle::for_engine(engine.handshake());
    let handshake = engine.handshake().clone();
    let mut rng = SplitMix64::new(settings.seed);
    let mut stats = Stats::default();
    let started = Instant::now();
    stats.listed_reduced = reduce_listed(engine, oracle, known, settings.budget);
    stats.reducing_listed = started.elapsed();
    // The group each group read from a whole document stands for, once one was reduced.
    let mut aliases: HashMap<Cause, Cause> = HashMap::new();
    let start = Instant::now();
    let mut last_progress = start;
    while settings.docs.is_none_or(|n| stats.docs < n)
        && settings.time.is_none_or(|t| start.elapsed() < t)
    {
        let document = stats.docs;
        stats.docs += 1;
        let s = sample(&rng.input());
        if s.queries.is_empty() {
            continue;
        }
        stats.checks += s.queries.len() as u64;
        let theirs = match engine.check(&format!("fuzz-{document}"), &s.body, &s.queries) {
            Ok(Reply::Verdicts(v)) => v,
            // A refused query gives no verdict to compare: the file counts as refused.
            Ok(Reply::Rejected(_) | Reply::Refused(_)) => {
                stats.rejected += 1;
                continue;
            }
            Err(Failure { fault, detail }) => {
                stats.faults += 1;
                let seen = FaultSeen {
                    document,
                    kind: fault,
                    detail,
                };
                events(Event::Fault(&seen));
                if stats.fault_list.len() < FAULTS_KEPT {
                    stats.fault_list.push(seen);
                }
                if let Some(why) = (between.unavailable)(engine) {
                    return Err(BrokeDown {
                        name: handshake.name.clone(),
                        why: why.clone(),
                    });
                }
                continue;
            }
        };
        let reference = oracle.verdicts(&s.body, &s.queries);
        let mut shown: BTreeSet<Cause> = BTreeSet::new();
        for (i, query) in s.queries.iter().enumerate() {
            if reference[i] == theirs[i] {
                continue;
            }
            stats.different += 1;
            if let Judgement::Open(points) = oracle.judge(&s.body, query, reference[i], theirs[i]) {
                stats.open += 1;
                for point in points {
                    *stats.open_by_point.entry(point).or_default() += 1;
                }
                continue;
            }
            // The group: as `run` reads the document as it came, where that names a listed
            // group or one this run has seen; else, on the first such document, the group of
            // what it reduces to, free of the document's noise.
            let (agent, path) = (&query.agent, &query.path);
            let raw = cause::of_answer(oracle.profile, &s.body, agent, path, Some(theirs[i]));
            let group = match aliases.get(&raw) {
                Some(&group) => group,
                None if known.is_listed_group(raw) => {
                    stats
                        .groups
                        .entry(raw)
                        .or_insert_with(|| tally(Fate::Listed));
                    aliases.insert(raw, raw);
                    raw
                }
                None => {
                    let started = Instant::now();
                    let start_case = Candidate {
                        body: s.body.clone(),
                        agent: agent.clone(),
                        path: path.clone(),
                    };
                    let mut judge = EngineJudge::new(engine, oracle, reference[i], theirs[i]);
                    let reduced = reduce(start_case, &mut judge, settings.budget);
                    stats.reducing += started.elapsed();
                    let origin = format!(
                        "Found by `robotstxt-test fuzz` against {} {} ({}), seed {}, document {document} ({} bytes, reduced to {} bytes)",
                        handshake.name, handshake.version, handshake.parser, settings.seed, s.body.len(), reduced.body.len()
                    );
                    let case = finding_case(
                        &handshake,
                        oracle,
                        &reduced,
                        reference[i],
                        theirs[i],
                        &origin,
                    );
                    let group = case.cause;
                    aliases.insert(raw, group);
                    if let Entry::Vacant(slot) = stats.groups.entry(group) {
                        let fate = if known.is_listed(&reduced, reference[i])
                            || known.is_listed_group(group)
                        {
                            Fate::Listed
                        } else if known.is_reported(&reduced, reference[i])
                            || known.is_reported_group(group)
                        {
                            Fate::Earlier
                        } else {
                            Fate::Saved(case.name.clone())
                        };
                        slot.insert(tally(fate.clone()));
                        if let Fate::Saved(_) = fate {
                            known.add_reported(&reduced, reference[i]);
                            known.add_reported_group(group);
                            let finding = Finding {
                                group,
                                signature: Signature {
                                    adapter: handshake.name.clone(),
                                    agent: agent.clone(),
                                    path: path.clone(),
                                    reference: reference[i],
                                    theirs: theirs[i],
                                },
                                case,
                                document,
                                original_size: s.body.len(),
                            };
                            stats.findings += 1;
                            events(Event::Finding(&finding));
                            shown.insert(group);
                            continue;
                        }
                    }
                    group
                }
            };
            shown.insert(group);
            match stats.groups.get(&group).map(|t| &t.fate) {
                Some(Fate::Listed) => stats.listed += 1,
                _ => stats.known += 1,
            }
        }
        for group in shown {
            if let Some(tally) = stats.groups.get_mut(&group) {
                tally.documents += 1;
            }
        }
        if last_progress.elapsed() >= Duration::from_millis(250) {
            last_progress = Instant::now();
            stats.elapsed = start.elapsed();
            events(Event::Progress(&stats));
        }
    }
    stats.elapsed = start.elapsed();
    events(Event::Progress(&stats));
    Ok(stats)
}

/// A group's tally before its first document is counted.
fn tally(fate: Fate) -> Tally {
    Tally { documents: 0, fate }
}

/// Reduces every check the expectations file lists that is a scored disagreement with this
/// engine, and records what each reduces to in `known`; returns how many there were. Checks of
/// one body are asked in one message, so a body the engine times out on costs one timeout. Listed
/// checks the engine now answers like the reference, or that depend on an open point, are left
/// out.
fn reduce_listed<E: Engine + ?Sized>(
    engine: &mut E,
    oracle: Oracle,
    known: &mut Known,
    budget: usize,
) -> usize {
    let mut by_body: Vec<(Vec<u8>, Vec<Query>)> = Vec::new();
    for listed in known.listed_candidates() {
        let query = Query {
            agent: listed.agent,
            path: listed.path,
        };
        match by_body.iter_mut().find(|(body, _)| *body == listed.body) {
            Some((_, queries)) => queries.push(query),
            None => by_body.push((listed.body, vec![query])),
        }
    }
    let mut reduced_count = 0;
    for (n, (body, queries)) in by_body.into_iter().enumerate() {
        let theirs = match engine.check(&format!("listed-{n}"), &body, &queries) {
            Ok(Reply::Verdicts(v)) if v.len() == queries.len() => v,
            _ => continue,
        };
        let reference = oracle.verdicts(&body, &queries);
        for (i, query) in queries.into_iter().enumerate() {
            let judgement = oracle.judge(&body, &query, reference[i], theirs[i]);
            if !matches!(judgement, Judgement::Disagree { .. }) {
                continue;
            }
            // Its group as `run` reads it, and the group of what it reduces to.
            let (agent, path) = (&query.agent, &query.path);
            known.add_listed_group(cause::of_answer(
                oracle.profile,
                &body,
                agent,
                path,
                Some(theirs[i]),
            ));
            let start = Candidate {
                body: body.clone(),
                agent: query.agent,
                path: query.path,
            };
            let mut judge = EngineJudge::new(engine, oracle, reference[i], theirs[i]);
            let reduced = reduce(start, &mut judge, budget);
            known.add_listed(&reduced, reference[i]);
            let reduced_cause = cause::of_answer(
                oracle.profile,
                &reduced.body,
                &reduced.agent,
                &reduced.path,
                Some(theirs[i]),
            );
            known.add_listed_group(reduced_cause);
            reduced_count += 1;
        }
    }
    reduced_count
}

/// The case for a reduced disagreement, its note telling where it came from and what each side
/// says.
pub fn finding_case(
    handshake: &Handshake,
    oracle: Oracle,
    reduced: &Candidate,
    reference: Verdict,
    theirs: Verdict,
    origin: &str,
) -> FindingCase {
    let decision =
        Robots::parse(oracle.profile, &reduced.body).decide(&reduced.agent, &reduced.path);
    let (body, agent, path) = (&reduced.body, &reduced.agent, &reduced.path);
    let cause = cause::of_answer(oracle.profile, body, agent, path, Some(theirs));
    let explanation = decision.explanation;
    let note = format!(
        "{origin}, on {}. The reference says {reference} ({explanation}); {} says {theirs}. \
         Cause: {cause}.",
        today(),
        handshake.name
    );
    FindingCase {
        name: format!(
            "{}-{:08x}",
            kebab(handshake.name.raw()),
            fnv(reduced) as u32
        ),
        spec: cause
            .clause(oracle.profile)
            .expect("a cause read from a decision is never an adapter's fault: it has a clause")
            .spec(),
        note,
        case: reduced.clone(),
        profile: oracle.profile,
        expect: reference,
        cause,
    }
}

/// A name usable in a case name: lowercase letters and digits joined by single `-`.
fn kebab(name: &str) -> String {
    name.to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// FNV-1a: a hash that stays the same across Rust versions, for stable case names.
fn fnv(c: &Candidate) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let parts: [&[u8]; 5] = [
        &c.body,
        &[0xff],
        c.agent.as_bytes(),
        &[0xff],
        c.path.as_bytes(),
    ];
    for &b in parts.concat().iter() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    date_of(jiff::Timestamp::now())
}

/// The UTC date of a moment as `YYYY-MM-DD`.
fn date_of(moment: jiff::Timestamp) -> String {
    moment.strftime("%Y-%m-%d").to_string()
}

#[cfg(test)]
mod tests {
    use super::date_of;

    #[test]
    fn dates_are_utc_days() {
        let on = |seconds| date_of(jiff::Timestamp::from_second(seconds).unwrap());
        assert_eq!(on(0), "1970-01-01");
        assert_eq!(on(951_868_799), "2000-02-29");
        assert_eq!(on(951_868_800), "2000-03-01");
        assert_eq!(on(4_107_542_400), "2100-03-01");
    }
}
