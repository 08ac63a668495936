//! RFC 9309's open points: its MAYs, and the "Choice:" marks of the `rfc9309` module.

use super::layout::{value, Layout};
use super::{missing_colon, not_a_path_readings, Found, OpenPoint};
use crate::lines::{contains_ci, field_is, LineKind};
use crate::rfc9309::{
    decode_every_triplet, is_token_byte, matches, normalize_rule, normalize_uri, product_token,
    Robots,
};

/// §2.5: "The parsing limit MUST be at least 500 kibibytes".
const PARSING_LIMIT: usize = 500 * 1024;

/// A value that names no crawler: it has no leading token.
const NOBODY: &[u8] = b"\x01";

/// §2.2.1: a product token holds "only uppercase and lowercase letters ("a-z" and "A-Z"),
/// underscores ("_"), and hyphens ("-")".
fn is_identifier(bytes: &[u8]) -> bool {
    !bytes.is_empty()
        && bytes
            .iter()
            .all(|&b| b.is_ascii_alphabetic() || b == b'_' || b == b'-')
}

fn lines_of(layout: &Layout, names: &[&str]) -> Vec<usize> {
    (0..layout.lines.len())
        .filter(|&i| matches!(layout.kind(i), LineKind::Field { name, .. } if names.iter().any(|n| field_is(name, n))))
        .collect()
}

/// Edit distance, for telling a misspelt field name.
fn distance(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let substitution = previous + usize::from(!x.eq_ignore_ascii_case(&y));
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// The record a misspelt field name could stand for.
fn misspelt(name: &[u8]) -> Option<&'static str> {
    let squeezed: Vec<u8> = name
        .iter()
        .filter(|b| b.is_ascii_alphanumeric())
        .map(u8::to_ascii_lowercase)
        .collect();
    [("user-agent", 2), ("disallow", 2), ("allow", 1)]
        .into_iter()
        .find(|&(field, near)| {
            !field_is(name, field)
                && (squeezed == field.replace('-', "").as_bytes()
                    || (name.len() >= 4 && distance(name, field.as_bytes()) <= near))
        })
        .map(|(field, _)| field)
}

/// Characters some parsers end lines at besides CR and LF (Unicode's line separators).
const SEPARATORS: [&str; 8] = [
    "\u{b}", "\u{c}", "\u{1c}", "\u{1d}", "\u{1e}", "\u{85}", "\u{2028}", "\u{2029}",
];

pub(super) fn find(layout: &Layout, found: &mut Found) {
    missing_colon(layout, found);
    let text = String::from_utf8_lossy(&layout.render()).into_owned();
    if SEPARATORS.iter().any(|s| text.contains(s)) {
        found.reading(
            OpenPoint::OtherWhiteSpace,
            vec![Box::new(|l: &mut Layout| {
                l.rewrites.push(|body| {
                    let mut text = String::from_utf8_lossy(&body).into_owned();
                    for s in SEPARATORS {
                        text = text.replace(s, "\n");
                    }
                    text.into_bytes()
                })
            })],
        );
    }
    let body_len: usize = layout
        .lines
        .iter()
        .map(|l| l.text.len() + l.end.len())
        .sum();
    if body_len > PARSING_LIMIT {
        found.touch(OpenPoint::ParsingLimit);
    }
    let misspellings: Vec<(usize, &'static str)> = (0..layout.lines.len())
        .filter_map(|i| match layout.kind(i) {
            LineKind::Field { name, .. } => misspelt(name).map(|f| (i, f)),
            _ => None,
        })
        .collect();
    if !misspellings.is_empty() {
        found.reading(
            OpenPoint::Misspelling,
            vec![Box::new(move |l: &mut Layout| {
                for &(i, name) in &misspellings {
                    let mut text = name.as_bytes().to_vec();
                    text.extend_from_slice(b": ");
                    text.extend_from_slice(value(l, i));
                    l.set(i, text);
                }
            })],
        );
    }
    product_tokens(layout, found);
    user_agents(layout, found);
    rules(layout, found);
}

/// The agent string. §2.2.1 says which characters a product token holds, not how a caller derives
/// one from a longer agent string (`FooBot/2.1`, `Mozilla/5.0 (compatible; FooBot/2.1)`): for any
/// agent that is not itself a product token, which token it stands for is open, as the corpus
/// marks it. (The reference takes its leading token; other callers take another word, or the
/// whole string.)
fn product_tokens(layout: &Layout, found: &mut Found) {
    let agent = layout.agent.as_bytes();
    if !agent.is_ascii() {
        found.touch(OpenPoint::NonAsciiAgent);
    }
    if !is_identifier(agent) {
        found.touch(OpenPoint::ProductToken);
    }
}

/// User-agent values that are not exactly a product token or `*`, values related to the token
/// by a substring, and several `*` groups.
fn user_agents(layout: &Layout, found: &mut Found) {
    let token = product_token(layout.agent.as_bytes()).to_vec();
    let agents = lines_of(layout, &["user-agent"]);
    let odd: Vec<usize> = agents
        .iter()
        .copied()
        .filter(|&i| {
            let v = value(layout, i);
            v != b"*" && !is_identifier(v)
        })
        .collect();
    if !odd.is_empty() {
        let (a, b, c, d) = (odd.clone(), odd.clone(), odd.clone(), odd);
        found.reading(
            OpenPoint::UserAgentValue,
            vec![
                Box::new(move |l: &mut Layout| a.iter().for_each(|&i| l.set_value(i, NOBODY))),
                Box::new(move |l: &mut Layout| b.iter().for_each(|&i| l.drop_line(i))),
                Box::new(move |l: &mut Layout| {
                    let token = product_token(l.agent.as_bytes()).to_vec();
                    for &i in &c {
                        let v = value(l, i).to_vec();
                        let related = v.is_empty()
                            || contains_ci(&v, &token)
                            || v.split(|&b| !is_token_byte(b))
                                .any(|w| !w.is_empty() && w.eq_ignore_ascii_case(&token));
                        if related {
                            l.set_value(i, &token);
                        }
                    }
                }),
                Box::new(move |l: &mut Layout| {
                    for &i in &d {
                        if value(l, i).starts_with(b"*") {
                            l.set_value(i, b"*");
                        }
                    }
                }),
            ],
        );
    }
    let near: Vec<usize> = agents
        .iter()
        .copied()
        .filter(|&i| {
            let v = value(layout, i);
            is_identifier(v)
                && !v.eq_ignore_ascii_case(&token)
                && (contains_ci(v, &token) || contains_ci(&token, v))
        })
        .collect();
    if !near.is_empty() {
        found.reading(
            OpenPoint::TokenSubstring,
            vec![Box::new(move |l: &mut Layout| {
                let token = product_token(l.agent.as_bytes()).to_vec();
                near.iter().for_each(|&i| l.set_value(i, &token));
            })],
        );
    }
    // The groups as the reference builds them; every user-agent line is in one.
    let own = |number: u32| product_token(value(layout, number as usize - 1));
    let groups: Vec<Vec<u32>> = Robots::from_lines(layout.lines_read())
        .groups()
        .map(|group| group.agents)
        .collect();
    let star_groups = groups
        .iter()
        .filter(|agents| agents.iter().any(|&n| own(n) == b"*"))
        .count();
    let named = groups.iter().flatten().any(|&n| {
        let own = own(n);
        !own.is_empty() && own.eq_ignore_ascii_case(&token)
    });
    if star_groups >= 2 && !named {
        found.touch(OpenPoint::SeveralStarRecords);
    }
}

/// The rules' open points, for this path.
fn rules(layout: &Layout, found: &mut Found) {
    let uri = normalize_uri(layout.path.as_bytes()).into_owned();
    let decoded = decode_every_triplet(layout.path.as_bytes()).to_ascii_lowercase();
    if decoded.starts_with(b"/robots.txt") && layout.path != "/robots.txt" {
        found.touch(OpenPoint::RobotsTxtLike);
    }
    let rules = lines_of(layout, &["allow", "disallow"]);
    let first_agent = lines_of(layout, &["user-agent"]).first().copied();
    if rules.iter().any(|&i| {
        let v = value(layout, i);
        first_agent.is_none_or(|a| i < a)
            && !v.is_empty()
            && (matches(&normalize_rule(v), &uri)
                || layout.path.as_bytes().starts_with(v)
                || matches(
                    &normalize_rule(&v.to_ascii_lowercase()),
                    &uri.to_ascii_lowercase(),
                ))
    }) {
        // §2.2.2: such rules SHOULD be ignored; the corpus leaves them open.
        found.touch(OpenPoint::DisallowOutsideRecord);
    }
    // §2.2.2: matching "SHOULD be case sensitive".
    let cased = rules.clone();
    found.reading(
        OpenPoint::PathCase,
        vec![Box::new(move |l: &mut Layout| {
            l.path = l.path.to_ascii_lowercase();
            for &i in &cased {
                let v = value(l, i).to_ascii_lowercase();
                l.set_value(i, &v);
            }
        })],
    );
    let spaced: Vec<usize> = rules
        .iter()
        .copied()
        .filter(|&i| value(layout, i).iter().any(|&b| b == b' ' || b == b'\t'))
        .collect();
    if !spaced.is_empty() {
        found.reading(
            OpenPoint::SpaceInValue,
            vec![Box::new(move |l: &mut Layout| {
                for &i in &spaced {
                    let v = value(l, i);
                    let cut = v
                        .iter()
                        .position(|&b| b == b' ' || b == b'\t')
                        .unwrap_or(v.len());
                    let v = v[..cut].to_vec();
                    l.set_value(i, &v);
                }
            })],
        );
    }
    if layout.path.contains('%') || rules.iter().any(|&i| value(layout, i).contains(&b'%')) {
        let coded = rules.clone();
        let rules_only = rules.clone();
        found.reading(
            OpenPoint::PercentEncoding,
            vec![
                Box::new(move |l: &mut Layout| {
                    l.path = String::from_utf8_lossy(&decode_every_triplet(l.path.as_bytes()))
                        .into_owned();
                    for &i in &coded {
                        let v = decode_every_triplet(value(l, i));
                        l.set_value(i, &v);
                    }
                }),
                // Only the path decoded, or only the rules: the RFC says so for the URI alone.
                Box::new(|l: &mut Layout| {
                    l.path = String::from_utf8_lossy(&decode_every_triplet(l.path.as_bytes()))
                        .into_owned();
                }),
                Box::new(move |l: &mut Layout| {
                    for &i in &rules_only {
                        let v = decode_every_triplet(value(l, i));
                        l.set_value(i, &v);
                    }
                }),
            ],
        );
    }
    let empty: Vec<usize> = lines_of(layout, &["disallow"])
        .into_iter()
        .filter(|&i| value(layout, i).is_empty())
        .collect();
    if !empty.is_empty() {
        // Read as matching every path with zero octets: `*` decides exactly the same cases.
        found.reading(
            OpenPoint::EmptyPattern,
            vec![Box::new(move |l: &mut Layout| {
                empty.iter().for_each(|&i| l.set_value(i, b"*"))
            })],
        );
    }
    let mut matched = [false, false];
    let mut special = false;
    for &i in &rules {
        let v = value(layout, i);
        if v.is_empty() {
            continue;
        }
        if v[..v.len() - 1].contains(&b'$') {
            found.touch(OpenPoint::DollarInside);
        }
        let normal = normalize_rule(v);
        let hit = matches(&normal, &uri);
        if hit != matches(v, layout.path.as_bytes()) {
            found.touch(OpenPoint::PercentEncoding);
        }
        if hit {
            let allow =
                matches!(layout.kind(i), LineKind::Field { name, .. } if field_is(name, "allow"));
            matched[usize::from(allow)] = true;
            special |= v.contains(&b'*') || v.contains(&b'$') || normal.as_ref() != v;
        }
    }
    if matched == [true, true] && special {
        found.touch(OpenPoint::MatchLength);
    }
    let not_path: Vec<usize> = rules
        .into_iter()
        .filter(|&i| {
            value(layout, i)
                .first()
                .is_some_and(|&b| b != b'/' && b != b'*')
        })
        .collect();
    found.reading(OpenPoint::PatternNotAPath, not_a_path_readings(not_path));
}
