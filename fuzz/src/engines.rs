//! The Rust parser crates as in-process engines, through the very functions their adapters call
//! (`adapters/rust-*/src/lib.rs`): each crate's version is pinned in its adapter's Cargo.toml
//! alone.
//!
//! A panic inside a parser is caught there and answered as the parser refusing the input, as the
//! adapters do: it is a finding about that crate, not a crash of the target. libFuzzer's panic
//! hook aborts the process before unwinding, so while a parser runs a wrapping hook lets the
//! panic unwind to the adapter's guard instead.

use std::cell::Cell;
use std::panic;
use std::sync::Once;

use robotstxt_reference::Verdict;
use robotstxt_suite::engine::{Engine, Failure, Handshake, Query, Reply};

thread_local! {
    static IN_PARSER: Cell<bool> = const { Cell::new(false) };
}

static HOOK: Once = Once::new();

/// An adapter's library function: `(agent, path)` queries about a body, `true` when allowed.
type Check = fn(&[u8], &[(&str, &str)]) -> Result<Vec<bool>, String>;

/// Asks `check` (an adapter's library function) about `body`, with libFuzzer's panic hook held
/// off while it runs.
fn ask(check: Check, body: &[u8], queries: &[Query]) -> Reply {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !IN_PARSER.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let pairs: Vec<(&str, &str)> = queries
        .iter()
        .map(|q| (q.agent.as_str(), q.path.as_str()))
        .collect();
    IN_PARSER.with(|c| c.set(true));
    let answer = check(body, &pairs);
    IN_PARSER.with(|c| c.set(false));
    match answer {
        Ok(allowed) => Reply::Verdicts(
            allowed
                .into_iter()
                .map(|a| {
                    if a {
                        Verdict::Allowed
                    } else {
                        Verdict::Disallowed
                    }
                })
                .collect(),
        ),
        Err(message) => Reply::Rejected(message),
    }
}

fn handshake(name: &str, parser: &str, version: &str, homepage: &str) -> Handshake {
    Handshake {
        name: name.to_owned(),
        parser: parser.to_owned(),
        version: version.to_owned(),
        language: "Rust".to_owned(),
        homepage: homepage.to_owned(),
        profile: "rfc9309".to_owned(),
    }
}

/// `texting_robots`, as `adapters/rust-texting-robots` calls it.
pub struct TextingRobots(Handshake);

impl Default for TextingRobots {
    fn default() -> Self {
        TextingRobots(handshake(
            "rust-texting-robots",
            "texting_robots",
            adapter_rust_texting_robots::PARSER_VERSION,
            "https://github.com/Smerity/texting_robots",
        ))
    }
}

impl Engine for TextingRobots {
    fn handshake(&self) -> &Handshake {
        &self.0
    }

    fn check(&mut self, _: &str, body: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        Ok(ask(adapter_rust_texting_robots::check, body, queries))
    }
}

/// `robotstxt`, as `adapters/rust-robotstxt` calls it.
pub struct Robotstxt(Handshake);

impl Default for Robotstxt {
    fn default() -> Self {
        Robotstxt(handshake(
            "rust-robotstxt",
            "robotstxt",
            adapter_rust_robotstxt::PARSER_VERSION,
            "https://github.com/Folyd/robotstxt",
        ))
    }
}

impl Engine for Robotstxt {
    fn handshake(&self) -> &Handshake {
        &self.0
    }

    fn check(&mut self, _: &str, body: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        Ok(ask(adapter_rust_robotstxt::check, body, queries))
    }
}
