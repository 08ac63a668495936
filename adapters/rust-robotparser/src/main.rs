//! The `robotparser` adapter: robotstxt-protocol's loop around [`adapter_rust_robotparser::check`].

fn main() -> std::io::Result<()> {
    robotstxt_protocol::serve_batch(
        adapter_rust_robotparser::handshake(),
        adapter_rust_robotparser::check,
    )
}
