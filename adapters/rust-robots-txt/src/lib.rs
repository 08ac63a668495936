//! The `robots_txt` crate answering the harness's questions (protocol in adapters/PROTOCOL.md).
use robots_txt::matcher::SimpleMatcher;
use robots_txt::Robots;
use serde::Deserialize;
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
/// `Robots::from_str_lossy` takes `&str`: bytes are decoded as UTF-8, invalid sequences replaced
/// by U+FFFD. As its README shows, the caller picks the section for the agent and asks a
/// `SimpleMatcher` over that section's rules about the path.
pub fn check(body: &[u8], queries: &[Query]) -> Result<Vec<bool>, String> {
    let text = String::from_utf8_lossy(body);
    guard(|| {
        let robots = Robots::from_str_lossy(&text);
        queries
            .iter()
            .map(|q| {
                let section = robots.choose_section(&q.agent);
                SimpleMatcher::new(&section.rules).check_path(&q.path)
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
            .any(|line| line.starts_with("robots_txt = ") && line.contains(&pin));
        assert!(pinned, "Cargo.toml pins robots_txt at {pin}");
        let declared = format!("version: \"{}\"", super::PARSER_VERSION);
        assert!(include_str!("../adapter.yaml").contains(&declared));
    }

    /// `SimpleMatcher::check_path` slices the path at the rule's length in bytes, which panics
    /// inside a multi-byte character: that is answered as the parser refusing the input.
    #[test]
    fn a_panic_is_an_error() {
        let query = |path: &str| super::Query {
            agent: "FooBot".to_owned(),
            path: path.to_owned(),
            url: format!("http://example.com{path}"),
        };
        let body = b"User-agent: *\nDisallow: /x\n";
        assert_eq!(
            super::check(body, &[query("/x/y"), query("/a")]),
            Ok(vec![false, true])
        );
        let refused = super::check(body, &[query("/\u{e9}")]).unwrap_err();
        assert!(refused.starts_with("panic: "), "{refused}");
    }
}
