//! RFC 9309 §2.2.1: product tokens, and which user-agent lines name a crawler.

use crate::lines::trim;

/// RFC 9110 §5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_"
/// / "`" / "|" / "~" / DIGIT / ALPHA`, the characters of an HTTP `token`. RFC 9309's product
/// token is the one of HTTP's `User-Agent` header (RFC 9110 §10.1.5: `product = token ["/"
/// product-version]`); §2.2's `identifier` (letters, `_`, `-`) is a subset.
pub fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'.'
                | b'^'
                | b'_'
                | b'`'
                | b'|'
                | b'~'
        )
}

/// The leading run of token octets of `bytes` (after SP/HT), possibly empty.
///
/// Choice: a letter or digit outside ASCII, in UTF-8, continues the token. HTTP's `tchar`s are
/// ASCII, so a name such as `jävla-fanbot` is no token at all; cut at its first non-ASCII letter
/// it would be `j`, and every two names sharing an ASCII start before such a letter would be one
/// crawler. Taken whole, each such name names only itself (compared with ASCII case folding).
/// Other non-ASCII characters (a no-break space, punctuation) and octets that are not UTF-8 end
/// the token like any other separator.
fn leading_token(bytes: &[u8]) -> &[u8] {
    let bytes = trim(bytes);
    let mut end = 0;
    while let Some(&b) = bytes.get(end) {
        let width = match b {
            _ if is_token_byte(b) => 1,
            0xC0..=0xFF => non_ascii_alphanumeric(&bytes[end..]),
            _ => 0,
        };
        if width == 0 {
            break;
        }
        end += width;
    }
    &bytes[..end]
}

/// The length of the UTF-8 letter or digit that `bytes` starts with, or 0.
fn non_ascii_alphanumeric(bytes: &[u8]) -> usize {
    let width = match bytes[0] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    bytes
        .get(..width)
        .and_then(|c| std::str::from_utf8(c).ok())
        .and_then(|c| c.chars().next())
        .filter(|c| c.is_alphanumeric())
        .map_or(0, |_| width)
}

/// The crawler's product token, taken from the agent string the caller gives.
///
/// RFC 9309 §2.2.1: "Crawlers set their own name, which is called a product token, to find
/// relevant groups." The term is HTTP's (RFC 9110 §10.1.5: `product = token ["/"
/// product-version]`), so the product token of `FooBot/2.1` is `FooBot`: the agent's leading HTTP
/// token, before any `/version`, space or comment.
///
/// Choice: the same rule takes any other string, so a browser-style `Mozilla/5.0 (compatible;
/// FooBot/2.1)` is `Mozilla`. The crawler knows its own product token and passes it; guessing
/// which product of a longer string is "the" crawler would be a hidden second matching rule. An
/// agent that starts with no token character has an empty product token, which no user-agent line
/// names, so only `*` groups can apply to it.
pub fn product_token(agent: &[u8]) -> &[u8] {
    leading_token(agent)
}

/// What the value of one user-agent line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Names<'a> {
    /// RFC 9309 §2.2.1: the group "with a user-agent line with the "*" value".
    Star,
    /// The value's product token (possibly empty: then it names no crawler).
    Token(&'a [u8]),
}

impl<'a> Names<'a> {
    /// RFC 9309 §2.2: `startgroupline = *WS "user-agent" *WS ":" *WS product-token EOL` with
    /// `product-token = identifier / "*"`.
    ///
    /// Choice: a value that is not exactly a product token still makes a user-agent line (so it
    /// still starts or continues a group) and names what its leading HTTP token names, like the
    /// crawler's own agent string (see [`product_token`]): `FooBot/1.0` and `FooBot 1.0` name
    /// `FooBot`, `Foo Bot` names `Foo`, and `MJ12bot` names `MJ12bot` (digits are not in §2.2's
    /// `identifier`, but cutting at them would make `bot1` and `bot2` one crawler). The value `*`
    /// (also `*/1.0`, `* all`) makes the line a `*` line. A value with no leading token (empty,
    /// `/x`) names nobody.
    pub(super) fn of_value(value: &'a [u8]) -> Names<'a> {
        let token = leading_token(value);
        if token == b"*" {
            Names::Star
        } else {
            Names::Token(token)
        }
    }

    /// RFC 9309 §2.2.1: "Crawlers MUST use case-insensitive matching to find the group that
    /// matches the product token". Reading `whole-token-match` (README, "Readings"): whole tokens
    /// are compared, with ASCII case folding: `User-agent: foo` does not name `FooBot`, and
    /// `User-agent: FooBot-Image` does not name `FooBot`.
    pub(super) fn names(self, token: &[u8]) -> bool {
        match self {
            Names::Star => false,
            Names::Token(own) => !own.is_empty() && own.eq_ignore_ascii_case(token),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_token_of_an_agent() {
        assert_eq!(product_token(b"FooBot/2.1"), b"FooBot");
        assert_eq!(product_token(b"  Foo_Bot-x (+http://x)"), b"Foo_Bot-x");
        assert_eq!(
            product_token(b"Mozilla/5.0 (compatible; FooBot/2.1)"),
            b"Mozilla"
        );
        assert_eq!(product_token(b"MJ12bot/v1.4"), b"MJ12bot");
        assert_eq!(product_token(b"FooBot; +http://x"), b"FooBot");
        assert_eq!(product_token(b"/x"), b"");
        // Letters outside ASCII stay in the name; other characters end it.
        assert_eq!(
            product_token("jävla-fanbot/1.0".as_bytes()),
            "jävla-fanbot".as_bytes()
        );
        assert_eq!(product_token("Bot\u{a0}1".as_bytes()), b"Bot");
        assert_eq!(product_token("Bot«x»".as_bytes()), b"Bot");
        assert_eq!(product_token(b"Bot\xE4x"), b"Bot");
        assert_eq!(product_token("日本bot".as_bytes()), "日本bot".as_bytes());
    }

    #[test]
    fn values_and_what_they_name() {
        assert_eq!(Names::of_value(b"*"), Names::Star);
        assert_eq!(Names::of_value(b"*/1.0"), Names::Star);
        assert_eq!(Names::of_value(b"FooBot/1.0"), Names::Token(b"FooBot"));
        assert_eq!(Names::of_value(b"Foo Bot"), Names::Token(b"Foo"));
        assert_eq!(Names::of_value(b"*bot"), Names::Token(b"*bot"));
        assert!(!Names::of_value(b"bot1").names(b"bot2"));
        assert!(Names::of_value(b"FOOBOT").names(b"foobot"));
        assert!(!Names::of_value(b"foo").names(b"foobot"));
        assert!(!Names::of_value(b"foobot-image").names(b"foobot"));
        assert!(!Names::of_value(b"").names(b""));
        assert!(!Names::of_value(b"*").names(b""));
        let collide = "jävla-fanbot".as_bytes();
        assert!(!Names::of_value("Jävla-Foobot".as_bytes()).names(product_token(collide)));
        assert!(Names::of_value("JÄVLA-fanbot".as_bytes()).names(b"j\xC3\x84vla-FANBOT"));
    }
}
