//! The `robotstxt-rs` crate answering the harness's questions, from the adapter (`main.rs`).

use robotstxt_protocol::{Handshake, Query, QueryAnswer, Verdict};
use robotstxt_rs::RobotsTxt;

/// What this adapter answers to `hello`: its adapter.yaml.
pub fn handshake() -> Handshake {
    robotstxt_protocol::handshake!()
}

/// Whether each query's path may be fetched under `body`, parsed once.
///
/// `RobotsTxt::parse` takes `&str`: bytes are decoded as UTF-8 with invalid sequences replaced
/// by U+FFFD, as its own `from_url` does (reqwest's `Response::text`) for an undeclared charset.
/// `can_fetch` takes the agent as given and the path.
pub fn check(
    body: &[u8],
    queries: &[Query],
) -> Result<Vec<QueryAnswer>, robotstxt_protocol::Refusal> {
    let text = String::from_utf8_lossy(body);
    let robots = RobotsTxt::parse(&text);
    let ask = |query: &Query| {
        Ok(Verdict::from_allowed(
            robots.can_fetch(&query.agent, &query.path),
        ))
    };
    Ok(queries.iter().map(ask).collect())
}

#[cfg(test)]
mod tests {
    use robotstxt_protocol::{Query, Verdict};

    #[test]
    fn answers_each_query() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let queries = [
            Query::new("FooBot", "/private/x"),
            Query::new("FooBot", "/x"),
        ];
        let answers = super::check(body, &queries);
        assert_eq!(
            answers,
            Ok(vec![Ok(Verdict::Disallowed), Ok(Verdict::Allowed)])
        );
    }
}
