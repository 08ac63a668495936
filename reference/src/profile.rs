//! The texts the reference implements, by the names case files and the adapter protocol give
//! them. Every other module builds on this one.

use std::fmt;
use std::str::FromStr;

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
