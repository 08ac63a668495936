//! `robotstxt-reference`: a reference implementation of robots.txt, written from the texts.
//!
//! One profile per text:
//!
//! - [`Profile::Norobots1994`]: "A Standard for Robot Exclusion" (30 June 1994), in
//!   [`norobots1994`]: records separated by blank lines, the first record naming the robot (by a
//!   substring of its name) or else the `*` record, and Disallow values as plain prefixes.
//! - [`Profile::Rfc9309`]: RFC 9309, "Robots Exclusion Protocol" (September 2022), in [`rfc9309`]:
//!   groups that blank lines do not end, every group naming the crawler's product token combined
//!   (or else every `*` group), Allow and Disallow rules with `*` and `$`, the longest match
//!   winning and allow winning a tie, percent-encoding normalized on both sides, and `/robots.txt`
//!   always allowed.
//!
//! Each profile parses a body once ([`Robots::parse`]: any bytes at all, linear time, never a
//! panic) and then answers many queries ([`Robots::decide`]) for a robot's name (which may carry a
//! version, `FooBot/2.1`) and a local URL (a path starting with `/`, with an optional `?query`).
//! Every answer is a [`Decision`]: a [`Verdict`] and an [`Explanation`] that names the record
//! chosen, by line numbers, and the rule line that decided.
//!
//! The modules read like the texts: each rule carries the clause it implements in its doc comment,
//! and each point a text leaves open is marked "Choice:" there and argued in this crate's README.
//! The crate knows nothing of case files, processes or reports.
//!
//! ```
//! use robotstxt_reference::{Profile, Robots, Verdict};
//!
//! let robots = Robots::parse(Profile::Norobots1994, b"User-agent: *\nDisallow: /tmp/\n");
//! let decision = robots.decide("FooBot/2.1", "/tmp/x");
//! assert_eq!(decision.verdict, Verdict::Disallowed);
//! println!("{}", decision.explanation);
//!
//! let body = b"User-agent: *\nDisallow: /tmp/\nAllow: /tmp/public/\n";
//! let robots = Robots::parse(Profile::Rfc9309, body);
//! assert!(robots.is_allowed("FooBot/2.1", "/tmp/public/x"));
//! assert!(!robots.is_allowed("FooBot/2.1", "/tmp/x"));
//! ```

pub mod explain;
pub mod lines;
pub mod norobots1994;
pub mod open_points;
pub mod rfc9309;

use std::fmt;
use std::str::FromStr;

pub use explain::{
    Boundary, ChosenGroup, Decision, Explanation, GroupChoice, LineReading, MatchedBy, Reading,
    RuleBy, RuleChoice, RuleKind, Verdict,
};

/// A text the reference implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Profile {
    /// "A Standard for Robot Exclusion", 30 June 1994.
    Norobots1994,
    /// RFC 9309, "Robots Exclusion Protocol", September 2022.
    Rfc9309,
}

impl Profile {
    /// Every profile, in the order reports list them.
    pub const ALL: &'static [Profile] = &[Profile::Norobots1994, Profile::Rfc9309];

    /// The profile's name as case files and the adapter protocol spell it.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Norobots1994 => "norobots-1994",
            Profile::Rfc9309 => "rfc9309",
        }
    }

    /// What the text calls a record, singular and plural.
    pub fn group_words(self) -> (&'static str, &'static str) {
        match self {
            Profile::Norobots1994 => ("record", "records"),
            Profile::Rfc9309 => ("group", "groups"),
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a profile name that is not one of [`Profile::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<_> = Profile::ALL.iter().map(|p| p.name()).collect();
        write!(
            f,
            "unknown profile `{}` (known: {})",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownProfile {}

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(name: &str) -> Result<Profile, UnknownProfile> {
        Profile::ALL
            .iter()
            .copied()
            .find(|p| p.name() == name)
            .ok_or_else(|| UnknownProfile(name.to_owned()))
    }
}

/// A robots.txt body parsed under one profile.
#[derive(Debug, Clone)]
pub enum Robots<'a> {
    Norobots1994(norobots1994::Robots<'a>),
    Rfc9309(rfc9309::Robots<'a>),
}

impl<'a> Robots<'a> {
    /// Parses `body` (any bytes) under `profile`.
    pub fn parse(profile: Profile, body: &'a [u8]) -> Robots<'a> {
        match profile {
            Profile::Norobots1994 => Robots::Norobots1994(norobots1994::Robots::parse(body)),
            Profile::Rfc9309 => Robots::Rfc9309(rfc9309::Robots::parse(body)),
        }
    }

    pub fn profile(&self) -> Profile {
        match self {
            Robots::Norobots1994(_) => Profile::Norobots1994,
            Robots::Rfc9309(_) => Profile::Rfc9309,
        }
    }

    /// May `agent` fetch `path`, and why.
    pub fn decide(&self, agent: &str, path: &str) -> Decision {
        match self {
            Robots::Norobots1994(r) => r.decide(agent, path),
            Robots::Rfc9309(r) => r.decide(agent, path),
        }
    }

    /// The verdict of [`Robots::decide`] without its explanation, for hot loops.
    pub fn is_allowed(&self, agent: &str, path: &str) -> bool {
        match self {
            Robots::Norobots1994(r) => r.is_allowed(agent, path),
            Robots::Rfc9309(r) => r.is_allowed(agent, path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Case files and adapters name profiles by these strings; a typo is refused with the list.
    #[test]
    fn profile_names_round_trip_and_unknown_ones_are_refused() {
        for &profile in Profile::ALL {
            assert_eq!(profile.name().parse::<Profile>(), Ok(profile));
            assert_eq!(profile.to_string(), profile.name());
        }
        let error = "rfc-9309".parse::<Profile>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown profile `rfc-9309` (known: norobots-1994, rfc9309)"
        );
    }
}
