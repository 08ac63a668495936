//! `adapters/protocol.schema.json` describes every message of protocol v1: each line of one run
//! of the corpus against every bundled adapter this machine can run (CI installs them all) is
//! valid under its message's definition, and the schema refuses messages the protocol forbids.
//! (The schema is generated from the types of `robotstxt_protocol::wire`;
//! `adapters/protocol/tests/schema.rs` fails when the committed file and the types differ.)

use std::path::Path;

use jsonschema::Validator;
use robotstxt_runtime::adapter::{
    self, AdapterProcess, Availability, Direction, Limits, Transcript,
};
use robotstxt_runtime::lifecycle::Lifecycle;
use robotstxt_runtime::side_by_side::run_engines;
use robotstxt_suite::cases::load_corpus;
use robotstxt_suite::engine::{ClaimedProfile, Engine};
use robotstxt_suite::run::Scoring;
use serde_json::{json, Value};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn schema() -> Value {
    let text = std::fs::read_to_string(root().join("adapters/protocol.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A validator for one message definition of the schema.
fn message(schema: &Value, definition: &str) -> Validator {
    let mut one = schema.clone();
    let object = one.as_object_mut().unwrap();
    object.remove("oneOf");
    object.insert("$ref".into(), json!(format!("#/$defs/{definition}")));
    jsonschema::validator_for(&one).unwrap()
}

fn assert_valid(validator: &Validator, instance: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    let shown = instance.to_string();
    assert!(
        errors.is_empty(),
        "{what}: {}\n{}",
        errors.join("; "),
        &shown[..shown.len().min(400)]
    );
}

#[test]
fn every_message_of_a_corpus_run_fits_the_schema() {
    let schema = schema();
    let any = jsonschema::validator_for(&schema).unwrap();
    let [hello, handshake, check, results, refusal, stop] =
        ["hello", "handshake", "check", "results", "refusal", "stop"].map(|d| message(&schema, d));
    let cases = load_corpus(&[root().join("cases")]).unwrap();
    let mut engines: Vec<Box<dyn Lifecycle>> = Vec::new();
    let mut transcripts = Vec::new();
    for a in adapter::discover(&root().join("adapters"), root()).unwrap() {
        if let Availability::Unavailable(why) = adapter::availability(&a) {
            eprintln!("note: {} is not available here ({why}); left out", a.name());
            continue;
        }
        adapter::prepare(&a, &mut |line| eprintln!("{line}")).unwrap();
        let transcript = Transcript::default();
        let process =
            AdapterProcess::start_recorded(a.argv(), Limits::default(), Some(transcript.clone()))
                .unwrap_or_else(|f| panic!("{} did not start: {}", a.name(), f.detail));
        engines.push(Box::new(process));
        transcripts.push((a.name().to_owned(), transcript));
    }
    assert!(!engines.is_empty(), "no adapter can run here");
    let scoring = |e: &dyn Engine| Scoring::Claimed(e.handshake().claimed_profile());
    run_engines(&cases, &mut engines, &scoring, &|_, _, _| {});
    drop(engines); // each sends `stop`
    for (name, transcript) in transcripts {
        let lines = transcript.lines();
        let mut asked = None;
        let mut counts = [0usize; 3];
        for (direction, line) in &lines {
            let value: Value = serde_json::from_slice(line)
                .unwrap_or_else(|e| panic!("{name}: a line that is not JSON ({e})"));
            assert_valid(&any, &value, &format!("{name}: a message"));
            match direction {
                Direction::ToAdapter => {
                    let kind = value["type"].as_str().unwrap().to_owned();
                    let validator = match kind.as_str() {
                        "hello" => &hello,
                        "check" => &check,
                        _ => &stop,
                    };
                    assert_valid(validator, &value, &format!("{name}: {kind}"));
                    asked = Some(kind);
                }
                Direction::FromAdapter => match asked.take().as_deref() {
                    Some("hello") => {
                        counts[0] += 1;
                        assert_valid(&handshake, &value, &format!("{name}: handshake"));
                    }
                    Some("check") if value.get("error").is_some() => {
                        counts[2] += 1;
                        assert_valid(&refusal, &value, &format!("{name}: refusal"));
                    }
                    Some("check") => {
                        counts[1] += 1;
                        assert_valid(&results, &value, &format!("{name}: results"));
                    }
                    other => panic!("{name}: a line after {other:?}"),
                },
            }
        }
        assert!(counts[0] >= 1, "{name}: no handshake recorded");
        let checks = lines
            .iter()
            .filter(|(d, l)| *d == Direction::ToAdapter && l.starts_with(br#"{"type":"check""#))
            .count();
        assert_eq!(checks, cases.len(), "{name}: one check per case");
        // A case may go unanswered (a parser that backtracks times out): nearly all are answered.
        assert!(
            counts[1] + counts[2] + 3 > cases.len(),
            "{name}: {counts:?}"
        );
        let last = &lines.last().unwrap().1;
        assert_eq!(
            serde_json::from_slice::<Value>(last).unwrap(),
            json!({"type": "stop"})
        );
        eprintln!(
            "{name}: {} lines valid ({} results, {} refusals)",
            lines.len(),
            counts[1],
            counts[2]
        );
    }
}

#[test]
fn the_schema_refuses_what_the_protocol_forbids() {
    let schema = schema();
    let any = jsonschema::validator_for(&schema).unwrap();
    let handshake = json!({"name": "a", "parser": "p", "version": "1", "language": "L",
                           "homepage": "", "profile": "rfc9309"});
    let query = json!({"agent": "FooBot/2.1", "product_token": "FooBot", "name": "FooBot", "path": "/a?b", "url": "http://example.com/a?b"});
    let check = json!({"type": "check", "id": "x", "robots_b64": "VXNlci1hZ2VudDogKg0=",
                       "queries": [query]});
    for good in [
        json!({"type": "hello", "protocol": 1}),
        handshake.clone(),
        json!({"error": "unsupported protocol 2"}),
        check.clone(),
        json!({"id": "x", "results": ["allowed", "disallowed"]}),
        json!({"id": "x", "results": ["allowed", {"error": "bad URI"}]}),
        json!({"id": "x", "error": "ValueError"}),
        json!({"type": "stop"}),
    ] {
        assert!(any.is_valid(&good), "refused a good message: {good}");
    }
    let with = |base: &Value, key: &str, value: Value| {
        let mut changed = base.clone();
        changed[key] = value;
        changed
    };
    let without = |base: &Value, key: &str| {
        let mut changed = base.clone();
        changed.as_object_mut().unwrap().remove(key);
        changed
    };
    for bad in [
        with(&handshake, "profile", json!("rfc")),
        without(&handshake, "version"),
        with(&handshake, "extra", json!(1)),
        with(&check, "robots_b64", json!("not base64!")),
        with(&check, "queries", json!([])),
        with(&check, "queries", json!([with(&query, "path", json!("a"))])),
        with(
            &check,
            "queries",
            json!([with(&query, "product_token", json!("FooBot/2.1"))]),
        ),
        with(
            &check,
            "queries",
            json!([with(&query, "name", json!("FooBot 2.1"))]),
        ),
        with(&check, "queries", json!([without(&query, "name")])),
        json!({"id": "x", "results": ["maybe"]}),
        json!({"id": "x", "results": [{"error": "bad URI", "also": 1}]}),
        json!({"id": "x", "results": [{"reason": "bad URI"}]}),
        json!({"id": "x", "results": ["allowed"], "error": "both"}),
        json!({"results": ["allowed"]}),
        json!({"type": "hello"}),
        json!("not an object"),
    ] {
        assert!(!any.is_valid(&bad), "accepted a bad message: {bad}");
    }
}

#[test]
fn the_protocol_document_links_the_schema() {
    let protocol = std::fs::read_to_string(root().join("adapters/PROTOCOL.md")).unwrap();
    assert!(protocol.contains("(protocol.schema.json)"));
}
