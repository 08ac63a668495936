//! Prints the JSON Schema of every protocol message, generated from the types:
//! `cargo run -q -p robotstxt-protocol --features schema --example schema > adapters/protocol.schema.json`.

fn main() {
    println!("{}", robotstxt_protocol::schema::document_text());
}
