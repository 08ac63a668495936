//! What the reducer works on: a body and one query about it, and edits of the body line by line.
//!
//! A leaf: the canonical form, the judge, the rewrites and the reducer all build on it, and it
//! on nothing of theirs. Lines are the reference's ([`raw_lines`]), so a line index here is the
//! line number the reference's explanations give, less one.

use robotstxt_reference::lines::raw_lines;

/// A body and one query about it: what is reduced.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Candidate {
    pub body: Vec<u8>,
    pub agent: String,
    pub path: String,
}

/// The body's lines with their terminators (the last one's may be empty).
pub fn split(body: &[u8]) -> Vec<(&[u8], &[u8])> {
    raw_lines(body)
        .map(|line| (line.text, line.terminator))
        .collect()
}

/// The body's lines as owned (text, terminator) pairs.
pub fn owned_lines(body: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    split(body)
        .into_iter()
        .map(|(t, e)| (t.to_vec(), e.to_vec()))
        .collect()
}

/// `base` with line `index`'s text replaced (its terminator kept).
pub fn with_line(base: &Candidate, index: usize, text: &[u8]) -> Candidate {
    let mut body = Vec::with_capacity(base.body.len());
    for (i, (t, e)) in split(&base.body).into_iter().enumerate() {
        body.extend_from_slice(if i == index { text } else { t });
        body.extend_from_slice(e);
    }
    Candidate {
        body,
        ..base.clone()
    }
}
