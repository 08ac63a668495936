//! The `robotparser` crate called as its users call it, from the adapter (`main.rs`).

use robotparser::parser::parse_robots_txt;
use robotparser::service::RobotsTxtService;
use robotstxt_protocol::{Handshake, Query, QueryAnswer, Verdict};
use url::Url;

/// What this adapter answers to `hello`: its adapter.yaml.
pub fn handshake() -> Handshake {
    robotstxt_protocol::handshake!()
}

/// Answers each query about `body`, parsed once.
///
/// The crate takes `&str`: bytes are decoded as UTF-8 with invalid sequences replaced by U+FFFD,
/// which is what its own fetcher (reqwest's `Response::text`) does for an undeclared charset.
/// Parse warnings are not refusals: the crate still returns a result. A URL the `url` crate
/// refuses is that query refused.
pub fn check(
    body: &[u8],
    queries: &[Query],
) -> Result<Vec<QueryAnswer>, robotstxt_protocol::Refusal> {
    let text = String::from_utf8_lossy(body);
    let robots_url = Url::parse("http://example.com/robots.txt").expect("robots.txt URL");
    let robots = parse_robots_txt(robots_url.origin(), &text).get_result();
    let ask = |query: &Query| {
        let url = Url::parse(&query.url).map_err(|e| format!("url::ParseError: {e}"))?;
        Ok(Verdict::from_allowed(robots.can_fetch(&query.agent, &url)))
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
