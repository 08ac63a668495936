//! Adapter for the `texting_robots` crate (protocol in adapters/PROTOCOL.md).
use base64::Engine as _;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use texting_robots::Robot;

/// Must match the `=x.y.z` pin in Cargo.toml (checked by the test below).
const PARSER_VERSION: &str = "0.2.2";

fn check(body: &[u8], queries: &[Value]) -> Result<Vec<&'static str>, String> {
    // The API binds one agent per `Robot`, so the body is parsed once per distinct agent.
    let mut robots: HashMap<&str, Robot> = HashMap::new();
    let mut results = Vec::with_capacity(queries.len());
    for q in queries {
        let agent = q["agent"].as_str().expect("query.agent");
        let url = q["url"].as_str().expect("query.url");
        if !robots.contains_key(agent) {
            let robot = Robot::new(agent, body).map_err(|e| format!("anyhow::Error: {e:#}"))?;
            robots.insert(agent, robot);
        }
        let allowed = robots[agent].allowed(url);
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
                "name": "rust-texting-robots", "parser": "texting_robots",
                "version": PARSER_VERSION, "language": "Rust",
                "homepage": "https://github.com/Smerity/texting_robots", "profile": "rfc9309",
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
        let pin = format!("texting_robots = \"={}\"", super::PARSER_VERSION);
        assert!(include_str!("../Cargo.toml").contains(&pin));
    }
}
