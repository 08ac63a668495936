//! The `texting_robots` adapter: robotstxt-protocol's loop around [`adapter_rust_texting_robots::check`].

fn main() -> std::io::Result<()> {
    robotstxt_protocol::serve_batch(
        adapter_rust_texting_robots::handshake(),
        adapter_rust_texting_robots::check,
    )
}
