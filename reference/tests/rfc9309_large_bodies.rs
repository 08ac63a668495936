//! RFC 9309 §2.5: "The parsing limit MUST be at least 500 kibibytes [KiB]." Bodies that large cannot
//! reasonably be stored in the YAML corpus, so they are generated here.

use robotstxt_reference::{GroupChoice, Profile, Robots, RuleChoice, Verdict};

const KIB: usize = 1024;

/// Groups for other robots, each a few lines, until `body` is at least `size` long.
fn pad_with_groups(body: &mut String, size: usize) {
    let mut n = 0u32;
    while body.len() < size {
        body.push_str(&format!(
            "\n# group {n}\nUser-agent: otherbot-{n}\nDisallow: /other/{n}/\nAllow: /other/{n}/ok\n"
        ));
        n += 1;
    }
}

#[test]
fn rules_past_500_kib_are_obeyed() {
    let mut body = String::from(
        "User-agent: *\nDisallow: /early\n\nUser-agent: FooBot\nDisallow: /foo-early\n",
    );
    pad_with_groups(&mut body, 600 * KIB);
    let late_line = body.lines().count() as u32 + 2;
    body.push_str("\nUser-agent: *\nDisallow: /late\n\nUser-agent: foobot\nAllow: /foo-early/open\nDisallow: /foo-late\n");
    assert!(body.len() > 600 * KIB);
    let robots = Robots::parse(Profile::Rfc9309, body.as_bytes());

    for (agent, path, verdict) in [
        ("OtherBot", "/early", Verdict::Disallowed),
        ("OtherBot", "/late/x", Verdict::Disallowed),
        ("OtherBot", "/foo-late", Verdict::Allowed),
        ("FooBot", "/late", Verdict::Allowed),
        ("FooBot", "/foo-early/x", Verdict::Disallowed),
        ("FooBot", "/foo-early/open/x", Verdict::Allowed),
        ("FooBot", "/foo-late", Verdict::Disallowed),
        ("otherbot-7", "/other/7/x", Verdict::Disallowed),
        ("otherbot-7", "/other/7/ok", Verdict::Allowed),
    ] {
        let decision = robots.decide(agent, path);
        assert_eq!(
            decision.verdict, verdict,
            "{agent} {path}: {}",
            decision.explanation
        );
        assert_eq!(robots.is_allowed(agent, path), verdict == Verdict::Allowed);
    }

    // The late `*` group is combined with the early one, and named in the explanation.
    let decision = robots.decide("OtherBot", "/late");
    match &decision.explanation.groups {
        GroupChoice::Chosen { groups, .. } => {
            assert_eq!(groups.len(), 2);
            assert_eq!(groups[1].first_line, late_line);
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        decision.explanation.rule,
        RuleChoice::Matched { line, .. } if line == late_line + 1
    ));
}

#[test]
fn a_100_mib_body_parses() {
    // Realistic lines, a single line without a terminator, and bytes that are not text.
    let mut lines = String::from("User-agent: *\nDisallow: /first\n");
    pad_with_groups(&mut lines, 100 * KIB * KIB);
    lines.push_str("User-agent: *\nDisallow: /last\n");
    let robots = Robots::parse(Profile::Rfc9309, lines.as_bytes());
    assert!(!robots.is_allowed("x", "/first"));
    assert!(!robots.is_allowed("x", "/last"));
    assert!(robots.is_allowed("x", "/other/1/"));
    drop(robots);
    drop(lines);

    let mut one_line = b"User-agent: *\nDisallow: /a # ".to_vec();
    one_line.resize(100 * KIB * KIB, b'a');
    let robots = Robots::parse(Profile::Rfc9309, &one_line);
    assert!(!robots.is_allowed("x", "/aaaa"));
    assert!(robots.is_allowed("x", "/b"));
    drop(robots);

    let mut state: u32 = 1;
    let block: Vec<u8> = (0..KIB * KIB)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 24) as u8
        })
        .collect();
    let noise = block.repeat(100);
    let robots = Robots::parse(Profile::Rfc9309, &noise);
    let _ = robots.decide("x", "/");
}
