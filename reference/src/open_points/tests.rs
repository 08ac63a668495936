//! Which open points the finder reports, query by query, under each profile, and that a point
//! is reported only where one of its readings changes the verdict.

use super::*;

fn open(profile: Profile, body: &str, agent: &str, path: &str) -> Vec<&'static str> {
    open_points(profile, body.as_bytes(), agent, path)
        .into_iter()
        .map(OpenPoint::name)
        .collect()
}

fn open94(body: &str, agent: &str, path: &str) -> Vec<&'static str> {
    open(Profile::Norobots1994, body, agent, path)
}

#[test]
fn a_plain_file_is_settled() {
    let body = "User-agent: FooBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n";
    for (agent, path) in [
        ("FooBot", "/a"),
        ("FooBot", "/b"),
        ("BarBot", "/b"),
        ("BarBot", "/a"),
    ] {
        assert!(open94(body, agent, path).is_empty(), "{agent} {path}");
        assert!(
            open(Profile::Rfc9309, body, agent, path).is_empty(),
            "{agent} {path}"
        );
    }
}

#[test]
fn open_points_reach_only_the_queries_they_change() {
    // The byte-order mark decides FooBot's /a, not anybody's /b.
    let body = "\u{feff}User-agent: FooBot\nDisallow: /a\n";
    assert_eq!(open94(body, "FooBot", "/a"), ["byte-order-mark"]);
    assert!(open94(body, "FooBot", "/b").is_empty());
    // Substring direction: only the robot whose name the value contains.
    let body = "User-agent: FooBot BarBot\nDisallow: /a\n";
    assert_eq!(open94(body, "BarBot", "/a"), ["substring-direction"]);
    assert!(open94(body, "BazBot", "/a").is_empty());
    assert!(open94(body, "FooBot", "/b").is_empty());
}

#[test]
fn record_structure_points() {
    let body = "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n";
    assert_eq!(open94(body, "b", "/x"), ["user-agent-after-disallow"]);
    assert!(open94(body, "c", "/x").is_empty());
    let body = "User-agent: FooBot\n\nDisallow: /a\n";
    assert!(open94(body, "FooBot", "/a").contains(&"disallow-outside-record"));
    let body = "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n";
    assert_eq!(open94(body, "BarBot", "/b"), ["several-star-records"]);
    let body = "User-agent: FooBot\n\nUser-agent: *\nDisallow: /a\n";
    assert_eq!(open94(body, "FooBot", "/a"), ["record-without-disallow"]);
    let body = "User-agent: FooBot\nDisallow:\nDisallow: /a\n";
    assert_eq!(
        open94(body, "FooBot", "/a"),
        ["empty-and-non-empty-disallow"]
    );
}

#[test]
fn bytes_and_syntax_points() {
    // The 1994 text ends lines at CR and NL only and gives NUL no other meaning; RFC 9309's
    // grammar has no control characters, so there it is open.
    let nul = "User-agent: FooBot\nDisallow: /a\0b\n";
    assert!(open94(nul, "FooBot", "/a").is_empty());
    assert!(open(Profile::Rfc9309, nul, "FooBot", "/a").contains(&"nul"));
    // A line without a colon is not blank: the record goes on past it.
    assert!(open94(
        "User-agent: FooBot\nno colon\nDisallow: /b\n",
        "FooBot",
        "/b"
    )
    .is_empty());
    assert_eq!(
        open94("User-agent: FooBot\nDisallow /a\n", "FooBot", "/a"),
        ["missing-colon"]
    );
    assert_eq!(
        open94("User-agent: FooBot\n Disallow: /a\n", "FooBot", "/a"),
        ["loose-field-syntax"]
    );
    assert_eq!(
        open94("User-agent: FooBot\nDisallow:\x0c/a\n", "FooBot", "/a"),
        ["other-white-space"]
    );
    let latin1 = b"User-agent: FooBot\nDisallow: /caf\xe9\n";
    assert!(!open_points(Profile::Norobots1994, latin1, "FooBot", "/caf%E9").is_empty());
}

#[test]
fn rfc9309_points() {
    let rfc = |body: &str, agent: &str, path: &str| open(Profile::Rfc9309, body, agent, path);
    assert_eq!(
        rfc("User-agent: FooBot\nDisalow: /a\n", "FooBot", "/a"),
        ["misspelling"]
    );
    // Settled by §2.2.1 and §2.2.2: whole product tokens, and an empty value matches nothing;
    // and the SHOULDs the corpus scores: case-sensitive paths, rules outside any group ignored.
    assert!(rfc("User-agent: foo\nDisallow: /a\n", "FooBot", "/a").is_empty());
    assert!(rfc("User-agent: *\nDisallow:\n", "FooBot", "/a").is_empty());
    assert!(rfc("User-agent: *\nDisallow: /A\n", "FooBot", "/a").is_empty());
    assert!(rfc(
        "Disallow: /a\nUser-agent: *\nDisallow: /b\n",
        "FooBot",
        "/a"
    )
    .is_empty());
    // How a caller derives a token from `FooBot/2.1` is open, whatever the body says.
    assert_eq!(
        rfc("User-agent: *\nDisallow: /a\n", "FooBot/2.1", "/a"),
        ["product-token"]
    );
    assert!(rfc("User-agent: *\nDisallow: /a\n", "FooBot", "/a").is_empty());
    // `/*` beats `/` by the reference's count, ties it without the `*`: open.
    assert_eq!(
        rfc("User-agent: *\nDisallow: /*\nAllow: /\n", "FooBot", "/x"),
        ["match-length"]
    );
    // Counted any way, `/ab` is at least as long as `/a*`: settled.
    assert!(rfc(
        "User-agent: *\nDisallow: /a*\nAllow: /ab\n",
        "FooBot",
        "/ab"
    )
    .is_empty());
    // Unreserved characters are decoded on both sides (Figure 4); reserved ones in the path are
    // a choice.
    assert!(rfc("User-agent: *\nDisallow: /%7Ea\n", "FooBot", "/~a").is_empty());
    assert_eq!(
        rfc("User-agent: *\nDisallow: /a%2Fb\n", "FooBot", "/a/b"),
        ["percent-encoding"]
    );
    // Inside the query a second `?` is data (`%3F`) for the reference; compared as written, the
    // rule matches: the decision is open.
    assert!(
        rfc("User-agent: *\nDisallow: /*?b\n", "FooBot", "/p?a?b").contains(&"percent-encoding")
    );
    // Both spellings alike: settled.
    assert!(rfc(
        "User-agent: *\nDisallow: /p?u=http://x\n",
        "FooBot",
        "/p?u=http://x/y"
    )
    .is_empty());
}

#[test]
fn values_that_are_not_paths_are_open_when_a_reading_changes_the_verdict() {
    // Read as `/a` or as the URL's path `/a`, the value disallows `/a`; read as written, not.
    let slashless = "User-agent: *\nDisallow: a\n";
    let url = "User-agent: *\nDisallow: http://example.com/a\n";
    // Under the 1994 text no URL starts with `a`: settled. A full URL names the URL it starts.
    assert!(open94(slashless, "FooBot", "/a").is_empty());
    assert!(open94(url, "FooBot", "/a").contains(&"value-not-a-path"));
    let rfc = |body| open(Profile::Rfc9309, body, "FooBot", "/a");
    assert!(rfc(slashless).contains(&"pattern-not-a-path"));
    assert!(rfc(url).contains(&"pattern-not-a-path"));
    // No reading makes `/b` match either value.
    assert!(!open94(url, "FooBot", "/b").contains(&"value-not-a-path"));
    assert!(!open(Profile::Rfc9309, url, "FooBot", "/b").contains(&"pattern-not-a-path"));
}

#[test]
fn a_point_present_does_not_hide_the_readings_that_change_the_verdict() {
    // `FooBot/1.0` is not a product token (reported as present), and the encoded `/` is a
    // reading that changes the verdict: both are reported.
    let body = "User-agent: FooBot\nDisallow: /a%2Fb\n";
    assert_eq!(
        open(Profile::Rfc9309, body, "FooBot/1.0", "/a/b"),
        ["product-token", "percent-encoding"]
    );
}

#[test]
fn a_byte_order_mark_inside_a_line_is_read_away_from_that_line_alone() {
    // Kept, the mark is part of the rule, which then matches no path `/a...`; dropped, the
    // rule is `/a`.
    let body = "User-agent: *\nDisallow: /\u{feff}a\n";
    assert_eq!(
        open(Profile::Rfc9309, body, "FooBot", "/a"),
        ["byte-order-mark"]
    );
    assert_eq!(
        replace(b"a\xEF\xBB\xBFb\xEF\xBB\xBF", layout::BOM, b""),
        b"ab"
    );
}

#[test]
fn an_encoded_hash_in_the_query_is_no_sub_delimiter() {
    // Only the query's sub-delimiters have another reading; `%23` stays `#` as written, which
    // settles `/p?x` against `/p?x%23` (decoded, it would start a comment).
    let body = "User-agent: *\nDisallow: /p?x%23\n";
    assert!(open(Profile::Rfc9309, body, "FooBot", "/p?x").is_empty());
}
