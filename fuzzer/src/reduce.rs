//! The reducer: shrinks a disagreement to a small, readable case with the same signature.
//!
//! Passes, repeated until none improves the candidate: whole blocks (runs of lines between blank
//! lines) and then whole lines by delta debugging to a fixpoint; then tokens within each line;
//! then single bytes (never inside a User-agent value, where a shorter name is not a clearer one);
//! then canonicalisation: LF endings, canonical spelling and spacing, robots and paths renamed to
//! `FooBot` and `/a`, offered by the passes of [`super::rewrite`] and tried here. Every step must
//! keep the disagreement (the [`CandidateJudge`] decides) and improve the [`Score`], which puts
//! the canonical form before mere shortness.

use super::candidate::{owned_lines, split, with_line, Candidate};
use super::canonical::Score;
use super::judge::CandidateJudge;
use super::rewrite;

/// Candidates probed per batch: enough to share engine messages, few enough to stop early.
const BATCH: usize = 8;
/// Default number of candidates probed before the reducer settles for what it has.
pub const DEFAULT_BUDGET: usize = 20_000;

/// Reduction state: the best candidate so far and what it cost to get there.
pub struct Reducer<'p> {
    judge: &'p mut dyn CandidateJudge,
    pub best: Candidate,
    score: Score,
    /// Candidates probed.
    pub probed: usize,
    budget: usize,
}

/// Reduces `start`, which must show the disagreement, within `budget` probed candidates.
pub fn reduce(start: Candidate, judge: &mut dyn CandidateJudge, budget: usize) -> Candidate {
    let mut reducer = Reducer::new(start, judge, budget);
    reducer.run();
    reducer.best
}

impl<'p> Reducer<'p> {
    pub fn new(start: Candidate, judge: &'p mut dyn CandidateJudge, budget: usize) -> Reducer<'p> {
        let score = Score::of(&start);
        Reducer {
            judge,
            best: start,
            score,
            probed: 0,
            budget,
        }
    }

    pub fn run(&mut self) {
        loop {
            let before = self.score;
            self.blocks();
            self.lines();
            self.tokens();
            self.bytes();
            self.canonicalise();
            if self.score >= before || self.exhausted() {
                break;
            }
        }
    }

    fn exhausted(&self) -> bool {
        self.probed >= self.budget
    }

    /// Canonicalisation: every rewrite pass, each offer tried against the best candidate.
    fn canonicalise(&mut self) {
        for mut pass in rewrite::passes() {
            while let Some(candidates) = pass(&self.best) {
                if self.exhausted() {
                    break;
                }
                self.try_each(candidates);
            }
        }
    }

    /// Probes `candidates` in order (in batches) and takes the first one that keeps the
    /// disagreement and scores better than the best so far.
    fn try_each(&mut self, candidates: Vec<Candidate>) -> Option<usize> {
        let better: Vec<(usize, Candidate)> = candidates
            .into_iter()
            .enumerate()
            .filter(|(_, c)| Score::of(c) < self.score)
            .collect();
        for chunk in better.chunks(BATCH) {
            if self.exhausted() {
                return None;
            }
            let batch: Vec<Candidate> = chunk.iter().map(|(_, c)| c.clone()).collect();
            self.probed += batch.len();
            let keeps = self.judge.keeps(&batch);
            if let Some(i) = keeps.iter().position(|&k| k) {
                self.score = Score::of(&batch[i]);
                self.best = batch[i].clone();
                return Some(chunk[i].0);
            }
        }
        None
    }

    /// Delta debugging over `units`: removes chunks, then smaller chunks, until no single unit
    /// can go. `build` makes a candidate from the units kept.
    fn ddmin<U: Clone>(&mut self, mut units: Vec<U>, build: &dyn Fn(&[U]) -> Candidate) {
        let mut n = 2;
        while !units.is_empty() && !self.exhausted() {
            let n_now = n.min(units.len());
            let size = units.len().div_ceil(n_now);
            let chunks: Vec<std::ops::Range<usize>> = (0..units.len())
                .step_by(size)
                .map(|s| s..(s + size).min(units.len()))
                .collect();
            let mut tries: Vec<Vec<U>> = Vec::new();
            if chunks.len() > 2 {
                tries.extend(chunks.iter().map(|r| units[r.clone()].to_vec()));
            }
            let subsets = tries.len();
            for r in &chunks {
                let mut rest = units[..r.start].to_vec();
                rest.extend_from_slice(&units[r.end..]);
                tries.push(rest);
            }
            let candidates = tries.iter().map(|t| build(t)).collect();
            match self.try_each(candidates) {
                Some(i) => {
                    units = tries.swap_remove(i);
                    n = if i < subsets { 2 } else { (n_now - 1).max(2) };
                }
                None if n_now >= units.len() => break,
                None => n = (n_now * 2).min(units.len()),
            }
        }
    }

    /// Blocks: lines up to and including the blank lines that end them.
    fn blocks(&mut self) {
        let lines = owned_lines(&self.best.body);
        let mut blocks: Vec<Vec<u8>> = Vec::new();
        let mut current = Vec::new();
        for (text, end) in lines {
            let blank = text.iter().all(|&b| b == b' ' || b == b'\t');
            current.extend_from_slice(&text);
            current.extend_from_slice(&end);
            if blank {
                blocks.push(std::mem::take(&mut current));
            }
        }
        if !current.is_empty() {
            blocks.push(current);
        }
        let base = self.best.clone();
        self.ddmin(blocks, &|kept: &[Vec<u8>]| Candidate {
            body: kept.concat(),
            ..base.clone()
        });
    }

    fn lines(&mut self) {
        let units: Vec<Vec<u8>> = owned_lines(&self.best.body)
            .into_iter()
            .map(|(mut text, end)| {
                text.extend_from_slice(&end);
                text
            })
            .collect();
        let base = self.best.clone();
        self.ddmin(units, &|kept: &[Vec<u8>]| Candidate {
            body: kept.concat(),
            ..base.clone()
        });
    }

    /// Tokens within each line: words, runs of space, single punctuation, a trailing comment.
    fn tokens(&mut self) {
        let mut index = 0;
        while index < split(&self.best.body).len() && !self.exhausted() {
            let (text, _) = owned_lines(&self.best.body).swap_remove(index);
            let tokens = tokenize(&text);
            if tokens.len() > 1 {
                let base = self.best.clone();
                self.ddmin(tokens, &|kept: &[Vec<u8>]| {
                    with_line(&base, index, &kept.concat())
                });
            }
            index += 1;
        }
    }

    /// Single bytes within each line, except in User-agent values.
    fn bytes(&mut self) {
        let mut index = 0;
        while index < split(&self.best.body).len() && !self.exhausted() {
            let (text, _) = owned_lines(&self.best.body).swap_remove(index);
            let agent_line = text
                .iter()
                .position(|&b| b == b':')
                .is_some_and(|c| text[..c].trim_ascii().eq_ignore_ascii_case(b"user-agent"));
            if !agent_line && text.len() > 1 {
                let base = self.best.clone();
                let bytes: Vec<u8> = text.clone();
                self.ddmin(bytes, &|kept: &[u8]| with_line(&base, index, kept));
            }
            index += 1;
        }
    }
}

/// Splits a line into tokens: a comment (from `#`) is one token, then runs of letters and
/// digits, runs of space, and single other bytes.
fn tokenize(text: &[u8]) -> Vec<Vec<u8>> {
    let (code, comment) = match text.iter().position(|&b| b == b'#') {
        Some(hash) => text.split_at(hash),
        None => (text, &[][..]),
    };
    let class = |b: u8| match b {
        b if b.is_ascii_alphanumeric() => 0,
        b' ' | b'\t' => 1,
        _ => 2,
    };
    let mut tokens: Vec<Vec<u8>> = Vec::new();
    for &b in code {
        match tokens.last_mut() {
            Some(last) if class(b) != 2 && class(last[0]) == class(b) => last.push(b),
            _ => tokens.push(vec![b]),
        }
    }
    if !comment.is_empty() {
        tokens.push(comment.to_vec());
    }
    tokens
}
