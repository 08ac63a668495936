//! From fuzzer input to a test sample: a body and the queries asked of it.
//!
//! The libFuzzer targets hand [`sample`] the bytes libFuzzer chose; the out-of-process fuzzer
//! hands it bytes from a seeded [`SplitMix64`], so that a seed always yields the same documents in
//! the same order.

use arbitrary::{Arbitrary, Unstructured};
use robotstxt_suite::engine::Query;

use super::document::Document;
use super::emit::render;
use super::queries::queries_for;

/// Most queries asked about one body: enough to batch well, few enough to keep bodies varied.
pub const MAX_QUERIES: usize = 48;

/// A body and its queries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    pub body: Vec<u8>,
    pub queries: Vec<Query>,
}

/// Decodes `data` into a document and the queries about it. Never fails: input that runs out
/// gives the canonical choices.
pub fn sample(data: &[u8]) -> Sample {
    sample_with(data, MAX_QUERIES)
}

/// [`sample`] with at most `max_queries` queries.
pub fn sample_with(data: &[u8], max_queries: usize) -> Sample {
    let mut u = Unstructured::new(data);
    let body = match Document::arbitrary(&mut u) {
        Ok(doc) => render(&doc),
        Err(_) => Vec::new(),
    };
    let queries = queries_for(&body, &mut u, max_queries);
    Sample { body, queries }
}

/// SplitMix64: a tiny, well-mixed generator, so the fuzzer's sequence depends on the seed alone.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Input for one document: mostly short (plain documents), sometimes long (many lines).
    pub fn input(&mut self) -> Vec<u8> {
        let len = match self.next_u64() % 8 {
            0..=3 => 48 + self.next_u64() % 200,
            4..=6 => 248 + self.next_u64() % 500,
            _ => 748 + self.next_u64() % 1300,
        };
        // Most bytes zero: the canonical choice, so that documents are mostly plain and
        // each odd spelling stands out; the rest uniform.
        let mut data = Vec::with_capacity(len as usize + 8);
        while (data.len() as u64) < len {
            let word = self.next_u64();
            let mask = self.next_u64();
            for (i, b) in word.to_le_bytes().into_iter().enumerate() {
                data.push(if (mask >> (i * 8)) & 0xff < 140 { 0 } else { b });
            }
        }
        data.truncate(len as usize);
        data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_input_is_an_empty_document() {
        assert_eq!(sample(&[]).body, b"");
    }

    #[test]
    fn a_seed_gives_the_same_documents() {
        let (mut a, mut b) = (SplitMix64::new(7), SplitMix64::new(7));
        for _ in 0..50 {
            assert_eq!(sample(&a.input()), sample(&b.input()));
        }
    }

    #[test]
    fn documents_are_varied_and_queries_valid() {
        let mut rng = SplitMix64::new(1);
        let mut lines = 0;
        for _ in 0..200 {
            let s = sample(&rng.input());
            lines += robotstxt_reference::lines::raw_lines(&s.body).count();
            assert!(s.queries.len() <= MAX_QUERIES);
            for q in &s.queries {
                assert!(q.path.starts_with('/') && !q.path.contains(' '), "{q:?}");
                assert!(!q.agent.is_empty() && !q.agent.chars().any(char::is_control));
            }
        }
        assert!(lines > 400, "{lines}");
    }
}
