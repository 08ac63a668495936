//! The protocol loop (adapters/PROTOCOL.md) around the library's `check`.
use base64::Engine as _;
use serde_json::{json, Value};
use std::io::{BufRead, Write};

use adapter_rust_robots_txt::{check, Query, PARSER_VERSION};

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
                "name": "rust-robots-txt", "parser": "robots_txt",
                "version": PARSER_VERSION, "language": "Rust",
                "homepage": "https://github.com/alexander-irbis/robots_txt", "profile": "norobots-1994",
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
                let queries: Vec<Query> =
                    serde_json::from_value(msg["queries"].clone()).expect("queries");
                match check(&body, &queries) {
                    Ok(allowed) => {
                        let results: Vec<&str> = allowed
                            .iter()
                            .map(|&a| if a { "allowed" } else { "disallowed" })
                            .collect();
                        json!({"id": id, "results": results})
                    }
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
