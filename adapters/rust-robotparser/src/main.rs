//! Adapter for the `robotparser` crate (protocol in adapters/PROTOCOL.md).
use base64::Engine as _;
use robotparser::parser::parse_robots_txt;
use robotparser::service::RobotsTxtService;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use url::Url;

/// Must match the `=x.y.z` pin in Cargo.toml (checked by the test below).
const PARSER_VERSION: &str = "0.11.0";

/// The crate takes `&str`: bytes are decoded as UTF-8 with invalid sequences replaced by U+FFFD,
/// which is what its own fetcher (reqwest's `Response::text`) does for an undeclared charset.
fn check(body: &[u8], queries: &[Value]) -> Result<Vec<&'static str>, String> {
    let text = String::from_utf8_lossy(body);
    let robots_url = Url::parse("http://example.com/robots.txt").expect("robots.txt URL");
    // Parse warnings are not refusals: the crate still returns a result.
    let robots = parse_robots_txt(robots_url.origin(), &text).get_result();
    let mut results = Vec::with_capacity(queries.len());
    for q in queries {
        let agent = q["agent"].as_str().expect("query.agent");
        let url = q["url"].as_str().expect("query.url");
        let url = Url::parse(url).map_err(|e| format!("url::ParseError: {e}"))?;
        let allowed = robots.can_fetch(agent, &url);
        results.push(if allowed { "allowed" } else { "disallowed" });
    }
    Ok(results)
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
                "name": "rust-robotparser", "parser": "robotparser",
                "version": PARSER_VERSION, "language": "Rust",
                "homepage": "https://github.com/messense/robotparser-rs",
                "profile": "norobots-1994",
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
        let pin = format!("robotparser = \"={}\"", super::PARSER_VERSION);
        assert!(include_str!("../Cargo.toml").contains(&pin));
    }
}
