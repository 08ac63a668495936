//! What a check expects: a verdict every profile agrees on, or a ruling per profile, which may be
//! that the profile's text leaves the point open. The case loader builds these, and the rules a
//! case must follow ([`crate::case_rules`]) read them.

use std::collections::BTreeMap;
use std::fmt;

use robotstxt_reference::{Profile, Verdict};

/// A check's expected answer: one for every profile, or one per profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    Same(Verdict),
    PerProfile(BTreeMap<Profile, Ruling>),
}

/// What one profile's text rules for a check: a verdict, or that the text leaves it open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ruling {
    Is(Verdict),
    /// The profile's text leaves this open: run, never scored.
    Unspecified,
}

impl fmt::Display for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ruling::Is(v) => v.fmt(f),
            Ruling::Unspecified => f.write_str("unspecified"),
        }
    }
}

impl Expected {
    /// The expectation for exactly `profile`, if the check gives one.
    pub fn for_profile(&self, profile: Profile) -> Option<Ruling> {
        match self {
            Expected::Same(v) => Some(Ruling::Is(*v)),
            Expected::PerProfile(map) => map.get(&profile).copied(),
        }
    }

    /// Whether some scoring scores the check under `profile`: the check names a verdict for it
    /// (a check that names only `norobots-1994` is scored under it whatever profile is run).
    pub fn is_scored_under(&self, profile: Profile) -> bool {
        matches!(self.for_profile(profile), Some(Ruling::Is(_)))
    }

    /// The profile a check is scored under for a parser claiming `claimed` (`None` for a parser
    /// that claims no profile we have), and the expectation there: the claimed profile when the
    /// check names it, otherwise `norobots-1994`; `None` when the check names neither.
    pub fn scored_under(&self, claimed: Option<Profile>) -> Option<(Profile, Ruling)> {
        claimed
            .into_iter()
            .chain([Profile::Norobots1994])
            .find_map(|p| self.for_profile(p).map(|e| (p, e)))
    }
}
