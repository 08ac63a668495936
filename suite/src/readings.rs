//! Readings: the senses of a text that a scored check rests on when the text's words alone do not
//! give its verdict.
//!
//! A check is *decided* under a profile when a sentence of that profile's text, quoted by its case,
//! gives the verdict. Some checks are scored on a step the sentence does not contain: a reading of
//! one of its words that the reference argues for and every parser we know takes, but that the
//! words leave room to read another way. Such a check names its reading (`reading:` in the case
//! file). It is still scored and gated like any other check, so a change in a parser's behaviour
//! there is still a change, but the reports count it apart from the decided checks: a headline
//! or a ranking never rests on a reading, and each reading has its own column.
//!
//! The set of readings is closed and listed here; each is argued in `reference/README.md`
//! ("Readings"), with the sentences for and against it, and [`crate::rivals`] computes, for
//! each, the verdict its rival reading gives, which is how the corpus is held to naming them.

use std::fmt;
use std::str::FromStr;

use robotstxt_reference::Profile;

/// A reading the corpus scores by, under one profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reading {
    /// `norobots-1994`: a Disallow value is compared with the URL as written, percent-encodings
    /// and all (`%7E` is not `~`, `%7e` is not `%7E`). The 1994 text says nothing about `%xx`.
    PercentAsWritten1994,
    /// `rfc9309`: an empty `Allow:` or `Disallow:` matches no path. The grammar admits an
    /// `empty-pattern` and the text gives it no meaning.
    EmptyRuleMatchesNothing,
    /// `rfc9309`: a user-agent line names the crawler when its product token equals the
    /// crawler's, ignoring case; not when one occurs in the other. "Matching" is not defined.
    WholeTokenMatch,
    /// `rfc9309`: several groups with a `*` line are combined into one, as groups naming the
    /// crawler are. The text says to obey "the group" with the `*` value.
    StarGroupsCombined,
    /// `rfc9309`: a rule's own `%XX` of an unreserved character is decoded before comparing, as
    /// the URI's is (`Disallow: /%7Ejoe` matches `/~joe`). §2.2.2 orders the decoding for the
    /// URI; it says nothing of the rule's.
    RulePercentDecoded,
}

impl Reading {
    /// Every reading, in the order reports show them.
    pub const ALL: [Reading; 5] = [
        Reading::PercentAsWritten1994,
        Reading::EmptyRuleMatchesNothing,
        Reading::WholeTokenMatch,
        Reading::StarGroupsCombined,
        Reading::RulePercentDecoded,
    ];

    /// The name case files and reports use.
    pub fn name(self) -> &'static str {
        match self {
            Reading::PercentAsWritten1994 => "percent-as-written-1994",
            Reading::EmptyRuleMatchesNothing => "empty-rule-matches-nothing",
            Reading::WholeTokenMatch => "whole-token-match",
            Reading::StarGroupsCombined => "star-groups-combined",
            Reading::RulePercentDecoded => "rule-percent-decoded",
        }
    }

    /// The one profile the reading belongs to: it applies when a check is scored under it.
    pub fn profile(self) -> Profile {
        match self {
            Reading::PercentAsWritten1994 => Profile::Norobots1994,
            Reading::EmptyRuleMatchesNothing
            | Reading::WholeTokenMatch
            | Reading::StarGroupsCombined
            | Reading::RulePercentDecoded => Profile::Rfc9309,
        }
    }

    /// What the reading says, in one line, for the reports.
    pub fn summary(self) -> &'static str {
        match self {
            Reading::PercentAsWritten1994 => {
                "a Disallow value is a prefix of the URL as written: `%7E` is not `~`, and `%7e` is not `%7E`"
            }
            Reading::EmptyRuleMatchesNothing => {
                "an empty `Allow:` or `Disallow:` matches no path"
            }
            Reading::WholeTokenMatch => {
                "a user-agent line names the crawler only when the whole product tokens match, ignoring case"
            }
            Reading::StarGroupsCombined => {
                "several groups with a `*` line are combined into one `*` group"
            }
            Reading::RulePercentDecoded => {
                "a rule's own `%XX` of an unreserved character is decoded, as the URI's is: `/%7Ejoe` matches `/~joe`"
            }
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A reading name that is not one of [`Reading::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("reading `{name}` is not one of {}", known_names())]
pub struct UnknownReading {
    pub name: String,
}

fn known_names() -> String {
    Reading::ALL
        .iter()
        .map(|r| format!("`{}`", r.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Reading {
    type Err = UnknownReading;

    fn from_str(name: &str) -> Result<Reading, UnknownReading> {
        Reading::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| UnknownReading {
                name: name.to_owned(),
            })
    }
}

/// A set of readings: what a check names, or what a result rests on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Readings(u8);

impl Readings {
    /// No reading: a decided check.
    pub const NONE: Readings = Readings(0);

    pub fn insert(&mut self, reading: Reading) {
        self.0 |= reading.bit();
    }

    pub fn contains(self, reading: Reading) -> bool {
        self.0 & reading.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The readings of the set, in [`Reading::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Reading> {
        Reading::ALL.into_iter().filter(move |r| self.contains(*r))
    }

    /// Those that apply when a check is scored under `profile`.
    pub fn under(self, profile: Profile) -> Readings {
        self.iter().filter(|r| r.profile() == profile).collect()
    }
}

impl FromIterator<Reading> for Readings {
    fn from_iter<I: IntoIterator<Item = Reading>>(iter: I) -> Readings {
        let mut set = Readings::NONE;
        for reading in iter {
            set.insert(reading);
        }
        set
    }
}

/// A `reading:` field of a case file: one reading's name, or a list of them. Each name is checked
/// in its own scalar's visitor, so that an unknown one is reported at its own line and column.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadingField(pub Readings);

impl<'de> serde::Deserialize<'de> for ReadingField {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{self, Visitor};

        struct One;
        impl<'de> Visitor<'de> for One {
            type Value = Reading;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a reading's name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Reading, E> {
                name.parse().map_err(E::custom)
            }
        }
        struct OneReading(Reading);
        impl<'de> serde::Deserialize<'de> for OneReading {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any(One).map(OneReading)
            }
        }
        struct Field;
        impl<'de> Visitor<'de> for Field {
            type Value = Readings;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a reading's name, or a list of them")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Readings, E> {
                One.visit_str(name).map(|r| [r].into_iter().collect())
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Readings, A::Error> {
                let mut set = Readings::NONE;
                while let Some(OneReading(reading)) = seq.next_element()? {
                    if set.contains(reading) {
                        return Err(de::Error::custom(format!(
                            "reading `{reading}` is named twice"
                        )));
                    }
                    set.insert(reading);
                }
                if set.is_empty() {
                    return Err(de::Error::custom("reading: the list names no reading"));
                }
                Ok(set)
            }
        }
        deserializer.deserialize_any(Field).map(ReadingField)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_an_unknown_name_lists_the_known_ones() {
        for reading in Reading::ALL {
            assert_eq!(reading.name().parse::<Reading>(), Ok(reading));
        }
        let error = "percent-as-written".parse::<Reading>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "reading `percent-as-written` is not one of `percent-as-written-1994`, \
             `empty-rule-matches-nothing`, `whole-token-match`, `star-groups-combined`, \
             `rule-percent-decoded`"
        );
    }

    #[test]
    fn a_set_keeps_each_profile_to_its_own_readings() {
        let both: Readings = Reading::ALL.into_iter().collect();
        assert_eq!(both.iter().collect::<Vec<_>>(), Reading::ALL);
        assert_eq!(
            both.under(Profile::Rfc9309).iter().collect::<Vec<_>>(),
            [
                Reading::EmptyRuleMatchesNothing,
                Reading::WholeTokenMatch,
                Reading::StarGroupsCombined,
                Reading::RulePercentDecoded
            ]
        );
        assert!(Readings::NONE.under(Profile::Norobots1994).is_empty());
    }
}
