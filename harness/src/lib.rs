//! `robotstxt-test`: the application, a conformance suite and differential harness for robots.txt
//! parsers.
//!
//! The corpus, the engines and scoring are `robotstxt-suite`'s; the adapters, their processes and
//! the loop that drives many engines at once are `robotstxt-runtime`'s. This crate is what the
//! `robotstxt-test` binary does with them: it shows what a run found ([`output`]), builds the
//! published compatibility reports ([`report`]), says what changed between two results files
//! ([`diff`]) and asks one body of many engines at once ([`compare`]), grouping non-passes by
//! cause for all of them ([`grouping`]). Before a run is judged, published or written down as
//! expectations, [`settle`] asks its suspects again. The other products have crates of their own,
//! which the command line calls: the fuzzer (`robotstxt-fuzzer`) and the survey
//! (`robotstxt-survey`).

#![forbid(unsafe_code)]

pub mod compare;
pub mod diff;
pub mod grouping;
pub mod limits;
pub mod output;
pub mod repeats;
pub mod report;
pub mod settle;
