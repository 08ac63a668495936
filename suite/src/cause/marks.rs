//! What is unusual about a whole body: the marks that are a cause wherever they stand, read with
//! the reference's own line splitter.

use robotstxt_reference::lines::{raw_lines, BOM};

use super::Cause;

/// What is unusual about a body. Computed once per body; the survey and `compare` show it, and
/// [`of_decision`](super::of_decision) reads it first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BodyMarks {
    /// A line ended by a lone CR (1994, *Format*: "terminated by CR,CR/NL, or NL").
    pub lone_cr: bool,
    /// A UTF-8 byte-order mark at the start.
    pub bom: bool,
    pub nul: bool,
    pub not_utf8: bool,
    /// The first thing after white space (and a byte-order mark) is `<`: an HTML page.
    pub html: bool,
    /// White space other than SP, HT, CR and LF (form feed, vertical tab, NEL, no-break space,
    /// U+2028...), or one of the controls FS, GS, RS and US, which some parsers take for white
    /// space or the end of a line.
    pub other_white_space: bool,
}

impl BodyMarks {
    pub fn of(body: &[u8]) -> BodyMarks {
        let bom = body.starts_with(BOM);
        let text = if bom { &body[BOM.len()..] } else { body };
        BodyMarks {
            lone_cr: raw_lines(body).any(|line| line.terminator == b"\r"),
            bom,
            nul: body.contains(&0),
            not_utf8: std::str::from_utf8(body).is_err(),
            html: text
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|&b| b == b'<'),
            other_white_space: String::from_utf8_lossy(text)
                .chars()
                .any(is_other_white_space),
        }
    }

    /// The marks that are causes wherever they stand, most telling first: lone CRs, a
    /// byte-order mark, NUL bytes, bytes that are not UTF-8, an HTML page. Other white space is
    /// not among them: it is read later, after what decided (see [`super::of_decision`]).
    pub fn leading_causes(self) -> impl Iterator<Item = Cause> {
        [
            (self.lone_cr, Cause::LoneCr),
            (self.bom, Cause::ByteOrderMark),
            (self.nul, Cause::Nul),
            (self.not_utf8, Cause::NotUtf8),
            (self.html, Cause::HtmlPage),
        ]
        .into_iter()
        .filter_map(|(on, cause)| on.then_some(cause))
    }

    /// Every mark, as the causes' labels: what the survey and `compare` print.
    pub fn describe(self) -> Vec<&'static str> {
        let other = self.other_white_space.then_some(Cause::OtherWhiteSpace);
        self.leading_causes()
            .chain(other)
            .map(Cause::label)
            .collect()
    }
}

/// White space beyond the SP, HT, CR and LF both texts know, and the information separators
/// (FS, GS, RS, US) that Unicode line breaking treats as paragraph or segment separators.
fn is_other_white_space(c: char) -> bool {
    !matches!(c, ' ' | '\t' | '\r' | '\n') && (c.is_whitespace() || ('\x1c'..='\x1f').contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_of_bodies() {
        let marks = BodyMarks::of(b"User-agent: *\rDisallow: /\n");
        assert!(marks.lone_cr && !marks.bom && !marks.other_white_space);
        assert!(
            !BodyMarks::of(b"a: 1\r\nb: 2\r\n").lone_cr,
            "CR LF is one line end"
        );
        let marks = BodyMarks::of(b"\xEF\xBB\xBF \n<html>\x00");
        assert!(marks.bom && marks.html && marks.nul && !marks.not_utf8);
        assert_eq!(
            marks.describe(),
            ["a byte-order mark", "NUL bytes", "an HTML page"]
        );
        assert!(BodyMarks::of(b"Disallow: /\xE9").not_utf8);
        for odd in ["\x0c", "\x0b", "\u{85}", "\u{a0}", "\u{2028}", "\x1e"] {
            let body = format!("User-agent: *\nDisallow: /a{odd}Disallow: /b\n");
            assert!(BodyMarks::of(body.as_bytes()).other_white_space, "{odd:?}");
        }
        assert_eq!(
            BodyMarks::of(b"User-agent: *\n\tDisallow: /\n"),
            BodyMarks::default()
        );
    }
}
