//! `robotstxt-suite`: the robots.txt conformance corpus and what it takes to run it, for a
//! parser's own `cargo test`.
//!
//! The suite is data: YAML case files under `cases/`, which this crate carries ([`embedded`]) and
//! loads ([`cases`]). It runs them against an [`Engine`] — the reference implementation under a
//! profile ([`ReferenceEngine`]), or the parser under test — and scores every answer ([`run`]). A
//! Rust parser runs the embedded corpus in-process, one test per case (`conformance`, behind the
//! feature of that name; `examples/conformance.rs` is a whole `tests/conformance.rs`), and needs
//! nothing else: no processes, no reports.
//!
//! It also holds what the `robotstxt-test` application builds on and a parser author may reuse:
//! asking a suspect check again ([`reask`]), what causes a parser to answer otherwise ([`cause`]),
//! expectation files and the gate that judges a run against one ([`expectations`]), and the text
//! blocks that show a case and a failure ([`blocks`], [`visible`]), and the corpus's own version,
//! which results cite, with the digest of the cases as run ([`release`]), and the one score a
//! result is cited by ([`headline`]).
//!
//! # The case format
//!
//! Case files are YAML files anywhere under `cases/`. Each file is a mapping with one key,
//! `cases`, holding a list of cases. A case has a `name` (kebab-case, unique within its file), a
//! `spec` (the clause its checks rest on, a section and a quote, or a map from profile to that
//! profile's clause; required, see [`spec`] and [`quotes`]), an optional `note`, an optional
//! `reported` (the `http(s)` URL of the thread in a parser's tracker where the behaviour was
//! reported; shown next to the case in every report), an optional `reading` (see [`readings`]),
//! exactly one of `robots` (the body as a YAML string: double-quoted escapes such as `\r`, `\n`,
//! `\t`, `\x0c` or `\ufeff` give exact characters, stored as UTF-8) or `robots_base64` (any
//! bytes, standard base64), and a non-empty list of `checks`.
//!
//! A check is `{agent, path, expect}`, with an optional `reading` (the readings it rests on) and,
//! in a reported case, `reported` (what the reported behaviour gives on it). `agent` is the
//! robot's name as the robot gives it (a bare name, a name with a version, or a browser-style
//! string). `path` is the local URL: it starts with `/` and may carry a `?query`. `expect` is
//! `allowed` or `disallowed` when every profile agrees, or a map from profile name
//! (`norobots-1994`, `rfc9309`) to `allowed`, `disallowed` or `unspecified`. An `unspecified`
//! check marks a point the profile's text leaves open: it is run but never scored.
//!
//! A case's id is the file's path under `cases/` without `.yaml`, a `/`, and its name
//! (`line-endings/cr-only`); a check's id adds `#` and its index (`line-endings/cr-only#0`).
//!
//! A check is scored under the profile being run (the reference's, or the one an adapter claims)
//! when its `expect` names that profile, otherwise under `norobots-1994`, and not at all when it
//! names neither. A scored check that names a reading is scored and gated like any other, but
//! counted apart from the decided checks in reports ([`readings`]).
//!
//! Anything else is an error naming the file, the line and the field: an unknown field, a
//! duplicate id, a missing `spec`, a `reported` value that is not an `http(s)` URL, `robots` and
//! `robots_base64` both or neither, bad base64, an unknown profile, a path without its leading
//! `/`, an empty `checks` list, an unknown reading or one named where it cannot apply
//! ([`case_rules`]), or any other value.
//! Hostile files are refused before they are deserialized ([`input`], the one reader of every
//! file the tool is given): more than [`limits::MAX_CASE_FILE`] bytes, not a regular file, not
//! UTF-8, more than one document, anchors or aliases, or nesting deeper than
//! [`limits::MAX_CASE_DEPTH`]; folders are walked by [`walk`], each real file and folder once.
//!
//! `cargo test` runs every case against the reference under every profile, one test per case id.

#![forbid(unsafe_code)]

pub mod blocks;
pub mod case_rules;
pub mod cases;
pub mod cause;
#[cfg(feature = "conformance")]
pub mod conformance;
pub mod embedded;
pub mod engine;
pub mod expectations;
pub mod expected;
pub mod headline;
pub mod input;
pub mod limits;
pub mod local_url;
pub mod located;
pub mod quotes;
pub mod readings;
pub mod reask;
pub mod release;
pub mod rivals;
pub mod run;
pub mod spec;
pub mod visible;
pub mod walk;

pub use engine::{Engine, Failure, Fault, Handshake, Query, ReferenceEngine, Reply};
/// The reference implementation the corpus is scored against.
pub use robotstxt_reference as reference;
pub use robotstxt_reference::{Profile, Verdict};
