//! The blocks of text that show cases and results to people: bodies with their bytes made
//! visible, failure blocks, and decision-table diffs.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use robotstxt_reference::lines::raw_lines;
use robotstxt_reference::{Profile, Robots};
use similar::{ChangeTag, TextDiff};

use crate::cases::Case;
use crate::run::{CheckResult, Outcome};
use crate::visible::{cut_long_words, cut_middle, is_hidden, shown};

/// Lines shown before a long body is cut short.
const MAX_LINES: usize = 40;
/// Characters shown of one line before it is cut short.
pub const MAX_LINE_CHARS: usize = 160;
/// Characters shown of one value (an agent, a path, a rule quoted in an explanation) before it is
/// cut in the middle.
pub const MAX_VALUE_CHARS: usize = 120;

/// The body with line numbers and every invisible byte made visible: `␍` CR, `␊` LF, `␉` TAB,
/// `␀` NUL and the other control pictures, `<BOM>` for U+FEFF, `<U+202E>` for C1 and
/// bidirectional controls, `\xFF` for bytes that are not UTF-8. Lines are numbered by [`raw_lines`], as the reference numbers them.
pub fn visible_body(body: &[u8]) -> String {
    if body.is_empty() {
        return "      (empty file, 0 bytes)\n".to_owned();
    }
    let mut out = String::new();
    let mut number = 0;
    for line in raw_lines(body) {
        number = line.number;
        if number as usize <= MAX_LINES {
            let terminator = match line.terminator {
                b"\r\n" => "␍␊",
                b"\r" => "␍",
                b"\n" => "␊",
                _ => "",
            };
            let _ = write!(
                out,
                "  {number:>4} │ {}{terminator}",
                visible_text(line.text)
            );
            if terminator.is_empty() {
                out.push_str("  (no line ending)");
            }
            out.push('\n');
        }
    }
    let number = number as usize;
    if number > MAX_LINES {
        let _ = writeln!(out, "       … {} more lines", number - MAX_LINES);
    }
    out
}

/// One line's text with invisible characters shown, cut at [`MAX_LINE_CHARS`].
pub fn visible_text(line: &[u8]) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for chunk in line.utf8_chunks() {
        for c in chunk.valid().chars() {
            if shown == MAX_LINE_CHARS {
                let _ = write!(out, "…(line is {} bytes)", line.len());
                return out;
            }
            shown += 1;
            match c {
                '\u{feff}' => out.push_str("<BOM>"),
                '\t' => out.push('␉'),
                '\u{7f}' => out.push('␡'),
                c if (c as u32) < 0x20 => {
                    out.push(char::from_u32(0x2400 + c as u32).unwrap_or('?'))
                }
                // C1 controls and bidirectional controls (a U+202E in a comment line would
                // reorder what follows it on the reader's screen).
                c if is_hidden(c) => {
                    let _ = write!(out, "<U+{:04X}>", c as u32);
                }
                c => out.push(c),
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02X}");
            shown += 1;
        }
    }
    out
}

/// A full account of one check that did not pass: the case, its body, the query, expected
/// against actual, and the reference's explanation under the profile that scored it.
pub fn failure_block(case: &Case, result: &CheckResult) -> String {
    let check = &case.checks[result.check];
    let profile = result.scored_under.unwrap_or(Profile::Norobots1994);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}#{} — {} (scored under {})",
        case.id, result.check, result.outcome, profile
    );
    let _ = writeln!(
        out,
        "  spec: {}",
        case.spec_for(profile)
            .map_or_else(|| case.spec.shown(), shown)
    );
    for reading in result.rests_on.iter() {
        let _ = writeln!(
            out,
            "  reading: {reading} ({}), scored apart from the decided checks",
            reading.summary()
        );
    }
    if let Some(note) = &case.note {
        let _ = writeln!(out, "  note: {}", note.shown().trim());
    }
    let _ = writeln!(out, "  robots.txt ({} bytes):", case.robots.len());
    out.push_str(&visible_body(&case.robots));
    // What the parser was handed beside the agent, so that a convention problem (a version
    // kept, a digit dropped) shows at first sight.
    let handed = result.handed.as_ref().map_or_else(String::new, |h| {
        format!(", handed `{}`", shown(&cut_middle(h, MAX_VALUE_CHARS)))
    });
    let _ = writeln!(
        out,
        "  query: agent `{}`{handed}, path `{}`",
        cut_middle(&check.agent, MAX_VALUE_CHARS),
        cut_middle(&check.path, MAX_VALUE_CHARS)
    );
    let expected = result
        .expected
        .map_or("(none)".to_owned(), |e| e.to_string());
    let actual = result
        .actual
        .map_or_else(|| result.outcome.to_string(), |v| v.as_str().to_owned());
    let _ = writeln!(out, "  expected: {expected}\n  actual:   {actual}");
    if let Some(detail) = &result.detail {
        let detail = cut_long_words(detail.raw(), MAX_VALUE_CHARS);
        let _ = writeln!(out, "  detail: {}", indent_tail(&shown(&detail)));
    }
    let decision = Robots::parse(profile, &case.robots).decide(&check.agent, &check.path);
    let explanation = decision.explanation.to_string();
    let _ = writeln!(
        out,
        "  reference: {} — {}",
        decision.verdict,
        shown(&cut_long_words(&explanation, MAX_VALUE_CHARS))
    );
    out
}

fn indent_tail(text: &str) -> String {
    text.trim_end().replace('\n', "\n          ")
}

/// The case's decision table as the expectations give it and as the engine answered, diffed line
/// by line; `color` adds ANSI colours (red for what was expected, green for what came instead).
pub fn decision_diff(case: &Case, results: &[&CheckResult], color: bool) -> String {
    let row = |r: &CheckResult, answer: String| {
        let c = &case.checks[r.check];
        format!("#{} {} {} → {answer}\n", r.check, c.agent, c.path)
    };
    let expected: String = results
        .iter()
        .map(|r| row(r, r.expected.map_or("(none)".into(), |e| e.to_string())))
        .collect();
    let actual: String = results
        .iter()
        .map(|r| {
            let answer = match (r.actual, r.outcome) {
                (_, Outcome::Unspecified) => r.expected.map_or("(none)".into(), |e| e.to_string()),
                (Some(v), _) => v.to_string(),
                (None, outcome) => outcome.to_string(),
            };
            row(r, answer)
        })
        .collect();
    let coloured = |colour: AnsiColor| {
        let style = Style::new();
        if color {
            style.fg_color(Some(colour.into()))
        } else {
            style
        }
    };
    let mut out = String::from("  decision table (- expected, + actual):\n");
    for change in TextDiff::from_lines(&expected, &actual).iter_all_changes() {
        let (sign, style) = match change.tag() {
            ChangeTag::Delete => ("-", coloured(AnsiColor::Red)),
            ChangeTag::Insert => ("+", coloured(AnsiColor::Green)),
            ChangeTag::Equal => (" ", Style::new()),
        };
        // A plain style renders as nothing, before and after.
        let _ = write!(out, "    {style}{sign} {}{style:#}", change.value());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Reply;
    use crate::run::{score, Scoring};
    use robotstxt_reference::Verdict;

    #[test]
    fn the_diff_is_coloured_only_when_asked() {
        let yaml = "cases:\n- name: a\n  spec: s\n  robots: \"User-agent: *\\nDisallow: /\\n\"\n  \
                    checks:\n  - {agent: a, path: /, expect: disallowed}\n";
        let case = &crate::cases::parse_file(yaml, std::path::Path::new("t.yaml"), "t").unwrap()[0];
        let reply = Ok(Reply::Verdicts(vec![Verdict::Allowed]));
        let results = score(0, case, &reply, Scoring::Claimed(None));
        let results: Vec<&CheckResult> = results.iter().collect();
        let plain = decision_diff(case, &results, false);
        assert!(plain.contains("    - #0 a / → disallowed\n"), "{plain}");
        assert!(!plain.contains('\x1b'), "{plain}");
        let coloured = decision_diff(case, &results, true);
        assert!(
            coloured.contains("    \x1b[31m- #0 a / → disallowed\n\x1b[0m")
                && coloured.contains("    \x1b[32m+ #0 a / → allowed\n\x1b[0m"),
            "{coloured:?}"
        );
    }

    #[test]
    fn every_invisible_byte_shows() {
        let shown = visible_body(b"\xEF\xBB\xBFa\tb\0\r\r\nc\xFF\nd");
        assert_eq!(
            shown,
            "     1 │ <BOM>a␉b␀␍\n     2 │ ␍␊\n     3 │ c\\xFF␊\n     4 │ d  (no line ending)\n"
        );
        // A comment line's bidi override and a C1 control show as code points.
        assert_eq!(
            visible_text("# a\u{202e}b\u{9b}c".as_bytes()),
            "# a<U+202E>b<U+009B>c"
        );
    }
}
