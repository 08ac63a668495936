//! Asking whether reduction candidates still show the same disagreement.
//!
//! A [`CandidateJudge`] answers for a batch of candidates at once, so that an engine behind a
//! process gets one message per distinct body (candidates that differ only in their query share
//! it). Answers are cached by a hash of body and query: the reducer's passes revisit the same
//! candidates often.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use robotstxt_reference::Verdict;
use robotstxt_suite::engine::{Engine, Query, Reply};

use super::candidate::Candidate;
use super::oracle::{Judgement, Oracle};

/// Answers "does this candidate keep the disagreement?" for a batch of candidates.
pub trait CandidateJudge {
    fn keeps(&mut self, batch: &[Candidate]) -> Vec<bool>;
}

/// A judge that asks an engine, and keeps a candidate when the engine still gives `theirs`, the
/// reference still gives `reference`, and the decision is settled by the oracle's profile.
pub struct EngineJudge<'e, E: Engine + ?Sized = dyn Engine> {
    engine: &'e mut E,
    oracle: Oracle,
    reference: Verdict,
    theirs: Verdict,
    cache: HashMap<u64, bool>,
    /// Engine messages sent so far.
    pub messages: usize,
}

impl<'e, E: Engine + ?Sized> EngineJudge<'e, E> {
    pub fn new(
        engine: &'e mut E,
        oracle: Oracle,
        reference: Verdict,
        theirs: Verdict,
    ) -> EngineJudge<'e, E> {
        EngineJudge {
            engine,
            oracle,
            reference,
            theirs,
            cache: HashMap::new(),
            messages: 0,
        }
    }

    fn key(c: &Candidate) -> u64 {
        let mut h = DefaultHasher::new();
        c.hash(&mut h);
        h.finish()
    }

    /// Asks the engine about every uncached candidate sharing `body`, in one message.
    fn ask(&mut self, body: &[u8], candidates: &[&Candidate]) {
        let queries: Vec<Query> = candidates
            .iter()
            .map(|c| Query {
                agent: c.agent.clone(),
                path: c.path.clone(),
            })
            .collect();
        self.messages += 1;
        let reply = self
            .engine
            .check(&format!("reduce-{}", self.messages), body, &queries);
        let theirs = match reply {
            Ok(Reply::Verdicts(v)) if v.len() == queries.len() => v,
            _ => vec![],
        };
        let reference = self.oracle.verdicts(body, &queries);
        for (i, c) in candidates.iter().enumerate() {
            let keeps = theirs.get(i) == Some(&self.theirs)
                && reference[i] == self.reference
                && matches!(
                    self.oracle
                        .judge(body, &queries[i], reference[i], theirs[i]),
                    Judgement::Disagree { .. }
                );
            self.cache.insert(Self::key(c), keeps);
        }
    }
}

impl<E: Engine + ?Sized> CandidateJudge for EngineJudge<'_, E> {
    fn keeps(&mut self, batch: &[Candidate]) -> Vec<bool> {
        let mut by_body: Vec<(&[u8], Vec<&Candidate>)> = Vec::new();
        for c in batch {
            if self.cache.contains_key(&Self::key(c)) {
                continue;
            }
            match by_body
                .iter_mut()
                .find(|(body, _)| *body == c.body.as_slice())
            {
                Some((_, list)) => list.push(c),
                None => by_body.push((&c.body, vec![c])),
            }
        }
        for (body, list) in by_body {
            self.ask(body, &list);
        }
        batch.iter().map(|c| self.cache[&Self::key(c)]).collect()
    }
}
