//! The Rust parser crates as in-process engines, through the very functions their adapters call
//! (`adapters/rust-*/src/lib.rs`), with the handshakes their adapters answer: each crate's
//! version is pinned in its adapter's Cargo.toml and adapter.yaml alone.
//!
//! A panic inside a parser is caught as the adapter kit catches it (`check_guarded`) and answered
//! as the parser refusing the input: it is a finding about that crate, not a crash of the target.
//! libFuzzer's panic hook aborts the process before unwinding, so while a parser runs a wrapping
//! hook lets the panic unwind to the kit's guard instead. Each query goes to the parser as its
//! adapter passes it (the product token to both crates, the full URL).

use std::cell::Cell;
use std::panic;
use std::sync::Once;

use robotstxt_protocol::{check_guarded, per_query, QueryAnswer};
use robotstxt_reference::Verdict;
use robotstxt_suite::engine::{Engine, Failure, Handshake, Query, Reply};

thread_local! {
    static IN_PARSER: Cell<bool> = const { Cell::new(false) };
}

static HOOK: Once = Once::new();

/// Asks `check` (an adapter's parser function) about `body`, with libFuzzer's panic hook held
/// off while it runs; a panic is the parser refusing the body, as the adapter kit answers it.
fn ask(
    mut check: impl FnMut(
        &[u8],
        &[robotstxt_protocol::Query],
    ) -> Result<Vec<QueryAnswer>, robotstxt_protocol::Refusal>,
    body: &[u8],
    queries: &[Query],
) -> Reply {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !IN_PARSER.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let asked: Vec<robotstxt_protocol::Query> = queries
        .iter()
        .map(|q| robotstxt_protocol::Query::new(&q.agent, &q.path))
        .collect();
    IN_PARSER.with(|c| c.set(true));
    let answer = check_guarded(&mut check, body, &asked);
    IN_PARSER.with(|c| c.set(false));
    match answer {
        Ok(answers) => {
            let answers: Vec<Result<Verdict, robotstxt_suite::visible::Outside>> = answers
                .into_iter()
                .map(|answer| match answer {
                    Ok(robotstxt_protocol::Verdict::Allowed) => Ok(Verdict::Allowed),
                    Ok(robotstxt_protocol::Verdict::Disallowed) => Ok(Verdict::Disallowed),
                    Err(refusal) => Err(refusal.0.into()),
                })
                .collect();
            if answers.iter().all(Result::is_ok) {
                Reply::Verdicts(answers.into_iter().flatten().collect())
            } else {
                Reply::Refused(answers)
            }
        }
        Err(refusal) => Reply::Rejected(refusal.0.into()),
    }
}

/// `texting_robots`, as `adapters/rust-texting-robots` calls it.
pub struct TextingRobots(Handshake);

impl Default for TextingRobots {
    fn default() -> Self {
        TextingRobots(adapter_rust_texting_robots::handshake())
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
        Robotstxt(adapter_rust_robotstxt::handshake())
    }
}

impl Engine for Robotstxt {
    fn handshake(&self) -> &Handshake {
        &self.0
    }

    fn check(&mut self, _: &str, body: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        Ok(ask(
            per_query(adapter_rust_robotstxt::allowed),
            body,
            queries,
        ))
    }
}
