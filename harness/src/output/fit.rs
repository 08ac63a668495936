//! Text a terminal shows, fitted to [`COLUMNS`]: a long field of a failure block (`spec:`,
//! `note:`, `reference:`...) wraps under its own indent, a long line of a robots.txt body is cut
//! in its middle, and in the compact (grouped) view a field keeps at most a few lines, the rest
//! in `--verbose`.

use robotstxt_suite::visible::without_runner_commands;

/// The width everything a terminal shows fits.
pub const COLUMNS: usize = 120;

/// `block` with every line fitted to [`COLUMNS`]; with `max_lines`, a wrapped field keeps at most
/// that many lines, its last ending in `…`.
pub fn block(text: &str, max_lines: Option<usize>) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.chars().count() <= COLUMNS {
            out.push_str(line);
            out.push('\n');
        } else if line.contains(" │ ") {
            // A line of the body: cut, so that the body keeps one line per line.
            out.push_str(&crate::output::cut_middle(line, COLUMNS - 30));
            out.push('\n');
        } else {
            out.push_str(&wrap_field(line, max_lines));
        }
    }
    // A wrap starts a line where outside text had none: one that begins with `::` (made inert
    // only where it began a line of its own) must not become a runner's command there.
    match without_runner_commands(&out) {
        std::borrow::Cow::Borrowed(_) => out,
        std::borrow::Cow::Owned(inert) => inert,
    }
}

/// `--help` text fitted to [`COLUMNS`]: a long line wraps under the column its description
/// starts at (after the flag and its run of spaces), or under its own indent.
pub fn help(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.chars().count() <= COLUMNS {
            out.push_str(line.trim_end());
            out.push('\n');
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        let column = line[lead..]
            .find("  ")
            .map(|at| lead + at + line[lead + at..].len() - line[lead + at..].trim_start().len())
            .filter(|&c| c < 40)
            .unwrap_or(lead);
        let indent = " ".repeat(column);
        let mut words = line.split(' ');
        let mut current = words.next().unwrap_or_default().to_owned();
        for word in words {
            let width = current.chars().count();
            if !word.is_empty() && width > column && width + 1 + word.chars().count() > COLUMNS {
                out.push_str(current.trim_end());
                out.push('\n');
                current = format!("{indent}{word}");
            } else {
                current.push(' ');
                current.push_str(word);
            }
        }
        out.push_str(current.trim_end());
        out.push('\n');
    }
    out
}

/// A long line wrapped at word boundaries, its continuation lines indented past its key
/// (`  note: `), or by four spaces when it has none.
fn wrap_field(line: &str, max_lines: Option<usize>) -> String {
    let key_end = line
        .find(": ")
        .filter(|&at| at < 24 && !line[..at].trim().contains(' '))
        .map_or(4, |at| at + 2);
    let indent = " ".repeat(key_end.min(line.len() - line.trim_start().len() + 12));
    let mut lines: Vec<String> = Vec::new();
    let lead = &line[..line.len() - line.trim_start().len()];
    let mut current = lead.to_owned();
    let mut fresh = true;
    for word in line.trim_start().split(' ') {
        let width = current.chars().count();
        if !fresh && width + 1 + word.chars().count() > COLUMNS {
            lines.push(std::mem::replace(&mut current, indent.clone()));
            fresh = true;
        }
        if !fresh {
            current.push(' ');
        }
        fresh = false;
        // A word longer than a line is cut where the line ends.
        let room = COLUMNS.saturating_sub(current.chars().count()).max(8);
        if word.chars().count() > room {
            current.push_str(&crate::output::cut_middle(word, room));
        } else {
            current.push_str(word);
        }
    }
    lines.push(current);
    if let Some(max) = max_lines.filter(|&m| lines.len() > m) {
        lines.truncate(max);
        let last = lines.last_mut().expect("at least one line");
        while last.chars().count() + 2 > COLUMNS {
            last.pop();
        }
        last.push_str(" …");
    }
    lines
        .iter()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_wraps_under_its_description() {
        let line = format!("      --path <PATH>    {}", "word ".repeat(50));
        let fitted = help(&line);
        assert!(
            fitted.lines().all(|l| l.chars().count() <= COLUMNS),
            "{fitted}"
        );
        assert!(
            fitted
                .lines()
                .nth(1)
                .unwrap()
                .starts_with(&format!("{}word", " ".repeat(23))),
            "{fitted}"
        );
    }

    #[test]
    fn long_fields_wrap_under_their_key_and_bodies_are_cut() {
        let note = format!("  note: {}", "word ".repeat(60));
        let body = format!("     1 │ Disallow: /{}␊", "a".repeat(200));
        let text = format!("case#0 — fail\n{note}\n{body}\n");
        let fitted = block(&text, None);
        assert!(
            fitted.lines().all(|l| l.chars().count() <= COLUMNS),
            "{fitted}"
        );
        let lines: Vec<&str> = fitted.lines().collect();
        assert_eq!(lines.len(), 5, "{fitted}");
        assert!(lines[1].starts_with("  note: word"), "{fitted}");
        assert!(lines[2].starts_with("        word"), "{fitted}");
        assert!(lines[4].starts_with("     1 │ Disallow"), "{fitted}");
        let compact = block(&text, Some(2));
        assert_eq!(compact.lines().count(), 4, "{compact}");
        assert!(compact.lines().nth(2).unwrap().ends_with(" …"), "{compact}");
    }
}
