//! The `robotstxt` crate called as its users call it. The adapter's protocol loop (`main.rs`),
//! the fuzz targets and the benchmarks all call [`check`], so the crate's version is pinned in
//! this folder's Cargo.toml alone.

use std::panic::{catch_unwind, AssertUnwindSafe};

use robotstxt::DefaultMatcher;

/// Must match the `=x.y.z` pin in Cargo.toml and `package.version` in adapter.yaml (tested).
pub const PARSER_VERSION: &str = "0.3.0";

/// Answers each `(agent, path)` query about `body`: `true` when allowed.
///
/// The crate takes `&str`: bytes are decoded as UTF-8, invalid sequences replaced by U+FFFD. Its
/// API parses the body again for every query, as Google's C++ library does. The crate is known
/// to panic on some inputs: a panic is answered as the parser refusing the body.
pub fn check(body: &[u8], queries: &[(&str, &str)]) -> Result<Vec<bool>, String> {
    let text = String::from_utf8_lossy(body);
    let run = || {
        queries
            .iter()
            .map(|(agent, path)| {
                let url = format!("http://example.com{path}");
                DefaultMatcher::default().one_agent_allowed_by_robots(&text, agent, &url)
            })
            .collect()
    };
    catch_unwind(AssertUnwindSafe(run)).map_err(|payload| {
        let message = (payload.downcast_ref::<&str>().copied().map(str::to_owned))
            .or_else(|| payload.downcast_ref::<String>().cloned());
        format!(
            "panic: {}",
            message.as_deref().unwrap_or("non-string payload")
        )
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_version_is_pinned_alike_in_cargo_toml_and_adapter_yaml() {
        let version = super::PARSER_VERSION;
        assert!(include_str!("../Cargo.toml").contains(&format!("robotstxt = \"={version}\"")));
        assert!(include_str!("../adapter.yaml").contains(&format!("version: \"{version}\"")));
    }

    #[test]
    fn answers_each_query() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let answers = super::check(body, &[("FooBot", "/private/x"), ("FooBot", "/x")]);
        assert_eq!(answers, Ok(vec![false, true]));
    }
}
