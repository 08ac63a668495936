//! A body as editable lines, for rewriting it into another reading.
//!
//! Every alternative reading of an open point is expressed as an edit of this layout: a line's
//! text replaced (never a line added or removed, so that the line indices one point found stay
//! valid for every other point's edits), the query's agent replaced, or a rewrite of the whole
//! rendered body (for bytes that change the line structure itself, such as NUL read as a line end).
//! Lines are split by [`crate::lines::raw_lines`], after a leading byte-order mark, as every
//! profile splits them; [`Layout::lines_read`] gives them back to the profiles as numbered lines,
//! so that line index `i` here is line number `i + 1` in their structure.

use std::rc::Rc;

pub(super) use crate::lines::BOM;
use crate::lines::{classify, raw_lines, Line, LineKind};

/// A rewrite of the whole rendered body.
pub(super) type BodyRewrite = fn(Vec<u8>) -> Vec<u8>;

/// One line: its text, the terminator that ended it (empty for a last line without one), and
/// its kind.
///
/// The analysis clones a layout for every reading it tries, often thousands of times for a long
/// body, and a reading edits only a few lines; every reading then asks each line's kind many
/// times over. So the text is shared, and the kind is worked out once per text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RawLine {
    text: Rc<[u8]>,
    pub end: &'static [u8],
    shape: Shape,
}

/// A [`LineKind`] as offsets into its line's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Blank,
    CommentOnly,
    Field {
        name: (usize, usize),
        value: (usize, usize),
    },
    NoColon((usize, usize)),
}

impl RawLine {
    fn new(text: Rc<[u8]>, end: &'static [u8]) -> RawLine {
        let within = |part: &[u8]| {
            let start = part.as_ptr() as usize - text.as_ptr() as usize;
            (start, start + part.len())
        };
        let shape = match classify(&text) {
            LineKind::Blank => Shape::Blank,
            LineKind::CommentOnly => Shape::CommentOnly,
            LineKind::Field { name, value } => Shape::Field {
                name: within(name),
                value: within(value),
            },
            LineKind::NoColon(content) => Shape::NoColon(within(content)),
        };
        RawLine { text, end, shape }
    }

    pub fn text(&self) -> &[u8] {
        &self.text
    }

    /// The line's kind as the shared line layer sees it: [`classify`] of its text.
    pub fn kind(&self) -> LineKind<'_> {
        let part = |(start, end): (usize, usize)| &self.text[start..end];
        match self.shape {
            Shape::Blank => LineKind::Blank,
            Shape::CommentOnly => LineKind::CommentOnly,
            Shape::Field { name, value } => LineKind::Field {
                name: part(name),
                value: part(value),
            },
            Shape::NoColon(content) => LineKind::NoColon(part(content)),
        }
    }
}

/// A body and a query, ready to be edited and rendered again.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    pub bom: bool,
    pub lines: Vec<RawLine>,
    pub agent: String,
    pub path: String,
    pub rewrites: Vec<BodyRewrite>,
}

impl Layout {
    pub fn new(body: &[u8], agent: &str, path: &str) -> Layout {
        let (bom, rest) = match body.strip_prefix(BOM) {
            Some(rest) => (true, rest),
            None => (false, body),
        };
        let lines = raw_lines(rest)
            .map(|line| RawLine::new(line.text.into(), line.terminator))
            .collect();
        Layout {
            bom,
            lines,
            agent: agent.to_owned(),
            path: path.to_owned(),
            rewrites: Vec::new(),
        }
    }

    /// The body again: identical to the original when nothing was edited.
    pub fn render(&self) -> Vec<u8> {
        let mut body = Vec::new();
        if self.bom {
            body.extend_from_slice(BOM);
        }
        for line in &self.lines {
            body.extend_from_slice(&line.text);
            body.extend_from_slice(line.end);
        }
        self.rewrites
            .iter()
            .fold(body, |body, rewrite| rewrite(body))
    }

    /// The lines as a profile reads them, numbered from 1 (whole-body rewrites not applied):
    /// what a profile's parser takes to show its structure by this layout's line indices.
    pub fn lines_read(&self) -> impl Iterator<Item = Line<'_>> {
        self.lines.iter().zip(1..).map(|(line, number)| Line {
            number,
            kind: line.kind(),
        })
    }

    /// The line's kind as the shared line layer sees it.
    pub fn kind(&self, index: usize) -> LineKind<'_> {
        self.lines[index].kind()
    }

    /// Replaces a line's text. Its terminator stays.
    pub fn set(&mut self, index: usize, text: impl Into<Rc<[u8]>>) {
        let line = &mut self.lines[index];
        *line = RawLine::new(text.into(), line.end);
    }

    /// Puts `byte` in front of a line's text.
    pub fn prefix(&mut self, index: usize, byte: u8) {
        let mut text = vec![byte];
        text.extend_from_slice(&self.lines[index].text);
        self.set(index, text);
    }

    /// Replaces the value of a field line, keeping its name: `name: value`.
    pub fn set_value(&mut self, index: usize, value: &[u8]) {
        if let LineKind::Field { name, value: old } = self.kind(index) {
            if old == value {
                return;
            }
            let mut text = name.to_vec();
            text.extend_from_slice(b": ");
            text.extend_from_slice(value);
            self.set(index, text);
        }
    }

    /// Turns a line into a comment: in both profiles the same as the line not being there.
    pub fn drop_line(&mut self, index: usize) {
        self.set(index, b"#".to_vec());
    }
}

/// The value of line `i`: empty when it is not a field line.
pub(super) fn value(layout: &Layout, i: usize) -> &[u8] {
    field(layout, i).map_or(&[], |(_, value)| value)
}

/// Field name and value of line `i`, if it is a field line.
pub(super) fn field(layout: &Layout, i: usize) -> Option<(&[u8], &[u8])> {
    match layout.kind(i) {
        LineKind::Field { name, value } => Some((name, value)),
        _ => None,
    }
}

/// The characters besides SP and HT that some parsers take for space: the other ASCII and
/// Unicode white space, as UTF-8.
const OTHER_SPACE: &[&[u8]] = &[
    b"\x0b",
    b"\x0c",
    b"\x1c",
    b"\x1d",
    b"\x1e",
    b"\x1f",
    b"\xc2\x85",
    b"\xc2\xa0",
    b"\xe1\x9a\x80",
    b"\xe2\x80\x80",
    b"\xe2\x80\x81",
    b"\xe2\x80\x82",
    b"\xe2\x80\x83",
    b"\xe2\x80\x84",
    b"\xe2\x80\x85",
    b"\xe2\x80\x86",
    b"\xe2\x80\x87",
    b"\xe2\x80\x88",
    b"\xe2\x80\x89",
    b"\xe2\x80\x8a",
    b"\xe2\x80\xa8",
    b"\xe2\x80\xa9",
    b"\xe2\x80\xaf",
    b"\xe2\x81\x9f",
    b"\xe3\x80\x80",
    b"\xef\xbb\xbf",
];

fn space_prefix(bytes: &[u8]) -> usize {
    if matches!(bytes.first(), Some(b' ' | b'\t')) {
        return 1;
    }
    OTHER_SPACE
        .iter()
        .find(|s| bytes.starts_with(s))
        .map_or(0, |s| s.len())
}

fn space_suffix(bytes: &[u8]) -> usize {
    if matches!(bytes.last(), Some(b' ' | b'\t')) {
        return 1;
    }
    OTHER_SPACE
        .iter()
        .find(|s| bytes.ends_with(s))
        .map_or(0, |s| s.len())
}

/// `bytes` without leading and trailing white space of any kind (SP, HT and [`OTHER_SPACE`]).
pub(super) fn trim_any_space(mut bytes: &[u8]) -> &[u8] {
    loop {
        let n = space_prefix(bytes);
        if n == 0 {
            break;
        }
        bytes = &bytes[n..];
    }
    loop {
        let n = space_suffix(bytes);
        if n == 0 {
            break;
        }
        bytes = &bytes[..bytes.len() - n];
    }
    bytes
}

/// Whether trimming every kind of white space would change `bytes` beyond SP/HT trimming.
pub(super) fn has_other_space_edge(bytes: &[u8]) -> bool {
    trim_any_space(bytes) != crate::lines::trim(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_what_it_split() {
        for body in [
            &b"a\r\nb\rc\n\n"[..],
            b"\xEF\xBB\xBFUser-agent: *\r\r\nx",
            b"",
            b"\n\r",
        ] {
            assert_eq!(Layout::new(body, "a", "/").render(), body);
        }
    }

    #[test]
    fn trims_other_space() {
        assert_eq!(trim_any_space(b"\x0c /a\xc2\xa0"), b"/a");
        assert!(has_other_space_edge(b"\x0c/a"));
        assert!(!has_other_space_edge(b" /a\x0cb "));
    }
}
