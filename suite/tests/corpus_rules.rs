//! Rules the whole corpus keeps, beyond what the loader checks one case at a time.

use std::path::PathBuf;

use robotstxt_reference::Profile;
use robotstxt_suite::cases::{load_corpus, Ruling};
use robotstxt_suite::engine::robot_name;
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

/// Every agent of the corpus is handed to an adapter whole up to its version: the product token
/// and the bare name keep every digit and every letter outside ASCII, and for every agent the
/// corpus asks about the two are the same string, the name before its first `/` or white space
/// (so a product-token adapter scored under the 1994 text gets that text's robot name).
#[test]
fn no_adapter_is_handed_a_name_that_drops_a_character_of_it() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../cases");
    let cases = load_corpus(&[root]).expect("the corpus loads");
    let mut agents: Vec<&str> = cases
        .iter()
        .flat_map(|c| c.checks.iter().map(|k| k.agent.as_str()))
        .collect();
    agents.sort_unstable();
    agents.dedup();
    for agent in agents {
        assert_eq!(product_token(agent), robot_name(agent), "{agent}");
    }
    for (agent, handed) in [
        ("MJ12bot", "MJ12bot"),
        ("bot149", "bot149"),
        ("5emeRue", "5emeRue"),
    ] {
        assert_eq!(product_token(agent), handed);
        assert!(!is_product_token(agent), "{agent} holds a digit");
    }
}

/// A reported case fails the behaviour it reports: on some check marked with what that behaviour
/// gives, some profile scores the check and the behaviour gets it wrong. Where every marked check
/// is left open by the texts (no profile decides it), the note says so (the word "open"), so that
/// no reader takes the case for a test it cannot be.
#[test]
fn every_reported_case_fails_the_behaviour_it_reports_or_says_why_not() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../cases");
    let cases = load_corpus(&[root]).expect("the corpus loads");
    let mut reported = 0;
    for case in cases.iter().filter(|c| c.reported.is_some()) {
        reported += 1;
        let fails = case.checks.iter().any(|check| {
            check.reported.is_some_and(|r| {
                Profile::ALL
                    .iter()
                    .filter_map(|&p| check.expect.for_profile(p))
                    .any(|ruling| r.fails(ruling))
            })
        });
        // Every marked check left open by every profile, and the note saying so.
        let left_open = (case.checks.iter().filter(|c| c.reported.is_some())).all(|check| {
            Profile::ALL
                .iter()
                .filter_map(|&p| check.expect.for_profile(p))
                .all(|ruling| ruling == Ruling::Unspecified)
        });
        let explained = left_open && case.note.as_ref().is_some_and(|n| n.raw().contains("open"));
        assert!(
            fails || explained,
            "{}: no marked check fails the reported behaviour, and the note does not say why",
            case.id
        );
    }
    assert!(reported >= 60, "{reported}");
}
