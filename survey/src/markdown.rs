//! Text made safe for the survey's Markdown page, shared by its sections.

/// Text safe inside a Markdown table cell or paragraph: Markdown's special characters escaped.
pub(crate) fn cell(text: &str) -> String {
    // Outside text (an adapter's words, a file's name) with its controls made visible first.
    let text = robotstxt_suite::visible::shown(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '*' | '_' | '|' | '<' | '>' | '[' | ']' | '`' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
