//! RFC 9309 §2.2.2 and §2.2.3: matching one rule's path against the URI.

use memchr::memchr;
use memchr::memmem;

/// Whether the rule path `pattern` matches `uri`, both already in normal form (see `percent`).
///
/// RFC 9309 §2.2.2: "The matching MUST start with the first octet of the path." and "The match
/// evaluates positively if and only if the end of the path from the rule is reached before a
/// difference in octets is encountered": a rule without special characters is a prefix of the
/// URI. "The matching SHOULD be case sensitive": octets are compared exactly.
///
/// RFC 9309 §2.2.3: `*` "Designates 0 or more instances of any character"; `$` "Designates the
/// end of the match pattern". Choice: `$` is the end anchor only as the pattern's last character
/// (normalizing has already turned any other `$` into the character `%24`).
///
/// Reading `empty-rule-matches-nothing` (README, "Readings"): an empty pattern matches nothing
/// (the caller skips it). Choice: a pattern that starts with neither `/` nor `*` matches no path.
///
/// The pattern is cut at its `*`s into segments. The first segment must be a prefix of the URI;
/// each middle segment is found at its leftmost place after the previous one (taking the leftmost
/// place never loses a match, since everything after it is then still available to the rest); the
/// last segment must occur after that, and with `$` must end the URI. Every search starts where the
/// previous one stopped, so the cost is linear in the URI and the pattern together: no
/// backtracking, whatever the number of `*`s.
pub fn matches(pattern: &[u8], uri: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', body)) => (body, true),
        _ => (pattern, false),
    };
    let Some(star) = memchr(b'*', pattern) else {
        return if anchored {
            uri == pattern
        } else {
            uri.starts_with(pattern)
        };
    };
    if !uri.starts_with(&pattern[..star]) {
        return false;
    }
    let mut at = star;
    let mut rest = &pattern[star + 1..];
    while let Some(next) = memchr(b'*', rest) {
        let segment = &rest[..next];
        if !segment.is_empty() {
            match memmem::find(&uri[at..], segment) {
                Some(found) => at += found + segment.len(),
                None => return false,
            }
        }
        rest = &rest[next + 1..];
    }
    if anchored {
        uri.len() - at >= rest.len() && uri.ends_with(rest)
    } else {
        rest.is_empty() || memmem::find(&uri[at..], rest).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn plain_prefix_is_case_sensitive() {
        assert!(matches(b"/fish", b"/fish"));
        assert!(matches(b"/fish", b"/fish.html"));
        assert!(matches(b"/fish", b"/fishheads/yummy.html"));
        assert!(!matches(b"/fish", b"/Fish.asp"));
        assert!(!matches(b"/fish", b"/catfish"));
        assert!(!matches(b"/fish/", b"/fish"));
    }

    #[test]
    fn dollar_anchors_the_end() {
        assert!(matches(b"/this/path/exactly$", b"/this/path/exactly"));
        assert!(!matches(b"/this/path/exactly$", b"/this/path/exactly/"));
        assert!(!matches(b"/this/path/exactly$", b"/this/path/exactly?q"));
        assert!(matches(b"*.gif$", b"/a/b.gif"));
        assert!(!matches(b"*.gif$", b"/a/b.gif?x=1"));
        assert!(matches(b"/*$", b"/anything"));
    }

    #[test]
    fn star_matches_any_run_including_none() {
        assert!(matches(b"/this/*/exactly", b"/this/is/exactly"));
        assert!(matches(b"/this/*/exactly", b"/this//exactly"));
        assert!(matches(b"/this/*/exactly", b"/this/a/b/exactly/more"));
        assert!(!matches(b"/this/*/exactly", b"/this/exactly"));
        assert!(matches(b"/*", b"/"));
        assert!(matches(b"*", b"/x"));
        assert!(matches(b"/a**b", b"/ab"));
    }

    #[test]
    fn the_last_occurrence_can_be_the_one_that_ends_the_uri() {
        // The first `.html` is not at the end; the match must use the second one.
        assert!(matches(b"/*.html$", b"/a.html.html"));
        assert!(matches(b"/*.html$", b"/.html"));
        assert!(!matches(b"/*.html$", b"/a.html.htm"));
        assert!(matches(b"/*a*b$", b"/xaxbxab"));
        // The anchored tail may not overlap what the middle segments used.
        assert!(!matches(b"/*ab*ba$", b"/aba"));
        assert!(matches(b"/*ab*ba$", b"/abba"));
    }

    #[test]
    fn many_stars_against_a_long_uri_are_fast() {
        let mut uri = vec![b'/'];
        uri.resize(100 * 1024, b'a');
        let start = std::time::Instant::now();
        for _ in 0..100 {
            assert!(!matches(b"/*a*a*a*a*a*a*a*b", &uri));
            assert!(!matches(b"/*a*a*a*a*a*a*a*b$", &uri));
            assert!(matches(b"/*a*a*a*a*a*a*a*a$", &uri));
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }
}
