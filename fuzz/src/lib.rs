//! The libFuzzer targets' checks, as library functions: the targets in `fuzz_targets/` call
//! them, and so does `tests/replay.rs`, which replays every saved input on stable Rust.
//!
//! - [`reference_robustness`]: any bytes; the reference never panics, and its decisions do not
//!   change when line endings are rewritten or a comment line is inserted ([`robustness`]).
//! - [`differential_rust`]: the fuzzer's generator, oracle and reducer (`robotstxt-fuzzer`)
//!   against the Rust parser crates linked in process ([`engines`], [`differential`]).
//! - [`readers`]: the readers of outside files (a case file, an expectation file, a JSON
//!   stream, a corpus archive, a census plan, `survey.json`, a results file, a WARC file), each
//!   given any bytes, each within its memory budget (the targets count what is allocated).

#![forbid(unsafe_code)]

pub mod differential;
pub mod engines;
pub mod readers;
pub mod robustness;

pub use differential::differential_rust;
pub use robustness::reference_robustness;
