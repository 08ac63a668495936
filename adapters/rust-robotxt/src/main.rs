//! The `robotxt` adapter: robotstxt-protocol's loop around [`adapter_rust_robotxt::check`].

fn main() -> std::io::Result<()> {
    robotstxt_protocol::serve_batch(
        adapter_rust_robotxt::handshake(),
        adapter_rust_robotxt::check,
    )
}
