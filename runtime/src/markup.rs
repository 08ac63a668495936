//! Escaping for the formats the harness writes: XML (JUnit), HTML, Markdown and JSON inside an
//! HTML `<script>` block.
//!
//! Case content is hostile by design (robots.txt bodies hold control bytes, `<script>`, quotes),
//! and so is anything an adapter says about itself. Every writer passes such text through one of
//! these functions; none of them builds markup from unescaped input. None of them lets through a
//! command a CI runner would obey (a line beginning with `::`, a `##[`): a JUnit file or a
//! Markdown summary may be printed into a job's log
//! ([`robotstxt_suite::visible::without_runner_commands`]).
//!
//! Outside text ([`robotstxt_suite::visible::Outside`]) is handed to these as its `raw()` text:
//! each shows what its format cannot carry in that format's own visible form.

use robotstxt_suite::visible::without_runner_commands;

/// Text for XML 1.0 element content or attribute values (both escaped the same, so one function
/// fits both). Characters XML 1.0 cannot carry at all (C0 controls other than TAB, LF and CR;
/// U+FFFE and U+FFFF) are written visibly as `\u{..}`, DEL, the C1 controls and the bidi
/// controls as `<U+..>`; CR, TAB and LF as character references, so that parsers' newline and
/// whitespace normalization keeps them.
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if xml_forbidden(c) => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            // Shown, not obeyed: a bidi override would reorder what a CI page shows, and DEL and
            // the C1 controls (which XML allows) would drive a terminal showing the file.
            c if robotstxt_suite::visible::is_bidi_control(c) || c.is_control() => {
                out.push_str(&format!("&lt;U+{:04X}&gt;", c as u32))
            }
            c => out.push(c),
        }
    }
    inert(out)
}

/// `out` with no runner command in it, owned.
fn inert(out: String) -> String {
    match without_runner_commands(&out) {
        std::borrow::Cow::Borrowed(_) => out,
        std::borrow::Cow::Owned(inert) => inert,
    }
}

/// Whether XML 1.0's `Char` production excludes `c` (Rust strings hold no surrogates).
fn xml_forbidden(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// Text for HTML element content or a quoted attribute value.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // The same characters to a browser, and no raw carriage return to a terminal.
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            // Shown, not obeyed: a bidi override would reorder the page (visual spoofing), and
            // controls other than line breaks have no place in a page's text.
            c if robotstxt_suite::visible::is_bidi_control(c) || (c.is_control() && c != '\n') => {
                out.push_str(&format!("&lt;U+{:04X}&gt;", c as u32))
            }
            c => out.push(c),
        }
    }
    inert(out)
}

/// JSON made safe to sit inside `<script type="application/json">`: `<`, `>` and `&` become
/// `\u003c`, `\u003e` and `\u0026` (still the same JSON), so no `</script>` or `<!--` in the data
/// can end the block; U+2028 and U+2029 likewise, for older JavaScript parsers.
pub fn json_in_script(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// Text for a Markdown paragraph or table cell: every character Markdown could read as syntax is
/// backslash-escaped (`<` as an entity, since raw HTML is allowed in Markdown), line breaks
/// become spaces, and control characters are shown as `\u{..}`.
pub fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '!' | '~' | '(' | ')' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' | '\t' => out.push(' '),
            c if robotstxt_suite::visible::is_control_or_bidi(c) => {
                out.push_str(&format!("\\u{{{:X}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    inert(out)
}

/// Inline code in Markdown: enough backticks that none inside can close it. Control characters
/// and line breaks are shown as `\u{..}`. In a table cell, pass the result through [`md_cell`].
pub fn md_code(text: &str) -> String {
    let shown: String = text
        .chars()
        .map(|c| {
            if robotstxt_suite::visible::is_control_or_bidi(c) {
                format!("\\u{{{:X}}}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect();
    let shown = inert(shown);
    let ticks = "`".repeat(longest_run(&shown, '`') + 1);
    let pad = if shown.starts_with('`') || shown.ends_with('`') || shown.is_empty() {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{shown}{pad}{ticks}")
}

/// Inline code made fit for a table cell: GitHub's tables split cells at any `|` not escaped,
/// even inside code spans, and take `\|` there as a plain `|`.
pub fn md_cell(code: &str) -> String {
    code.replace('|', "\\|")
}

/// A fenced Markdown code block holding `text`, its controls and bidi controls made visible
/// ([`robotstxt_suite::visible::shown`]): the fence is longer than any run of backticks inside, so the
/// content cannot close it.
pub fn md_fence(text: &str) -> String {
    let text = robotstxt_suite::visible::shown(text);
    let text = text.as_ref();
    let fence = "`".repeat(longest_run(text, '`').max(2) + 1);
    let body = text.trim_end_matches('\n');
    format!("{fence}text\n{body}\n{fence}\n")
}

fn longest_run(text: &str, c: char) -> usize {
    let mut longest = 0;
    let mut run = 0;
    for x in text.chars() {
        run = if x == c { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_markup_and_forbidden_characters() {
        assert_eq!(
            xml("<a href=\"x\">&'\u{1}\u{1b}\t\r\n\u{fffe}é"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;\\u{1}\\u{1B}&#9;&#13;&#10;\\u{FFFE}é"
        );
    }

    #[test]
    fn json_cannot_close_its_script_block() {
        let json = serde_json::to_string("</script><!--&").unwrap();
        let safe = json_in_script(&json);
        assert!(!safe.contains('<') && !safe.contains('>') && !safe.contains('&'));
        let back: String = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, "</script><!--&");
    }

    #[test]
    fn markdown_text_and_code() {
        assert_eq!(md("a|b <img> *x*\n"), "a\\|b &lt;img&gt; \\*x\\* ");
        assert_eq!(md_code("a`b"), "``a`b``");
        assert_eq!(md_code("`x"), "`` `x ``");
        assert_eq!(md_cell(&md_code("a|b\u{0}")), "`a\\|b\\u{0}`");
        assert_eq!(md_fence("```\nx\n"), "````text\n```\nx\n````\n");
    }

    #[test]
    fn no_format_passes_a_runner_command() {
        let text = "::error::x\n ::add-mask::y p##[error]z";
        for escaped in [
            xml(text),
            html(text),
            md(text),
            md_code(text),
            md_fence(text),
        ] {
            for line in escaped.lines() {
                assert!(!line.trim_start().starts_with("::"), "{escaped:?}");
                assert!(!line.contains("##["), "{escaped:?}");
            }
        }
        assert_eq!(md("::x"), "\\::x");
        assert_eq!(md_code("a##[b"), "`a#\\#[b`");
    }
}
