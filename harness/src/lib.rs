//! `robotstxt-test`: the application, a conformance suite and differential harness for robots.txt
//! parsers.
//!
//! The corpus, the engines and scoring are `robotstxt-suite`'s; the adapters, their processes and
//! the loop that drives many engines at once are `robotstxt-runtime`'s. This crate is what the
//! `robotstxt-test` binary does with them: it shows what a run found ([`output`]), builds the
//! published compatibility reports ([`report`]), asks one body of many engines at once
//! ([`compare`]), fuzzes for new disagreements and minimizes them ([`fuzz`]) and surveys real
//! files ([`survey`]), writing its files whole or not at all ([`atomic`], [`swap`]). Before a run
//! is judged, published or written down as expectations, [`settle`] asks its suspects again.

#![forbid(unsafe_code)]

pub mod compare;
pub mod diff;
pub mod grouping;
pub mod limits;
pub mod output;
pub mod repeats;
pub mod report;
pub mod settle;
