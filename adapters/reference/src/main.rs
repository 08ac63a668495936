//! The reference implementation speaking the adapter protocol (`adapters/PROTOCOL.md`), so it
//! can be run, timed and compared exactly like any real parser. The first argument picks the
//! profile (default `norobots-1994`).

use std::io::{BufRead, Write};

use adapter_reference::check_under;
use base64::Engine as _;
use robotstxt_reference::Profile;
use serde_json::{json, Value};

fn main() {
    let profile: Profile = match std::env::args().nth(1).map(|p| p.parse()) {
        None => Profile::Norobots1994,
        Some(Ok(profile)) => profile,
        Some(Err(e)) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lines() {
        let Ok(line) = line else { break };
        let request: Value = match serde_json::from_str(&line) {
            Ok(value) => value,
            Err(e) => {
                eprintln!("not JSON: {e}");
                std::process::exit(1);
            }
        };
        let answer = match request["type"].as_str() {
            Some("hello") => json!({
                "name": "reference",
                "parser": "robotstxt-reference",
                "version": env!("CARGO_PKG_VERSION"),
                "language": "Rust",
                "homepage": "reference/README.md",
                "profile": profile.name(),
            }),
            Some("check") => check(profile, &request),
            Some("stop") | None => break,
            Some(other) => {
                eprintln!("unknown request type {other:?}");
                std::process::exit(1);
            }
        };
        serde_json::to_writer(&mut stdout, &answer).expect("stdout is open");
        stdout
            .write_all(b"\n")
            .and_then(|()| stdout.flush())
            .expect("stdout is open");
    }
}

fn check(profile: Profile, request: &Value) -> Value {
    let id = &request["id"];
    let body = match base64::engine::general_purpose::STANDARD
        .decode(request["robots_b64"].as_str().unwrap_or_default())
    {
        Ok(body) => body,
        Err(e) => return json!({ "id": id, "error": format!("robots_b64: {e}") }),
    };
    let queries: Vec<(&str, &str)> = request["queries"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|q| {
            let agent = q["agent"].as_str().unwrap_or_default();
            (agent, q["path"].as_str().unwrap_or_default())
        })
        .collect();
    match check_under(profile, &body, &queries) {
        Ok(allowed) => {
            let verdict = |&a: &bool| if a { "allowed" } else { "disallowed" };
            let results: Vec<&str> = allowed.iter().map(verdict).collect();
            json!({ "id": id, "results": results })
        }
        Err(error) => json!({ "id": id, "error": error }),
    }
}
