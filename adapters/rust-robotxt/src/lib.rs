//! The `robotxt` crate answering the harness's questions (protocol in adapters/PROTOCOL.md).
use robotxt::Robots;
use serde::Deserialize;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Must match the `=x.y.z` pin in Cargo.toml (checked by the test below).
pub const PARSER_VERSION: &str = "0.7.0";

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
/// `Robots::parse` takes the bytes as they are and one crawler name, matched exactly as its
/// README's first example does (a plain `&str`); the body is parsed once per distinct agent.
/// `is_allowed` takes the path and query.
pub fn check(body: &[u8], queries: &[Query]) -> Result<Vec<bool>, String> {
    guard(|| {
        let mut robots: HashMap<&str, Robots> = HashMap::new();
        queries
            .iter()
            .map(|q| {
                robots
                    .entry(q.agent.as_str())
                    .or_insert_with(|| Robots::parse(body, q.agent.as_str()))
                    .is_allowed(&q.path)
            })
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
            .any(|line| line.starts_with("robotxt = ") && line.contains(&pin));
        assert!(pinned, "Cargo.toml pins robotxt at {pin}");
        let declared = format!("version: \"{}\"", super::PARSER_VERSION);
        assert!(include_str!("../adapter.yaml").contains(&declared));
    }
}
