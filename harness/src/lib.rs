//! `robotstxt-test`: a conformance suite and differential harness for robots.txt parsers.
//!
//! The corpus, the engines and scoring are `robotstxt-suite`'s. This crate runs them against
//! adapters ([`adapter`], [`side_by_side`]), shows what it found ([`output`]), builds the
//! published compatibility reports ([`report`]), asks one body of many engines at once
//! ([`compare`]), fuzzes for new disagreements ([`fuzz`]) and surveys real files ([`survey`]).
//!
//! The crate carries every adapter folder ([`suite`]), so the installed binary works in any
//! folder: inside a checkout of this repository the files on disk win, anywhere else the embedded
//! copy is used and adapters install into the user's cache folder ([`cache`]).

pub mod adapter;
pub mod atomic;
pub mod cache;
pub mod compare;
pub mod fuzz;
pub mod limits;
pub mod output;
pub mod repeats;
pub mod report;
pub mod side_by_side;
pub mod signals;
pub mod suite;
pub mod survey;
pub mod swap;
pub mod turns;
