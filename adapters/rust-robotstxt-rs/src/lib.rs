//! The `robotstxt-rs` crate answering the harness's questions (protocol in adapters/PROTOCOL.md).
use robotstxt_rs::RobotsTxt;
use serde::Deserialize;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Must match the `=x.y.z` pin in Cargo.toml (checked by the test below).
pub const PARSER_VERSION: &str = "0.1.4";

/// One question of a check message (adapters/PROTOCOL.md).
#[derive(Debug, Clone, Deserialize)]
pub struct Query {
    pub agent: String,
    /// The local URL: path and query.
    pub path: String,
    /// The same on `http://example.com`.
    pub url: String,
}

/// Whether each query's path may be fetched under `body`.
///
/// `RobotsTxt::parse` takes `&str`: bytes are decoded as UTF-8 with invalid sequences replaced
/// by U+FFFD, as its own `from_url` does (reqwest's `Response::text`) for an undeclared charset.
/// `can_fetch` takes the agent as given and the path.
pub fn check(body: &[u8], queries: &[Query]) -> Result<Vec<bool>, String> {
    let text = String::from_utf8_lossy(body);
    guard(|| {
        let robots = RobotsTxt::parse(&text);
        queries
            .iter()
            .map(|q| robots.can_fetch(&q.agent, &q.path))
            .collect()
    })
}

/// Runs the parser, answering a panic as the parser refusing the input.
fn guard<T>(run: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(run)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".to_string());
        format!("panic: {message}")
    })
}

#[cfg(test)]
mod tests {
    /// The version the handshake reports is the one Cargo.toml pins and adapter.yaml declares.
    #[test]
    fn version_matches_cargo_toml_and_manifest() {
        let pin = format!("\"={}\"", super::PARSER_VERSION);
        let pinned = include_str!("../Cargo.toml")
            .lines()
            .any(|line| line.starts_with("robotstxt-rs = ") && line.contains(&pin));
        assert!(pinned, "Cargo.toml pins robotstxt-rs at {pin}");
        let declared = format!("version: \"{}\"", super::PARSER_VERSION);
        assert!(include_str!("../adapter.yaml").contains(&declared));
    }
}
