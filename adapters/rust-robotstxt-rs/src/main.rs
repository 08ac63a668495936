//! The `robotstxt-rs` adapter: robotstxt-protocol's loop around [`adapter_rust_robotstxt_rs::check`].

fn main() -> std::io::Result<()> {
    robotstxt_protocol::serve_batch(
        adapter_rust_robotstxt_rs::handshake(),
        adapter_rust_robotstxt_rs::check,
    )
}
