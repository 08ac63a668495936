//! The `robotstxt` adapter: robotstxt-protocol's loop around [`adapter_rust_robotstxt::allowed`].

fn main() -> std::io::Result<()> {
    robotstxt_protocol::serve(
        adapter_rust_robotstxt::handshake(),
        adapter_rust_robotstxt::allowed,
    )
}
