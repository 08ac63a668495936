//! The Rust parser crates as in-process engines, called as their adapters call them
//! (`adapters/rust-*/src/main.rs`).
//!
//! A panic inside a parser is caught and answered as the parser refusing the input, as the
//! adapters do: it is a finding about that crate, not a crash of the target. libFuzzer's panic
//! hook aborts the process before unwinding, so while a parser runs a wrapping hook lets the
//! panic unwind to [`std::panic::catch_unwind`] instead.

use std::cell::Cell;
use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use robotstxt_reference::Verdict;
use robotstxt_test::engine::{Engine, Failure, Handshake, Query, Reply};

thread_local! {
    static IN_PARSER: Cell<bool> = const { Cell::new(false) };
}

static HOOK: Once = Once::new();

/// Runs `parse` with panics caught: `Err` holds the panic's message.
fn guarded<R>(parse: impl FnOnce() -> R) -> Result<R, String> {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !IN_PARSER.with(Cell::get) {
                previous(info);
            }
        }));
    });
    IN_PARSER.with(|c| c.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(parse));
    IN_PARSER.with(|c| c.set(false));
    result.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".to_owned());
        format!("panic: {message}")
    })
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

fn verdict(allowed: bool) -> Verdict {
    if allowed {
        Verdict::Allowed
    } else {
        Verdict::Disallowed
    }
}

fn url(path: &str) -> String {
    format!("http://example.com{path}")
}

/// `texting_robots` =0.2.2: one `Robot` per agent, built from the bytes.
pub struct TextingRobots(Handshake);

impl Default for TextingRobots {
    fn default() -> Self {
        TextingRobots(handshake(
            "rust-texting-robots",
            "texting_robots",
            "0.2.2",
            "https://github.com/Smerity/texting_robots",
        ))
    }
}

impl Engine for TextingRobots {
    fn handshake(&self) -> &Handshake {
        &self.0
    }

    fn check(&mut self, _: &str, body: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        let answer = guarded(|| {
            let mut robots = HashMap::new();
            let mut verdicts = Vec::with_capacity(queries.len());
            for q in queries {
                if !robots.contains_key(&q.agent) {
                    let robot = texting_robots::Robot::new(&q.agent, body)
                        .map_err(|e| format!("anyhow::Error: {e:#}"))?;
                    robots.insert(q.agent.clone(), robot);
                }
                verdicts.push(verdict(robots[&q.agent].allowed(&url(&q.path))));
            }
            Ok(verdicts)
        });
        Ok(match answer {
            Ok(Ok(verdicts)) => Reply::Verdicts(verdicts),
            Ok(Err(message)) | Err(message) => Reply::Rejected(message),
        })
    }
}

/// `robotstxt` =0.3.0: the body decoded as UTF-8 (invalid sequences replaced), parsed per query.
pub struct Robotstxt(Handshake);

impl Default for Robotstxt {
    fn default() -> Self {
        Robotstxt(handshake(
            "rust-robotstxt",
            "robotstxt",
            "0.3.0",
            "https://github.com/Folyd/robotstxt",
        ))
    }
}

impl Engine for Robotstxt {
    fn handshake(&self) -> &Handshake {
        &self.0
    }

    fn check(&mut self, _: &str, body: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        let text = String::from_utf8_lossy(body);
        let answer = guarded(|| {
            queries
                .iter()
                .map(|q| {
                    let mut matcher = robotstxt::DefaultMatcher::default();
                    verdict(matcher.one_agent_allowed_by_robots(&text, &q.agent, &url(&q.path)))
                })
                .collect()
        });
        Ok(match answer {
            Ok(verdicts) => Reply::Verdicts(verdicts),
            Err(message) => Reply::Rejected(message),
        })
    }
}
