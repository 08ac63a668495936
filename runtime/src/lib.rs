//! `robotstxt-runtime`: the adapter runtime of robotstxt-test, real robots.txt parsers behind
//! processes.
//!
//! An adapter is a folder with an `adapter.yaml` and a small program that speaks the JSON-lines
//! protocol (`adapters/PROTOCOL.md`, messages in `robotstxt-protocol`). This crate finds adapters,
//! installs them ([`adapter`], into the places [`cache`] names), checks that one speaks the
//! protocol, and drives each running process as a `robotstxt_suite::Engine`. [`side_by_side`] is
//! the one loop that feeds every item to every engine, each on its own thread and taking
//! [`turns`]; `run`, `report`, `survey` and `compare` all use it. [`signals`] stops every adapter
//! (and removes registered temporary files) on an interrupt, and [`child`] starts every process
//! under a supervisor, so that no descendant outlives the harness.
//!
//! The crate carries every adapter folder ([`suite`]), so the installed binary works in any
//! folder: inside a checkout of this repository the files on disk win, anywhere else the embedded
//! copy is written into the user's cache folder and adapters install there.

pub mod adapter;
pub mod atomic;
pub mod cache;
pub mod child;
pub mod lifecycle;
pub mod limits;
pub mod markup;
pub mod side_by_side;
pub mod signals;
pub mod suite;
#[cfg(target_os = "linux")]
mod supervisor;
pub mod swap;
pub mod turns;
