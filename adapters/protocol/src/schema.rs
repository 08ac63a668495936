//! The JSON Schema (2020-12) of every protocol message, generated from the types of
//! [`crate::wire`]: `adapters/protocol.schema.json` is this crate's `schema` example's output, and
//! a test fails when the two differ.
//!
//! `schemars` describes each type; this module names the definitions after the protocol's
//! messages (`hello`, `check`, `results`, ...), lays the variants of [`Request`] and
//! [`CheckReply`] out as messages of their own, and closes every object to fields the protocol
//! does not name (`additionalProperties: false`): the types read leniently, as the harness does
//! in a run, but the protocol admits nothing more.

use schemars::generate::SchemaSettings;
use schemars::{json_schema, Schema, SchemaGenerator};
use serde_json::{json, Map, Value};

use crate::wire::{
    Answer, CheckReply, CheckRequest, Handshake, Query, Request, UnsupportedProtocol, Verdict,
    CLAIMABLE_PROFILES,
};

/// The definitions of the messages, in the order the document lists them.
pub const MESSAGES: [&str; 7] = [
    "hello",
    "handshake",
    "unsupported-protocol",
    "check",
    "results",
    "refusal",
    "stop",
];

/// `profile`: one of [`CLAIMABLE_PROFILES`].
pub(crate) fn profile(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "enum": CLAIMABLE_PROFILES,
        "description": "What the parser claims to implement."
    })
}

/// The whole document, as `adapters/protocol.schema.json` holds it.
pub fn document() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let definition = |schema: Schema| schema.to_value();
    let request = definition(generator.root_schema_for::<Request>());
    let reply = definition(generator.root_schema_for::<CheckReply>());
    let [hello, check_variant, stop] = variants(&request, "oneOf");
    let [results, refusal] = variants(&reply, "anyOf");
    let mut check = definition(generator.root_schema_for::<CheckRequest>());
    check["description"] = check_variant["description"].clone();
    check["properties"]["type"] = check_variant["properties"]["type"].clone();
    prepend_required(&mut check, "type");

    let mut defs = Map::new();
    let mut define = |name: &str, mut schema: Value| {
        if let Some(object) = schema.as_object_mut() {
            object.remove("$schema");
            object.remove("title");
            object.remove("$defs");
        }
        close_objects(&mut schema);
        rename_references(&mut schema);
        defs.insert(name.to_owned(), schema);
    };
    define("hello", hello);
    define(
        "handshake",
        definition(generator.root_schema_for::<Handshake>()),
    );
    define(
        "unsupported-protocol",
        definition(generator.root_schema_for::<UnsupportedProtocol>()),
    );
    define("check", check);
    define("query", definition(generator.root_schema_for::<Query>()));
    define("results", results);
    define("refusal", refusal);
    define("answer", definition(generator.root_schema_for::<Answer>()));
    define(
        "verdict",
        definition(generator.root_schema_for::<Verdict>()),
    );
    define("stop", stop);

    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "robotstxt-test adapter protocol, version 1",
        "description": "Every message of the JSON-lines protocol between the harness and an adapter (adapters/PROTOCOL.md), generated from the types of robotstxt-protocol's `wire` module. Each line is one message.",
        "oneOf": MESSAGES.map(|name| json!({ "$ref": format!("#/$defs/{name}") })),
        "$defs": defs,
    })
}

/// [`document`] as the committed file spells it: indented by two spaces, ending with a newline.
pub fn document_text() -> String {
    let mut text = serde_json::to_string_pretty(&document()).expect("a JSON value serializes");
    text.push('\n');
    text
}

/// The `N` schemas of an enum's variants, listed under `key`.
fn variants<const N: usize>(schema: &Value, key: &str) -> [Value; N] {
    let listed = schema[key].as_array().cloned().unwrap_or_default();
    listed
        .try_into()
        .unwrap_or_else(|listed: Vec<Value>| panic!("{N} variants under {key}, not {listed:?}"))
}

fn prepend_required(schema: &mut Value, field: &str) {
    if let Some(required) = schema["required"].as_array_mut() {
        required.insert(0, json!(field));
    }
}

/// No object of the protocol holds fields it does not name.
fn close_objects(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            if object.contains_key("properties") {
                object.insert("additionalProperties".to_owned(), json!(false));
            }
            object.values_mut().for_each(close_objects);
        }
        Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// `#/$defs/Query` → `#/$defs/query`: definitions are named as the protocol names its messages.
fn rename_references(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::String(target)) = object.get_mut("$ref") {
                if let Some(name) = target.strip_prefix("#/$defs/") {
                    *target = format!("#/$defs/{}", name.to_lowercase());
                }
            }
            object.values_mut().for_each(rename_references);
        }
        Value::Array(items) => items.iter_mut().for_each(rename_references),
        _ => {}
    }
}
