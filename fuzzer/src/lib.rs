//! Differential fuzzing: find where a parser disagrees with the reference, reduce it to a small
//! readable case, and write it in the corpus format.
//!
//! One generator, one oracle, one reducer, used by the in-process libFuzzer targets (`fuzz/`)
//! and by the out-of-process `fuzz` and `minimize` commands:
//!
//! - [`generate`]: fuzzer input to a robots.txt body ([`document`], [`emit`]) and the queries
//!   asked of it ([`queries`]); a seeded [`generate::SplitMix64`] stands in for libFuzzer.
//! - [`oracle`]: a scored disagreement, under the profile the parser claims (or 1994), never on a
//!   point the text leaves open.
//! - [`reduce`](mod@reduce): lines, tokens, bytes, then the canonical form ([`rewrite`],
//!   [`canonical`]), keeping the signature; [`judge`] asks the engine about candidates in
//!   batches. All of them work on a [`candidate`] (a body and a query) and its lines.
//!   Dependencies run one way: `candidate` is a leaf; `canonical`, `judge` and `rewrite` build on
//!   it; `reduce` drives the rewrite passes and asks the judge.
//! - [`case`] writes the case file; [`known`] skips what is already known; [`groups`] counts
//!   findings by bug, as `run` groups non-passes; [`session`] is the out-of-process loop.

#![forbid(unsafe_code)]

pub mod candidate;
pub mod canonical;
pub mod case;
pub mod document;
pub mod emit;
pub mod generate;
pub mod groups;
pub mod judge;
pub mod known;
pub mod oracle;
pub mod queries;
pub mod reduce;
pub mod rewrite;
pub mod session;

pub use candidate::Candidate;
pub use generate::{sample, sample_with, Sample, SplitMix64};
pub use judge::{CandidateJudge, EngineJudge};
pub use oracle::{Judgement, Oracle, Signature};
pub use reduce::reduce;
