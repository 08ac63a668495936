//! Canonicalisation: rewrites that make a reduced case read like a hand-written one.
//!
//! Each rewrite is tried on its own and kept only when the disagreement survives it: all line
//! endings to LF (else one at a time), canonical field lines (`Name: value`), a final LF, no
//! byte-order mark, the agent without its version, robot names and path words renamed
//! consistently in the body and the query (`googlebot` to `FooBot`, `tmp` to `a`), and a shorter
//! query path.

use robotstxt_reference::lines::{classify, LineKind};

use super::canonical::{canonical_field, field_text, split, AGENTS, WORDS};
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Agent,
    Path,
}

/// The words of one class: in User-agent values and the agent, or in rule values and the path.
fn words(c: &Candidate, class: Class) -> Vec<String> {
    let mut texts: Vec<Vec<u8>> = Vec::new();
    for (text, _) in split(&c.body) {
        if let LineKind::Field { name, value } = classify(text) {
            let agent = name.eq_ignore_ascii_case(b"user-agent");
            let rule =
                name.eq_ignore_ascii_case(b"allow") || name.eq_ignore_ascii_case(b"disallow");
            if (class == Class::Agent && agent) || (class == Class::Path && rule) {
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
    let mut body = Vec::with_capacity(c.body.len());
    for (text, end) in split(&c.body) {
        let new = match classify(text) {
            LineKind::Field { name, value } => {
                let agent = name.eq_ignore_ascii_case(b"user-agent");
                let rule =
                    name.eq_ignore_ascii_case(b"allow") || name.eq_ignore_ascii_case(b"disallow");
                if (class == Class::Agent && agent) || (class == Class::Path && rule) {
                    field_text(name, &replace_in(value, word, to))
                } else {
                    text.to_vec()
                }
            }
            _ => text.to_vec(),
        };
        body.extend_from_slice(&new);
        body.extend_from_slice(end);
    }
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
    let mut out = Vec::with_capacity(body.len());
    for (text, end) in split(body) {
        match classify(text) {
            LineKind::Field { name, value }
                if name.eq_ignore_ascii_case(b"user-agent")
                    && value.eq_ignore_ascii_case(old.trim().as_bytes()) =>
            {
                out.extend_from_slice(&field_text(name, new.as_bytes()));
            }
            _ => out.extend_from_slice(text),
        }
        out.extend_from_slice(end);
    }
    out
}

/// A field of no known name written as `Sitemap`, the plainest of the other fields: many
/// disagreements are about any line that is not a rule, whatever its name.
fn other_fields(r: &mut Reducer<'_>) {
    for i in 0..split(&r.best.body).len() {
        let (text, _) = owned_lines(&r.best.body).swap_remove(i);
        if let LineKind::Field { name, value } = classify(&text) {
            if canonical_field(name).is_none() {
                let candidate = with_line(&r.best, i, &field_text(b"Sitemap", value));
                r.try_each(vec![candidate]);
            }
        }
    }
}

/// User-agent values that are not canonical (empty, odd bytes) tried as `*` and as the agent.
fn agent_values(r: &mut Reducer<'_>) {
    for i in 0..split(&r.best.body).len() {
        let (text, _) = owned_lines(&r.best.body).swap_remove(i);
        if let LineKind::Field { name, value } = classify(&text) {
            let canonical = value == b"*" || AGENTS.iter().any(|a| a.as_bytes() == value);
            if name.eq_ignore_ascii_case(b"user-agent") && !canonical {
                let agent = r.best.agent.clone();
                let candidates = [b"*".as_slice(), agent.as_bytes()]
                    .into_iter()
                    .map(|v| with_line(&r.best, i, &field_text(name, v)))
                    .collect();
                r.try_each(candidates);
            }
        }
    }
}
