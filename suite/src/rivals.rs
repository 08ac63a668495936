//! The rival of each reading: the verdict a check would have if its words were read the other
//! way. A scored check rests on a reading exactly when the rival gives another verdict than the
//! reference; `suite/tests/quotes.rs` holds the corpus to naming the readings its checks rest
//! on, and to naming no other.
//!
//! Each rival is written as an edit of the body and the path that the reference then decides as
//! usual, so that it cannot drift from the reference in anything but the reading itself:
//!
//! - [`Reading::PercentAsWritten1994`]: every Disallow value and the path are put in one normal
//!   form, so that spellings a URL reading makes equal compare equal. Two forms, for the two
//!   URL readings in use: RFC 3986's (hex digits upper-cased, unreserved characters decoded), and
//!   the 1996 Internet-Draft's (every octet decoded but `/`, as that draft says).
//! - [`Reading::EmptyRuleMatchesNothing`]: read literally, an empty pattern's end is reached
//!   before any difference, so it matches every path with no octets, and loses to any other
//!   match. Only where no other rule matched can it decide: there every empty rule becomes `*`,
//!   which then matches alone, and allow wins a tie as before.
//! - [`Reading::WholeTokenMatch`]: a user-agent line whose product token occurs in the
//!   crawler's, or the crawler's in it (`foo` and `FooBot`, `FooBot-Image` and `FooBot`), names the
//!   crawler, as a prefix or substring match of tokens would have it: such a line is given the
//!   crawler's own token.
//! - [`Reading::StarGroupsCombined`]: with several groups holding a `*` line, a crawler obeys
//!   only one of them, the first or the last: the `*` lines of the others are renamed to a token
//!   no crawler has.
//! - [`Reading::RulePercentDecoded`]: a rule's `%XX` is compared as written, as Google's library
//!   compares a rule: each triplet of an unreserved character in an allow or disallow value is
//!   written `%25XX`, which the reference keeps as the three characters, while the URI is put in
//!   normal form as §2.2.2 orders.

use robotstxt_reference::explain::RuleChoice;
use robotstxt_reference::lines::{classify, contains_ci, field_is, raw_lines, LineKind, BOM};
use robotstxt_reference::rfc9309::{self, product_token};
use robotstxt_reference::Robots;

use crate::readings::Reading;

/// Whether the rival of `reading` decides `agent` and `path` on `body` otherwise than the
/// reference does under the reading's profile.
pub fn rival_differs(reading: Reading, body: &[u8], agent: &str, path: &str) -> bool {
    let profile = reading.profile();
    let settled = Robots::parse(profile, body).is_allowed(agent, path);
    match reading {
        Reading::PercentAsWritten1994 => [rfc3986_normal as fn(&[u8]) -> Vec<u8>, draft_1996]
            .into_iter()
            .any(|normal| {
                let body = edit_values(body, &["disallow"], normal);
                let path = String::from_utf8(normal(path.as_bytes()))
                    .expect("a normal form of a path is UTF-8");
                Robots::parse(profile, &body).is_allowed(agent, &path) != settled
            }),
        Reading::EmptyRuleMatchesNothing => {
            let decision = Robots::parse(profile, body).decide(agent, path);
            match decision.explanation.rule {
                RuleChoice::NoRuleMatched { empty, .. } if empty > 0 => {
                    let body = edit_values(body, &["allow", "disallow"], |v| {
                        if v.is_empty() {
                            b"*".to_vec()
                        } else {
                            v.to_vec()
                        }
                    });
                    Robots::parse(profile, &body).is_allowed(agent, path) != settled
                }
                _ => false,
            }
        }
        Reading::WholeTokenMatch => {
            let own = product_token(agent.as_bytes());
            let body = edit_values(body, &["user-agent"], |v| {
                let token = product_token(v);
                let partial = !token.is_empty()
                    && token != b"*"
                    && !token.eq_ignore_ascii_case(own)
                    && (contains_ci(own, token) || contains_ci(token, own));
                if partial {
                    own.to_vec()
                } else {
                    v.to_vec()
                }
            });
            Robots::parse(profile, &body).is_allowed(agent, path) != settled
        }
        Reading::RulePercentDecoded => {
            let body = edit_values(body, &["allow", "disallow"], unreserved_kept_encoded);
            Robots::parse(profile, &body).is_allowed(agent, path) != settled
        }
        Reading::StarGroupsCombined => {
            let stars = star_groups(body);
            if stars.len() < 2 {
                return false;
            }
            let (first, last) = (stars[0].clone(), stars[stars.len() - 1].clone());
            [first, last].into_iter().any(|kept| {
                let body = edit_lines(body, |number, text| match classify(text) {
                    LineKind::Field { name, value }
                        if field_is(name, "user-agent")
                            && product_token(value) == b"*"
                            && !kept.contains(&number) =>
                    {
                        Some(b"User-agent: x-another-star".to_vec())
                    }
                    _ => None,
                });
                Robots::parse(profile, &body).is_allowed(agent, path) != settled
            })
        }
    }
}

/// The user-agent line numbers of each group that holds a `*` line, in the file's order.
fn star_groups(body: &[u8]) -> Vec<Vec<u32>> {
    let lines: Vec<&[u8]> = {
        let rest = body.strip_prefix(BOM).unwrap_or(body);
        raw_lines(rest).map(|l| l.text).collect()
    };
    let is_star = |number: &u32| {
        let text = lines.get(*number as usize - 1).copied().unwrap_or_default();
        matches!(classify(text), LineKind::Field { value, .. } if product_token(value) == b"*")
    };
    rfc9309::Robots::parse(body)
        .groups()
        .map(|g| g.agents)
        .filter(|agents| agents.iter().any(is_star))
        .collect()
}

/// `body` with each line that `edit` gives new text for (by its 1-based number) replaced; line
/// ends and every other byte stay as they were.
pub(crate) fn edit_lines(
    body: &[u8],
    mut edit: impl FnMut(u32, &[u8]) -> Option<Vec<u8>>,
) -> Vec<u8> {
    let (mark, rest) = match body.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => (&b""[..], body),
    };
    let mut out = mark.to_vec();
    for line in raw_lines(rest) {
        match edit(line.number, line.text) {
            Some(text) => out.extend_from_slice(&text),
            None => out.extend_from_slice(line.text),
        }
        out.extend_from_slice(line.terminator);
    }
    out
}

/// `body` with the value of every line whose field is one of `fields` replaced by `edit` of it
/// (a line's comment goes with it; every other byte, line ends included, stays as it was).
fn edit_values(body: &[u8], fields: &[&str], edit: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    edit_lines(body, |_, text| match classify(text) {
        LineKind::Field { name, value } if fields.iter().any(|f| field_is(name, f)) => {
            let mut line = name.to_vec();
            line.extend_from_slice(b": ");
            line.extend_from_slice(&edit(value));
            Some(line)
        }
        _ => None,
    })
}

/// The triplet at the start of `s`, as its octet, if `s` starts with `%` and two hex digits.
fn triplet(s: &[u8]) -> Option<u8> {
    match s {
        [b'%', h, l, ..] if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => {
            let digit = |d: u8| (d as char).to_digit(16).expect("a hex digit") as u8;
            Some(digit(*h) * 16 + digit(*l))
        }
        _ => None,
    }
}

/// Every triplet of an unreserved character written `%25XX`: a `%` the reference does not
/// decode, so the triplet stays three characters.
fn unreserved_kept_encoded(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for (i, &b) in s.iter().enumerate() {
        out.push(b);
        if b == b'%' && triplet(&s[i..]).is_some_and(is_unreserved) {
            out.extend_from_slice(b"25");
        }
    }
    out
}

fn is_unreserved(octet: u8) -> bool {
    octet.is_ascii_alphanumeric() || b"-._~".contains(&octet)
}

/// RFC 3986 §6.2.2: hex digits upper-cased, unreserved characters decoded; all else as written.
pub(crate) fn rfc3986_normal(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match triplet(&s[i..]) {
            Some(octet) if is_unreserved(octet) => out.push(octet),
            Some(octet) => out.extend_from_slice(format!("%{octet:02X}").as_bytes()),
            None => {
                out.push(s[i]);
                i += 1;
                continue;
            }
        }
        i += 3;
    }
    out
}

/// The 1996 Internet-Draft: every triplet decoded but `%2F`, then each octet in one spelling
/// (characters a URL holds as they are written plainly, every other octet, `%` included, as
/// `%XX`), so that two values compare as their decoded octets do.
pub(crate) fn draft_1996(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let (octet, kept_encoded, width) = match triplet(&s[i..]) {
            Some(octet) => (octet, octet == b'/', 3),
            None => (s[i], false, 1),
        };
        if !kept_encoded && (is_unreserved(octet) || b"!$&'()*+,;=:@/?".contains(&octet)) {
            out.push(octet);
        } else {
            out.extend_from_slice(format!("%{octet:02X}").as_bytes());
        }
        i += width;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_normal_forms() {
        assert_eq!(
            rfc3986_normal(b"/%7ejoe/%2f%c3%A9%zz"),
            b"/~joe/%2F%C3%A9%zz"
        );
        assert_eq!(
            draft_1996(b"/%7ejoe/%2f%c3%A9 caf\xC3\xA9"),
            b"/~joe/%2F%C3%A9%20caf%C3%A9"
        );
        assert_eq!(draft_1996(b"/100%"), b"/100%25");
        assert_eq!(draft_1996(b"/a#b"), b"/a%23b");
    }

    #[test]
    fn only_the_named_fields_are_edited_and_every_line_end_stays() {
        let body = b"\xEF\xBB\xBFUser-agent: %41\r\nDisallow: /%41 # c\rAllow:\n\nDisallow:";
        assert_eq!(
            edit_values(body, &["disallow"], |v| v.to_ascii_lowercase()),
            b"\xEF\xBB\xBFUser-agent: %41\r\nDisallow: /%41\rAllow:\n\nDisallow: "
        );
    }

    #[test]
    fn a_percent_encoding_read_as_a_url_changes_a_1994_prefix() {
        let body = b"User-agent: *\nDisallow: /%7Ejoe\n";
        let differs = |path| rival_differs(Reading::PercentAsWritten1994, body, "FooBot", path);
        assert!(differs("/~joe/x"));
        assert!(differs("/%7ejoe"));
        assert!(!differs("/%7Ejoe"));
        assert!(!differs("/other"));
    }

    #[test]
    fn a_token_inside_another_names_the_crawler_only_in_the_rival() {
        let body = b"User-agent: foo\nDisallow: /a\n\nUser-agent: FooBot-Image\nDisallow: /b\n";
        let differs = |agent, path| rival_differs(Reading::WholeTokenMatch, body, agent, path);
        assert!(differs("FooBot", "/a"));
        assert!(differs("FooBot", "/b"));
        assert!(!differs("foo", "/a"));
        assert!(!differs("BarBot", "/a"));
    }

    #[test]
    fn a_crawler_obeying_one_star_group_differs_only_where_the_other_decides() {
        let body = b"User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\nDisallow: /f\n\nUser-agent: *\nDisallow: /b\n";
        let differs = |agent, path| rival_differs(Reading::StarGroupsCombined, body, agent, path);
        assert!(differs("BarBot", "/a"));
        assert!(differs("BarBot", "/b"));
        assert!(!differs("BarBot", "/c"));
        assert!(!differs("FooBot", "/a"));
    }

    #[test]
    fn a_rule_compared_as_written_differs_only_where_its_triplet_is_unreserved() {
        let differs =
            |body: &[u8], path| rival_differs(Reading::RulePercentDecoded, body, "FooBot", path);
        assert!(differs(b"User-agent: *\nDisallow: /%7Ejoe\n", "/~joe"));
        assert!(differs(b"User-agent: *\nDisallow: /%7ejoe\n", "/%7Ejoe"));
        assert!(!differs(b"User-agent: *\nDisallow: /~joe\n", "/%7Ejoe"));
        // A non-ASCII octet stays encoded on both sides under either reading.
        assert!(!differs(
            b"User-agent: *\nDisallow: /caf%C3%A9\n",
            "/caf\u{e9}"
        ));
        assert_eq!(unreserved_kept_encoded(b"/%41%2F%zz%"), b"/%2541%2F%zz%");
    }

    #[test]
    fn an_empty_rule_read_literally_decides_only_where_nothing_else_matched() {
        let body =
            b"User-agent: *\nDisallow:\nAllow: /a\n\nUser-agent: FooBot\nAllow:\nDisallow: /b\n";
        let differs =
            |agent, path| rival_differs(Reading::EmptyRuleMatchesNothing, body, agent, path);
        // Nothing else matches: the empty Disallow would.
        assert!(differs("BarBot", "/x"));
        assert!(!differs("BarBot", "/a"));
        // An empty Allow matching everything changes no verdict that was allowed anyway.
        assert!(!differs("FooBot", "/x"));
        assert!(!differs("FooBot", "/b"));
    }
}
