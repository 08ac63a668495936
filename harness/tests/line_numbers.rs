//! One body with every line terminator, walked through everything that numbers lines: the
//! reference's explanations, the rendered body, the reducer's line edits and the survey's
//! example lines. They must all name the same line by the same number.

use robotstxt_fuzzer::candidate::{split, with_line};
use robotstxt_fuzzer::{reduce, Candidate, CandidateJudge};
use robotstxt_reference::lines::{lines, raw_lines};
use robotstxt_reference::{GroupChoice, Profile, Robots, RuleChoice, Verdict};
use robotstxt_suite::blocks::{visible_body, visible_text};
use robotstxt_survey::cause::numbered_lines;

/// A byte-order mark, then a line ended by CR, one by CR LF, one holding a form feed (not a line
/// end) ended by LF, a comment line, and a last line without a terminator.
const BODY: &[u8] = b"\xEF\xBB\xBF# rules\r\
User-agent: FooBot\r\n\
Allow: /x\x0cy\n\
# the rule:\n\
Disallow: /a";

/// Each line's text as the body writes it (with the mark), by line number from 1.
const TEXTS: [&[u8]; 5] = [
    b"\xEF\xBB\xBF# rules",
    b"User-agent: FooBot",
    b"Allow: /x\x0cy",
    b"# the rule:",
    b"Disallow: /a",
];

/// The agent line and the deciding rule line of the reference's explanation.
fn explained_lines(robots: &Robots<'_>) -> (u32, u32) {
    let explanation = robots.decide("FooBot/2.1", "/a/b").explanation;
    let GroupChoice::Chosen { groups, .. } = &explanation.groups else {
        panic!("no record chosen: {explanation}");
    };
    let RuleChoice::Matched { line, .. } = explanation.rule else {
        panic!("no rule matched: {explanation}");
    };
    (groups[0].agent_line, line)
}

#[test]
fn every_terminator_numbers_lines_alike() {
    let raw: Vec<_> = raw_lines(BODY).collect();
    assert_eq!(
        raw.iter().map(|l| l.terminator).collect::<Vec<_>>(),
        [&b"\r"[..], b"\r\n", b"\n", b"\n", b""],
        "CR, CR LF and LF end lines; form feed does not; the last line has no end"
    );
    assert_eq!(raw.iter().map(|l| l.text).collect::<Vec<_>>(), TEXTS);
    assert_eq!(
        lines(BODY).map(|l| l.number).collect::<Vec<_>>(),
        raw.iter().map(|l| l.number).collect::<Vec<_>>(),
        "the profiles' lines (mark dropped) are numbered like the raw lines"
    );

    // The reference explains with line numbers: the User-agent line is 2, the rule line 5.
    for profile in Profile::ALL {
        let robots = Robots::parse(*profile, BODY);
        assert_eq!(
            robots.decide("FooBot/2.1", "/a/b").verdict,
            Verdict::Disallowed
        );
        assert_eq!(explained_lines(&robots), (2, 5), "{profile}");
    }
    let (agent_line, rule_line) = explained_lines(&Robots::parse(Profile::Rfc9309, BODY));

    // The rendered body shows each line under the same number.
    let shown = visible_body(BODY);
    for (number, text) in (1..).zip(TEXTS) {
        let row = shown
            .lines()
            .find(|row| row.starts_with(&format!("  {number:>4} │ ")))
            .unwrap_or_else(|| panic!("line {number} not rendered:\n{shown}"));
        assert!(row.contains(&visible_text(text)), "{row}");
    }
    assert!(shown.contains("     5 │ Disallow: /a  (no line ending)"));
    assert!(shown.contains("     3 │ Allow: /x␌y␊"), "{shown}");

    // The survey's example lines pick the explained lines by their numbers.
    assert_eq!(
        numbered_lines(BODY, &[agent_line, rule_line]),
        ["    2 │ User-agent: FooBot", "    5 │ Disallow: /a"]
    );

    // The reducer's line index is the line number less one: editing the explained rule line
    // by its index removes exactly that rule.
    let start = Candidate {
        body: BODY.to_vec(),
        agent: "FooBot/2.1".to_owned(),
        path: "/a/b".to_owned(),
    };
    assert_eq!(split(BODY).len(), raw.len());
    for (index, (text, terminator)) in split(BODY).into_iter().enumerate() {
        assert_eq!((text, terminator), (raw[index].text, raw[index].terminator));
    }
    let edited = with_line(&start, rule_line as usize - 1, b"Disallow: /z");
    assert_eq!(
        Robots::parse(Profile::Rfc9309, &edited.body)
            .decide("FooBot/2.1", "/a/b")
            .verdict,
        Verdict::Allowed
    );

    // A reduction keeps what the judge asks for (the deciding rule is the line the reducer
    // sees holding `/a`), and the reduced body's lines number as the reference explains it.
    let mut judge = RuleLineJudge;
    let reduced = reduce(start, &mut judge, 2_000);
    let robots = Robots::parse(Profile::Rfc9309, &reduced.body);
    let (agent_line, rule_line) = explained_lines(&robots);
    let shown = numbered_lines(&reduced.body, &[agent_line, rule_line]);
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert!(
        shown[0].to_ascii_lowercase().contains("user-agent"),
        "{shown:?}"
    );
    assert!(shown[1].contains("/a"), "{shown:?}");
}

/// Keeps a candidate when the reference still disallows its query by a rule whose line, found
/// by the reducer's own line index, holds `/a`.
struct RuleLineJudge;

impl CandidateJudge for RuleLineJudge {
    fn keeps(&mut self, batch: &[Candidate]) -> Vec<bool> {
        batch
            .iter()
            .map(|c| {
                let robots = Robots::parse(Profile::Rfc9309, &c.body);
                let decision = robots.decide(&c.agent, &c.path);
                let RuleChoice::Matched { line, .. } = decision.explanation.rule else {
                    return false;
                };
                decision.verdict == Verdict::Disallowed
                    && split(&c.body)
                        .get(line as usize - 1)
                        .is_some_and(|(text, _)| text.ends_with(b"/a"))
            })
            .collect()
    }
}
