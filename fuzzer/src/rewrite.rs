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

use super::candidate::{owned_lines, split, with_line, Candidate};
use super::canonical::{canonical_field, field_text, is_canonical_path, AGENTS, WORDS};

/// One rewrite pass. Asked again and again with the best candidate so far, it offers the next
/// candidates to try (preferred first), and `None` once it is done. The reducer drives it: of
/// each offer it keeps the first candidate that keeps the disagreement and scores better, and
/// asks again with whatever is best then. A pass knows nothing of engines or scores.
pub type Pass = Box<dyn FnMut(&Candidate) -> Option<Vec<Candidate>>>;

/// One round of canonicalisation, in order.
pub fn passes() -> Vec<Pass> {
    vec![
        // Line endings: all to LF at once, else one at a time (after the first succeeds, the
        // second finds nothing left to offer).
        once(all_endings),
        each_line(one_ending),
        other_fields(),
        agent_values(),
        // Field lines as `Name: value` with the canonical spelling: all at once, else one by one.
        once(all_field_lines),
        each_line(one_field_line),
        once(without_bom),
        once(agent_name),
        once(canonical_agent),
        once(agent_renamed_in_values),
        once(shorter_paths),
        rule_values(),
        compounds(),
        rename(Class::Agent),
        rename(Class::Path),
    ]
}

/// A pass that makes one offer, from the best candidate at its turn.
fn once(offer: fn(&Candidate) -> Vec<Candidate>) -> Pass {
    let mut done = false;
    Box::new(move |best| (!std::mem::replace(&mut done, true)).then(|| offer(best)))
}

/// A pass over the items `items` finds in the best candidate when the pass starts (its lines,
/// its words): one offer per item, each made from the best candidate at its turn.
fn each<T: 'static>(
    items: impl Fn(&Candidate) -> Vec<T> + 'static,
    offer: impl Fn(&Candidate, &T) -> Vec<Candidate> + 'static,
) -> Pass {
    let mut queue: Option<std::vec::IntoIter<T>> = None;
    Box::new(move |best| {
        let item = queue
            .get_or_insert_with(|| items(best).into_iter())
            .next()?;
        Some(offer(best, &item))
    })
}

/// A pass over the lines, by index. Rewrites replace a line's text or its terminator, never the
/// number of lines, so the indices stay valid for the whole pass.
fn each_line(offer: fn(&Candidate, usize) -> Vec<Candidate>) -> Pass {
    each(
        |best| (0..split(&best.body).len()).collect(),
        move |best, &index| offer(best, index),
    )
}

/// Every line ending as LF.
fn all_endings(best: &Candidate) -> Vec<Candidate> {
    let body: Vec<u8> = owned_lines(&best.body)
        .iter()
        .flat_map(|(t, _)| t.iter().copied().chain([b'\n']))
        .collect();
    vec![Candidate {
        body,
        ..best.clone()
    }]
}

/// Line `index`'s ending as LF, when it is not.
fn one_ending(best: &Candidate, index: usize) -> Vec<Candidate> {
    let lines = owned_lines(&best.body);
    if lines.get(index).is_none_or(|(_, e)| e == b"\n") {
        return Vec::new();
    }
    let body: Vec<u8> = lines
        .iter()
        .enumerate()
        .flat_map(|(i, (t, e))| {
            let end: &[u8] = if i == index { b"\n" } else { e };
            t.iter().chain(end).copied().collect::<Vec<u8>>()
        })
        .collect();
    vec![Candidate {
        body,
        ..best.clone()
    }]
}

/// A field line written `Name: value` with the canonical spelling, when that changes it.
fn canonical_field_line(text: &[u8]) -> Option<Vec<u8>> {
    let LineKind::Field { name, value } = classify(text) else {
        return None;
    };
    let name = canonical_field(name).map_or(name, str::as_bytes);
    Some(field_text(name, value)).filter(|new| new != text)
}

fn all_field_lines(best: &Candidate) -> Vec<Candidate> {
    let mut all = best.clone();
    for (i, (text, _)) in owned_lines(&best.body).iter().enumerate() {
        if let Some(new) = canonical_field_line(text) {
            all = with_line(&all, i, &new);
        }
    }
    if all == *best {
        Vec::new()
    } else {
        vec![all]
    }
}

fn one_field_line(best: &Candidate, index: usize) -> Vec<Candidate> {
    let (text, _) = owned_lines(&best.body).swap_remove(index);
    canonical_field_line(&text)
        .map(|new| with_line(best, index, &new))
        .into_iter()
        .collect()
}

/// The body without its byte-order mark.
fn without_bom(best: &Candidate) -> Vec<Candidate> {
    best.body
        .strip_prefix("\u{feff}".as_bytes())
        .map(|rest| Candidate {
            body: rest.to_vec(),
            ..best.clone()
        })
        .into_iter()
        .collect()
}

/// The agent without its version or anything after its name.
fn agent_name(best: &Candidate) -> Vec<Candidate> {
    let agent = &best.agent;
    let name: String = agent
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    if name.is_empty() || &name == agent {
        return Vec::new();
    }
    vec![Candidate {
        agent: name,
        ..best.clone()
    }]
}

/// The canonical names as the whole agent: a same-named one first.
fn canonical_agent(best: &Candidate) -> Vec<Candidate> {
    let mut names: Vec<&str> = AGENTS.to_vec();
    names.sort_by_key(|a| !a.eq_ignore_ascii_case(&best.agent));
    names
        .into_iter()
        .filter(|a| *a != best.agent)
        .map(|a| Candidate {
            agent: a.to_owned(),
            ..best.clone()
        })
        .collect()
}

/// The agent and the User-agent values written like it, renamed together.
fn agent_renamed_in_values(best: &Candidate) -> Vec<Candidate> {
    let old = &best.agent;
    if AGENTS.contains(&old.as_str()) {
        return Vec::new();
    }
    AGENTS
        .iter()
        .map(|a| Candidate {
            body: rename_values(&best.body, old, a),
            agent: (*a).to_owned(),
            path: best.path.clone(),
        })
        .collect()
}

/// Shorter paths: without the query, cut at each `/`, `/`, and for short paths cut anywhere.
fn shorter_paths(best: &Candidate) -> Vec<Candidate> {
    let path = best.path.clone();
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
    shorter
        .into_iter()
        .filter(|p| *p != path)
        .map(|path| Candidate {
            path,
            ..best.clone()
        })
        .collect()
}

/// Rule values that are not canonical paths (`*`, `/x*y`, odd bytes) tried as empty, `/` and
/// `/a`: a disagreement that does not depend on the value reads more plainly, and reduces to
/// the same text as its variants.
fn rule_values() -> Pass {
    each_line(|best, i| {
        let (text, _) = owned_lines(&best.body).swap_remove(i);
        match classify(&text) {
            LineKind::Field { name, value }
                if matches!(canonical_field(name), Some("Allow" | "Disallow"))
                    && !value.is_empty()
                    && !is_canonical_path(value) =>
            {
                [b"".as_slice(), b"/", b"/a"]
                    .into_iter()
                    .map(|v| with_line(best, i, &field_text(name, v)))
                    .collect()
            }
            _ => Vec::new(),
        }
    })
}

/// Compound path words (`cgi-bin`, `index.html`) cut to their first word in the rules and the
/// path together, `/a-b[` to `/a[`: the query pass shortens the path alone, which a rule that
/// names the compound does not allow.
fn compounds() -> Pass {
    each(
        |best| compound_words(best.path.as_bytes()),
        |best, compound| {
            let first: Vec<u8> = compound
                .iter()
                .copied()
                .take_while(u8::is_ascii_alphanumeric)
                .collect();
            vec![Candidate {
                body: map_values(&best.body, Class::Path, &|v| {
                    replace_text(v, compound, &first)
                }),
                path: lossy(replace_text(best.path.as_bytes(), compound, &first)),
                ..best.clone()
            }]
        },
    )
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
fn rename(class: Class) -> Pass {
    let targets: Vec<String> = match class {
        Class::Agent => AGENTS.iter().map(|s| s.to_ascii_lowercase()).collect(),
        Class::Path => WORDS.iter().map(|s| (*s).to_owned()).collect(),
    };
    each(
        move |best| words(best, class),
        move |best, word| {
            // Version numbers and the like are not names: leave them to the other passes.
            if !word.bytes().any(|b| b.is_ascii_alphabetic()) {
                return Vec::new();
            }
            // A canonical word may still move to an earlier one (`c` to `a`, `BazBot` to
            // `FooBot`).
            let rank = targets
                .iter()
                .position(|t| t == word)
                .unwrap_or(targets.len());
            let used = words(best, class);
            targets[..rank]
                .iter()
                .filter(|t| !used.contains(t))
                .map(|t| replace_word(best, class, word, t))
                .collect()
        },
    )
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
fn other_fields() -> Pass {
    each_line(|best, i| {
        let (text, _) = owned_lines(&best.body).swap_remove(i);
        match classify(&text) {
            LineKind::Field { name, value }
                if !matches!(
                    canonical_field(name),
                    Some("User-agent" | "Allow" | "Disallow" | "Sitemap")
                ) =>
            {
                vec![with_line(best, i, &field_text(b"Sitemap", value))]
            }
            _ => Vec::new(),
        }
    })
}

/// User-agent values tried as `*`, then as the query's agent and the other canonical names:
/// a value that is not canonical (empty, odd bytes) becomes one that is, and a name becomes `*`
/// when the disagreement does not depend on it, so that findings differing only in which robot
/// a line names reduce to one text.
fn agent_values() -> Pass {
    each_line(|best, i| {
        let (text, _) = owned_lines(&best.body).swap_remove(i);
        let LineKind::Field { name, value } = classify(&text) else {
            return Vec::new();
        };
        if canonical_field(name) != Some("User-agent") || value == b"*" {
            return Vec::new();
        }
        let mut values: Vec<&[u8]> = vec![b"*", best.agent.as_bytes()];
        values.extend(AGENTS.iter().map(|a| a.as_bytes()));
        values
            .into_iter()
            .filter(|v| *v != value)
            .map(|v| with_line(best, i, &field_text(name, v)))
            .collect()
    })
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
