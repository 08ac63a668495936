//! Making text that came from outside the binary safe to show: control characters would drive the
//! reader's terminal (`ESC [` sequences, a window title, `\r` over a line) and bidirectional
//! controls would reorder what a page or a terminal shows.
//!
//! Outside text is anything that comes from an adapter (its handshake, its error texts, its
//! stderr, what a failure quotes of its lines), a crawler (its manifest, its output, the requests
//! it sent), a case (a robots.txt body and the lines an explanation quotes,
//! a `spec`, a `note`), a file (its name, a member's name in an archive) or a name. It is carried
//! as [`Outside`], whose `Display` shows it made visible, so that printing it anywhere shows it
//! safely and code that wants the exact text has to say so ([`Outside::raw`], for data such as
//! `results.json` that keeps the adapter's exact words).
//!
//! [`Outside`] and the showing it rests on live in `robotstxt-protocol` (its `text` module) and
//! are re-exported here: the protocol's [`Handshake`](robotstxt_protocol::Handshake) holds its
//! fields as [`Outside`], and the protocol depends on nothing above it.
//!
//! Controls are shown as the corpus view shows them, as control pictures (`␛` for ESC, `␀` for
//! NUL); C1 controls and bidirectional controls as `<U+202E>`. Line feeds are kept, so that
//! multi-line text (an adapter's stderr tail) stays readable.
//!
//! A CI runner reads commands from the job's log: GitHub Actions a line that begins, after
//! blanks, with `::` (`::add-mask::`, `::stop-commands::`), and its legacy form and Azure
//! Pipelines' `##[` and `##vso[` anywhere in a line. Outside text printed where a job log
//! shows it could speak to the runner, so shown text never holds one
//! ([`without_runner_commands`]): a leading `::` is shown `\::`, and `##[` as `#\#[`.

use std::borrow::Cow;
use std::fmt::Write as _;

/// The protocol's outside text, and the checks and showing it rests on: the protocol's handshake
/// is carried as [`Outside`] too, so the type lives there, beside the characters a handshake is
/// held to.
pub use robotstxt_protocol::text::{
    is_bidi_control, is_control_or_bidi, is_hidden, shown, shown_line, without_runner_commands,
    Outside,
};

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

/// The text a path names, as outside text on one line: a file's name may hold anything, a line
/// feed included.
pub fn path_shown(path: &std::path::Path) -> Outside {
    Outside::new(shown_line(&path.display().to_string()).into_owned())
}

/// JSON text with nothing in it that drives a terminal, reorders what an editor shows, or speaks
/// to a CI runner, and the same JSON: the exact text is kept. JSON's own syntax is ASCII without
/// `#`, so each of these can only be inside a string, where it is written as its `\uXXXX` escape:
/// the bidirectional controls, U+2028 and U+2029, DEL and the C1 controls (a JSON writer escapes
/// only C0), and the second `#` of `##[` and `##vso[` (a runner's legacy commands). Every JSON
/// the binary writes goes through it, or through [`json_text`].
pub fn json_escaped(json: String) -> String {
    // C0 controls are escaped inside strings by every JSON writer, and outside them only JSON's
    // white space (the line feeds of pretty printing) is found: neither is touched.
    let hidden =
        |c: char| is_bidi_control(c) || matches!(c, '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}');
    if !json.chars().any(hidden) && !json.contains("##") {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 32);
    let mut rest = json.as_str();
    while let Some(c) = rest.chars().next() {
        let legacy = rest.starts_with("##[") || rest.starts_with("##vso[");
        if hidden(c) {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else if legacy {
            out.push_str("#\\u0023");
            rest = &rest[2..];
            continue;
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `value` as JSON, pretty-printed, through [`json_escaped`].
pub fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    serde_json::to_string_pretty(value).map(json_escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_shown_on_one_line() {
        assert_eq!(
            path_shown(std::path::Path::new("x\ny.yaml")).raw(),
            "x␊y.yaml"
        );
    }

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
    fn outside_json_keeps_the_text_and_shows_no_override() {
        let text = Outside::new("\x1b]0;owned\x07 \u{202e}gnp.exe\r\x1b[K");
        let json = json_escaped(serde_json::to_string(&text).unwrap());
        assert!(!json.contains(['\x1b', '\u{202e}', '\x07']), "{json}");
        assert_eq!(serde_json::from_str::<Outside>(&json).unwrap(), text);
        // DEL, C1 and the legacy runner commands too, the text read back the same.
        let text = Outside::new("a\u{7f}\u{9b}b ##[error]x ##vso[t] ### ##\n::e");
        let json = json_escaped(serde_json::to_string_pretty(&[&text]).unwrap());
        assert!(!json.contains(['\u{7f}', '\u{9b}']), "{json}");
        assert!(!json.contains("##[") && !json.contains("##vso["), "{json}");
        assert!(json.starts_with("[\n  \""), "the layout is kept: {json}");
        assert_eq!(serde_json::from_str::<[Outside; 1]>(&json).unwrap(), [text]);
    }
}
