//! The `robotparser` crate called as its users call it. The adapter's protocol loop (`main.rs`)
//! calls [`check`], so the crate's version is pinned in this folder's Cargo.toml alone.

use std::panic::{catch_unwind, AssertUnwindSafe};

use robotparser::parser::parse_robots_txt;
use robotparser::service::RobotsTxtService;
use url::Url;

/// Must match the `=x.y.z` pin in Cargo.toml and `package.version` in adapter.yaml (tested).
pub const PARSER_VERSION: &str = "0.11.0";

/// Answers each `(agent, path)` query about `body`: `true` when allowed.
///
/// The crate takes `&str`: bytes are decoded as UTF-8 with invalid sequences replaced by U+FFFD,
/// which is what its own fetcher (reqwest's `Response::text`) does for an undeclared charset.
/// Parse warnings are not refusals: the crate still returns a result. A URL the `url` crate
/// refuses, or a panic, is the parser refusing the input.
pub fn check(body: &[u8], queries: &[(&str, &str)]) -> Result<Vec<bool>, String> {
    let text = String::from_utf8_lossy(body);
    let run = || {
        let robots_url = Url::parse("http://example.com/robots.txt").expect("robots.txt URL");
        let robots = parse_robots_txt(robots_url.origin(), &text).get_result();
        queries
            .iter()
            .map(|(agent, path)| {
                let url = Url::parse(&format!("http://example.com{path}"))
                    .map_err(|e| format!("url::ParseError: {e}"))?;
                Ok(robots.can_fetch(agent, &url))
            })
            .collect()
    };
    catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|payload| {
        let message = (payload.downcast_ref::<&str>().copied().map(str::to_owned))
            .or_else(|| payload.downcast_ref::<String>().cloned());
        Err(format!(
            "panic: {}",
            message.as_deref().unwrap_or("non-string payload")
        ))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_version_is_pinned_alike_in_cargo_toml_and_adapter_yaml() {
        let version = super::PARSER_VERSION;
        assert!(include_str!("../Cargo.toml").contains(&format!("robotparser = \"={version}\"")));
        assert!(include_str!("../adapter.yaml").contains(&format!("version: \"{version}\"")));
    }

    #[test]
    fn answers_each_query() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let answers = super::check(body, &[("FooBot", "/private/x"), ("FooBot", "/x")]);
        assert_eq!(answers, Ok(vec![false, true]));
    }
}
