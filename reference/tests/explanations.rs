//! The explanation `check` prints, for a set of bodies covering every group choice (no groups,
//! none matched, a name, `*`, groups combined) and every rule choice (no rule reached, no rules,
//! none matching, with and without empty values, a prefix, the longest match, allow on a tie,
//! the implicit /robots.txt) under both profiles. The texts were read and checked by hand against
//! the decisions they explain; a change to any of them is a change in what users read.

use robotstxt_reference::{Profile, Robots};

fn explained(profile: Profile, body: &str, agent: &str, path: &str) -> String {
    let decision = Robots::parse(profile, body.as_bytes()).decide(agent, path);
    format!("{}: {}", decision.verdict, decision.explanation)
}

/// (body, agent, path, under norobots-1994, under rfc9309)
const SNAPSHOTS: &[(&str, &str, &str, &str, &str)] = &[
    // no-groups
    (
        "# nothing here\n",
        "FooBot",
        "/a",
        r"allowed: norobots-1994: robot name `foobot` (from `FooBot`); the file has no records; no rule applies",
        r"allowed: rfc9309: robot name `foobot` (from `FooBot`); the file has no groups; no rule applies",
    ),
    // none-matched
    (
        "User-agent: BarBot\nDisallow: /\n",
        "FooBot",
        "/a",
        r"allowed: norobots-1994: robot name `foobot` (from `FooBot`); none of the 1 records names the robot and there is no `*` record; no rule applies",
        r"allowed: rfc9309: robot name `foobot` (from `FooBot`); none of the 1 groups names the robot and there is no `*` group; no rule applies",
    ),
    // star
    (
        "User-agent: *\nDisallow: /private\n",
        "FooBot/2.1",
        "/private/x",
        r"disallowed: norobots-1994: robot name `foobot` (from `FooBot/2.1`); record at lines 1-2 (User-agent `*`, line 1) applies because nothing else names the robot; Disallow `/private` (line 2) is a prefix of the path",
        r"disallowed: rfc9309: robot name `foobot` (from `FooBot/2.1`); group at lines 1-2 (User-agent `*`, line 1) applies because nothing else names the robot; Disallow `/private` (line 2) is the longest match (8 octets)",
    ),
    // star-no-match
    (
        "User-agent: *\nDisallow: /private\n",
        "FooBot",
        "/public",
        r"allowed: norobots-1994: robot name `foobot` (from `FooBot`); record at lines 1-2 (User-agent `*`, line 1) applies because nothing else names the robot; its one rule line does not match the path",
        r"allowed: rfc9309: robot name `foobot` (from `FooBot`); group at lines 1-2 (User-agent `*`, line 1) applies because nothing else names the robot; its one rule line does not match the path",
    ),
    // named-no-rules
    (
        "User-agent: FooBot\n\nUser-agent: *\nDisallow: /\n",
        "FooBot",
        "/a",
        r"allowed: norobots-1994: robot name `foobot` (from `FooBot`); record at lines 1-1 (User-agent `FooBot`, line 1) names the robot; the record has no rules",
        r"disallowed: rfc9309: robot name `foobot` (from `FooBot`); group at lines 1-4 (User-agent `FooBot`, line 1) names the robot; Disallow `/` (line 4) is the longest match (1 octet)",
    ),
    // empty-value
    (
        "User-agent: *\nDisallow:\n",
        "FooBot",
        "/a",
        r"allowed: norobots-1994: robot name `foobot` (from `FooBot`); record at lines 1-2 (User-agent `*`, line 1) applies because nothing else names the robot; its one rule line does not match the path (one has an empty value, which matches nothing)",
        r"allowed: rfc9309: robot name `foobot` (from `FooBot`); group at lines 1-2 (User-agent `*`, line 1) applies because nothing else names the robot; its one rule line does not match the path (one has an empty value, which matches nothing)",
    ),
    // two-empty
    (
        "User-agent: *\nDisallow:\nAllow:\n",
        "FooBot",
        "/a",
        r"allowed: norobots-1994: robot name `foobot` (from `FooBot`); record at lines 1-3 (User-agent `*`, line 1) applies because nothing else names the robot; its one rule line does not match the path (one has an empty value, which matches nothing)",
        r"allowed: rfc9309: robot name `foobot` (from `FooBot`); group at lines 1-3 (User-agent `*`, line 1) applies because nothing else names the robot; none of its 2 rule lines matches the path (2 have an empty value, which matches nothing)",
    ),
    // combined
    (
        "User-agent: FooBot\nDisallow: /a\n\nUser-agent: FooBot\nDisallow: /b\n",
        "FooBot",
        "/b",
        r"allowed: norobots-1994: robot name `foobot` (from `FooBot`); record at lines 1-2 (User-agent `FooBot`, line 1) names the robot; its one rule line does not match the path",
        r"disallowed: rfc9309: robot name `foobot` (from `FooBot`); group at lines 1-2 (User-agent `FooBot`, line 1) and group at lines 4-5 (User-agent `FooBot`, line 4) name the robot (combined); Disallow `/b` (line 5) is the longest match (2 octets)",
    ),
    // longest
    (
        "User-agent: *\nDisallow: /a\nAllow: /a/b\n",
        "FooBot",
        "/a/b/c",
        r"disallowed: norobots-1994: robot name `foobot` (from `FooBot`); record at lines 1-3 (User-agent `*`, line 1) applies because nothing else names the robot; Disallow `/a` (line 2) is a prefix of the path",
        r"allowed: rfc9309: robot name `foobot` (from `FooBot`); group at lines 1-3 (User-agent `*`, line 1) applies because nothing else names the robot; Allow `/a/b` (line 3) is the longest match (4 octets)",
    ),
    // tie
    (
        "User-agent: *\nDisallow: /a\nAllow: /a\n",
        "FooBot",
        "/a",
        r"disallowed: norobots-1994: robot name `foobot` (from `FooBot`); record at lines 1-3 (User-agent `*`, line 1) applies because nothing else names the robot; Disallow `/a` (line 2) is a prefix of the path",
        r"allowed: rfc9309: robot name `foobot` (from `FooBot`); group at lines 1-3 (User-agent `*`, line 1) applies because nothing else names the robot; Allow `/a` (line 3) ties with a disallow rule at 2 octets, and allow wins a tie",
    ),
    // robots-txt
    (
        "User-agent: *\nDisallow: /\n",
        "FooBot",
        "/robots.txt",
        r"disallowed: norobots-1994: robot name `foobot` (from `FooBot`); record at lines 1-2 (User-agent `*`, line 1) applies because nothing else names the robot; Disallow `/` (line 2) is a prefix of the path",
        r"allowed: rfc9309: robot name `foobot` (from `FooBot`); group at lines 1-2 (User-agent `*`, line 1) applies because nothing else names the robot; /robots.txt is implicitly allowed",
    ),
    // star-combined: two `*` groups, combined under rfc9309; the first `*` record under 1994
    (
        "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
        "FooBot",
        "/b",
        r"allowed: norobots-1994: robot name `foobot` (from `FooBot`); record at lines 1-2 (User-agent `*`, line 1) applies because nothing else names the robot; its one rule line does not match the path",
        r"disallowed: rfc9309: robot name `foobot` (from `FooBot`); group at lines 1-2 (User-agent `*`, line 1) and group at lines 4-5 (User-agent `*`, line 4) apply (combined) because nothing else names the robot; Disallow `/b` (line 5) is the longest match (2 octets)",
    ),
    // tie-allow-first: the tie is found when the disallow rule comes second
    (
        "User-agent: *\nAllow: /a\nDisallow: /a\n",
        "FooBot",
        "/a",
        r"disallowed: norobots-1994: robot name `foobot` (from `FooBot`); record at lines 1-3 (User-agent `*`, line 1) applies because nothing else names the robot; Disallow `/a` (line 3) is a prefix of the path",
        r"allowed: rfc9309: robot name `foobot` (from `FooBot`); group at lines 1-3 (User-agent `*`, line 1) applies because nothing else names the robot; Allow `/a` (line 2) ties with a disallow rule at 2 octets, and allow wins a tie",
    ),
    // name-as-given: the agent is already the name, so it is not repeated
    (
        "User-agent: foobot\nDisallow: /\n",
        "foobot",
        "/a",
        r"disallowed: norobots-1994: robot name `foobot`; record at lines 1-2 (User-agent `foobot`, line 1) names the robot; Disallow `/` (line 2) is a prefix of the path",
        r"disallowed: rfc9309: robot name `foobot`; group at lines 1-2 (User-agent `foobot`, line 1) names the robot; Disallow `/` (line 2) is the longest match (1 octet)",
    ),
];

#[test]
fn explanations_say_what_decided() {
    for &(body, agent, path, old, new) in SNAPSHOTS {
        assert_eq!(
            explained(Profile::Norobots1994, body, agent, path),
            old,
            "{body:?}"
        );
        assert_eq!(
            explained(Profile::Rfc9309, body, agent, path),
            new,
            "{body:?}"
        );
    }
}

/// `rule_sentence` is the explanation's last clause on its own (the harness prints it beside the
/// rule line): the same words, never empty.
#[test]
fn the_rule_sentence_is_the_last_clause() {
    for &(body, agent, path, _, _) in SNAPSHOTS {
        for &profile in Profile::ALL {
            let explanation = Robots::parse(profile, body.as_bytes())
                .decide(agent, path)
                .explanation;
            let sentence = explanation.rule_sentence();
            assert!(
                explanation.to_string().ends_with(&format!("; {sentence}")),
                "{profile} {body:?}: {sentence:?}"
            );
            assert!(!sentence.is_empty(), "{profile} {body:?}");
        }
    }
}
