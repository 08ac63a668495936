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

#![forbid(unsafe_code)]

pub mod explain;
pub mod lines;
pub mod norobots1994;
pub mod open_points;
pub mod profile;
pub mod rfc9309;

pub use profile::{Profile, UnknownProfile};

pub use explain::{
    Boundary, ChosenGroup, Decision, Explanation, GroupChoice, LineMeaning, LineReading, MatchedBy,
    RuleBy, RuleChoice, RuleKind, Verdict,
};

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
