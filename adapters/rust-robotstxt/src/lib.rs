//! The `robotstxt` crate called as its users call it. The adapter (`main.rs`), the fuzz targets
//! and the benchmarks all call [`allowed`], so the crate's version is pinned in this folder's
//! Cargo.toml alone (and adapter.yaml says the same, or the build fails).

use robotstxt::DefaultMatcher;
use robotstxt_protocol::{Handshake, Query, QueryAnswer, Verdict};

/// What this adapter answers to `hello`: its adapter.yaml.
pub fn handshake() -> Handshake {
    robotstxt_protocol::handshake!()
}

/// Answers one query about `body`, one at a time: the crate's API parses the body again for
/// every query, as Google's C++ library does.
///
/// The crate takes `&str`: bytes are decoded as UTF-8, invalid sequences replaced by U+FFFD; it
/// takes the product token and the URL in full. It is known to panic on some inputs: the kit
/// answers a panic as the parser refusing the body.
pub fn allowed(body: &[u8], query: &Query) -> QueryAnswer {
    let text = String::from_utf8_lossy(body);
    let allowed = DefaultMatcher::default().one_agent_allowed_by_robots(
        &text,
        &query.product_token,
        &query.url,
    );
    Ok(Verdict::from_allowed(allowed))
}

#[cfg(test)]
mod tests {
    use robotstxt_protocol::{Query, Verdict};

    #[test]
    fn answers_each_query() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let ask = |path| super::allowed(body, &Query::new("FooBot/2.1", path));
        assert_eq!(ask("/private/x"), Ok(Verdict::Disallowed));
        assert_eq!(ask("/x"), Ok(Verdict::Allowed));
        assert_eq!(super::handshake().profile, "rfc9309");
    }
}
