//! The `robots_txt` crate answering the harness's questions, from the adapter (`main.rs`).

use robots_txt::matcher::SimpleMatcher;
use robots_txt::Robots;
use robotstxt_protocol::{Handshake, Query, QueryAnswer, Verdict};

/// What this adapter answers to `hello`: its adapter.yaml.
pub fn handshake() -> Handshake {
    robotstxt_protocol::handshake!()
}

/// Whether each query's path may be fetched under `body`, parsed once.
///
/// `Robots::from_str_lossy` takes `&str`: bytes are decoded as UTF-8, invalid sequences replaced
/// by U+FFFD. As its README shows, the caller picks the section for the agent and asks a
/// `SimpleMatcher` over that section's rules about the path.
pub fn check(
    body: &[u8],
    queries: &[Query],
) -> Result<Vec<QueryAnswer>, robotstxt_protocol::Refusal> {
    let text = String::from_utf8_lossy(body);
    let robots = Robots::from_str_lossy(&text);
    let ask = |query: &Query| {
        let section = robots.choose_section(&query.agent);
        let allowed = SimpleMatcher::new(&section.rules).check_path(&query.path);
        Ok(Verdict::from_allowed(allowed))
    };
    Ok(queries.iter().map(ask).collect())
}

#[cfg(test)]
mod tests {
    use robotstxt_protocol::{check_guarded, Query, Verdict};

    /// `SimpleMatcher::check_path` slices the path at the rule's length in bytes, which panics
    /// inside a multi-byte character: the kit answers that as the parser refusing the input.
    #[test]
    fn a_panic_is_an_error() {
        let body = b"User-agent: *\nDisallow: /x\n";
        let queries = [Query::new("FooBot", "/x/y"), Query::new("FooBot", "/a")];
        let answers = check_guarded(&mut super::check, body, &queries);
        assert_eq!(
            answers,
            Ok(vec![Ok(Verdict::Disallowed), Ok(Verdict::Allowed)])
        );
        let queries = [Query::new("FooBot", "/\u{e9}")];
        let refused = check_guarded(&mut super::check, body, &queries).unwrap_err();
        assert!(refused.0.starts_with("panic: "), "{refused}");
    }
}
