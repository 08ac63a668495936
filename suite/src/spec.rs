//! A case's `spec`: the clause its checks rest on, one for every profile or one per profile.
//!
//! A check scored under both profiles rests on a sentence of each text, and the two texts say
//! the same thing in other words (the 1994 text's "any URL that starts with this value" is RFC
//! 9309's "the end of the path from the rule is reached before a difference in octets"). So
//! `spec` is either a string, as it always was, or a mapping from profile name to the clause of
//! that profile's text (`cases/README.md`, "A case").

use std::collections::BTreeMap;
use std::fmt;

use robotstxt_reference::Profile;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;

/// A case's clause(s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// One clause for the whole case.
    Same(String),
    /// One clause per profile named.
    PerProfile(BTreeMap<Profile, String>),
}

impl Spec {
    /// The clause for `profile`: the profile's own, or the one clause of the case.
    pub fn for_profile(&self, profile: Profile) -> Option<&str> {
        match self {
            Spec::Same(text) => Some(text),
            Spec::PerProfile(map) => map.get(&profile).map(String::as_str),
        }
    }

    /// The clause(s) as one line of text: the string itself, or each profile's clause after the
    /// profile's name, in profile order.
    pub fn shown(&self) -> String {
        match self {
            Spec::Same(text) => text.clone(),
            Spec::PerProfile(map) => map
                .iter()
                .map(|(profile, text)| format!("{profile}: {text}"))
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

impl<'de> Deserialize<'de> for Spec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SpecVisitor)
    }
}

fn clause<E: de::Error>(text: &str, field: &str) -> Result<String, E> {
    if text.trim().is_empty() {
        Err(E::custom(format!("{field} must not be empty")))
    } else {
        Ok(text.to_owned())
    }
}

struct SpecVisitor;

impl<'de> Visitor<'de> for SpecVisitor {
    type Value = Spec;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the clause as a string, or a map from profile name to its clause")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Spec, E> {
        clause(text, "spec").map(Spec::Same)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Spec, A::Error> {
        let mut clauses = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            let profile: Profile = key.parse().map_err(de::Error::custom)?;
            let text: Clause = map.next_value()?;
            if clauses.insert(profile, text.0).is_some() {
                return Err(de::Error::custom(format!(
                    "spec: profile `{key}` given twice"
                )));
            }
        }
        if clauses.is_empty() {
            return Err(de::Error::custom("spec: the map names no profile"));
        }
        Ok(Spec::PerProfile(clauses))
    }
}

/// One profile's clause, refused in its own visitor when it is not a non-empty string.
struct Clause(String);

impl<'de> Deserialize<'de> for Clause {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text;
        impl<'de> Visitor<'de> for Text {
            type Value = String;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<String, E> {
                clause(text, "a profile's spec")
            }
        }
        deserializer.deserialize_any(Text).map(Clause)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_or_a_map_of_profiles() {
        let same: Spec = serde_yaml::from_str("'Format: \"x\"'").unwrap();
        assert_eq!(same.for_profile(Profile::Rfc9309), Some("Format: \"x\""));
        let both: Spec = serde_yaml::from_str(
            "{ norobots-1994: 'Format: \"a\"', rfc9309: 'RFC 9309 2.2: \"b\"' }",
        )
        .unwrap();
        assert_eq!(
            both.for_profile(Profile::Rfc9309),
            Some("RFC 9309 2.2: \"b\"")
        );
        assert_eq!(
            both.shown(),
            "norobots-1994: Format: \"a\"; rfc9309: RFC 9309 2.2: \"b\""
        );
        let one: Spec = serde_yaml::from_str("{ rfc9309: x }").unwrap();
        assert_eq!(one.for_profile(Profile::Norobots1994), None);
        for bad in [
            "''",
            "{}",
            "{ rfc: x }",
            "{ rfc9309: '' }",
            "{ rfc9309: 1 }",
            "[x]",
        ] {
            assert!(serde_yaml::from_str::<Spec>(bad).is_err(), "{bad}");
        }
    }
}
