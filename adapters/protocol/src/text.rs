//! Text from outside the binary, and what a one-line field may hold. The messages of
//! [`crate::wire`] and every reader above them hold outside text to this.
//!
//! [`Outside`] carries such text (a handshake's fields among it): its `Display` shows the text
//! made visible, and [`Outside::raw`] gives it exactly, for data and for comparing. Controls are
//! shown as control pictures (`␛` for ESC, `␀` for NUL), C1 controls and bidirectional controls
//! as `<U+202E>`; line feeds are kept. No shown line is a command to a CI runner
//! ([`without_runner_commands`]). The suite's `visible` module, which re-exports all of this,
//! explains where outside text comes from and why.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

/// The bidirectional formatting characters (marks, embeddings, overrides and isolates), which
/// reorder what a terminal or a page shows around them: a handshake may hold none.
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// A character no one-line field may hold: a control character (a line feed included) or a
/// bidirectional control. What a handshake, a manifest's fields, an agent and a case file's name
/// are held to.
pub fn is_control_or_bidi(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

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

/// Whether any line of `text` could carry a command to a CI runner: GitHub Actions reads a line
/// that begins, after blanks, with `::`, and its legacy form and Azure Pipelines `##[` and
/// `##vso[` anywhere in a line.
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
        // `pad`, so that a width (`{:<24}`) lines shown text up as it would a string.
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

/// On the wire outside text is a plain string.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Outside {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        String::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_shows_its_line_feeds_and_text_keeps_them() {
        assert_eq!(shown("a\nb\u{202e}"), "a\nb<U+202E>");
        assert_eq!(shown_line("a\nb\u{202e}\t"), "a␊b<U+202E>␉");
        assert!(matches!(shown_line("plain"), Cow::Borrowed("plain")));
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
        let json = serde_json::to_string(&text).unwrap();
        assert_eq!(serde_json::from_str::<Outside>(&json).unwrap(), text);
    }
}
