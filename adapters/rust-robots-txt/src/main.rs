//! The `robots_txt` adapter: robotstxt-protocol's loop around [`adapter_rust_robots_txt::check`].

fn main() -> std::io::Result<()> {
    robotstxt_protocol::serve_batch(
        adapter_rust_robots_txt::handshake(),
        adapter_rust_robots_txt::check,
    )
}
