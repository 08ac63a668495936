//! The `rfc9309` profile against RFC 9309, section by section: its examples, grouping, longest
//! match, wildcards, percent-encoding, and that any bytes parse.

use super::*;
use crate::explain::{Boundary, LineMeaning};

fn decide(body: &str, agent: &str, path: &str) -> Decision {
    let robots = Robots::parse(body.as_bytes());
    let decision = robots.decide(agent, path);
    assert_eq!(
        decision.verdict == Verdict::Allowed,
        robots.is_allowed(agent, path),
        "decide and is_allowed disagree on {agent} {path}"
    );
    decision
}

fn verdict(body: &str, agent: &str, path: &str) -> Verdict {
    decide(body, agent, path).verdict
}

use Verdict::{Allowed, Disallowed};

const EXAMPLE_5_1: &str = "User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\n\
                           Allow: /publications/\n\nUser-Agent: foobot\nDisallow:/\n\
                           Allow:/example/page.html\nAllow:/example/allowed.gif\n\n\
                           User-Agent: barbot\nUser-Agent: bazbot\n\
                           Disallow: /example/page.html\n\nUser-Agent: quxbot\n\n";

/// `groups()` is what the open points read instead of grouping lines again: each group by the
/// line numbers of its user-agent lines and rules, the last one (quxbot) without rules.
#[test]
fn groups_by_line_numbers() {
    let robots = Robots::parse(EXAMPLE_5_1.as_bytes());
    let groups: Vec<(Vec<u32>, Vec<u32>)> = robots.groups().map(|g| (g.agents, g.rules)).collect();
    assert_eq!(
        groups,
        vec![
            (vec![1], vec![2, 3, 4]),
            (vec![6], vec![7, 8, 9]),
            (vec![11, 12], vec![13]),
            (vec![15], vec![]),
        ]
    );
}

#[test]
fn example_5_1() {
    let b = EXAMPLE_5_1;
    assert_eq!(verdict(b, "otherbot", "/a.gif"), Disallowed);
    assert_eq!(verdict(b, "otherbot", "/example/x"), Disallowed);
    assert_eq!(verdict(b, "otherbot", "/publications/a.gif"), Allowed);
    assert_eq!(verdict(b, "otherbot", "/a.gif?x"), Allowed);
    assert_eq!(verdict(b, "foobot", "/"), Disallowed);
    assert_eq!(verdict(b, "FooBot", "/example/page.html"), Allowed);
    assert_eq!(verdict(b, "foobot", "/example/allowed.gif"), Allowed);
    assert_eq!(verdict(b, "foobot", "/example/other.gif"), Disallowed);
    assert_eq!(verdict(b, "foobot", "/robots.txt"), Allowed);
    assert_eq!(verdict(b, "barbot", "/example/page.html"), Disallowed);
    assert_eq!(verdict(b, "bazbot", "/example/page.html"), Disallowed);
    assert_eq!(verdict(b, "bazbot", "/a.gif"), Allowed);
    // quxbot's group has no rules: it allows everything, and `*` does not apply to quxbot.
    assert_eq!(verdict(b, "quxbot", "/a.gif"), Allowed);
    assert_eq!(verdict(b, "quxbot", "/example/x"), Allowed);
    let d = decide(b, "quxbot", "/a.gif");
    assert_eq!(
        d.explanation.rule,
        RuleChoice::NoRuleMatched { rules: 0, empty: 0 }
    );
}

#[test]
fn example_5_2_longest_match() {
    let b = "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n";
    let d = decide(b, "foobot", "/example/page/disallowed.gif");
    assert_eq!(d.verdict, Disallowed);
    assert_eq!(
        d.explanation.rule,
        RuleChoice::Matched {
            line: 3,
            kind: RuleKind::Disallow,
            value: "/example/page/disallowed.gif".into(),
            by: RuleBy::LongestMatch { octets: 28 },
        }
    );
    assert_eq!(verdict(b, "foobot", "/example/page/other.gif"), Allowed);
}

#[test]
fn blank_lines_do_not_end_a_group() {
    let b = "User-agent: a\n\nUser-agent: b\n\n\nDisallow: /x\n\nAllow: /x/y\n";
    assert_eq!(verdict(b, "a", "/x"), Disallowed);
    assert_eq!(verdict(b, "b", "/x"), Disallowed);
    assert_eq!(verdict(b, "a", "/x/y"), Allowed);
    let d = decide(b, "a", "/x");
    match d.explanation.groups {
        GroupChoice::Chosen { groups, by } => {
            assert_eq!(by, MatchedBy::Name);
            assert_eq!(groups.len(), 1);
            assert_eq!((groups[0].first_line, groups[0].last_line), (1, 8));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_user_agent_line_after_a_rule_starts_a_group() {
    let b = "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n";
    assert_eq!(verdict(b, "a", "/y"), Allowed);
    assert_eq!(verdict(b, "b", "/x"), Allowed);
    assert_eq!(verdict(b, "b", "/y"), Disallowed);
}

#[test]
fn other_records_do_not_end_a_group() {
    let b = "User-agent: a\nSitemap: https://x/s.xml\nUser-agent: b\nCrawl-delay: 5\n\
             Disallow: /x\nfoo: bar\nno colon here\nDisallow: /y\n";
    for agent in ["a", "b"] {
        assert_eq!(verdict(b, agent, "/x"), Disallowed);
        assert_eq!(verdict(b, agent, "/y"), Disallowed);
    }
}

#[test]
fn matching_groups_are_combined() {
    let b = "User-agent: a\nDisallow: /x\n\nUser-agent: *\nDisallow: /z\n\n\
             User-agent: A\nAllow: /x/ok\nDisallow: /y\n";
    assert_eq!(verdict(b, "a", "/x"), Disallowed);
    assert_eq!(verdict(b, "a", "/y"), Disallowed);
    assert_eq!(verdict(b, "a", "/x/ok"), Allowed);
    assert_eq!(verdict(b, "a", "/z"), Allowed);
    assert_eq!(verdict(b, "other", "/z"), Disallowed);
    let d = decide(b, "a", "/y");
    match &d.explanation.groups {
        GroupChoice::Chosen { groups, by } => {
            assert_eq!(*by, MatchedBy::Name);
            let lines: Vec<_> = groups
                .iter()
                .map(|g| (g.first_line, g.agent_line))
                .collect();
            assert_eq!(lines, vec![(1, 1), (7, 7)]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn several_star_groups_are_combined() {
    let b = "User-agent: *\nDisallow: /x\n\nUser-agent: a\nDisallow: /a\n\n\
             User-agent: *\nDisallow: /y\n";
    assert_eq!(verdict(b, "z", "/x"), Disallowed);
    assert_eq!(verdict(b, "z", "/y"), Disallowed);
    assert_eq!(verdict(b, "a", "/y"), Allowed);
}

#[test]
fn no_group_or_no_match() {
    assert_eq!(
        decide("", "a", "/").explanation.groups,
        GroupChoice::NoGroups
    );
    let d = decide("User-agent: b\nDisallow: /\n", "a", "/");
    assert_eq!(d.verdict, Allowed);
    assert_eq!(d.explanation.groups, GroupChoice::NoneMatched { groups: 1 });
    assert_eq!(d.explanation.rule, RuleChoice::NotReached);
}

#[test]
fn product_tokens_match_whole_and_case_insensitively() {
    let b = "User-agent: FooBot\nDisallow: /\n";
    assert_eq!(verdict(b, "foobot", "/x"), Disallowed);
    assert_eq!(verdict(b, "FOOBOT/2.1", "/x"), Disallowed);
    assert_eq!(verdict(b, "Foo", "/x"), Allowed);
    assert_eq!(verdict(b, "FooBotNews", "/x"), Allowed);
    assert_eq!(
        verdict(b, "Mozilla/5.0 (compatible; FooBot/2.1)", "/x"),
        Allowed
    );
    assert_eq!(
        verdict("User-agent: FooBot/1.0\nDisallow: /\n", "foobot", "/x"),
        Disallowed
    );
}

#[test]
fn rules_before_the_first_group_are_ignored() {
    let b = "Disallow: /x\nAllow: /y\nUser-agent: *\nDisallow: /y\n";
    assert_eq!(verdict(b, "a", "/x"), Allowed);
    assert_eq!(verdict(b, "a", "/y"), Disallowed);
    let d = decide("Disallow: /\n", "a", "/x");
    assert_eq!(d.explanation.groups, GroupChoice::NoGroups);
}

#[test]
fn longest_match_and_allow_on_tie() {
    let b = "User-agent: *\nDisallow: /page\nAllow: /page\nAllow: /p\nDisallow: /pa\n";
    let d = decide(b, "a", "/page.html");
    assert_eq!(d.verdict, Allowed);
    assert_eq!(
        d.explanation.rule,
        RuleChoice::Matched {
            line: 3,
            kind: RuleKind::Allow,
            value: "/page".into(),
            by: RuleBy::AllowOnTie { octets: 5 },
        }
    );
    assert_eq!(verdict(b, "a", "/pat"), Disallowed);
    assert_eq!(verdict(b, "a", "/p"), Allowed);
    // The order in the file does not matter.
    let b = "User-agent: *\nAllow: /page\nDisallow: /page\n";
    let d = decide(b, "a", "/page");
    assert_eq!(
        d.explanation.rule,
        RuleChoice::Matched {
            line: 2,
            kind: RuleKind::Allow,
            value: "/page".into(),
            by: RuleBy::AllowOnTie { octets: 5 },
        }
    );
    // A longer allow beats a shorter disallow, and the reverse.
    let b = "User-agent: *\nDisallow: /\nAllow: /public/\nDisallow: /public/secret\n";
    assert_eq!(verdict(b, "a", "/x"), Disallowed);
    assert_eq!(verdict(b, "a", "/public/x"), Allowed);
    assert_eq!(verdict(b, "a", "/public/secret.html"), Disallowed);
}

#[test]
fn wildcards_count_as_octets() {
    // `/*` (2 octets) beats `/` (1); `/a$` (3) beats `/a` (2).
    assert_eq!(
        verdict("User-agent: *\nAllow: /\nDisallow: /*\n", "a", "/x"),
        Disallowed
    );
    assert_eq!(
        verdict("User-agent: *\nAllow: /a\nDisallow: /a$\n", "a", "/a"),
        Disallowed
    );
    assert_eq!(
        verdict("User-agent: *\nAllow: /a\nDisallow: /a$\n", "a", "/ab"),
        Allowed
    );
}

#[test]
fn wildcard_rules() {
    let b = "User-agent: *\nDisallow: /*.html$\nDisallow: /private*/data\nAllow: /*?lang=\n";
    assert_eq!(verdict(b, "a", "/a.html.html"), Disallowed);
    assert_eq!(verdict(b, "a", "/a.html?x"), Allowed);
    assert_eq!(verdict(b, "a", "/a.htm"), Allowed);
    assert_eq!(verdict(b, "a", "/private-x/data/1"), Disallowed);
    assert_eq!(verdict(b, "a", "/privatedata"), Allowed);
    let mut long = format!("/{}", "a".repeat(100 * 1024));
    let b = "User-agent: *\nDisallow: /*a*a*a*a*a*a*a*b\nDisallow: /*a*a*a*a*a*a*a*c$\n";
    let start = std::time::Instant::now();
    assert_eq!(verdict(b, "x", &long), Allowed);
    long.push('c');
    assert_eq!(verdict(b, "x", &long), Disallowed);
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn dollar_only_at_the_end() {
    let b = "User-agent: *\nDisallow: /a$b\n";
    assert_eq!(verdict(b, "x", "/a$b"), Disallowed);
    assert_eq!(verdict(b, "x", "/a%24b"), Disallowed);
    assert_eq!(verdict(b, "x", "/a"), Allowed);
    assert_eq!(verdict(b, "x", "/ab"), Allowed);
    let b = "User-agent: *\nDisallow: /a$\n";
    assert_eq!(verdict(b, "x", "/a"), Disallowed);
    assert_eq!(verdict(b, "x", "/a$"), Allowed);
    assert_eq!(verdict(b, "x", "/ab"), Allowed);
}

#[test]
fn percent_encoding_on_both_sides() {
    let b = "User-agent: *\nDisallow: /café\nDisallow: /%7Ejoe\nDisallow: /a%2Fb\n";
    assert_eq!(verdict(b, "x", "/café"), Disallowed);
    assert_eq!(verdict(b, "x", "/caf%C3%A9"), Disallowed);
    assert_eq!(verdict(b, "x", "/caf%c3%a9/x"), Disallowed);
    assert_eq!(verdict(b, "x", "/~joe/"), Disallowed);
    assert_eq!(verdict(b, "x", "/%7ejoe"), Disallowed);
    assert_eq!(verdict(b, "x", "/a%2fb"), Disallowed);
    assert_eq!(verdict(b, "x", "/a/b"), Allowed);
    let b = "User-agent: *\nDisallow: /~mary\nDisallow: /caf%C3%A9\nDisallow: /*%2A\n";
    assert_eq!(verdict(b, "x", "/%7Emary"), Disallowed);
    assert_eq!(verdict(b, "x", "/café"), Disallowed);
    assert_eq!(verdict(b, "x", "/x*"), Disallowed);
    assert_eq!(verdict(b, "x", "/x%2a"), Disallowed);
    assert_eq!(verdict(b, "x", "/x"), Allowed);
    // Octets count after normalizing: `/%41` is `/A`, two octets, tying with `Allow: /A`.
    let b = "User-agent: *\nDisallow: /%41\nAllow: /A\n";
    let d = decide(b, "x", "/A");
    assert!(matches!(
        d.explanation.rule,
        RuleChoice::Matched {
            by: RuleBy::AllowOnTie { octets: 2 },
            ..
        }
    ));
}

#[test]
fn robots_txt_is_implicitly_allowed() {
    let b = "User-agent: *\nDisallow: /\n";
    let d = decide(b, "x", "/robots.txt");
    assert_eq!(d.verdict, Allowed);
    assert_eq!(d.explanation.rule, RuleChoice::ImplicitRobotsTxt);
    assert_eq!(verdict(b, "x", "/%72obots.txt"), Allowed);
    assert_eq!(verdict(b, "x", "/robots.txt?x"), Disallowed);
    assert_eq!(verdict(b, "x", "/Robots.txt"), Disallowed);
    assert_eq!(verdict(b, "x", "/robots.txt/"), Disallowed);
}

#[test]
fn empty_values_match_nothing() {
    let b = "User-agent: *\nDisallow:\n";
    let d = decide(b, "x", "/");
    assert_eq!(d.verdict, Allowed);
    assert_eq!(
        d.explanation.rule,
        RuleChoice::NoRuleMatched { rules: 1, empty: 1 }
    );
    assert_eq!(
        verdict("User-agent: *\nAllow:\nDisallow: /\n", "x", "/a"),
        Disallowed
    );
    // An empty rule is still a rule: the next user-agent line starts a new group.
    let b = "User-agent: a\nAllow:\nUser-agent: b\nDisallow: /\n";
    assert_eq!(verdict(b, "a", "/x"), Allowed);
    assert_eq!(verdict(b, "b", "/x"), Disallowed);
}

#[test]
fn misspellings_are_other_records() {
    let b = "User-agent: *\nDisalow: /x\nuseragent: a\nuser agent: a\nDisallow /y\nDisallow: /z\n";
    assert_eq!(verdict(b, "a", "/x"), Allowed);
    assert_eq!(verdict(b, "a", "/y"), Allowed);
    assert_eq!(verdict(b, "a", "/z"), Disallowed);
}

#[test]
fn a_body_past_600_kib_is_read_to_the_end() {
    let mut body = String::from("User-agent: *\nDisallow: /first\n");
    while body.len() < 600 * 1024 {
        body.push_str("# padding padding padding padding padding padding padding\n");
    }
    body.push_str("Disallow: /last\n");
    assert_eq!(verdict(&body, "x", "/first"), Disallowed);
    assert_eq!(verdict(&body, "x", "/last"), Disallowed);
    assert_eq!(verdict(&body, "x", "/other"), Allowed);
}

#[test]
fn any_bytes_parse_and_decide_alike() {
    // A small deterministic generator over bytes that matter to the grammar.
    let alphabet: &[u8] = b"\r\n\t :#*$%/?aAuU-_.\xC3\xA9\xEF\xBB\xBF\x00\xFF";
    let words: [&[u8]; 6] = [
        b"user-agent",
        b"allow",
        b"disallow",
        b"sitemap",
        b"%2A",
        b"%7e",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..2000 {
        let mut body = Vec::new();
        for _ in 0..(next() % 200) {
            let r = next();
            if r % 5 == 0 {
                body.extend_from_slice(words[(r / 5 % 6) as usize]);
            } else {
                body.push(alphabet[(r / 5 % alphabet.len() as u64) as usize]);
            }
        }
        let robots = Robots::parse(&body);
        for (agent, path) in [
            ("a", "/"),
            ("A/1", "/a*$"),
            ("u", "/%7E%2a"),
            ("x", "/robots.txt"),
        ] {
            let d = robots.decide(agent, path);
            assert_eq!(d.verdict == Allowed, robots.is_allowed(agent, path));
            let _ = d.explanation.to_string();
            // The deciding rule is among the matching rules the explanation lists, and when no
            // rule decided none of them matches.
            let matching: Vec<u32> = (d.explanation.lines.iter())
                .filter(|l| matches!(l.reading, LineMeaning::Rule { matches: true, .. }))
                .map(|l| l.line)
                .collect();
            match &d.explanation.rule {
                RuleChoice::Matched { line, .. } => assert!(matching.contains(line)),
                RuleChoice::NoRuleMatched { .. } => assert!(matching.is_empty()),
                _ => {}
            }
        }
    }
}

/// An explanation lists every line of the chosen groups as the profile read them: every rule that
/// matches the path (not only the one that decided), and the lines passed over inside the group,
/// and why; then the rules outside every group, and the `*` group passed over for a named one.
#[test]
fn explanation_lists_the_lines_of_the_chosen_groups() {
    let body = "Disallow: /x\nUser-agent: FooBot\n\n# note\nCrawl-delay: 5\nUser-agent: BarBot\n\
                Allow: /a\nDisallow: /\nno colon\n\nUser-agent: *\nDisallow: /a\n";
    let e = decide(body, "FooBot/2.1", "/a/b").explanation;
    let rule = |kind, value: &str, matches| LineMeaning::Rule {
        kind,
        value: value.to_owned(),
        matches,
    };
    let agent = |value: &str, applies| LineMeaning::Agent {
        value: value.to_owned(),
        applies,
    };
    let lines: Vec<(u32, LineMeaning)> = e.lines.into_iter().map(|l| (l.line, l.reading)).collect();
    assert_eq!(
        lines,
        vec![
            (2, agent("FooBot", true)),
            (3, LineMeaning::Blank),
            (4, LineMeaning::Comment),
            (
                5,
                LineMeaning::Other {
                    name: "Crawl-delay".into(),
                    value: "5".into()
                }
            ),
            (6, agent("BarBot", false)),
            (7, rule(RuleKind::Allow, "/a", true)),
            (8, rule(RuleKind::Disallow, "/", true)),
        ]
    );
    let outside: Vec<(u32, LineMeaning)> = (e.outside.into_iter())
        .map(|l| (l.line, l.reading))
        .collect();
    assert_eq!(outside, vec![(1, rule(RuleKind::Disallow, "/x", false))]);
    assert_eq!(e.star_passed_over, vec![11]);
    let GroupChoice::Chosen { groups, .. } = &e.groups else {
        panic!("FooBot is named: {:?}", e.groups);
    };
    assert_eq!(
        (groups[0].begins, groups[0].ends),
        (Boundary::File, Boundary::BlankLine)
    );
    let e = decide(
        "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n",
        "b",
        "/y",
    )
    .explanation;
    let GroupChoice::Chosen { groups, .. } = &e.groups else {
        panic!("b is named: {e}");
    };
    assert_eq!(
        (groups[0].begins, groups[0].ends),
        (Boundary::UserAgent, Boundary::File)
    );
    // For a robot nothing names, the `*` group's lines; nothing is passed over for it.
    let e = decide(body, "OtherBot", "/a/b").explanation;
    let lines: Vec<u32> = e.lines.iter().map(|l| l.line).collect();
    assert_eq!(lines, vec![11, 12]);
    assert!(e.star_passed_over.is_empty());
    // Rules match in normal form, as the deciding one does.
    let e = decide("User-agent: *\nDisallow: /%61\nAllow: /a/b/c\n", "x", "/a").explanation;
    assert_eq!(e.lines[1].reading, rule(RuleKind::Disallow, "/%61", true));
    assert_eq!(e.lines[2].reading, rule(RuleKind::Allow, "/a/b/c", false));
}
