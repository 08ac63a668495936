//! Adapter for the `robotstxt` crate: the protocol loop of adapters/PROTOCOL.md around
//! [`adapter_rust_robotstxt::check`].
use std::io::{BufRead, Write};

use adapter_rust_robotstxt::{check, PARSER_VERSION};
use base64::Engine as _;
use serde_json::{json, Value};

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
                let queries: Vec<(&str, &str)> = msg["queries"]
                    .as_array()
                    .expect("queries")
                    .iter()
                    .map(|q| {
                        let agent = q["product_token"].as_str().expect("query.product_token");
                        (agent, q["path"].as_str().expect("query.path"))
                    })
                    .collect();
                match check(&body, &queries) {
                    Ok(allowed) => json!({"id": id, "results": verdicts(&allowed)}),
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

fn verdicts(allowed: &[bool]) -> Vec<&'static str> {
    let verdict = |&a: &bool| if a { "allowed" } else { "disallowed" };
    allowed.iter().map(verdict).collect()
}
