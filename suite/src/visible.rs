//! Making text that came from outside (a robots.txt body, an adapter's error text or handshake,
//! a case's `spec`) safe to show: control characters would drive the reader's terminal (`ESC [`
//! sequences) and bidirectional controls would reorder what a page or a terminal shows.
//!
//! Controls are shown as the corpus view shows them, as control pictures (`␛` for ESC, `␀` for
//! NUL); C1 controls and bidirectional controls as `<U+202E>`. Line feeds are kept, so that
//! multi-line text (an adapter's stderr tail) stays readable.

use std::borrow::Cow;
use std::fmt::Write as _;

/// The bidirectional formatting characters: marks, embeddings, overrides and isolates.
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// Whether `c` must not reach a reader as it is (line feeds may).
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\n') || is_bidi_control(c)
}

/// `text` with every control character but the line feed, and every bidirectional control,
/// made visible. Borrowed when there is nothing to change.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\t' => out.push('␉'),
            '\u{7f}' => out.push('␡'),
            c if (c as u32) < 0x20 && c != '\n' => {
                out.push(char::from_u32(0x2400 + c as u32).unwrap_or('?'))
            }
            c if is_hidden(c) => {
                let _ = write!(out, "<U+{:04X}>", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_overrides_become_visible() {
        assert_eq!(shown("plain\ntext"), "plain\ntext");
        assert_eq!(shown("a\x1b[31mb\0"), "a␛[31mb␀");
        assert_eq!(shown("x\u{202e}y\u{9b}"), "x<U+202E>y<U+009B>");
    }
}
