//! The reference implementation as an adapter calls it: parse once under a profile, answer
//! every query. The protocol loop (`main.rs`) calls [`check`] or [`check_under`].

use std::panic::{catch_unwind, AssertUnwindSafe};

use robotstxt_reference::{Profile, Robots};

/// Answers each `(agent, path)` query about `body` under `norobots-1994`, the profile the
/// adapter's manifest claims: `true` when allowed.
pub fn check(body: &[u8], queries: &[(&str, &str)]) -> Result<Vec<bool>, String> {
    check_under(Profile::Norobots1994, body, queries)
}

/// As [`check`], under `profile`. A panic would be a bug in the reference; it is answered as a
/// refusal all the same, so that one bad body does not end a run.
pub fn check_under(
    profile: Profile,
    body: &[u8],
    queries: &[(&str, &str)],
) -> Result<Vec<bool>, String> {
    let run = || {
        let robots = Robots::parse(profile, body);
        queries
            .iter()
            .map(|(agent, path)| robots.is_allowed(agent, path))
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
    use robotstxt_reference::Profile;

    #[test]
    fn answers_each_query_under_the_profile() {
        let body = b"User-agent: *\nAllow: /public\nDisallow: /\n";
        let queries = [("FooBot", "/public"), ("FooBot", "/x")];
        assert_eq!(super::check(body, &queries), Ok(vec![false, false]));
        let rfc = super::check_under(Profile::Rfc9309, body, &queries);
        assert_eq!(rfc, Ok(vec![true, false]));
    }
}
