//! Each misreading named where a parser's answer shows it, and nowhere else.

use super::*;
use Profile::{Norobots1994 as N1994, Rfc9309 as Rfc};
use Verdict::{Allowed, Disallowed};

fn cause(profile: Profile, body: &str, agent: &str, path: &str, theirs: Verdict) -> Option<Cause> {
    explaining(profile, body.as_bytes(), agent, path, theirs)
}

#[test]
fn each_bug_is_named_where_the_answer_shows_it() {
    let rfc = |body, agent, path, theirs| cause(Rfc, body, agent, path, theirs);
    assert_eq!(
        rfc(
            "User-agent: *\nDisallow: /\n\n#User-agent: FooBot\nDisallow: /b\n",
            "FooBot",
            "/a",
            Allowed
        ),
        Some(Cause::CommentLineRead)
    );
    assert_eq!(
        rfc(
            "User-agent: *\nDisallow: /a # old\n",
            "FooBot",
            "/a",
            Allowed
        ),
        Some(Cause::CommentKeptInValue)
    );
    assert_eq!(
        rfc("User-agent: *\nDisallow : /a\n", "FooBot", "/a", Allowed),
        Some(Cause::SpaceBeforeColon)
    );
    assert_eq!(
        rfc(
            "User-agent: *\nDisallow: /\n\nUser agent: FooBot\nDisallow: /b\n",
            "FooBot",
            "/a",
            Allowed
        ),
        Some(Cause::MisspelledUserAgent)
    );
    assert_eq!(
        rfc(
            "User-agent: *\nDisallow: /a\u{2028}Disallow: /b\n",
            "FooBot",
            "/b",
            Disallowed
        ),
        Some(Cause::OtherLineBreaks)
    );
    assert_eq!(
        rfc(
            "User-agent: *\nDisallow:\u{a0}/a\n",
            "FooBot",
            "/a",
            Disallowed
        ),
        Some(Cause::OtherWhiteSpaceTrimmed)
    );
    assert_eq!(
        rfc("User-agent: *\nDisallow: /p;x\n", "FooBot", "/p;x", Allowed),
        Some(Cause::PathParamsDropped)
    );
    assert_eq!(
        rfc(
            "User-agent: *\nDisallow: /p$\n",
            "FooBot",
            "/p;x",
            Disallowed
        ),
        Some(Cause::PathParamsDropped)
    );
    assert_eq!(
        rfc(
            "User-agent: *\nDisallow: /p$\n",
            "FooBot",
            "/p?x",
            Disallowed
        ),
        Some(Cause::QueryDropped)
    );
    assert_eq!(
        cause(
            N1994,
            "User-agent: *\nDisallow: /a?\n",
            "FooBot",
            "/a",
            Disallowed
        ),
        Some(Cause::EmptyQueryDropped)
    );
    assert_eq!(
        rfc(
            "User-agent: Foo\nDisallow: /a\n",
            "FooBot",
            "/a",
            Disallowed
        ),
        Some(Cause::PartOfTokenNamesRobot)
    );
    assert_eq!(
        rfc(
            "User-agent: Foo*\nDisallow: /a\n",
            "FooBot",
            "/a",
            Disallowed
        ),
        Some(Cause::StarInAgentName)
    );
    assert_eq!(
        rfc(
            "User-agent: FooBot\nCrawl-delay: 5\nUser-agent: BarBot\nDisallow: /a\n",
            "FooBot",
            "/a",
            Allowed
        ),
        Some(Cause::OtherFieldEndsAgentLines)
    );
    assert_eq!(
        rfc(
            "User-agent: *\nAllow: /\nDisallow: /a\n",
            "FooBot",
            "/a",
            Allowed
        ),
        Some(Cause::FirstMatchWins)
    );
    assert_eq!(
        cause(
            N1994,
            "User-agent: *\nAllow: /\nDisallow: /a\n",
            "FooBot",
            "/a",
            Allowed
        ),
        Some(Cause::AllowRead)
    );
    assert_eq!(
        rfc(
            "User-agent: *\nDisallow: /\nAllow: /a\n",
            "FooBot",
            "/a",
            Disallowed
        ),
        Some(Cause::AllowIgnored)
    );
    assert_eq!(
        cause(
            N1994,
            "User-agent: *\nDisallow: /%7Ea\n",
            "FooBot",
            "/~a",
            Disallowed
        ),
        Some(Cause::PercentDecoded)
    );
    assert_eq!(
        rfc("User-agent: *\nDisallow: /~a\n", "FooBot", "/%7Ea", Allowed),
        Some(Cause::PercentNotDecoded)
    );
    assert_eq!(
        cause(
            N1994,
            "User-agent: *\nDisallow: /a\tb\n",
            "FooBot",
            "/ab",
            Disallowed
        ),
        Some(Cause::TabInValueDropped)
    );
}

#[test]
fn nothing_is_named_where_no_misreading_gives_the_answer() {
    // The same answer as the reference: nothing to explain.
    assert_eq!(
        cause(
            Rfc,
            "User-agent: *\nDisallow: /a # c\n",
            "FooBot",
            "/a",
            Disallowed
        ),
        None
    );
    // A body with none of the features: a wrong answer no misreading gives.
    assert_eq!(
        cause(
            Rfc,
            "User-agent: *\nDisallow: /a\n",
            "FooBot",
            "/b",
            Disallowed
        ),
        None
    );
}
