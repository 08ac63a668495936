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

/// `text` cut in the middle when it holds more than `max` characters, the cut saying how many
/// characters it left out: `/aaaa…[2,873 characters]…aaaa`. A long path or value keeps its start
/// and its end, which are what tell two of them apart. Borrowed when it is short enough.
pub fn cut_middle(text: &str, max: usize) -> Cow<'_, str> {
    let count = text.chars().count();
    if count <= max {
        return Cow::Borrowed(text);
    }
    let keep = max.saturating_sub(24) / 2;
    let head: String = text.chars().take(keep).collect();
    let tail: String = text.chars().skip(count - keep).collect();
    Cow::Owned(format!(
        "{head}…[{} characters]…{tail}",
        thousands(count - 2 * keep)
    ))
}

/// `text` with every run of characters between spaces longer than `max` cut in the middle (see
/// [`cut_middle`]): prose that quotes a long value (an explanation naming a 3,000-character
/// rule) keeps its words and loses only the middle of the value.
pub fn cut_long_words(text: &str, max: usize) -> Cow<'_, str> {
    if !text.split(' ').any(|word| word.chars().count() > max) {
        return Cow::Borrowed(text);
    }
    let words: Vec<Cow<'_, str>> = text.split(' ').map(|w| cut_middle(w, max)).collect();
    Cow::Owned(words.join(" "))
}

/// `2873` as `2,873`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_in_the_middle_with_a_count() {
        assert_eq!(cut_middle("short", 10), "short");
        let long = format!("/{}end", "a".repeat(3029));
        let cut = cut_middle(&long, 80);
        assert_eq!(
            cut,
            format!(
                "/{}…[2,977 characters]…{}end",
                "a".repeat(27),
                "a".repeat(25)
            )
        );
        assert!(cut.chars().count() <= 80, "{cut}");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn escapes_and_overrides_become_visible() {
        assert_eq!(shown("plain\ntext"), "plain\ntext");
        assert_eq!(shown("a\x1b[31mb\0"), "a␛[31mb␀");
        assert_eq!(shown("x\u{202e}y\u{9b}"), "x<U+202E>y<U+009B>");
    }
}
