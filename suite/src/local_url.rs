//! The local URL a query asks about (a path starting with `/`, with an optional `?query`), and the
//! full URL on `http://example.com` that adapters are given beside it.
//!
//! A full URL given on the command line is cut down to its local URL here, once, for every
//! command that accepts one. Its bytes are kept exactly as written (no percent-decoding, no
//! removal of `.` segments, no case change): those are what parsers disagree about.

/// The origin every query's full URL is on: the adapter protocol's.
pub const ORIGIN: &str = robotstxt_protocol::ORIGIN;

/// The full URL of a local URL: what the adapter protocol's `url` field holds.
pub fn full_url(path: &str) -> String {
    format!("{ORIGIN}{path}")
}

/// Why a path is not a local URL a query can ask about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalUrlError {
    #[error("path {0:?} must start with `/`")]
    NoLeadingSlash(String),
    #[error("path {0:?} holds a space, a control or a bidirectional character; percent-encode it")]
    SpaceOrControl(String),
}

/// Why a full URL has no local URL to ask about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FullUrlError {
    #[error("URL {0:?}: not a full URL (scheme://host/path)")]
    NotFull(String),
    #[error("URL {url:?}: `{scheme}` is not a URL scheme")]
    BadScheme { url: String, scheme: String },
    #[error("URL {0:?}: no host")]
    NoHost(String),
    #[error("URL {url:?}: {local}")]
    BadPath { url: String, local: LocalUrlError },
}

/// Whether `path` is a local URL a query can ask about.
pub fn check_local(path: &str) -> Result<(), LocalUrlError> {
    if !path.starts_with('/') {
        Err(LocalUrlError::NoLeadingSlash(path.to_owned()))
    } else if path
        .chars()
        .any(|c| c == ' ' || crate::visible::is_control_or_bidi(c))
    {
        Err(LocalUrlError::SpaceOrControl(path.to_owned()))
    } else {
        Ok(())
    }
}

/// The local URL of a full URL (`scheme://authority/path?query#fragment`): its path and query,
/// `/` when the path is empty, the fragment dropped (a fragment never reaches a server).
pub fn from_full_url(url: &str) -> Result<String, FullUrlError> {
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| FullUrlError::NotFull(url.to_owned()))?;
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Err(FullUrlError::BadScheme {
            url: url.to_owned(),
            scheme: scheme.to_owned(),
        });
    }
    let local_start = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    if local_start == 0 {
        return Err(FullUrlError::NoHost(url.to_owned()));
    }
    let local = &rest[local_start..];
    let local = local.split_once('#').map_or(local, |(before, _)| before);
    let path = if local.starts_with('/') {
        local.to_owned()
    } else {
        format!("/{local}")
    };
    check_local(&path).map_err(|local| FullUrlError::BadPath {
        url: url.to_owned(),
        local,
    })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_urls_keep_path_and_query_exactly() {
        let cases = [
            ("https://example.org/a/b?c=d#frag", "/a/b?c=d"),
            ("http://example.org", "/"),
            ("http://example.org?q", "/?q"),
            (
                "http://user@example.org:8080/%7Ea/./b/../C",
                "/%7Ea/./b/../C",
            ),
            ("HTTP://EXAMPLE.ORG/Robots.TXT", "/Robots.TXT"),
        ];
        for (url, path) in cases {
            assert_eq!(from_full_url(url).as_deref(), Ok(path), "{url}");
        }
    }

    #[test]
    fn what_is_not_a_full_url_is_refused_with_the_reason() {
        for (url, why) in [
            ("/a/b", "not a full URL"),
            ("example.org/a", "not a full URL"),
            ("http:///a", "no host"),
            ("1http://example.org/", "not a URL scheme"),
            ("http://example.org/a b", "a space, a control"),
        ] {
            let error = from_full_url(url).unwrap_err().to_string();
            assert!(error.contains(why), "{url}: {error}");
        }
    }

    #[test]
    fn a_local_url_round_trips_through_its_full_url() {
        for path in ["/", "/a?b=c", "/%E4/x*$"] {
            assert_eq!(from_full_url(&full_url(path)).as_deref(), Ok(path));
        }
    }
}
