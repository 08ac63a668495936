//! RFC 9309's percent-encoding open point. To compare a rule with a path the reference encodes
//! or decodes some octets where the texts leave that to the crawler; each other reading is an
//! edit of the path and of every rule alike.

use crate::open_points::layout::{value, Layout};
use crate::open_points::{Edit, Found, OpenPoint};
use crate::rfc9309::{push_encoded, triplet};

/// Marks an octet that is to be compared as written: the marker is percent-encoded on both sides
/// (`%01`) and so is the octet after it, so `|` as written and `%7C` no longer compare equal while
/// `|` still equals `|`.
pub(super) const AS_WRITTEN: u8 = 0x01;

/// Reserved characters that a reading compares equal to their encodings in the path: not `*`
/// and `$` (Figure 6 settles them), nor `?` and `#`, which would move where the query or a
/// comment starts.
fn equal_when_encoded(b: u8) -> bool {
    matches!(
        b,
        b':' | b'/'
            | b'['
            | b']'
            | b'@'
            | b'!'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'+'
            | b','
            | b';'
            | b'='
    )
}

/// The octet a `%XX` at `i` encodes, if one starts there.
pub(super) fn triplet_at(bytes: &[u8], i: usize) -> Option<u8> {
    triplet(&bytes[i..])
}

/// `bytes` with the `%XX` triplets that start inside `part` and encode a `decode` octet replaced
/// by that octet.
pub(super) fn decode_in(
    bytes: &[u8],
    part: std::ops::Range<usize>,
    decode: impl Fn(u8) -> bool,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match triplet_at(bytes, i) {
            Some(octet) if part.contains(&i) && decode(octet) => {
                out.push(octet);
                i += 3;
            }
            _ => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    out
}

/// Where the query starts: the first literal `?`, or the end.
fn query_start(bytes: &[u8]) -> usize {
    bytes.iter().position(|&b| b == b'?').unwrap_or(bytes.len())
}

/// The path part of `bytes` with `encode` octets written `%XX` (its leading `/` too), then the
/// query as it was.
fn encode_in_path(bytes: &[u8], encode: impl Fn(u8) -> bool) -> Vec<u8> {
    let query = query_start(bytes);
    let mut out = Vec::with_capacity(bytes.len() + 32);
    for &b in &bytes[..query] {
        if encode(b) {
            push_encoded(&mut out, b);
        } else {
            out.push(b);
        }
    }
    out.extend_from_slice(&bytes[query..]);
    out
}

/// ASCII octets RFC 3986 has no place for in a URI (controls, space, `"`, `<`, `>`, `\`, `^`,
/// `` ` ``, `{`, `|`, `}`, DEL): the reference encodes them on both sides.
fn outside_uri(b: u8) -> bool {
    (b.is_ascii_control()
        || matches!(
            b,
            b' ' | b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
        ))
        && b != AS_WRITTEN
}

/// The same edit of the path and of every rule's value.
fn both_sides(rules: &[usize], edit: fn(&[u8]) -> Vec<u8>) -> Edit {
    let rules = rules.to_vec();
    Box::new(move |l: &mut Layout| {
        l.path = String::from_utf8_lossy(&edit(l.path.as_bytes())).into_owned();
        for &i in &rules {
            let v = edit(value(l, i));
            l.set_value(i, &v);
        }
    })
}

/// The percent-encoding choices of the reference, each with the other reading as an edit of both
/// sides alike:
///
/// - reserved characters in the path compared equal to their encodings (`/a/b` and `/a%2Fb`),
///   `%3F` there included, and so the query's sub-delimiters (`a=b` and `a%3Db`);
/// - the query's `?`, `@`, `[` and `]` compared as written (Figure 4 settles `:` and `/`, which it
///   encodes);
/// - the hex digits of a kept `%xx` compared with their case;
/// - a `%` that starts no triplet compared as written, not as `%25`;
/// - the ASCII octets a URI has no place for (space, `|`, ...) compared as written.
pub(super) fn percent_encoding(layout: &Layout, rules: &[usize], found: &mut Found) {
    let sides: Vec<Side> = std::iter::once(layout.path.as_bytes())
        .chain(rules.iter().map(|&i| value(layout, i)))
        .map(Side::of)
        .collect();
    let any = |test: &dyn Fn(&Side) -> bool| sides.iter().any(test);
    let mut edits: Vec<Edit> = Vec::new();
    if any(&|s| s.in_path(equal_when_encoded)) {
        edits.push(both_sides(rules, |v| encode_in_path(v, equal_when_encoded)));
    }
    if any(&|s| s.in_path(|o| o == b'?')) {
        edits.push(both_sides(rules, |v| {
            decode_in(v, 0..query_start(v), |o| o == b'?')
        }));
    }
    if any(&|s| s.in_query(is_sub_delim)) {
        // The query's sub-delimiters compared equal to their encodings (`a=b` and `a%3Db`).
        edits.push(both_sides(rules, |v| {
            decode_in(v, query_start(v)..v.len(), is_sub_delim)
        }));
    }
    let query_data = |b: u8| b"?@[]".contains(&b);
    if any(&|s| {
        s.query < s.bytes.len()
            && (s.bytes[s.query + 1..].iter().any(|&b| query_data(b)) || s.in_query(query_data))
    }) {
        // With no literal `?` left, nothing is a query: every side compares as written, after
        // the query's `:` and `/` take the encoded form Figure 4 gives them.
        edits.push(both_sides(rules, |v| {
            let query = query_start(v);
            let mut out = v[..query].to_vec();
            for &b in &v[query..] {
                match b {
                    b'?' => out.push(AS_WRITTEN),
                    b':' => out.extend_from_slice(b"%3A"),
                    b'/' => out.extend_from_slice(b"%2F"),
                    _ => out.push(b),
                }
            }
            out
        }));
    }
    if any(&|s| {
        s.triplets.iter().any(|&(i, o)| {
            !is_unreserved(o) && s.bytes[i + 1..i + 3].iter().any(u8::is_ascii_lowercase)
        })
    }) {
        // A kept triplet written in lowercase (`%c3`) made to differ from its uppercase form.
        edits.push(both_sides(rules, |v| {
            let mut out = Vec::with_capacity(v.len());
            for (i, &b) in v.iter().enumerate() {
                out.push(b);
                let lower = triplet_at(v, i).is_some_and(|o| !is_unreserved(o))
                    && v[i + 1..i + 3].iter().any(u8::is_ascii_lowercase);
                if lower {
                    out.extend_from_slice(b"25");
                }
            }
            out
        }));
    }
    let stray = |v: &[u8], i: usize| v[i] == b'%' && triplet_at(v, i).is_none();
    if any(&|s| (0..s.bytes.len()).any(|i| stray(s.bytes, i))) {
        edits.push(both_sides(rules, |v| {
            let mut out = Vec::with_capacity(v.len());
            for (i, &b) in v.iter().enumerate() {
                if b == b'%' && triplet_at(v, i).is_none() {
                    out.push(AS_WRITTEN);
                }
                out.push(b);
            }
            out
        }));
    }
    if any(&|s| s.bytes.iter().copied().any(outside_uri)) {
        edits.push(both_sides(rules, |v| {
            let mut out = Vec::with_capacity(v.len());
            for &b in v {
                if outside_uri(b) {
                    out.push(AS_WRITTEN);
                }
                out.push(b);
            }
            out
        }));
    }
    found.reading(OpenPoint::PercentEncoding, edits);
}

/// One side the percent-encoding readings look at (the path, or a rule's value): where its
/// query starts, and its `%XX` triplets with their offsets, found once for every reading.
struct Side<'a> {
    bytes: &'a [u8],
    query: usize,
    triplets: Vec<(usize, u8)>,
}

impl Side<'_> {
    fn of(bytes: &[u8]) -> Side<'_> {
        let triplets = (0..bytes.len())
            .filter_map(|i| triplet_at(bytes, i).map(|o| (i, o)))
            .collect();
        Side {
            bytes,
            query: query_start(bytes),
            triplets,
        }
    }

    /// Whether a triplet before the query encodes an `octet`.
    fn in_path(&self, octet: impl Fn(u8) -> bool) -> bool {
        self.triplets
            .iter()
            .any(|&(i, o)| i < self.query && octet(o))
    }

    /// Whether a triplet in the query encodes an `octet`.
    fn in_query(&self, octet: impl Fn(u8) -> bool) -> bool {
        self.triplets
            .iter()
            .any(|&(i, o)| i >= self.query && octet(o))
    }
}

/// RFC 3986 §2.2's sub-delimiters but `$` and `*` (Figure 6 settles them).
fn is_sub_delim(b: u8) -> bool {
    b"!&'()+,;=".contains(&b)
}

/// RFC 3986 §2.3's unreserved characters.
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triplets_are_decoded_only_where_asked() {
        let path = b"/a%2fb%7E%C3%A9%zz%4?q=%3D";
        assert_eq!(
            decode_in(path, 0..path.len(), |_| true),
            b"/a/b~\xC3\xA9%zz%4?q=="
        );
        let query = query_start(path);
        assert_eq!(
            decode_in(path, query..path.len(), |o| o == b'='),
            b"/a%2fb%7E%C3%A9%zz%4?q=="
        );
        assert_eq!(
            decode_in(path, 0..query, |o| o == b'/'),
            b"/a/b%7E%C3%A9%zz%4?q=%3D"
        );
    }

    #[test]
    fn reserved_characters_are_encoded_in_the_path_alone() {
        assert_eq!(
            encode_in_path(b"/a:b?c:d", equal_when_encoded),
            b"%2Fa%3Ab?c:d"
        );
    }
}
