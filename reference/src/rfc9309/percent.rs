//! RFC 9309 §2.2.2: percent-encoding, applied alike to the rules' paths and to the URI before they
//! are compared.
//!
//! RFC 9309 §2.2.2: "Octets in the URI and robots.txt paths outside the range of the ASCII coded
//! character set, and those in the reserved range defined by \[RFC3986\], MUST be percent-encoded as
//! defined by \[RFC3986\] prior to comparison." And: "If a percent-encoded ASCII octet is encountered
//! in the URI, it MUST be unencoded prior to comparison, unless it is a reserved character in the
//! URI as defined by \[RFC3986\] or the character is outside the unreserved character range."
//!
//! Both sides are brought to one normal form, octet by octet, so that comparing them octet by octet
//! compares the URIs they denote:
//!
//! - An unreserved character (RFC 3986 §2.3: `ALPHA / DIGIT / "-" / "." / "_" / "~"`) stands as
//!   itself; a `%XX` that encodes one is decoded (`%7E` is `~`, `%41` is `A`). On the rule's side
//!   too: its path is "percent-encoded as defined by \[RFC3986\]", and RFC 3986 §2.3 makes an
//!   unreserved character and its encoding equivalent.
//! - Octets outside ASCII are encoded (`é` in UTF-8 is `%C3%A9`).
//! - A reserved character (RFC 3986 §2.2: `: / ? # [ ] @ ! $ & ' ( ) * + , ; =`) is encoded where
//!   it is data and compared as written where it delimits. Choice: "percent-encoded as defined by
//!   \[RFC3986\]" is read with RFC 3986 §2.2's own rule, that reserved characters are encoded when
//!   they are data. Inside the query (everything after the first literal `?`), the generic
//!   delimiters `: / ? @ [ ]` delimit nothing any more, so they are data and are encoded: Figure 4
//!   gives `/foo/bar?baz=https://foo.bar` the "Path to Match" `/foo/bar?baz=https%3A%2F%2Ffoo.bar`,
//!   and the same figure keeps the query's `=` as written, so the sub-delimiters (`& = ; + , ! ' (
//!   )`), which structure a query's data, stay as written. Before the query every reserved
//!   character stays as written: `/` structures the path, and "URIs that differ in the replacement
//!   of a reserved character with its corresponding percent-encoded US-ASCII octet are not
//!   equivalent" (RFC 3986 §2.2), so `/a/b` and `/a%2Fb` differ.
//! - `*` and `$` are the exception. RFC 9309 §2.2.3: "If crawlers match special characters
//!   verbatim in the URI, crawlers SHOULD use "%" encoding." Choice: in a rule, `*` and a final `$`
//!   are the special characters, and `%2A` and `%24` (and a `$` that is not last) are the
//!   characters themselves; in the URI, `*` and `$` are always the characters themselves, so they
//!   are encoded there: a rule's `%2A` matches a URI's `*` written either way.
//! - Choice: ASCII octets that RFC 3986 does not allow in a URI at all (controls, space, DEL and
//!   `" < > \ ^ ` { | }`) are encoded too, as RFC 3986 §2.1 would have them, on both sides alike.
//! - Choice: the hex digits of a kept `%XX` are uppercased (RFC 3986 §2.1: "The uppercase
//!   hexadecimal digits 'A' through 'F' are equivalent to the lowercase digits 'a' through 'f'").
//! - Choice: a `%` that does not start a `%XX` triplet is the octet `%` itself, encoded `%25`.
//!
//! Normalizing is a single pass and allocates only when something changes: a value without `%`,
//! non-ASCII octets or the few ASCII octets above is returned borrowed.

use std::borrow::Cow;

use memchr::memchr;

/// The octet stands as itself.
const KEEP: u8 = 0;
/// The octet is written `%XX`.
const ENCODE: u8 = 1;
/// `%`: a triplet to check.
const PERCENT: u8 = 2;

/// RFC 3986 §2.3: `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`.
const fn is_unreserved(b: u8) -> bool {
    matches!(b, b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 §2.2: `reserved = gen-delims / sub-delims`.
const fn is_reserved(b: u8) -> bool {
    matches!(
        b,
        b':' | b'/'
            | b'?'
            | b'#'
            | b'['
            | b']'
            | b'@'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
    )
}

/// RFC 3986 §2.2's generic delimiters that can stand in a query, where they are data.
const fn is_query_data(b: u8) -> bool {
    matches!(b, b':' | b'/' | b'?' | b'@' | b'[' | b']')
}

/// The class of every octet; `star` is the class of `*` (kept in a rule, encoded in the URI),
/// `query` whether the octets are the query's. `$` is always encoded: a rule's final `$` is split
/// off before normalizing.
const fn classes(star: u8, query: bool) -> [u8; 256] {
    let mut table = [ENCODE; 256];
    let mut b = 0;
    while b < 128 {
        if is_unreserved(b as u8) || (is_reserved(b as u8) && !(query && is_query_data(b as u8))) {
            table[b] = KEEP;
        }
        b += 1;
    }
    table[b'%' as usize] = PERCENT;
    table[b'*' as usize] = star;
    table[b'$' as usize] = ENCODE;
    table
}

/// The classes of one side: before the first literal `?`, and after it.
struct Side {
    path: [u8; 256],
    query: [u8; 256],
}

static URI: Side = Side {
    path: classes(ENCODE, false),
    query: classes(ENCODE, true),
};
static RULE: Side = Side {
    path: classes(KEEP, false),
    query: classes(KEEP, true),
};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The URI (path and query) in normal form.
pub fn normalize_uri(uri: &[u8]) -> Cow<'_, [u8]> {
    normalize(uri, &URI)
}

/// A rule's path in normal form: `*` stays the wildcard, a final `$` stays the end anchor, and
/// every other octet is normalized like the URI's.
pub fn normalize_rule(value: &[u8]) -> Cow<'_, [u8]> {
    match value.split_last() {
        Some((b'$', body)) => match normalize(body, &RULE) {
            Cow::Borrowed(_) => Cow::Borrowed(value),
            Cow::Owned(mut owned) => {
                owned.push(b'$');
                Cow::Owned(owned)
            }
        },
        _ => normalize(value, &RULE),
    }
}

/// The path part (up to and with the first literal `?`) and the query part, each with its classes.
fn normalize<'a>(bytes: &'a [u8], side: &Side) -> Cow<'a, [u8]> {
    let Some(question) = memchr(b'?', bytes) else {
        return normalize_part(bytes, &side.path);
    };
    let (path, query) = bytes.split_at(question + 1);
    match (
        normalize_part(path, &side.path),
        normalize_part(query, &side.query),
    ) {
        (Cow::Borrowed(_), Cow::Borrowed(_)) => Cow::Borrowed(bytes),
        (path, query) => {
            let mut out = path.into_owned();
            out.extend_from_slice(&query);
            Cow::Owned(out)
        }
    }
}

fn normalize_part<'a>(bytes: &'a [u8], class: &[u8; 256]) -> Cow<'a, [u8]> {
    let Some(start) = first_change(bytes, class) else {
        return Cow::Borrowed(bytes);
    };
    let mut out = Vec::with_capacity(bytes.len() + 16);
    out.extend_from_slice(&bytes[..start]);
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        match class[b as usize] {
            KEEP => {
                out.push(b);
                i += 1;
            }
            ENCODE => {
                push_encoded(&mut out, b);
                i += 1;
            }
            _ => match triplet(&bytes[i..]) {
                Some(decoded) if is_unreserved(decoded) => {
                    out.push(decoded);
                    i += 3;
                }
                Some(decoded) => {
                    push_encoded(&mut out, decoded);
                    i += 3;
                }
                None => {
                    push_encoded(&mut out, b'%');
                    i += 1;
                }
            },
        }
    }
    Cow::Owned(out)
}

/// The index of the first octet the normal form changes, if any.
fn first_change(bytes: &[u8], class: &[u8; 256]) -> Option<usize> {
    let mut i = 0;
    loop {
        // Eight octets at a time while none needs a look (one branch instead of eight).
        while let Some(chunk) = bytes.get(i..i + 8) {
            if chunk.iter().fold(KEEP, |any, &b| any | class[b as usize]) != KEEP {
                break;
            }
            i += 8;
        }
        i += bytes[i..].iter().position(|&b| class[b as usize] != KEEP)?;
        if class[bytes[i] as usize] == ENCODE {
            return Some(i);
        }
        match bytes.get(i + 1..i + 3) {
            Some(&[hi, lo])
                if is_upper_hex(hi)
                    && is_upper_hex(lo)
                    && !is_unreserved(hex_value(hi) << 4 | hex_value(lo)) =>
            {
                i += 3
            }
            _ => return Some(i),
        }
    }
}

/// The octet a `%XX` triplet at the start of `bytes` encodes (either case of hex digit).
pub(crate) fn triplet(bytes: &[u8]) -> Option<u8> {
    match bytes {
        [b'%', hi, lo, ..] if hi.is_ascii_hexdigit() && lo.is_ascii_hexdigit() => {
            Some(hex_value(*hi) << 4 | hex_value(*lo))
        }
        _ => None,
    }
}

fn is_upper_hex(b: u8) -> bool {
    matches!(b, b'0'..=b'9' | b'A'..=b'F')
}

/// The value of an ASCII hex digit (callers check that it is one).
fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => b.wrapping_sub(b'A').wrapping_add(10),
    }
}

/// Appends `%XX` for `b`, with uppercase hex digits.
pub(crate) fn push_encoded(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(&[b'%', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(s: &[u8]) -> Vec<u8> {
        normalize_uri(s).into_owned()
    }

    fn rule(s: &[u8]) -> Vec<u8> {
        normalize_rule(s).into_owned()
    }

    #[test]
    fn plain_values_are_borrowed() {
        assert!(matches!(normalize_uri(b"/a/b?c=d&e"), Cow::Borrowed(_)));
        assert!(matches!(normalize_rule(b"/*.html$"), Cow::Borrowed(_)));
        assert!(matches!(normalize_rule(b"/a%2Fb"), Cow::Borrowed(_)));
        assert!(matches!(normalize_uri(b"/a%C3%A9"), Cow::Borrowed(_)));
    }

    #[test]
    fn non_ascii_is_encoded_on_both_sides() {
        assert_eq!(uri("/café".as_bytes()), b"/caf%C3%A9");
        assert_eq!(rule("/café".as_bytes()), b"/caf%C3%A9");
        assert_eq!(rule(b"/caf\xE9"), b"/caf%E9");
    }

    #[test]
    fn encoded_unreserved_is_decoded_on_both_sides() {
        assert_eq!(uri(b"/%7Ejoe/%41%62"), b"/~joe/Ab");
        assert_eq!(rule(b"/%7ejoe"), b"/~joe");
    }

    #[test]
    fn encoded_reserved_stays_encoded_with_uppercase_hex() {
        assert_eq!(uri(b"/a%2fb"), b"/a%2Fb");
        assert_eq!(rule(b"/a%2fb"), b"/a%2Fb");
        assert_eq!(uri(b"/a%c3%a9"), b"/a%C3%A9");
        assert_eq!(uri(b"/a%20b"), b"/a%20b");
    }

    #[test]
    fn generic_delimiters_in_the_query_are_data() {
        // Figure 4 of RFC 9309 §2.2.2: both spellings have one "Path to Match".
        let figure = &b"/foo/bar?baz=https%3A%2F%2Ffoo.bar"[..];
        assert_eq!(uri(b"/foo/bar?baz=https://foo.bar"), figure);
        assert_eq!(uri(figure), figure);
        assert_eq!(rule(b"/foo/bar?baz=https://foo.bar"), figure);
        assert_eq!(uri(b"/foo/bar?baz=quz"), b"/foo/bar?baz=quz");
        // Only the first `?` starts the query; `@`, `[`, `]` and later `?`s are data there.
        assert_eq!(uri(b"/a?b?c@d[e]"), b"/a?b%3Fc%40d%5Be%5D");
        // Sub-delimiters stay as written in the query, and the path's reserved characters too.
        assert_eq!(uri(b"/a:b/c;d?e=f&g;h"), b"/a:b/c;d?e=f&g;h");
        assert_eq!(uri(b"/a%3Fb/c"), b"/a%3Fb/c");
        // In a rule, `*` and a final `$` stay special in the query as well.
        assert_eq!(rule(b"/p?u=*://x$"), b"/p?u=*%3A%2F%2Fx$");
        assert!(matches!(normalize_uri(b"/a?b=c&d"), Cow::Borrowed(_)));
    }

    #[test]
    fn star_and_dollar() {
        // In the URI they are characters, always encoded.
        assert_eq!(uri(b"/a*b$c"), b"/a%2Ab%24c");
        assert_eq!(uri(b"/a%2ab%24"), b"/a%2Ab%24");
        // In a rule `*` and a final `$` are special; any other `$` is a character.
        assert_eq!(rule(b"/a*b$"), b"/a*b$");
        assert_eq!(rule(b"/a$b$"), b"/a%24b$");
        assert_eq!(rule(b"/a$$"), b"/a%24$");
        assert_eq!(rule(b"/a%2A"), b"/a%2A");
    }

    #[test]
    fn stray_percent_and_disallowed_ascii() {
        assert_eq!(uri(b"/100%"), b"/100%25");
        assert_eq!(uri(b"/a%zz%4"), b"/a%25zz%254");
        assert_eq!(uri(b"/a|b c"), b"/a%7Cb%20c");
        assert_eq!(rule(b"/a|b c"), b"/a%7Cb%20c");
    }

    #[test]
    fn normalizing_twice_changes_nothing() {
        for s in [
            &b"/a%zz%4"[..],
            b"/caf\xC3\xA9*$",
            b"/%7e%2f%2a|$x$",
            b"%%%41%",
            b"/a?b=http://c?d%3F@",
        ] {
            let once = rule(s);
            assert_eq!(rule(&once), once);
            let once = uri(s);
            assert_eq!(uri(&once), once);
        }
    }
}
