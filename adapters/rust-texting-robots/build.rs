//! The handshake comes from this folder's adapter.yaml, checked against Cargo.toml's pin.

fn main() {
    robotstxt_protocol::build::handshake_from_manifest();
}
