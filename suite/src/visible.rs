//! Making text that came from outside the binary safe to show: control characters would drive the
//! reader's terminal (`ESC [` sequences, a window title, `\r` over a line) and bidirectional
//! controls would reorder what a page or a terminal shows.
//!
//! Outside text is anything that comes from an adapter (its error texts, its stderr, what a
//! failure quotes of its lines), a case (a robots.txt body and the lines an explanation quotes,
//! a `spec`, a `note`), a file (its name, a member's name in an archive) or a name. It is carried
//! as [`Outside`], whose `Display` shows it made visible, so that printing it anywhere shows it
//! safely and code that wants the exact text has to say so ([`Outside::raw`], for data such as
//! `results.json` that keeps the adapter's exact words).
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
use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

/// The bidirectional formatting characters: marks, embeddings, overrides and isolates (the
/// protocol's list, which a handshake is held to).
pub use robotstxt_protocol::{is_bidi_control, is_control_or_bidi};

/// Whether `c` must not reach a reader as it is (line feeds may).
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\n') || is_bidi_control(c)
}

/// `text` with every control character but the line feed, and every bidirectional control,
/// made visible. Borrowed when there is nothing to change.
pub fn shown(text: &str) -> Cow<'_, str> {
    made_visible(text, is_hidden)
}

/// `text` as one line: as [`shown`], the line feed made visible too (`␊`). For what must never
/// take more than one line, such as a file's name, where a line feed would forge the next line.
pub fn shown_line(text: &str) -> Cow<'_, str> {
    made_visible(text, is_control_or_bidi)
}

/// `text` with every character `hidden` holds made visible: C0 controls as control pictures, the
/// rest as code points; and with no command a CI runner would obey.
fn made_visible(text: &str, hidden: fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return without_runner_commands(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if !hidden(c) => out.push(c),
            '\t' => out.push('␉'),
            '\u{7f}' => out.push('␡'),
            c if (c as u32) < 0x20 => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('?')),
            c => {
                let _ = write!(out, "<U+{:04X}>", c as u32);
            }
        }
    }
    match without_runner_commands(&out) {
        Cow::Borrowed(_) => Cow::Owned(out),
        Cow::Owned(inert) => Cow::Owned(inert),
    }
}

/// Whether any line of `text` could carry a command to a CI runner (see the module docs).
fn holds_runner_command(text: &str) -> bool {
    text.split('\n').any(|line| {
        line.trim_start_matches(char::is_whitespace)
            .starts_with("::")
            || line.contains("##[")
            || line.contains("##vso[")
    })
}

/// `text` with nothing a CI runner reads as a command: a line that begins, after blanks, with
/// `::` gets a `\` in front of it, and every `##[` (`##vso[`) is written `#\#[` (`#\#vso[`).
/// Line feeds are kept. Borrowed when there is nothing to change.
pub fn without_runner_commands(text: &str) -> Cow<'_, str> {
    if !holds_runner_command(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let rest = line.trim_start_matches(char::is_whitespace);
        out.push_str(&line[..line.len() - rest.len()]);
        if rest.starts_with("::") {
            out.push('\\');
        }
        out.push_str(&rest.replace("##[", "#\\#[").replace("##vso[", "#\\#vso["));
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

/// Text from outside the binary (see the module docs). `Display` shows it with its control and
/// bidirectional characters made visible; [`Outside::raw`] gives it exactly, for data.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Outside(String);

impl Outside {
    pub fn new(text: impl Into<String>) -> Outside {
        Outside(text.into())
    }

    /// The exact text, as it came: for data written for machines, and for comparing.
    pub fn raw(&self) -> &str {
        &self.0
    }

    /// The exact text, owned.
    pub fn into_raw(self) -> String {
        self.0
    }

    /// The text made visible.
    pub fn shown(&self) -> Cow<'_, str> {
        shown(&self.0)
    }

    /// Its first line (all of it when it has one), as outside text still.
    pub fn first_line(&self) -> Outside {
        Outside(self.0.lines().next().unwrap_or("").to_owned())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Outside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, so that a width (`{:<22}`) lines shown text up as it does a `String`.
        f.pad(&self.shown())
    }
}

impl fmt::Debug for Outside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `{:?}` of a string escapes controls and bidirectional controls alike.
        fmt::Debug::fmt(&self.0, f)
    }
}

impl From<String> for Outside {
    fn from(text: String) -> Outside {
        Outside(text)
    }
}

impl From<&str> for Outside {
    fn from(text: &str) -> Outside {
        Outside(text.to_owned())
    }
}

impl PartialEq<str> for Outside {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Outside {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// The text a path names, as outside text on one line: a file's name may hold anything, a line
/// feed included.
pub fn path_shown(path: &std::path::Path) -> Outside {
    Outside(shown_line(&path.display().to_string()).into_owned())
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
pub fn json_text<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    serde_json::to_string_pretty(value).map(json_escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_shows_its_line_feeds_and_text_keeps_them() {
        assert_eq!(shown("a\nb\u{202e}"), "a\nb<U+202E>");
        assert_eq!(shown_line("a\nb\u{202e}\t"), "a␊b<U+202E>␉");
        assert!(matches!(shown_line("plain"), Cow::Borrowed("plain")));
        assert_eq!(
            path_shown(std::path::Path::new("x\ny.yaml")).raw(),
            "x␊y.yaml"
        );
    }

    #[test]
    fn no_line_of_shown_text_is_a_runner_command() {
        let text = "ok\n  ::error::forged\n::add-mask::x\tp##[error]X ##vso[task.x]\n\u{3000}::stop-commands::t";
        for shown in [shown(text), shown_line(text), without_runner_commands(text)] {
            for line in shown.split('\n') {
                assert!(
                    !line.trim_start().starts_with("::"),
                    "{line:?} of {shown:?}"
                );
                assert!(
                    !line.contains("##[") && !line.contains("##vso["),
                    "{line:?}"
                );
            }
        }
        assert_eq!(
            without_runner_commands(text),
            "ok\n  \\::error::forged\n\\::add-mask::x\tp#\\#[error]X #\\#vso[task.x]\n\u{3000}\\::stop-commands::t"
        );
        assert_eq!(shown("a ::b ##c"), "a ::b ##c");
        assert!(matches!(shown("a ::b ##c"), Cow::Borrowed(_)));
        // The sequence a replacement leaves cannot form a command with its neighbours.
        assert_eq!(without_runner_commands("###[x"), "##\\#[x");
        assert_eq!(without_runner_commands("##[##["), "#\\#[#\\#[");
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
    fn escapes_and_overrides_become_visible() {
        assert_eq!(shown("plain\ntext"), "plain\ntext");
        assert_eq!(shown("a\x1b[31mb\0"), "a␛[31mb␀");
        assert_eq!(shown("x\u{202e}y\u{9b}"), "x<U+202E>y<U+009B>");
    }

    #[test]
    fn outside_text_is_shown_visibly_and_kept_exactly() {
        let text = Outside::new("\x1b]0;owned\x07 \u{202e}gnp.exe\r\x1b[K");
        let printed = format!("error: {text}");
        assert_eq!(printed, "error: ␛]0;owned␇ <U+202E>gnp.exe␍␛[K");
        assert!(!format!("{text:?}").contains(['\x1b', '\u{202e}', '\x07']));
        assert_eq!(text.raw(), "\x1b]0;owned\x07 \u{202e}gnp.exe\r\x1b[K");
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
