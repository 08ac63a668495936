//! `adapters/protocol.schema.json` is the schema the types of `robotstxt_protocol::wire` give: a
//! change to a message that is not carried into the committed file (or the other way round)
//! fails here.

use std::path::Path;

use serde_json::Value;

#[test]
fn the_committed_schema_is_the_one_the_types_give() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol.schema.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let committed: Value = serde_json::from_str(&text).unwrap();
    let generated = robotstxt_protocol::schema::document();
    assert!(
        committed == generated,
        "{} differs from the schema the types give; write it again with\n  \
         cargo run -q -p robotstxt-protocol --features schema --example schema > adapters/protocol.schema.json\n\
         and say in adapters/PROTOCOL.md what changed",
        path.display()
    );
}

#[test]
fn every_message_is_listed_and_defined() {
    let generated = robotstxt_protocol::schema::document();
    let listed: Vec<&str> = generated["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["$ref"].as_str().unwrap().trim_start_matches("#/$defs/"))
        .collect();
    assert_eq!(listed, robotstxt_protocol::schema::MESSAGES);
    for name in listed {
        let definition = &generated["$defs"][name];
        assert_eq!(definition["type"], "object", "{name}");
        assert_eq!(definition["additionalProperties"], false, "{name}");
        assert!(definition["description"].is_string(), "{name}");
    }
}
