//! The canonical, readable form the reducer steers towards, and how far a candidate is from it.
//!
//! A reduced case should read like a hand-written one: LF endings, `Name: value` with one space,
//! canonical field spelling, robots called `FooBot`, `BarBot` or `BazBot`, paths such as `/a` or
//! `/a/b`. [`Score`] orders candidates: fewer departures from that form first, then fewer lines,
//! then fewer bytes, so the reducer takes a longer canonical line over a shorter odd one.

use robotstxt_reference::lines::{classify, LineKind};

use super::candidate::{split, Candidate};

/// Robot names a reduced case uses, in order of preference.
pub const AGENTS: [&str; 3] = ["FooBot", "BarBot", "BazBot"];
/// Path words a reduced case uses.
pub const WORDS: [&str; 5] = ["a", "b", "c", "d", "e"];
/// Field names as the texts spell them.
const FIELDS: [&str; 5] = ["User-agent", "Disallow", "Allow", "Sitemap", "Crawl-delay"];

/// Lower is better: (departures from the canonical form, lines, bytes, query length, how far
/// down the lists of names and words the case reaches: `FooBot` and `a` before `BarBot` and `b`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Score(pub usize, pub usize, pub usize, pub usize, pub usize);

impl Score {
    pub fn of(c: &Candidate) -> Score {
        let lines = split(&c.body);
        let mut odd = usize::from(c.body.starts_with("\u{feff}".as_bytes()));
        for (text, end) in &lines {
            odd += usize::from(*end != b"\n");
            odd += line_departures(text);
        }
        odd += usize::from(!AGENTS.contains(&c.agent.as_str()));
        odd += usize::from(!is_canonical_path(c.path.as_bytes()));
        Score(
            odd,
            lines.len(),
            c.body.len(),
            c.agent.len() + c.path.len(),
            rank(&c.body) + rank(c.agent.as_bytes()) + rank(c.path.as_bytes()),
        )
    }
}

/// Later names count more: each `BarBot` 1, each `BazBot` 2, each one-letter path word its
/// distance from `a`.
fn rank(text: &[u8]) -> usize {
    let mut rank = 0;
    for window in text.windows(6) {
        rank += AGENTS
            .iter()
            .position(|a| window.eq_ignore_ascii_case(a.as_bytes()))
            .unwrap_or(0);
    }
    for (i, &b) in text.iter().enumerate() {
        let word = b.is_ascii_lowercase()
            && i > 0
            && text[i - 1] == b'/'
            && text.get(i + 1).is_none_or(|n| !n.is_ascii_alphanumeric());
        if word {
            rank += usize::from(b - b'a');
        }
    }
    rank
}

/// `/`, or `/`-separated single lowercase letters, with an optional final `/`: `/a`, `/a/b/`.
pub fn is_canonical_path(path: &[u8]) -> bool {
    let Some(rest) = path.strip_prefix(b"/") else {
        return false;
    };
    let rest = rest.strip_suffix(b"/").unwrap_or(rest);
    rest.is_empty()
        || rest
            .split(|&b| b == b'/')
            .all(|seg| seg.len() == 1 && seg[0].is_ascii_lowercase())
}

/// The canonical spelling of a field name, when the name is one of the known fields.
pub fn canonical_field(name: &[u8]) -> Option<&'static str> {
    FIELDS
        .into_iter()
        .find(|f| name.eq_ignore_ascii_case(f.as_bytes()))
}

/// A field line written canonically: `Name: value`, or `Name:` for an empty value.
pub fn field_text(name: &[u8], value: &[u8]) -> Vec<u8> {
    let mut text = name.to_vec();
    text.push(b':');
    if !value.is_empty() {
        text.push(b' ');
        text.extend_from_slice(value);
    }
    text
}

fn line_departures(text: &[u8]) -> usize {
    let odd_bytes = usize::from(text.iter().any(|&b| !(b.is_ascii_graphic() || b == b' ')));
    odd_bytes
        + match classify(text) {
            LineKind::Blank => usize::from(!text.is_empty()),
            LineKind::CommentOnly | LineKind::NoColon(_) => 1,
            LineKind::Field { name, value } => {
                // The value is judged by the field it is, however the name is spelt, so that
                // `user-agent:` counts both its spelling and its empty value.
                let field = canonical_field(name);
                let mut odd = usize::from(field.is_none_or(|f| f.as_bytes() != name));
                odd += usize::from(field_text(name, value) != text);
                odd += match field {
                    Some("User-agent") => {
                        usize::from(value != b"*" && !AGENTS.iter().any(|a| a.as_bytes() == value))
                    }
                    Some("Allow" | "Disallow") => {
                        usize::from(!value.is_empty() && !is_canonical_path(value))
                    }
                    _ => 0,
                };
                odd
            }
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(body: &str, agent: &str, path: &str) -> Score {
        Score::of(&Candidate {
            body: body.as_bytes().to_vec(),
            agent: agent.to_owned(),
            path: path.to_owned(),
        })
    }

    #[test]
    fn canonical_beats_short() {
        let canonical = score("User-agent: FooBot\nDisallow: /a\n", "FooBot", "/a");
        assert_eq!(canonical.0, 0);
        assert!(canonical < score("User-agent:F\nDisallow:/a", "F", "/a"));
        assert!(canonical < score("user-agent: FooBot\r\nDisallow: /a\n", "FooBot", "/a"));
        assert!(score("User-agent: *\nDisallow: /a\n", "FooBot", "/a/b").0 == 0);
        assert!(score("User-agent: *\nDisallow: /tmp\n", "FooBot", "/a").0 == 1);
        assert!(
            score("User-agent:\nDisallow: /\n", "FooBot", "/a")
                < score("user-agent:\nDisallow: /\n", "FooBot", "/a"),
            "a misspelt name with an empty value departs twice"
        );
    }
}
