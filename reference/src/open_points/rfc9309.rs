//! RFC 9309's open points: its MAYs, and the "Choice:" marks of the `rfc9309` module.

mod percent;

use self::percent::{decode_in, percent_encoding, triplet_at, AS_WRITTEN};
use super::layout::{value, Layout};
use super::{missing_colon, not_a_path_readings, Found, OpenPoint};
use crate::lines::{contains_ci, field_is, LineKind};
use crate::rfc9309::{
    is_token_byte, matches, normalize_rule, normalize_uri, product_token, GroupLines, Robots,
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

pub(super) fn find(layout: &Layout, found: &mut Found) {
    missing_colon(layout, found);
    let body_len: usize = layout
        .lines
        .iter()
        .map(|l| l.text().len() + l.end.len())
        .sum();
    if body_len > PARSING_LIMIT {
        // A crawler may stop reading anywhere past 500 KiB; the earliest place it may stop is
        // the reading furthest from the reference's, which reads everything.
        found.reading(
            OpenPoint::ParsingLimit,
            vec![Box::new(|l: &mut Layout| {
                l.rewrites.push(|mut body| {
                    body.truncate(PARSING_LIMIT);
                    body
                })
            })],
        );
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

/// User-agent values that are neither a product token nor `*`.
///
/// Settled, so not here: product tokens are compared whole (§2.2.1 matches "the product token",
/// it does not search for it), and several `*` groups are combined like several named ones.
fn user_agents(layout: &Layout, found: &mut Found) {
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
}

/// The rules' open points, for this path.
///
/// Settled, so not here (the corpus scores them): case-sensitive matching and ignoring rules
/// outside any group (§2.2.2's SHOULDs), what an empty value matches (nothing: it has no path
/// whose first octet a match could start with), octets outside ASCII and unreserved characters
/// (encoded and decoded on both sides, Figure 4), and `%2A` and `%24` as the characters (Figure 6).
fn rules(layout: &Layout, found: &mut Found) {
    let uri = normalize_uri(layout.path.as_bytes()).into_owned();
    if uri != b"/robots.txt" && uri.split(|&b| b == b'?').next() == Some(b"/robots.txt") {
        // `/robots.txt?x`: the same file, or another URI subject to the rules.
        found.touch(OpenPoint::RobotsTxtLike);
    } else if uri == b"/robots.txt" && layout.path != "/robots.txt" {
        // `/%72obots.txt`: implicitly allowed once decoded, or only as written.
        found.touch(OpenPoint::RobotsTxtLike);
    }
    let rules = lines_of(layout, &["allow", "disallow"]);
    let spaced: Vec<usize> = rules
        .iter()
        .copied()
        .filter(|&i| value(layout, i).iter().copied().any(ends_a_value))
        .collect();
    if !spaced.is_empty() {
        // §2.2's path-pattern holds no space and no control character: a robot may end the
        // value at the first one.
        found.reading(
            OpenPoint::SpaceInValue,
            vec![Box::new(move |l: &mut Layout| {
                for &i in &spaced {
                    let v = value(l, i);
                    let cut = v.iter().copied().position(ends_a_value).unwrap_or(v.len());
                    let v = v[..cut].to_vec();
                    l.set_value(i, &v);
                }
            })],
        );
    }
    percent_encoding(layout, &rules, found);
    dollar_inside(layout, &rules, found);
    if match_length_is_open(layout, &uri) {
        found.touch(OpenPoint::MatchLength);
    }
    // (A value that starts with a space or a control is the reading above, and one that starts
    // with an encoded `/` is a percent-encoding reading, not this one.)
    let not_path: Vec<usize> = rules
        .into_iter()
        .filter(|&i| {
            let v = value(layout, i);
            v.first()
                .is_some_and(|&b| b != b'/' && b != b'*' && !ends_a_value(b))
                && triplet_at(v, 0) != Some(b'/')
        })
        .collect();
    found.reading(
        OpenPoint::PatternNotAPath,
        not_a_path_readings(not_path, true),
    );
}

/// Space, tab or another control character: none is in §2.2's `path-pattern`.
/// ([`AS_WRITTEN`] excepted: the other readings' marker must not read as one.)
fn ends_a_value(b: u8) -> bool {
    b == b' ' || (b.is_ascii_control() && b != AS_WRITTEN)
}

/// A `$` before the end of a rule: the reference takes it as the character; it could also end
/// the pattern there, or be dropped.
fn dollar_inside(layout: &Layout, rules: &[usize], found: &mut Found) {
    let inside: Vec<usize> = rules
        .iter()
        .copied()
        .filter(|&i| {
            let v = value(layout, i);
            !v.is_empty() && v[..v.len() - 1].contains(&b'$')
        })
        .collect();
    if inside.is_empty() {
        return;
    }
    let same = inside.clone();
    found.reading(
        OpenPoint::DollarInside,
        vec![
            Box::new(move |l: &mut Layout| {
                for &i in &same {
                    let v = value(l, i);
                    let end = v.iter().position(|&b| b == b'$').map_or(v.len(), |p| p + 1);
                    let v = v[..end].to_vec();
                    l.set_value(i, &v);
                }
            }),
            Box::new(move |l: &mut Layout| {
                for &i in &inside {
                    let v = value(l, i);
                    let mut kept: Vec<u8> = v[..v.len() - 1]
                        .iter()
                        .copied()
                        .filter(|&b| b != b'$')
                        .collect();
                    kept.push(v[v.len() - 1]);
                    l.set_value(i, &kept);
                }
            }),
        ],
    );
}

/// Whether "the most octets" (§2.2.2) decides differently when counted another way than the
/// reference counts (the rule's path in normal form, `*` and a final `$` one octet each): as
/// written in the file, without the special characters, or with each `%XX` as one octet.
fn match_length_is_open(layout: &Layout, uri: &[u8]) -> bool {
    if uri == b"/robots.txt" {
        return false;
    }
    let matched: Vec<(bool, &[u8], Vec<u8>)> = applicable_rules(layout)
        .into_iter()
        .filter_map(|i| {
            let v = value(layout, i);
            let normal = normalize_rule(v).into_owned();
            let allow =
                matches!(layout.kind(i), LineKind::Field { name, .. } if field_is(name, "allow"));
            (!normal.is_empty() && matches(&normal, uri)).then_some((allow, v, normal))
        })
        .collect();
    if !matched.iter().any(|m| m.0) || matched.iter().all(|m| m.0) {
        return false;
    }
    let verdict = |count: &dyn Fn(&[u8], &[u8]) -> usize| {
        let most = matched.iter().map(|(_, v, n)| count(v, n)).max();
        matched
            .iter()
            .any(|(allow, v, n)| *allow && Some(count(v, n)) == most)
    };
    let reference = verdict(&|_, normal| normal.len());
    let special = |b: &&u8| **b == b'*' || **b == b'$';
    [
        verdict(&|written, _| written.len()),
        verdict(&|_, normal| normal.iter().filter(|b| !special(b)).count()),
        verdict(&|_, normal| decode_in(normal, 0..normal.len(), |_| true).len()),
    ]
    .into_iter()
    .any(|other| other != reference)
}

/// The rule lines (layout indices) of the groups that apply to the agent, chosen as the
/// reference chooses them: every group naming its product token, else every `*` group.
fn applicable_rules(layout: &Layout) -> Vec<usize> {
    let token = product_token(layout.agent.as_bytes());
    let own = |number: &u32| product_token(value(layout, *number as usize - 1));
    let groups: Vec<GroupLines> = Robots::from_lines(layout.lines_read()).groups().collect();
    let named = |g: &&GroupLines| {
        g.agents
            .iter()
            .any(|n| !own(n).is_empty() && own(n) != b"*" && own(n).eq_ignore_ascii_case(token))
    };
    let star = |g: &&GroupLines| g.agents.iter().any(|n| own(n) == b"*");
    let chosen: Vec<&GroupLines> = if groups.iter().any(|g| named(&g)) {
        groups.iter().filter(named).collect()
    } else {
        groups.iter().filter(star).collect()
    };
    chosen
        .into_iter()
        .flat_map(|g| g.rules.iter().map(|&n| n as usize - 1))
        .collect()
}
