//! The handshake comes from this folder's adapter.yaml.

fn main() {
    robotstxt_protocol::build::handshake_from_manifest();
}
