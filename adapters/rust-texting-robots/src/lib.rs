//! The `texting_robots` crate called as its users call it. The adapter (`main.rs`), the fuzz
//! targets and the benchmarks all call [`check`], so the crate's version is pinned in this
//! folder's Cargo.toml alone (and adapter.yaml says the same, or the build fails).

use std::collections::HashMap;

use robotstxt_protocol::{Handshake, Query, QueryAnswer, Verdict};
use texting_robots::Robot;

/// What this adapter answers to `hello`: its adapter.yaml.
pub fn handshake() -> Handshake {
    robotstxt_protocol::handshake!()
}

/// Answers each query about `body`.
///
/// The API binds one agent (the product token) per `Robot`, built from the bytes, so the body is
/// parsed once per distinct agent; `allowed` takes the URL in full. An error building a `Robot`
/// is the parser refusing the body.
pub fn check(
    body: &[u8],
    queries: &[Query],
) -> Result<Vec<QueryAnswer>, robotstxt_protocol::Refusal> {
    let mut robots: HashMap<&str, Robot> = HashMap::new();
    let mut answers = Vec::with_capacity(queries.len());
    for query in queries {
        let agent: &str = &query.product_token;
        if !robots.contains_key(agent) {
            let robot = Robot::new(agent, body).map_err(|e| format!("anyhow::Error: {e:#}"))?;
            robots.insert(agent, robot);
        }
        answers.push(Ok(Verdict::from_allowed(robots[agent].allowed(&query.url))));
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use robotstxt_protocol::{Query, Verdict};

    #[test]
    fn answers_each_query() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let queries = [
            Query::new("FooBot", "/private/x"),
            Query::new("BarBot", "/x"),
        ];
        let answers = super::check(body, &queries);
        assert_eq!(
            answers,
            Ok(vec![Ok(Verdict::Disallowed), Ok(Verdict::Allowed)])
        );
        assert_eq!(super::handshake().version, "0.2.2");
    }
}
