use std::collections::HashSet;

use robotstxt_reference::{Profile, Robots};

use super::*;

use Profile::{Norobots1994 as N1994, Rfc9309 as Rfc};

/// Every cause reads back from its id and from its label, and no two share either: a label in an
/// expectation file names exactly one cause.
#[test]
fn ids_and_labels_are_unique_and_parse_back() {
    let (mut ids, mut labels) = (HashSet::new(), HashSet::new());
    for cause in Cause::ALL {
        assert!(ids.insert(cause.id()), "id {} twice", cause.id());
        assert!(
            labels.insert(cause.label()),
            "label {} twice",
            cause.label()
        );
        assert!(
            cause
                .id()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{} is not kebab-case",
            cause.id()
        );
        assert_eq!(cause.id().parse::<Cause>(), Ok(cause));
        assert_eq!(cause.label().parse::<Cause>(), Ok(cause));
        assert_eq!(cause.to_string(), cause.label());
    }
    let error = "a cause nobody wrote".parse::<Cause>().unwrap_err();
    assert!(error
        .to_string()
        .contains("unknown cause `a cause nobody wrote`"));
    assert!(error.to_string().contains("lone-cr"), "{error}");
}

/// Expectation files written before the causes were typed carry these labels; they read as the
/// same causes.
#[test]
fn the_labels_of_committed_files_still_read() {
    let committed = [
        ("rejects a body that is not UTF-8", Cause::RejectsNotUtf8),
        ("rejects the body", Cause::RejectsBody),
        ("refuses the query (or its URL)", Cause::RefusesQuery),
        ("the adapter crashes", Cause::Crashes),
        ("no answer in time", Cause::TimesOut),
        ("the adapter breaks the protocol", Cause::BreaksProtocol),
        ("the answer varies from run to run", Cause::Unstable),
        ("CR-only line endings", Cause::LoneCr),
        ("a byte-order mark", Cause::ByteOrderMark),
        ("NUL bytes", Cause::Nul),
        ("bytes that are not UTF-8", Cause::NotUtf8),
        (
            "/robots.txt is implicitly allowed",
            Cause::ImplicitRobotsTxt,
        ),
        ("a rule with `*` or `$` decides", Cause::WildcardDecides),
        ("an Allow line decides", Cause::AllowDecides),
        (
            "several rules match: the longest decides, not the first",
            Cause::LongestMatch,
        ),
        (
            "percent-encoding in the rule or the path",
            Cause::PercentEncoding,
        ),
        ("an Allow line matches the path too", Cause::AllowMatches),
        (
            "a query string (`?`) in the rule or the path",
            Cause::QueryString,
        ),
        (
            "the robot's name carries a version or more words (`FooBot/2.1`)",
            Cause::AgentVersion,
        ),
        ("no record applies to the robot", Cause::NoRecord(N1994)),
        ("no group applies to the robot", Cause::NoRecord(Rfc)),
        (
            "several groups for the robot, combined",
            Cause::SeveralRecords(Rfc),
        ),
        ("the `*` record applies", Cause::StarRecord(N1994)),
        ("the `*` group applies", Cause::StarRecord(Rfc)),
        (
            "a record naming the robot applies",
            Cause::NamedRecord(N1994),
        ),
        ("a group naming the robot applies", Cause::NamedRecord(Rfc)),
    ];
    for (label, cause) in committed {
        assert_eq!(label.parse::<Cause>(), Ok(cause), "{label}");
    }
}

/// Every cause but an adapter's fault comes from a clause of each profile's text, quoted as a
/// case's `spec` quotes one.
#[test]
fn every_cause_of_a_body_has_a_clause() {
    for cause in Cause::ALL {
        for profile in Profile::ALL.iter().copied() {
            let clause = cause.clause(profile);
            assert_eq!(clause.is_none(), cause.is_adapter_fault(), "{cause:?}");
            let Some(clause) = clause else { continue };
            assert!(!clause.quote.is_empty() && !clause.section.is_empty());
            let spec = clause.spec();
            assert!(
                spec.starts_with(clause.section) && spec.ends_with('"'),
                "{spec}"
            );
            if cause.is_record_fallback() {
                assert_eq!(clause.open_point, None, "{cause:?} is settled");
            }
        }
    }
    assert_eq!(
        Cause::WildcardRule.clause(Rfc).map(|c| c.spec()).as_deref(),
        Some("RFC 9309 2.2.3: \"* Designates 0 or more instances of any character.\"")
    );
    assert_eq!(
        Cause::ByteOrderMark
            .clause(N1994)
            .and_then(|c| c.open_point),
        Some(robotstxt_reference::open_points::OpenPoint::ByteOrderMark)
    );
}

fn cause_of(profile: Profile, body: &str, agent: &str, path: &str) -> Cause {
    let decision = Robots::parse(profile, body.as_bytes()).decide(agent, path);
    of_decision(&BodyMarks::of(body.as_bytes()), path, &decision)
}

/// One body per cause a decision can have, each reading as that cause and nothing more telling.
#[test]
fn each_cause_from_a_body_that_shows_it() {
    let table: &[(Profile, &str, &str, &str, Cause)] = &[
        (
            N1994,
            "User-agent: *\rDisallow: /a\r",
            "x",
            "/a",
            Cause::LoneCr,
        ),
        (
            N1994,
            "\u{feff}User-agent: *\nDisallow: /a\n",
            "x",
            "/a",
            Cause::ByteOrderMark,
        ),
        (
            Rfc,
            "User-agent: *\nDisallow: /a\0\n",
            "x",
            "/a",
            Cause::Nul,
        ),
        (
            N1994,
            "<html><body>404</body></html>\n",
            "x",
            "/a",
            Cause::HtmlPage,
        ),
        (
            Rfc,
            "User-agent: *\nDisallow: /\n",
            "x",
            "/robots.txt",
            Cause::ImplicitRobotsTxt,
        ),
        (
            Rfc,
            "User-agent: *\nDisallow: /*.gif\n",
            "x",
            "/a.gif",
            Cause::WildcardDecides,
        ),
        (
            Rfc,
            "User-agent: *\nDisallow: /a\nAllow: /a/b\n",
            "x",
            "/a/b",
            Cause::AllowDecides,
        ),
        (
            Rfc,
            "User-agent: *\nDisallow: /a\nDisallow: /a/b\n",
            "x",
            "/a/b/c",
            Cause::LongestMatch,
        ),
        (
            N1994,
            "User-agent: *\nDisallow: /%7Ea\n",
            "x",
            "/~a",
            Cause::PercentEncoding,
        ),
        (
            N1994,
            "User-agent: *\nAllow: /a/b\nDisallow: /a\n",
            "x",
            "/a/b",
            Cause::AllowMatches,
        ),
        (
            N1994,
            "User-agent: *\nDisallow: /a?b\n",
            "x",
            "/a?b",
            Cause::QueryString,
        ),
        (
            N1994,
            "User-agent: foobot\nDisallow: /a\n",
            "FooBot/2.1",
            "/a",
            Cause::AgentVersion,
        ),
        (
            Rfc,
            "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n",
            "a",
            "/y",
            Cause::SeveralRecords(Rfc),
        ),
        (
            N1994,
            "User-agent: *\nDisallow: /a\u{2028}b\n",
            "x",
            "/a",
            Cause::OtherWhiteSpace,
        ),
        (
            N1994,
            "User-agent: *\nDisallow: /a*b\n",
            "x",
            "/ab",
            Cause::WildcardRule,
        ),
        (
            N1994,
            "User-agent: *\nDisallow: /a\n\nUser-agent: a\nDisallow: /b\n",
            "a",
            "/a",
            Cause::StarPassedOver(N1994),
        ),
        (
            N1994,
            "User-agent: foo\nDisallow: /a\n",
            "foobot",
            "/a",
            Cause::PartOfName,
        ),
        (
            Rfc,
            "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /a\n",
            "a",
            "/a",
            Cause::OtherField(Rfc),
        ),
        (
            N1994,
            "User-agent: a\nAllow: /x\nUser-agent: b\nDisallow: /\n",
            "a",
            "/b",
            Cause::OtherField(N1994),
        ),
        (
            Rfc,
            "User-agent: a\n\nUser-agent: b\nDisallow: /a\n",
            "a",
            "/a",
            Cause::BlankLine(Rfc),
        ),
        (
            N1994,
            "User-agent: a\n\nUser-agent: b\nDisallow: /a\n",
            "a",
            "/a",
            Cause::BlankLine(N1994),
        ),
        (
            N1994,
            "User-agent: a\nDisallow:\n",
            "a",
            "/a",
            Cause::EmptyRule,
        ),
        (
            N1994,
            "User-agent: a\nDisallow: tmp/\n",
            "a",
            "/tmp/",
            Cause::RuleNotAPath,
        ),
        (
            Rfc,
            "Disallow: /a\nUser-agent: b\nDisallow: /b\n",
            "a",
            "/a",
            Cause::RuleOutside(Rfc),
        ),
        (
            Rfc,
            "User-agent: *\nDisallow: /caf\u{e9}\n",
            "x",
            "/caf\u{e9}",
            Cause::PercentEncoding,
        ),
        (
            N1994,
            "User-agent: *\nDisallow: /a/./b\n",
            "x",
            "/a/./b",
            Cause::DotSegments,
        ),
        (
            N1994,
            "User-agent: a\nDisallow: /a\nUser-agent: b\nDisallow: /b\n",
            "a",
            "/b",
            Cause::UserAgentAfterRule(N1994),
        ),
        (
            N1994,
            "User-agent: a\nDisallow: /a\n",
            "a",
            "/b",
            Cause::NamedRecord(N1994),
        ),
        (
            Rfc,
            "User-agent: *\nDisallow: /a\n",
            "x",
            "/a",
            Cause::StarRecord(Rfc),
        ),
        (
            Rfc,
            "User-agent: a\nDisallow: /a\n",
            "x",
            "/a",
            Cause::NoRecord(Rfc),
        ),
        (N1994, "", "x", "/a", Cause::NoRecord(N1994)),
    ];
    for &(profile, body, agent, path, cause) in table {
        assert_eq!(
            cause_of(profile, body, agent, path),
            cause,
            "{profile} {body:?} {agent} {path}"
        );
    }
    let not_utf8 = Robots::parse(N1994, b"Disallow: /\xE9\n").decide("x", "/");
    assert_eq!(
        of_decision(&BodyMarks::of(b"Disallow: /\xE9\n"), "/", &not_utf8),
        Cause::NotUtf8
    );
}

/// An Allow line is a rule under RFC 9309 and a field the 1994 text does not know; either way a
/// parser that reads it follows it where it matches.
#[test]
fn an_allow_line_matches_under_either_profile() {
    let body = b"User-agent: *\nDisallow: /\nAllow: /a*\n";
    for profile in Profile::ALL.iter().copied() {
        let robots = Robots::parse(profile, body);
        let matches = |path| allow_matches(&robots.decide("x", path).explanation, path);
        assert!(matches("/ab"), "{profile}");
        assert!(!matches("/b"), "{profile}");
    }
}
