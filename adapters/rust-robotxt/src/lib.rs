//! The `robotxt` crate answering the harness's questions, from the adapter (`main.rs`).

use std::collections::HashMap;

use robotstxt_protocol::{Handshake, Query, QueryAnswer, Verdict};
use robotxt::Robots;

/// What this adapter answers to `hello`: its adapter.yaml.
pub fn handshake() -> Handshake {
    robotstxt_protocol::handshake!()
}

/// Whether each query's path may be fetched under `body`.
///
/// `Robots::parse` takes the bytes as they are and one crawler name, matched exactly as its
/// README's first example does (a plain `&str`); the body is parsed once per distinct agent.
/// `is_allowed` takes the path and query.
pub fn check(
    body: &[u8],
    queries: &[Query],
) -> Result<Vec<QueryAnswer>, robotstxt_protocol::Refusal> {
    let mut robots: HashMap<&str, Robots> = HashMap::new();
    let mut answers = Vec::with_capacity(queries.len());
    for query in queries {
        let agent: &str = &query.agent;
        let parsed = robots
            .entry(agent)
            .or_insert_with(|| Robots::parse(body, agent));
        answers.push(Ok(Verdict::from_allowed(parsed.is_allowed(&query.path))));
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use robotstxt_protocol::{Query, Verdict};

    #[test]
    fn answers_each_query_per_agent() {
        let body = b"User-agent: FooBot\nDisallow: /private\n";
        let queries = [
            Query::new("FooBot", "/private/x"),
            Query::new("BarBot", "/private/x"),
        ];
        let answers = super::check(body, &queries);
        assert_eq!(
            answers,
            Ok(vec![Ok(Verdict::Disallowed), Ok(Verdict::Allowed)])
        );
    }
}
