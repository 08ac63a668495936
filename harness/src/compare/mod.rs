//! One robots.txt body asked of several engines at once, each answer judged against the
//! reference: the model behind `robotstxt-test compare`.
//!
//! Every engine gets the body and all the queries as one batch, through the engine loop that
//! `run` uses ([`side_by_side`]). Each answer is judged under the profile its engine claims (under
//! `norobots-1994` when the reference does not implement the claim) by the fuzzer's
//! [`Oracle`], so an answer that differs on a point the text leaves open is not a disagreement.
//! Rendering is in [`render`].

pub mod render;

use robotstxt_reference::open_points::{open_points, OpenPoint};
use robotstxt_reference::{Decision, Profile, Robots, Verdict};
use robotstxt_runtime::lifecycle::Lifecycle;
use robotstxt_runtime::side_by_side::{side_by_side, Worker};
use robotstxt_suite::cause::BodyMarks;
use robotstxt_suite::engine::{Failure, Fault, Handshake, Query, Reply};
use robotstxt_suite::visible::Outside;

use robotstxt_fuzzer::case::clause_for;
use robotstxt_fuzzer::{Candidate, Judgement, Oracle};

/// Everything `compare` found: the reference's decisions and one column per engine.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub queries: Vec<Query>,
    /// Per query, the reference's decision under each profile of [`Profile::ALL`], with the open
    /// points it depends on.
    pub reference: Vec<Vec<ReferenceDecision>>,
    pub columns: Vec<Column>,
    /// What is unusual about the body (lone CR line endings, a byte-order mark, ...), as the
    /// survey names it: often the cause of a difference.
    pub file: Vec<&'static str>,
}

/// The reference's answer to one query under one profile.
#[derive(Debug, Clone)]
pub struct ReferenceDecision {
    pub decision: Decision,
    pub open: Vec<OpenPoint>,
}

/// One engine's answers.
#[derive(Debug, Clone)]
pub struct Column {
    pub handshake: Handshake,
    /// The profile its answers are judged under.
    pub judged_under: Profile,
    /// Why the engine could not answer at all, if so, in the adapter's words.
    pub unavailable: Option<Outside>,
    /// One per query.
    pub cells: Vec<AnswerCell>,
}

/// One engine's answer to one query, and how it compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerCell {
    pub answer: EngineAnswer,
    pub mark: Mark,
}

/// What an engine answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineAnswer {
    Verdict(Verdict),
    /// The parser refused the body, with its message.
    Error(Outside),
    /// The engine gave no answer.
    Fault(Fault, Outside),
}

/// How an answer compares with the reference under the engine's profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mark {
    Agrees,
    /// The decision depends on these open points: whatever the answer, it is not scored.
    /// `differs` tells whether the answer is not the reference's.
    Open {
        points: Vec<OpenPoint>,
        differs: bool,
    },
    /// A scored difference, and the clause that settles it.
    Differs {
        clause: String,
    },
    /// The engine crashed, timed out, broke the protocol or was unavailable.
    Broken,
}

/// Counts of the marks, over every cell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct MarkTally {
    pub agree: usize,
    pub open: usize,
    pub differ: usize,
    pub broken: usize,
}

impl EngineAnswer {
    /// `allowed`, `disallowed`, `error`, `crash`, `timeout`, `protocol-error` or `unavailable`.
    pub fn as_str(&self) -> &'static str {
        match self {
            EngineAnswer::Verdict(v) => v.as_str(),
            EngineAnswer::Error(_) => "error",
            EngineAnswer::Fault(fault, _) => fault.as_str(),
        }
    }

    /// The parser's message or what went wrong, if any.
    pub fn detail(&self) -> Option<&Outside> {
        match self {
            EngineAnswer::Verdict(_) => None,
            EngineAnswer::Error(detail) | EngineAnswer::Fault(_, detail) => Some(detail),
        }
    }
}

impl Comparison {
    /// Asks every engine about `body` and judges each answer.
    pub fn new(body: &[u8], queries: Vec<Query>, engines: &mut [Box<dyn Lifecycle>]) -> Comparison {
        let replies = ask_all(body, &queries, engines);
        let reference: Vec<Vec<ReferenceDecision>> = queries
            .iter()
            .map(|q| {
                Profile::ALL
                    .iter()
                    .map(|&profile| ReferenceDecision {
                        decision: Robots::parse(profile, body).decide(&q.agent, &q.path),
                        open: open_points(profile, body, &q.agent, &q.path),
                    })
                    .collect()
            })
            .collect();
        let columns = engines
            .iter()
            .zip(replies)
            .map(|(engine, reply)| {
                let oracle = Oracle::for_engine(engine.handshake());
                let slot = profile_slot(oracle.profile);
                let cells = queries
                    .iter()
                    .enumerate()
                    .map(|(i, q)| judge(body, q, oracle, &reference[i][slot], answer(&reply, i)))
                    .collect();
                Column {
                    handshake: engine.handshake().clone(),
                    judged_under: oracle.profile,
                    unavailable: engine.unavailable().cloned(),
                    cells,
                }
            })
            .collect();
        Comparison {
            queries,
            reference,
            columns,
            file: BodyMarks::of(body).describe(),
        }
    }

    pub fn tally(&self) -> MarkTally {
        let mut tally = MarkTally::default();
        for cell in self.columns.iter().flat_map(|c| &c.cells) {
            match cell.mark {
                Mark::Agrees => tally.agree += 1,
                Mark::Open { .. } => tally.open += 1,
                Mark::Differs { .. } => tally.differ += 1,
                Mark::Broken => tally.broken += 1,
            }
        }
        tally
    }
}

/// The index of `profile` in [`Profile::ALL`].
pub fn profile_slot(profile: Profile) -> usize {
    Profile::ALL
        .iter()
        .position(|&p| p == profile)
        .expect("every profile is in Profile::ALL")
}

/// One batch per engine, all engines side by side, through the loop `run` uses.
fn ask_all(
    body: &[u8],
    queries: &[Query],
    engines: &mut [Box<dyn Lifecycle>],
) -> Vec<Result<Reply, Failure>> {
    struct Ask(Option<Result<Reply, Failure>>);
    impl<'a> Worker<(&'a [u8], &'a [Query])> for Ask {
        fn item(&mut self, engine: &mut dyn Lifecycle, (body, queries): &(&'a [u8], &'a [Query])) {
            self.0 = Some(engine.check("compare", body, queries));
        }
    }
    let workers = engines.iter().map(|_| Ask(None)).collect();
    side_by_side([(body, queries)], engines, workers)
        .into_iter()
        .map(|ask| ask.0.expect("every engine is asked once"))
        .collect()
}

/// Query `index`'s part of an engine's reply.
fn answer(reply: &Result<Reply, Failure>, index: usize) -> EngineAnswer {
    match reply {
        Ok(Reply::Verdicts(verdicts)) => match verdicts.get(index) {
            Some(&verdict) => EngineAnswer::Verdict(verdict),
            None => EngineAnswer::Fault(
                Fault::ProtocolError,
                format!("{} results for more queries", verdicts.len()).into(),
            ),
        },
        Ok(Reply::Rejected(message)) => EngineAnswer::Error(message.clone()),
        Ok(Reply::Refused(answers)) => match answers.get(index) {
            Some(Ok(verdict)) => EngineAnswer::Verdict(*verdict),
            Some(Err(why)) => {
                EngineAnswer::Error(format!("the query is refused: {}", why.raw()).into())
            }
            None => EngineAnswer::Fault(
                Fault::ProtocolError,
                format!("{} results for more queries", answers.len()).into(),
            ),
        },
        Err(failure) => EngineAnswer::Fault(failure.fault, failure.detail.clone()),
    }
}

/// Judges one answer with the oracle; a refusal counts as differing from the reference's verdict.
fn judge(
    body: &[u8],
    query: &Query,
    oracle: Oracle,
    reference: &ReferenceDecision,
    answer: EngineAnswer,
) -> AnswerCell {
    let expected = reference.decision.verdict;
    let theirs = match &answer {
        EngineAnswer::Verdict(v) => *v,
        EngineAnswer::Error(_) => opposite(expected),
        EngineAnswer::Fault(..) => {
            return AnswerCell {
                answer,
                mark: Mark::Broken,
            }
        }
    };
    let mark = match oracle.judge(body, query, expected, theirs) {
        Judgement::Agree if reference.open.is_empty() => Mark::Agrees,
        Judgement::Agree => Mark::Open {
            points: reference.open.clone(),
            differs: matches!(answer, EngineAnswer::Error(_)),
        },
        Judgement::Open(points) => Mark::Open {
            points,
            differs: true,
        },
        Judgement::Disagree { .. } => Mark::Differs {
            clause: clause(body, query, oracle.profile, &reference.decision),
        },
    };
    AnswerCell { answer, mark }
}

fn opposite(verdict: Verdict) -> Verdict {
    match verdict {
        Verdict::Allowed => Verdict::Disallowed,
        Verdict::Disallowed => Verdict::Allowed,
    }
}

/// The section of the clause that settles a decision (the one the disagreement's cause comes
/// from, as the fuzzer's case files name it), and the rule line that decided under it (or why none
/// did), as the reference explains it.
pub fn clause(body: &[u8], query: &Query, profile: Profile, decision: &Decision) -> String {
    let candidate = Candidate {
        body: body.to_vec(),
        agent: query.agent.clone(),
        path: query.path.clone(),
    };
    let section = clause_for(profile, &candidate).section;
    let deciding = decision.explanation.rule_sentence();
    format!("{section} ({profile}): {deciding}")
}
