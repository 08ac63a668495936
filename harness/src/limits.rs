//! The bounds the application holds against hostile input, in one place so that the
//! documentation (the README) and the code agree: a survey corpus, the command line, and names
//! that go into paths. The bounds on case files are `robotstxt_suite::limits`, those on what an
//! adapter sends `robotstxt_runtime::limits`.
//!
//! A corpus or an adapter may come from anyone; whatever they hold, memory and time stay bounded
//! and anything that goes into a path stays inside its folder.

use std::time::Duration;

/// Longest time any `--timeout` or `--time` flag accepts, in seconds (a little over 11 days).
pub const MAX_SECONDS: f64 = 1e6;
/// Longest adapter name used in a path.
pub const MAX_NAME: usize = 64;

/// A number of seconds a flag cannot take.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SecondsError {
    #[error("{flag} {value} must be a positive number of seconds")]
    NotPositive { flag: &'static str, value: f64 },
    // `{:e}`: a value such as 1e300 is shown as written, not as 301 digits.
    #[error("{flag} {value:e} is out of range: at most {MAX_SECONDS} seconds")]
    OutOfRange { flag: &'static str, value: f64 },
}

/// A positive number of seconds from the command line, as a duration: an error (not a panic)
/// for anything not finite, not positive, or beyond [`MAX_SECONDS`].
pub fn seconds(flag: &'static str, value: f64) -> Result<Duration, SecondsError> {
    if !(value.is_finite() && value > 0.0) {
        return Err(SecondsError::NotPositive { flag, value });
    }
    if value > MAX_SECONDS {
        return Err(SecondsError::OutOfRange { flag, value });
    }
    Ok(Duration::from_secs_f64(value))
}

/// An adapter's self-reported name reduced to something safe inside a path
/// (`fuzz/findings/<slug>`, `adapters/<slug>/expectations.yaml`): ASCII letters, digits, `-`,
/// `_` and `.` kept, anything else (`/` included) made `-`, no leading `.` or `-`, at most
/// [`MAX_NAME`] bytes, never empty.
pub fn path_slug(name: &str) -> String {
    let mapped: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let slug: String = mapped
        .trim_start_matches(['.', '-'])
        .chars()
        .take(MAX_NAME)
        .collect();
    if slug.is_empty() {
        "adapter".to_owned()
    } else {
        slug
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_out_of_range_are_errors() {
        assert_eq!(
            seconds("--timeout", 1e300).unwrap_err().to_string(),
            "--timeout 1e300 is out of range: at most 1000000 seconds"
        );
        assert!(seconds("--timeout", f64::NAN).is_err());
        assert!(seconds("--timeout", -1.0).is_err());
        assert_eq!(
            seconds("--timeout", 2.5).unwrap(),
            Duration::from_millis(2500)
        );
    }

    #[test]
    fn names_cannot_leave_their_folder() {
        assert_eq!(path_slug("../../../fuzzescape"), "fuzzescape");
        assert_eq!(path_slug("a/b\\c\0d"), "a-b-c-d");
        assert_eq!(path_slug(".."), "adapter");
        assert_eq!(path_slug("python-google"), "python-google");
        assert_eq!(path_slug(&"x".repeat(500)).len(), MAX_NAME);
    }
}
