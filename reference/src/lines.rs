//! Line splitting and comment handling, shared by every profile.
//!
//! Both texts agree on this layer:
//!
//! - 1994, *Format*: lines are "terminated by CR, CR/NL, or NL"; RFC 9309 §2.2: `NL = %x0D / %x0A /
//!   %x0D.0A`. The terminators may be mixed freely in one file, so `CR CR NL` ends two lines (the
//!   second one empty) and `NL CR` ends two lines as well.
//! - 1994, *Format*: "the '#' character is used to indicate that preceding space (if any) and the
//!   remainder of the line up to the line termination is discarded"; RFC 9309 §2.2.3 likewise
//!   designates `#` as a line comment. A `#` is a comment wherever it stands, also inside a value.
//! - 1994, *Format*: "Lines containing only a comment are discarded completely, and therefore do not
//!   indicate a record boundary." They are reported as [`LineKind::CommentOnly`] so each profile
//!   can skip them.
//!
//! Choices this layer makes for both profiles (see `reference/README.md`):
//!
//! - A UTF-8 byte-order mark at the very start of the body is dropped.
//! - "Space" means SP and HT (RFC 9309's `WS`); nothing else is trimmed.
//! - A line holding only spaces and tabs is blank, like an empty line (RFC 9309's `emptyline`).
//! - Whitespace before the field name and between the field name and the colon is ignored.
//! - A line without a colon is reported as [`LineKind::NoColon`]; profiles decide what it means.

use memchr::{memchr, memchr2};

/// The UTF-8 encoding of U+FEFF, the byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One line of a robots.txt body, after comment removal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based line number, counting every terminator as the texts define them.
    pub number: u32,
    pub kind: LineKind<'a>,
}

/// What a line holds once its comment is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind<'a> {
    /// Nothing at all, or only spaces and tabs: a record boundary in the 1994 text.
    Blank,
    /// Only a comment (possibly after whitespace): discarded, and not a record boundary.
    CommentOnly,
    /// `<field>:<optionalspace><value><optionalspace>`, with `name` and `value` trimmed of SP/HT.
    /// `name` keeps its original case; compare it with [`field_is`].
    Field { name: &'a [u8], value: &'a [u8] },
    /// Text with no colon (trimmed of SP/HT). Not of the form the texts describe.
    NoColon(&'a [u8]),
}

/// One line of a body exactly as it stands: its number, its text and the terminator that ended
/// it. Every splitter in the project (the profiles, the open points' layout, the harness's
/// renders, reductions and survey causes) goes through [`raw_lines`], so that they all number
/// lines alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawLine<'a> {
    /// 1-based line number, counting every terminator as the texts define them.
    pub number: u32,
    /// The text before the terminator, comment and all.
    pub text: &'a [u8],
    /// `b"\r\n"`, `b"\r"` or `b"\n"`; empty for a last line without one.
    pub terminator: &'static [u8],
}

/// Splits `body` at the terminators both texts name: CR, CR LF and LF, mixed freely (form feed
/// and the other characters some parsers take for line ends do not end a line). A body that ends
/// with a terminator has no further, empty, line after it. Nothing is dropped: a byte-order mark
/// stays in the first line's text. Linear in the body's length; never panics.
pub fn raw_lines(body: &[u8]) -> RawLines<'_> {
    RawLines {
        rest: body,
        number: 0,
    }
}

/// Iterator returned by [`raw_lines`].
#[derive(Debug, Clone)]
pub struct RawLines<'a> {
    rest: &'a [u8],
    number: u32,
}

impl<'a> Iterator for RawLines<'a> {
    type Item = RawLine<'a>;

    fn next(&mut self) -> Option<RawLine<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        let (text, terminator): (&[u8], &'static [u8]) = match memchr2(b'\r', b'\n', self.rest) {
            Some(end) => (
                &self.rest[..end],
                match &self.rest[end..] {
                    [b'\r', b'\n', ..] => b"\r\n",
                    [b'\r', ..] => b"\r",
                    _ => b"\n",
                },
            ),
            None => (self.rest, b""),
        };
        self.rest = &self.rest[text.len() + terminator.len()..];
        self.number = self.number.saturating_add(1);
        Some(RawLine {
            number: self.number,
            text,
            terminator,
        })
    }
}

/// Splits `body` into lines and classifies each one: [`raw_lines`] after a leading byte-order
/// mark. Linear in the body's length; never panics.
pub fn lines(body: &[u8]) -> Lines<'_> {
    let body = body.strip_prefix(BOM).unwrap_or(body);
    Lines {
        raw: raw_lines(body),
    }
}

/// Iterator returned by [`lines`].
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    raw: RawLines<'a>,
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    #[inline]
    fn next(&mut self) -> Option<Line<'a>> {
        self.raw.next().map(|raw| Line {
            number: raw.number,
            kind: classify(raw.text),
        })
    }
}

/// Classifies one line's text (its terminator already removed).
#[inline]
pub fn classify(text: &[u8]) -> LineKind<'_> {
    // One scan finds the comment and the colon: a colon after the `#` is part of the comment.
    let (content, had_comment, colon) = match find2(b'#', b':', text) {
        None => (text, false, None),
        Some(hash) if text[hash] == b'#' => (&text[..hash], true, None),
        Some(colon) => match find1(b'#', &text[colon + 1..]) {
            Some(hash) => (&text[..colon + 1 + hash], true, Some(colon)),
            None => (text, false, Some(colon)),
        },
    };
    match colon {
        Some(colon) => {
            let name = trim(&content[..colon]);
            let value = trim(&content[colon + 1..]);
            LineKind::Field { name, value }
        }
        None => {
            let content = trim(content);
            if !content.is_empty() {
                LineKind::NoColon(content)
            } else if had_comment {
                LineKind::CommentOnly
            } else {
                LineKind::Blank
            }
        }
    }
}

/// Lines are short: below this length a plain loop beats setting up a vectorized search.
const SHORT: usize = 64;

#[inline]
fn find1(needle: u8, haystack: &[u8]) -> Option<usize> {
    if haystack.len() < SHORT {
        haystack.iter().position(|&b| b == needle)
    } else {
        memchr(needle, haystack)
    }
}

#[inline]
fn find2(a: u8, b: u8, haystack: &[u8]) -> Option<usize> {
    if haystack.len() < SHORT {
        haystack.iter().position(|&x| x == a || x == b)
    } else {
        memchr2(a, b, haystack)
    }
}

/// True when `name` is `field`, compared case-insensitively (1994, *Format*: "The field name is
/// case insensitive"; RFC 9309 §2.2's ABNF strings are case-insensitive too). `field` is lowercase.
#[inline]
pub fn field_is(name: &[u8], field: &str) -> bool {
    name.eq_ignore_ascii_case(field.as_bytes())
}

/// Whether `needle` occurs in `haystack`, ASCII case ignored. An empty needle occurs nowhere:
/// every caller asks whether a name names something, and an empty name names nothing.
pub fn contains_ci(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty()
        && haystack
            .windows(needle.len())
            .any(|window| window.eq_ignore_ascii_case(needle))
}

/// SP and HT: the "optional space" of the 1994 text and the `WS` of RFC 9309.
#[inline]
pub fn is_space(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

/// `bytes` without leading and trailing SP/HT.
#[inline]
pub fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(body: &[u8]) -> Vec<(u32, LineKind<'_>)> {
        lines(body).map(|l| (l.number, l.kind)).collect()
    }

    #[test]
    fn every_terminator_and_their_mixes() {
        let field = |v: &'static [u8]| LineKind::Field {
            name: b"a",
            value: v,
        };
        assert_eq!(
            kinds(b"a:1\ra:2\r\na:3\na:4"),
            vec![
                (1, field(b"1")),
                (2, field(b"2")),
                (3, field(b"3")),
                (4, field(b"4"))
            ]
        );
        // CR CR NL: the first CR ends line 1, CR NL ends an empty line 2.
        assert_eq!(
            kinds(b"a:1\r\r\na:2"),
            vec![(1, field(b"1")), (2, LineKind::Blank), (3, field(b"2"))]
        );
        // NL CR: NL ends line 1, the CR ends an empty line 2.
        assert_eq!(
            kinds(b"a:1\n\ra:2"),
            vec![(1, field(b"1")), (2, LineKind::Blank), (3, field(b"2"))]
        );
    }

    #[test]
    fn comments_take_the_space_before_them() {
        assert_eq!(
            classify(b"Disallow: /a \t# why"),
            LineKind::Field {
                name: b"Disallow",
                value: b"/a"
            }
        );
        assert_eq!(
            classify(b"Disallow: /a#b"),
            LineKind::Field {
                name: b"Disallow",
                value: b"/a"
            }
        );
        assert_eq!(classify(b"  # only"), LineKind::CommentOnly);
        assert_eq!(classify(b" \t "), LineKind::Blank);
        assert_eq!(classify(b"Disallow /a"), LineKind::NoColon(b"Disallow /a"));
    }

    #[test]
    fn bom_is_dropped_only_at_the_start() {
        assert_eq!(
            kinds(b"\xEF\xBB\xBFa:1"),
            vec![(
                1,
                LineKind::Field {
                    name: b"a",
                    value: b"1"
                }
            )]
        );
        assert_eq!(
            kinds(b"a:1\n\xEF\xBB\xBFa:2")[1].1,
            LineKind::Field {
                name: b"\xEF\xBB\xBFa",
                value: b"2"
            }
        );
    }
}
