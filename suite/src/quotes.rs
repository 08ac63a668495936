//! What a case's `spec` quotes, and the sentences of the two texts it may quote from.
//!
//! A check scored without a reading rests on a sentence of its profile's text, which its case
//! quotes (`cases/README.md`, "Quotes"). The texts are not kept in this repository, so the
//! sentences the corpus quotes are listed in `reference/sentences.yaml`, by profile and section;
//! [`clauses`] takes a spec apart into the fragments it quotes, and [`Sentences::holds`] says
//! whether a fragment is part of a listed sentence of the section it names.

use std::collections::BTreeMap;
use std::path::Path;

use robotstxt_reference::Profile;

use crate::input::{Format, Input};
use crate::limits::SENTENCES;
use crate::located::LocatedError;

/// One clause of a spec: the section it names and the fragments it quotes from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    /// `Format`, `User-agent`, `Disallow`, `Examples` (the 1994 text), or a section number of
    /// RFC 9309 (`2.2.2`).
    pub section: String,
    /// Each quoted piece, [`normalize`]d: quotes are separated by `", "`, and `[...]` or `…`
    /// inside one leaves words out.
    pub fragments: Vec<String>,
}

/// Why a spec does not quote its text as the corpus's rule asks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuoteError {
    #[error("`{0}` quotes nothing: name the section, then the sentence in \"…\"")]
    NoQuote(String),
    #[error("`{label}` does not name a section of {profile}'s text")]
    BadLabel { label: String, profile: Profile },
}

/// The profile whose text a plain (one-string) spec quotes: RFC 9309 when it names it, else the
/// 1994 text.
pub fn profile_of(spec: &str) -> Profile {
    if spec.starts_with("RFC 9309") {
        Profile::Rfc9309
    } else {
        Profile::Norobots1994
    }
}

/// The clauses of one profile's spec: `LABEL: "quote"[, "quote"]...`, several separated by `"; `.
pub fn clauses(profile: Profile, spec: &str) -> Result<Vec<Clause>, QuoteError> {
    let mut out = Vec::new();
    let mut rest = spec;
    loop {
        let (clause, next) = match rest.find("\"; ") {
            Some(end) => (&rest[..=end], Some(&rest[end + 3..])),
            None => (rest, None),
        };
        out.push(clause_of(profile, clause)?);
        match next {
            Some(next) => rest = next,
            None => return Ok(out),
        }
    }
}

fn clause_of(profile: Profile, text: &str) -> Result<Clause, QuoteError> {
    let no_quote = || QuoteError::NoQuote(text.to_owned());
    let open = text.find('"').ok_or_else(no_quote)?;
    let close = text.rfind('"').filter(|&c| c > open).ok_or_else(no_quote)?;
    let label = text[..open].trim().trim_end_matches(':').trim();
    let bad = || QuoteError::BadLabel {
        label: label.to_owned(),
        profile,
    };
    let section = match profile {
        Profile::Rfc9309 => {
            let number = label.strip_prefix("RFC 9309 ").ok_or_else(bad)?;
            let number = number.split(", Figure ").next().unwrap_or(number);
            if number.is_empty() || !number.split('.').all(|n| n.parse::<u32>().is_ok()) {
                return Err(bad());
            }
            number.to_owned()
        }
        Profile::Norobots1994 if label.is_empty() || label.starts_with("RFC") => return Err(bad()),
        Profile::Norobots1994 => label.to_owned(),
    };
    let fragments = text[open + 1..close]
        .split("\", \"")
        .flat_map(|quote| quote.split("[...]").flat_map(|part| part.split('…')))
        .map(normalize)
        .filter(|f| !f.is_empty())
        .collect::<Vec<_>>();
    if fragments.is_empty() {
        return Err(no_quote());
    }
    Ok(Clause { section, fragments })
}

/// A text with its markup dropped (the backticks around code) and its white space collapsed to
/// single spaces, as quotes and the listed sentences are compared.
pub fn normalize(text: &str) -> String {
    text.replace('`', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The sentences the corpus quotes: profile, then section, then sentences in the text's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sentences(pub BTreeMap<Profile, BTreeMap<String, Vec<String>>>);

/// Why the list of sentences could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SentencesError {
    #[error(transparent)]
    Input(#[from] LocatedError),
    #[error("{path}: `{key}` is not a profile")]
    Profile { path: String, key: String },
}

impl Sentences {
    /// Reads `reference/sentences.yaml` (or another file of the same shape).
    pub fn load(path: &Path) -> Result<Sentences, SentencesError> {
        let shown = path.display().to_string();
        let raw: BTreeMap<String, BTreeMap<String, Vec<String>>> =
            Input::read(path, Format::Yaml, SENTENCES)?.parse()?;
        let mut sentences = BTreeMap::new();
        for (key, sections) in raw {
            let profile = key.parse().map_err(|_| SentencesError::Profile {
                path: shown.clone(),
                key,
            })?;
            sentences.insert(profile, sections);
        }
        Ok(Sentences(sentences))
    }

    /// The listed sentence of `profile`'s `section` that `fragment` is part of, if any.
    pub fn holds(&self, profile: Profile, section: &str, fragment: &str) -> Option<&str> {
        self.0
            .get(&profile)?
            .get(section)?
            .iter()
            .find(|s| s.contains(fragment))
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_is_taken_apart_into_sections_and_fragments() {
        let spec = "Format: \"Unrecognised headers are ignored.\"; Disallow: \"This can be a \
                    `full path`, [...] will not be retrieved.\", \"Any empty value\"";
        assert_eq!(
            clauses(Profile::Norobots1994, spec).unwrap(),
            [
                Clause {
                    section: "Format".into(),
                    fragments: vec!["Unrecognised headers are ignored.".into()]
                },
                Clause {
                    section: "Disallow".into(),
                    fragments: vec![
                        "This can be a full path,".into(),
                        "will not be retrieved.".into(),
                        "Any empty value".into()
                    ]
                }
            ]
        );
        let rfc = "RFC 9309 2.2.2, Figure 4: \"/a | /b | /c\"";
        assert_eq!(clauses(Profile::Rfc9309, rfc).unwrap()[0].section, "2.2.2");
        assert_eq!(profile_of(rfc), Profile::Rfc9309);
        assert_eq!(profile_of("Format"), Profile::Norobots1994);
    }

    #[test]
    fn a_spec_without_a_quote_or_with_another_text_s_label_is_refused() {
        assert!(matches!(
            clauses(Profile::Norobots1994, "Examples"),
            Err(QuoteError::NoQuote(_))
        ));
        assert!(matches!(
            clauses(Profile::Rfc9309, "Format: \"x\""),
            Err(QuoteError::BadLabel { .. })
        ));
        assert!(matches!(
            clauses(Profile::Norobots1994, "RFC 9309 2.2: \"x\""),
            Err(QuoteError::BadLabel { .. })
        ));
        assert!(matches!(
            clauses(Profile::Rfc9309, "RFC 9309 two: \"x\""),
            Err(QuoteError::BadLabel { .. })
        ));
    }
}
