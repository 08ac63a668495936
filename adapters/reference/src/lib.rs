//! The reference implementation as an adapter calls it: parse once under a profile, answer
//! every query. The adapter (`main.rs`) serves [`check_under`] under the profile it is started
//! with.

use robotstxt_protocol::{Handshake, Query, QueryAnswer, Verdict};
use robotstxt_reference::{Profile, Robots};

/// What this adapter answers to `hello` under `profile`: its adapter.yaml, with the profile it
/// runs under.
pub fn handshake(profile: Profile) -> Handshake {
    Handshake {
        profile: profile.name().into(),
        ..robotstxt_protocol::handshake!()
    }
}

/// Answers each query about `body` under `profile`.
pub fn check_under(
    profile: Profile,
    body: &[u8],
    queries: &[Query],
) -> Result<Vec<QueryAnswer>, robotstxt_protocol::Refusal> {
    let robots = Robots::parse(profile, body);
    let ask = |query: &Query| {
        Ok(Verdict::from_allowed(
            robots.is_allowed(&query.agent, &query.path),
        ))
    };
    Ok(queries.iter().map(ask).collect())
}

#[cfg(test)]
mod tests {
    use robotstxt_protocol::{Query, Verdict};
    use robotstxt_reference::Profile;

    #[test]
    fn answers_each_query_under_the_profile() {
        let body = b"User-agent: *\nAllow: /public\nDisallow: /\n";
        let queries = [Query::new("FooBot", "/public"), Query::new("FooBot", "/x")];
        let under = |profile| super::check_under(profile, body, &queries);
        let disallowed = Ok(Verdict::Disallowed);
        assert_eq!(
            under(Profile::Norobots1994),
            Ok(vec![disallowed.clone(), disallowed.clone()])
        );
        assert_eq!(
            under(Profile::Rfc9309),
            Ok(vec![Ok(Verdict::Allowed), disallowed])
        );
        assert_eq!(super::handshake(Profile::Rfc9309).profile, "rfc9309");
    }
}
