//! Adapter for the `robotstxt` crate (protocol in adapters/PROTOCOL.md).
use base64::Engine as _;
use robotstxt::DefaultMatcher;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Must match the `=x.y.z` pin in Cargo.toml (checked by the test below).
const PARSER_VERSION: &str = "0.3.0";

/// The crate takes `&str`: bytes are decoded as UTF-8, invalid sequences replaced by U+FFFD.
/// Its API parses the body again for every query, as Google's C++ library does.
fn check(body: &[u8], queries: &[Value]) -> Result<Vec<&'static str>, String> {
    let text = String::from_utf8_lossy(body);
    let run = || {
        let mut results = Vec::with_capacity(queries.len());
        for q in queries {
            let agent = q["agent"].as_str().expect("query.agent");
            let url = q["url"].as_str().expect("query.url");
            let mut matcher = DefaultMatcher::default();
            let allowed = matcher.one_agent_allowed_by_robots(&text, agent, url);
            results.push(if allowed { "allowed" } else { "disallowed" });
        }
        results
    };
    // The crate is known to panic on some inputs: report that as the parser refusing it.
    catch_unwind(AssertUnwindSafe(run)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".to_string());
        format!("panic: {message}")
    })
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.expect("read stdin");
        if line.trim().is_empty() {
            continue;
        }
        let msg: Value = serde_json::from_str(&line).expect("request is JSON");
        let answer = match msg["type"].as_str() {
            Some("hello") if msg["protocol"] == 1 => json!({
                "name": "rust-robotstxt", "parser": "robotstxt",
                "version": PARSER_VERSION, "language": "Rust",
                "homepage": "https://github.com/Folyd/robotstxt", "profile": "rfc9309",
            }),
            Some("hello") => {
                let answer = json!({"error": format!("unsupported protocol {}", msg["protocol"])});
                writeln!(out, "{answer}").expect("write stdout");
                return;
            }
            Some("check") => {
                let id = &msg["id"];
                let b64 = msg["robots_b64"].as_str().expect("robots_b64");
                let body = base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .expect("robots_b64 is base64");
                let queries = msg["queries"].as_array().expect("queries");
                match check(&body, queries) {
                    Ok(results) => json!({"id": id, "results": results}),
                    Err(error) => json!({"id": id, "error": error}),
                }
            }
            Some("stop") => return,
            other => panic!("unknown request type {other:?}"),
        };
        writeln!(out, "{answer}").expect("write stdout");
        out.flush().expect("flush stdout");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn version_matches_cargo_toml() {
        let pin = format!("robotstxt = \"={}\"", super::PARSER_VERSION);
        assert!(include_str!("../Cargo.toml").contains(&pin));
    }
}
