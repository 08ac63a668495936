//! Rules the whole corpus keeps, beyond what the loader checks one case at a time.

use std::path::PathBuf;

use robotstxt_reference::Profile;
use robotstxt_suite::cases::{load_corpus, Ruling};
use robotstxt_suite::engine::{is_product_token, product_token};

/// RFC 9309 §2.2.1 says which characters a product token holds, not how a caller derives one
/// from `FooBot/2.1`; so under rfc9309 no scored check's agent is anything but a product token.
#[test]
fn under_rfc9309_every_scored_agent_is_a_product_token() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../cases");
    let cases = load_corpus(&[root]).expect("the corpus loads");
    let mut scored = 0;
    for case in &cases {
        for (i, check) in case.checks.iter().enumerate() {
            if let Some((Profile::Rfc9309, Ruling::Is(_))) =
                check.expect.scored_under(Some(Profile::Rfc9309))
            {
                assert!(
                    is_product_token(&check.agent),
                    "{}#{i}: agent `{}` is scored under rfc9309 but is not a product token",
                    case.id,
                    check.agent
                );
                scored += 1;
            }
        }
    }
    assert!(scored > 1000, "{scored} scored rfc9309 checks");
}

#[test]
fn the_product_token_is_the_leading_run_of_token_characters() {
    for (agent, token) in [
        ("FooBot", "FooBot"),
        ("FooBot/2.1", "FooBot"),
        ("foo_bot-x 1.0", "foo_bot-x"),
        ("Mozilla/5.0 (compatible; FooBot/2.1)", "Mozilla"),
        ("5emeRue", ""),
        ("jävla-fanbot", "j"),
    ] {
        assert_eq!(product_token(agent), token, "{agent}");
        assert_eq!(is_product_token(agent), agent == token && !token.is_empty());
    }
}
