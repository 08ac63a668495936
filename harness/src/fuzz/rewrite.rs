//! Canonicalisation: rewrites that make a reduced case read like a hand-written one.
//!
//! Each rewrite is tried on its own and kept only when the disagreement survives it: all line
//! endings to LF (else one at a time), canonical field lines (`Name: value`), other fields as
//! `Sitemap`, User-agent values as `*` or a canonical name, odd rule values as empty, `/` or `/a`,
//! no byte-order mark, the agent without its version, a shorter query path, compound path words
//! cut to their first word, and robot names and path words renamed consistently in the body and
//! the query (`googlebot` to `FooBot`, `tmp` to `a`). Besides reading better, one canonical text
//! for the variants of a disagreement lets [`super::known`] recognise them as one.

use robotstxt_reference::lines::{classify, LineKind};

use super::canonical::{canonical_field, field_text, is_canonical_path, split, AGENTS, WORDS};
use super::reduce::{owned_lines, with_line, Candidate, Reducer};

/// Runs every rewrite once against the reducer's best candidate.
pub fn canonicalise(r: &mut Reducer<'_>) {
    endings(r);
    field_lines(r);
    if let Some(rest) = r.best.body.strip_prefix("\u{feff}".as_bytes()) {
        let candidate = Candidate {
            body: rest.to_vec(),
            ..r.best.clone()
        };
        r.try_each(vec![candidate]);
    }
    query(r);
    rule_values(r);
    compounds(r);
    rename(r, Class::Agent);
    rename(r, Class::Path);
}

fn endings(r: &mut Reducer<'_>) {
    let lines = owned_lines(&r.best.body);
    let all_lf: Vec<u8> = lines
        .iter()
        .flat_map(|(t, _)| t.iter().copied().chain([b'\n']))
        .collect();
    if r.try_each(vec![Candidate {
        body: all_lf,
        ..r.best.clone()
    }])
    .is_some()
    {
        return;
    }
    for index in 0..owned_lines(&r.best.body).len() {
        let lines = owned_lines(&r.best.body);
        if lines.get(index).is_some_and(|(_, e)| e != b"\n") {
            let body: Vec<u8> = lines
                .iter()
                .enumerate()
                .flat_map(|(i, (t, e))| {
                    let end: &[u8] = if i == index { b"\n" } else { e };
                    t.iter().chain(end).copied().collect::<Vec<u8>>()
                })
                .collect();
            r.try_each(vec![Candidate {
                body,
                ..r.best.clone()
            }]);
        }
    }
}

/// Field lines as `Name: value` with the canonical spelling: all at once, else one by one.
fn field_lines(r: &mut Reducer<'_>) {
    other_fields(r);
    agent_values(r);
    let rewritten = |text: &[u8]| -> Option<Vec<u8>> {
        let LineKind::Field { name, value } = classify(text) else {
            return None;
        };
        let name = canonical_field(name).map_or(name, str::as_bytes);
        Some(field_text(name, value)).filter(|new| new != text)
    };
    let lines = owned_lines(&r.best.body);
    let mut all = r.best.clone();
    for (i, (text, _)) in lines.iter().enumerate() {
        if let Some(new) = rewritten(text) {
            all = with_line(&all, i, &new);
        }
    }
    if all == r.best || r.try_each(vec![all]).is_some() {
        return;
    }
    for i in 0..lines.len() {
        let (text, _) = owned_lines(&r.best.body).swap_remove(i);
        if let Some(new) = rewritten(&text) {
            let candidate = with_line(&r.best, i, &new);
            r.try_each(vec![candidate]);
        }
    }
}

/// The agent without its version or anything after its name; shorter paths.
fn query(r: &mut Reducer<'_>) {
    let agent = &r.best.agent;
    let name: String = agent
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    if !name.is_empty() && &name != agent {
        let candidate = Candidate {
            agent: name,
            ..r.best.clone()
        };
        r.try_each(vec![candidate]);
    }
    // The canonical names as the whole agent: a same-named one first.
    let mut names: Vec<&str> = AGENTS.to_vec();
    names.sort_by_key(|a| !a.eq_ignore_ascii_case(&r.best.agent));
    let candidates = names
        .into_iter()
        .filter(|a| *a != r.best.agent)
        .map(|a| Candidate {
            agent: a.to_owned(),
            ..r.best.clone()
        })
        .collect();
    r.try_each(candidates);
    // The agent and the User-agent values written like it, renamed together.
    let old = r.best.agent.clone();
    if !AGENTS.contains(&old.as_str()) {
        let candidates = AGENTS
            .iter()
            .map(|a| Candidate {
                body: rename_values(&r.best.body, &old, a),
                agent: (*a).to_owned(),
                path: r.best.path.clone(),
            })
            .collect();
        r.try_each(candidates);
    }
    let path = r.best.path.clone();
    let mut shorter: Vec<String> = Vec::new();
    if let Some(q) = path.find('?') {
        shorter.push(path[..q].to_owned());
    }
    for (i, c) in path.char_indices().skip(1) {
        if c == '/' {
            shorter.push(path[..i].to_owned());
            shorter.push(path[..=i].to_owned());
        }
    }
    shorter.push("/".to_owned());
    // Shorter by characters too, for short paths: `/a%20xx` to `/a%20x`.
    if path.len() <= 64 {
        shorter.extend(
            path.char_indices()
                .map(|(n, _)| n)
                .filter(|&n| n >= 2)
                .map(|n| path[..n].to_owned()),
        );
    }
    let candidates = shorter
        .into_iter()
        .filter(|p| *p != path)
        .map(|path| Candidate {
            path,
            ..r.best.clone()
        })
        .collect();
    r.try_each(candidates);
}

/// Rule values that are not canonical paths (`*`, `/x*y`, odd bytes) tried as empty, `/` and
/// `/a`: a disagreement that does not depend on the value reads more plainly, and reduces to
/// the same text as its variants.
fn rule_values(r: &mut Reducer<'_>) {
    for i in 0..split(&r.best.body).len() {
        let (text, _) = owned_lines(&r.best.body).swap_remove(i);
        if let LineKind::Field { name, value } = classify(&text) {
            let rule = matches!(canonical_field(name), Some("Allow" | "Disallow"));
            if rule && !value.is_empty() && !is_canonical_path(value) {
                let candidates = [b"".as_slice(), b"/", b"/a"]
                    .into_iter()
                    .map(|v| with_line(&r.best, i, &field_text(name, v)))
                    .collect();
                r.try_each(candidates);
            }
        }
    }
}

/// Compound path words (`cgi-bin`, `index.html`) cut to their first word in the rules and the
/// path together, `/a-b[` to `/a[`: the query pass shortens the path alone, which a rule that
/// names the compound does not allow.
fn compounds(r: &mut Reducer<'_>) {
    for compound in compound_words(r.best.path.as_bytes()) {
        let first: Vec<u8> = compound
            .iter()
            .copied()
            .take_while(u8::is_ascii_alphanumeric)
            .collect();
        let candidate = Candidate {
            body: map_values(&r.best.body, Class::Path, &|v| {
                replace_text(v, &compound, &first)
            }),
            path: lossy(replace_text(r.best.path.as_bytes(), &compound, &first)),
            ..r.best.clone()
        };
        r.try_each(vec![candidate]);
    }
}

/// The `word-word`, `word.word` and `word_word` runs of `text`.
fn compound_words(text: &[u8]) -> Vec<Vec<u8>> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let word = |from: usize| {
            text[from..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count()
        };
        let first = word(i);
        if first == 0 {
            i += 1;
            continue;
        }
        let sep = i + first;
        let second = if matches!(text.get(sep), Some(b'-' | b'.' | b'_')) {
            word(sep + 1)
        } else {
            0
        };
        if second > 0 {
            found.push(text[i..sep + 1 + second].to_vec());
        }
        i = sep;
    }
    found
}

/// Every occurrence of `from` in `text` replaced by `to`.
fn replace_text(text: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if !from.is_empty() && text[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(text[i]);
            i += 1;
        }
    }
    out
}

/// The body with the value of every line of `class` passed through `f`; a line whose value
/// `f` leaves as it is keeps its text, and a changed one is written `Name: value`.
fn map_values(body: &[u8], class: Class, f: &dyn Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    for (text, end) in split(body) {
        match classify(text) {
            LineKind::Field { name, value } if class.holds(name) => {
                let new = f(value);
                if new == value {
                    out.extend_from_slice(text);
                } else {
                    out.extend_from_slice(&field_text(name, &new));
                }
            }
            _ => out.extend_from_slice(text),
        }
        out.extend_from_slice(end);
    }
    out
}

/// Which values a rewrite works on: User-agent values and the agent, or rule values and the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Agent,
    Path,
}

impl Class {
    /// Whether a field of this name holds values of this class.
    fn holds(self, name: &[u8]) -> bool {
        match self {
            Class::Agent => name.eq_ignore_ascii_case(b"user-agent"),
            Class::Path => {
                name.eq_ignore_ascii_case(b"allow") || name.eq_ignore_ascii_case(b"disallow")
            }
        }
    }
}

/// The words of one class: in User-agent values and the agent, or in rule values and the path.
fn words(c: &Candidate, class: Class) -> Vec<String> {
    let mut texts: Vec<Vec<u8>> = Vec::new();
    for (text, _) in split(&c.body) {
        if let LineKind::Field { name, value } = classify(text) {
            if class.holds(name) {
                texts.push(value.to_vec());
            }
        }
    }
    texts.push(match class {
        Class::Agent => c.agent.as_bytes().to_vec(),
        Class::Path => c.path.as_bytes().to_vec(),
    });
    let mut words: Vec<String> = Vec::new();
    for text in &texts {
        for word in text.split(|b| !b.is_ascii_alphanumeric()) {
            let word = String::from_utf8_lossy(word).to_ascii_lowercase();
            if !word.is_empty() && !words.contains(&word) {
                words.push(word);
            }
        }
    }
    words
}

/// Renames each non-canonical word of a class to a canonical one not yet used, everywhere the
/// class appears, keeping each occurrence's case pattern.
fn rename(r: &mut Reducer<'_>, class: Class) {
    let targets: Vec<String> = match class {
        Class::Agent => AGENTS.iter().map(|s| s.to_ascii_lowercase()).collect(),
        Class::Path => WORDS.iter().map(|s| (*s).to_owned()).collect(),
    };
    for word in words(&r.best, class) {
        // Version numbers and the like are not names: leave them to the other passes.
        if !word.bytes().any(|b| b.is_ascii_alphabetic()) {
            continue;
        }
        // A canonical word may still move to an earlier one (`c` to `a`, `BazBot` to `FooBot`).
        let rank = targets
            .iter()
            .position(|t| *t == word)
            .unwrap_or(targets.len());
        let used = words(&r.best, class);
        let candidates = targets[..rank]
            .iter()
            .filter(|t| !used.contains(t))
            .map(|t| replace_word(&r.best, class, &word, t))
            .collect();
        r.try_each(candidates);
    }
}

fn replace_word(c: &Candidate, class: Class, word: &str, to: &str) -> Candidate {
    let body = map_values(&c.body, class, &|v| replace_in(v, word, to));
    let mut out = Candidate { body, ..c.clone() };
    match class {
        // The query's agent takes the canonical spelling whatever its case was.
        Class::Agent => {
            let canonical = AGENTS
                .iter()
                .find(|a| a.eq_ignore_ascii_case(to))
                .unwrap_or(&to);
            let lowered = lossy(replace_in(c.agent.as_bytes(), word, to));
            out.agent = lowered.replace(&canonical.to_ascii_lowercase(), canonical);
            out.agent = out
                .agent
                .replace(&canonical.to_ascii_uppercase(), canonical);
        }
        Class::Path => out.path = lossy(replace_in(c.path.as_bytes(), word, to)),
    }
    out
}

fn lossy(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_default()
}

/// Replaces whole alphanumeric words equal to `word` (ignoring case) by `to`, in the case
/// pattern of each occurrence: all lowercase, all uppercase, or `to` as given.
fn replace_in(text: &[u8], word: &str, to: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if !text[i].is_ascii_alphanumeric() {
            out.push(text[i]);
            i += 1;
            continue;
        }
        let end = text[i..]
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .map_or(text.len(), |n| i + n);
        let found = &text[i..end];
        if found.eq_ignore_ascii_case(word.as_bytes()) {
            let canonical = AGENTS
                .iter()
                .find(|a| a.eq_ignore_ascii_case(to))
                .copied()
                .unwrap_or(to);
            let replaced = if found.iter().all(|b| !b.is_ascii_uppercase()) {
                canonical.to_ascii_lowercase()
            } else if found.iter().all(|b| !b.is_ascii_lowercase()) {
                canonical.to_ascii_uppercase()
            } else {
                canonical.to_owned()
            };
            out.extend_from_slice(replaced.as_bytes());
        } else {
            out.extend_from_slice(found);
        }
        i = end;
    }
    out
}

/// The body with every User-agent value equal to `old` (ignoring case) replaced by `new`.
fn rename_values(body: &[u8], old: &str, new: &str) -> Vec<u8> {
    let old = old.trim().as_bytes();
    map_values(body, Class::Agent, &|v| {
        if v.eq_ignore_ascii_case(old) {
            new.as_bytes().to_vec()
        } else {
            v.to_vec()
        }
    })
}

/// A field that is neither a rule, a User-agent line nor `Sitemap` written as `Sitemap`, the
/// plainest of the other fields: many disagreements are about any line that is not a rule,
/// whatever its name, and one spelling lets two such findings be recognised as one.
fn other_fields(r: &mut Reducer<'_>) {
    for i in 0..split(&r.best.body).len() {
        let (text, _) = owned_lines(&r.best.body).swap_remove(i);
        if let LineKind::Field { name, value } = classify(&text) {
            let field = canonical_field(name);
            if !matches!(field, Some("User-agent" | "Allow" | "Disallow" | "Sitemap")) {
                let candidate = with_line(&r.best, i, &field_text(b"Sitemap", value));
                r.try_each(vec![candidate]);
            }
        }
    }
}

/// User-agent values tried as `*`, then as the query's agent and the other canonical names:
/// a value that is not canonical (empty, odd bytes) becomes one that is, and a name becomes `*`
/// when the disagreement does not depend on it, so that findings differing only in which robot
/// a line names reduce to one text.
fn agent_values(r: &mut Reducer<'_>) {
    for i in 0..split(&r.best.body).len() {
        let (text, _) = owned_lines(&r.best.body).swap_remove(i);
        if let LineKind::Field { name, value } = classify(&text) {
            if canonical_field(name) != Some("User-agent") || value == b"*" {
                continue;
            }
            let agent = r.best.agent.clone();
            let mut values: Vec<&[u8]> = vec![b"*", agent.as_bytes()];
            values.extend(AGENTS.iter().map(|a| a.as_bytes()));
            let candidates = values
                .into_iter()
                .filter(|v| *v != value)
                .map(|v| with_line(&r.best, i, &field_text(name, v)))
                .collect();
            r.try_each(candidates);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compound_words_and_replacing_them() {
        assert_eq!(
            compound_words(b"/cgi-bin/index.html?a_b"),
            [b"cgi-bin".to_vec(), b"index.html".to_vec(), b"a_b".to_vec()]
        );
        assert!(compound_words(b"/a/b-/-c").is_empty());
        assert_eq!(replace_text(b"/a-b[/a-b", b"a-b", b"a"), b"/a[/a");
        let body = map_values(b"User-agent: a-b\r\nDisallow:/a-b[\n", Class::Path, &|v| {
            replace_text(v, b"a-b", b"a")
        });
        assert_eq!(body, b"User-agent: a-b\r\nDisallow: /a[\n");
        let untouched = b"User-agent: a-b\nAllow:/c  \n";
        assert_eq!(
            map_values(untouched, Class::Path, &|v| replace_text(v, b"a-b", b"a")),
            untouched,
            "a value left as it is keeps its line's text"
        );
    }
}
