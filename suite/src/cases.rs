//! Loading the case corpus: YAML files under `cases/`, exact about bytes, strict about fields.
//!
//! The format is described at the crate root and in `cases/README.md`. Every rule a file can break
//! is checked here, while deserializing, so that the error carries the line, the column and the
//! field's path (`cases[3].checks[0].path`) as `serde_yaml` tracks them.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use robotstxt_reference::{Profile, Verdict};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;

pub use crate::case_rules::Reported;
pub use crate::expected::{Expected, Ruling};
use crate::input::{Format, Input};
use crate::limits::CASE_FILE;
use crate::located::LocatedError;
use crate::readings::{ReadingField, Readings};
use crate::spec::Spec;
use crate::visible::{is_control_or_bidi, Outside};
use crate::{case_rules, walk};

/// One case: a robots.txt body and the checks asked of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// `{file path under the corpus root, without .yaml}/{name}`, e.g. `line-endings/cr-only`.
    pub id: String,
    /// The topic: the file's path under the corpus root without `.yaml` (`line-endings`).
    pub group: String,
    pub name: String,
    /// The clause(s) the case checks, as one line of text ([`Spec::shown`]): free text from the
    /// case file.
    pub spec: Outside,
    /// The clause(s) as written: one for the case, or one per profile.
    pub clauses: Spec,
    pub note: Option<Outside>,
    /// The thread (an issue or pull request of some parser's tracker) where the behaviour the
    /// case checks was reported: an `http(s)` URL.
    pub reported: Option<String>,
    /// The exact bytes of the body.
    pub robots: Vec<u8>,
    pub checks: Vec<Check>,
    /// The file the case came from, as given.
    pub file: PathBuf,
}

/// One question about a case's body and what the texts answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub agent: String,
    pub path: String,
    pub expect: Expected,
    /// The readings the check names, its own and its case's ([`crate::readings`]).
    pub readings: Readings,
    /// What the behaviour the case's `reported` thread reported gives here, if the check tests it.
    pub reported: Option<Reported>,
}

impl Case {
    /// The clause the case gives for `profile`, if any.
    pub fn spec_for(&self, profile: Profile) -> Option<&str> {
        self.clauses.for_profile(profile)
    }
}

/// A problem in a case file, with where it is.
pub type CaseError = LocatedError;

/// The folder under a corpus root that holds access cases: what a crawler fetches around a
/// robots.txt response, a format of their own read by `robotstxt-crawl`, not by this loader.
pub const ACCESS_FOLDER: &str = "access";

/// Whether a case file's group (its path under the corpus root, without `.yaml`) lies in the
/// access cases' folder, which the parser corpus leaves to the crawl mode.
pub fn is_access_group(group: &str) -> bool {
    group
        .strip_prefix(ACCESS_FOLDER)
        .is_some_and(|rest| rest.starts_with('/'))
}

/// Loads every `*.yaml` file below each of `roots` (sorted, so ids come out in a stable order).
/// A root may also be one case file, whose cases are then named after its stem. All files are
/// read; every error found is returned, not only the first. Files under [`ACCESS_FOLDER`] are
/// access cases and left out.
pub fn load_corpus(roots: &[PathBuf]) -> Result<Vec<Case>, Vec<CaseError>> {
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    let mut seen: HashMap<String, PathBuf> = HashMap::new();
    for root in roots {
        let files = match walk::files_with_extension(root, "yaml") {
            Ok(files) => files,
            Err(e) => {
                errors.push(error_at(
                    root,
                    None,
                    format!("cannot read the case folder or file: {e}"),
                ));
                continue;
            }
        };
        for file in files {
            let group = group_of(root, &file);
            if is_access_group(&group) {
                continue;
            }
            if group.chars().any(is_control_or_bidi) {
                // A case's id is made of its file's name, and ids are shown everywhere.
                let message = "the file's name holds a control or bidirectional character; \
                               case ids are made of file names"
                    .to_owned();
                errors.push(error_at(&file, Some(1), message));
                continue;
            }
            let input = match Input::read(&file, Format::Yaml, CASE_FILE) {
                Ok(input) => input,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            let text = input.text();
            match parse_input(&input, &group) {
                Ok(file_cases) => {
                    for case in file_cases {
                        if let Some(first) = seen.get(&case.id) {
                            let message = format!(
                                "name: duplicate case id `{}` (also in {})",
                                case.id,
                                first.display()
                            );
                            let line = line_of_name(text, &case.name, 0);
                            errors.push(error_at(&file, line, message));
                        } else {
                            seen.insert(case.id.clone(), file.clone());
                            cases.push(case);
                        }
                    }
                }
                Err(e) => errors.push(e),
            }
        }
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors)
    }
}

/// Parses one case file's text (screened as [`load_corpus`] screens a file). `group` is the
/// file's path under its corpus root, without `.yaml`, with `/` separators.
pub fn parse_file(text: &str, file: &Path, group: &str) -> Result<Vec<Case>, CaseError> {
    let input = Input::from_bytes(file, text.as_bytes().to_vec(), Format::Yaml, CASE_FILE)?;
    parse_input(&input, group)
}

fn parse_input(input: &Input, group: &str) -> Result<Vec<Case>, CaseError> {
    let (text, file) = (input.text(), input.path());
    let raw: RawFile = input.parse()?;
    if raw.cases.is_empty() {
        let line = text
            .lines()
            .position(|l| l.starts_with("cases:"))
            .map_or(1, |i| i + 1);
        return Err(error_at(
            file,
            Some(line),
            "cases: the file holds no case; a case file lists at least one".to_owned(),
        ));
    }
    let mut names: HashMap<&str, usize> = HashMap::new();
    for (index, case) in raw.cases.iter().enumerate() {
        if let Some(first) = names.insert(case.name.as_str(), index) {
            let message = format!(
                "cases[{index}].name: duplicate name `{}` (first used by cases[{first}])",
                case.name
            );
            return Err(error_at(file, line_of_name(text, &case.name, 1), message));
        }
    }
    Ok(raw
        .cases
        .into_iter()
        .map(|raw| Case {
            id: format!("{group}/{}", raw.name),
            group: group.to_owned(),
            name: raw.name,
            spec: raw.spec.shown().into(),
            clauses: raw.spec,
            note: raw.note.map(Outside::from),
            reported: raw.reported,
            robots: raw.robots,
            checks: raw
                .checks
                .0
                .into_iter()
                .map(|c| Check {
                    agent: c.agent.0,
                    path: c.path.0,
                    expect: c.expect,
                    readings: c.readings,
                    reported: c.reported,
                })
                .collect(),
            file: file.to_owned(),
        })
        .collect())
}

fn group_of(root: &Path, file: &Path) -> String {
    if root == file {
        return file
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    }
    let relative = file.strip_prefix(root).unwrap_or(file).with_extension("");
    let parts: Vec<_> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

fn error_at(file: &Path, line: Option<usize>, message: String) -> CaseError {
    LocatedError::new(file, line, message)
}

/// The line of the `nth` (0-based) `name: <name>` entry in `text`: names are kebab-case, so a
/// textual search finds them reliably, and it lets duplicate errors point at the second one.
fn line_of_name(text: &str, name: &str, nth: usize) -> Option<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let line = line.trim_start().trim_start_matches("- ").trim_start();
            line.strip_prefix("name:")
                .is_some_and(|rest| rest.trim().trim_matches(|c| c == '"' || c == '\'') == name)
        })
        .nth(nth)
        .map(|(i, _)| i + 1)
}

// ---- the raw shapes, validated while deserializing ---------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    cases: Vec<RawCase>,
}

struct RawCase {
    name: String,
    spec: Spec,
    note: Option<String>,
    reported: Option<String>,
    robots: Vec<u8>,
    checks: NonEmptyChecks,
}

/// Deserialized through a map visitor (rather than `try_from`) so that the "exactly one of
/// `robots` and `robots_base64`" error is reported at the case's own line.
impl<'de> Deserialize<'de> for RawCase {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CaseVisitor;
        impl<'de> Visitor<'de> for CaseVisitor {
            type Value = RawCase;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a case: a mapping with name, spec, robots and checks")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawCase, A::Error> {
                let fields =
                    RawCaseFields::deserialize(de::value::MapAccessDeserializer::new(map))?;
                RawCase::try_from(fields).map_err(de::Error::custom)
            }
        }
        deserializer.deserialize_map(CaseVisitor)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCaseFields {
    name: KebabName,
    spec: Spec,
    #[serde(default)]
    note: Option<Text>,
    #[serde(default)]
    reported: Option<ThreadUrl>,
    #[serde(default)]
    reading: Option<ReadingField>,
    #[serde(default)]
    robots: Option<Text>,
    #[serde(default)]
    robots_base64: Option<Base64Body>,
    checks: NonEmptyChecks,
}

/// A case without exactly one body field, or whose fields do not hold together.
#[derive(Debug, thiserror::Error)]
enum BodyFields {
    #[error("case `{0}`: `robots` and `robots_base64` are both given; keep exactly one")]
    Both(String),
    #[error("case `{0}`: missing field `robots` (or `robots_base64`)")]
    Neither(String),
    #[error(transparent)]
    Rule(#[from] case_rules::RuleError),
}

impl TryFrom<RawCaseFields> for RawCase {
    type Error = BodyFields;

    fn try_from(raw: RawCaseFields) -> Result<RawCase, BodyFields> {
        let robots = match (raw.robots, raw.robots_base64) {
            (Some(text), None) => text.0.into_bytes(),
            (None, Some(bytes)) => bytes.0,
            (Some(_), Some(_)) => return Err(BodyFields::Both(raw.name.0)),
            (None, None) => return Err(BodyFields::Neither(raw.name.0)),
        };
        let mut checks = raw.checks;
        if let Some(ReadingField(readings)) = raw.reading {
            let named = checks.0.iter_mut().map(|c| (&c.expect, &mut c.readings));
            case_rules::case_readings(&raw.name.0, readings, named)?;
        }
        let marked = checks.0.iter().any(|c| c.reported.is_some());
        case_rules::reported_marks(&raw.name.0, raw.reported.is_some(), marked)?;
        Ok(RawCase {
            name: raw.name.0,
            spec: raw.spec,
            note: raw.note.map(|n| n.0),
            reported: raw.reported.map(|url| url.0),
            robots,
            checks,
        })
    }
}

/// A check, through [`RawCheckFields`] so that [`case_rules::check_fields`] holds it together.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, try_from = "RawCheckFields")]
struct RawCheck {
    agent: AgentName,
    path: LocalUrl,
    expect: Expected,
    readings: Readings,
    reported: Option<Reported>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheckFields {
    agent: AgentName,
    path: LocalUrl,
    expect: Expected,
    #[serde(default)]
    reading: Option<ReadingField>,
    /// The answer the reported behaviour gives on this check.
    #[serde(default)]
    reported: Option<String>,
}

impl TryFrom<RawCheckFields> for RawCheck {
    type Error = case_rules::RuleError;

    fn try_from(raw: RawCheckFields) -> Result<RawCheck, case_rules::RuleError> {
        let (readings, reported) = case_rules::check_fields(
            &raw.expect,
            raw.reading.map_or(Readings::NONE, |r| r.0),
            raw.reported.as_deref(),
            (&raw.agent.0, &raw.path.0),
        )?;
        Ok(RawCheck {
            agent: raw.agent,
            path: raw.path,
            expect: raw.expect,
            readings,
            reported,
        })
    }
}

/// Declares a string newtype whose value is checked by `validate` inside the scalar's own visitor,
/// so that a bad value is reported at its own line and column.
macro_rules! validated_string {
    ($name:ident, $validate:expr) => {
        struct $name(String);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Check;
                impl<'de> Visitor<'de> for Check {
                    type Value = String;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a string")
                    }
                    fn visit_str<E: de::Error>(self, value: &str) -> Result<String, E> {
                        let validate: fn(&str) -> Result<(), String> = $validate;
                        validate(value).map_err(E::custom)?;
                        Ok(value.to_owned())
                    }
                }
                // `deserialize_any`, so that a plain scalar that YAML reads as a number, a
                // boolean or null (`robots: 12`) is refused rather than turned into text.
                deserializer.deserialize_any(Check).map($name)
            }
        }
    };
}

validated_string!(KebabName, |s| {
    let ok = !s.is_empty()
        && s.split('-').all(|word| {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "name `{s}` is not kebab-case (lowercase letters and digits, words joined by `-`)"
        ))
    }
});

validated_string!(Text, |_| Ok(()));

validated_string!(ThreadUrl, check_thread_url);

/// A `reported` thread's address: an `http(s)` URL with a host, written in the normal form a
/// browser would show (lower-case scheme and host, a path, nothing to escape), so that reports can
/// link it as is. Checked by hand: this is the only URL the light library reads, and a URL parser
/// would bring an internationalisation stack with it.
fn check_thread_url(s: &str) -> Result<(), String> {
    let not_http =
        || format!("reported {s:?} must be an http(s) URL with a host (the thread's address)");
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
        .ok_or_else(not_http)?;
    let (authority, path) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
    let (host, port) = authority.split_once(':').unwrap_or((authority, ""));
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-');
    if !host_ok || !port.bytes().all(|b| b.is_ascii_digit()) || authority.contains('@') {
        return Err(not_http());
    }
    let in_normal_form = path.starts_with('/')
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?#%".contains(&b))
        && !path
            .split(['?', '#'])
            .next()
            .unwrap_or("")
            .split('/')
            .any(|segment| segment == "." || segment == "..");
    if in_normal_form {
        Ok(())
    } else {
        // No spaces, quotes, angle brackets or dot segments, and a `/` after the host.
        Err(format!("reported {s:?}: write the URL in its normal form, with a path and every other character percent-encoded"))
    }
}

validated_string!(AgentName, |s| crate::engine::check_agent(s)
    .map_err(|e| e.to_string()));

validated_string!(LocalUrl, |s| crate::local_url::check_local(s)
    .map_err(|e| e.to_string()));

struct Base64Body(Vec<u8>);

impl<'de> Deserialize<'de> for Base64Body {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Decode;
        impl<'de> Visitor<'de> for Decode {
            type Value = Base64Body;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("standard base64 text")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Base64Body, E> {
                let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
                base64::engine::general_purpose::STANDARD
                    .decode(compact.as_bytes())
                    .map(Base64Body)
                    .map_err(|e| E::custom(format!("robots_base64 is not valid base64: {e}")))
            }
        }
        deserializer.deserialize_any(Decode)
    }
}

struct NonEmptyChecks(Vec<RawCheck>);

impl<'de> Deserialize<'de> for NonEmptyChecks {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Checks;
        impl<'de> Visitor<'de> for Checks {
            type Value = NonEmptyChecks;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of checks")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut checks = Vec::new();
                while let Some(check) = seq.next_element::<RawCheck>()? {
                    checks.push(check);
                }
                if checks.is_empty() {
                    return Err(de::Error::custom("checks must hold at least one check"));
                }
                Ok(NonEmptyChecks(checks))
            }
        }
        deserializer.deserialize_seq(Checks)
    }
}

fn verdict_named(name: &str) -> Option<Verdict> {
    match name {
        "allowed" => Some(Verdict::Allowed),
        "disallowed" => Some(Verdict::Disallowed),
        _ => None,
    }
}

impl<'de> Deserialize<'de> for Expected {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ExpectVisitor)
    }
}

struct ExpectVisitor;

impl<'de> Visitor<'de> for ExpectVisitor {
    type Value = Expected;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`allowed`, `disallowed`, or a map from profile name to `allowed`, `disallowed` or `unspecified`")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Expected, E> {
        match verdict_named(value) {
            Some(v) => Ok(Expected::Same(v)),
            None if value == "unspecified" => Err(E::custom(
                "expect: `unspecified` needs a profile; write `{ norobots-1994: unspecified }`",
            )),
            None => Err(E::custom(format!(
                "expect: `{value}` is not `allowed` or `disallowed`"
            ))),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Expected, A::Error> {
        let mut per_profile = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            let profile: Profile = key.parse().map_err(de::Error::custom)?;
            let value: String = map.next_value()?;
            let expectation = match verdict_named(&value) {
                Some(v) => Ruling::Is(v),
                None if value == "unspecified" => Ruling::Unspecified,
                None => {
                    return Err(de::Error::custom(format!(
                        "expect.{key}: `{value}` is not `allowed`, `disallowed` or `unspecified`"
                    )))
                }
            };
            if per_profile.insert(profile, expectation).is_some() {
                return Err(de::Error::custom(format!(
                    "expect: profile `{key}` given twice"
                )));
            }
        }
        if per_profile.is_empty() {
            return Err(de::Error::custom("expect: the map names no profile"));
        }
        Ok(Expected::PerProfile(per_profile))
    }
}

#[cfg(test)]
mod tests {
    use super::check_thread_url;

    #[test]
    fn a_thread_url_is_an_http_url_in_normal_form() {
        for good in [
            "https://github.com/scrapy/protego/issues/12",
            "http://bugs.example.org:8080/show_bug.cgi?id=7#c3",
            "https://example.com/a%20b/(x)",
        ] {
            assert_eq!(check_thread_url(good), Ok(()), "{good}");
        }
        for bad in [
            "ftp://example.com/x",
            "https://",
            "https:///x",
            "HTTPS://example.com/x",
            "https://Example.com/x",
            "https://user@example.com/x",
            "https://example.com:80x/",
            "https://example.com",
            "https://example.com/a b",
            "https://example.com/<script>",
            "https://example.com/\"q\"",
            "https://example.com/a/../b",
            "https://example.com/./b",
            "https://exämple.com/",
            "https://example.com/ä",
            "https://example.com/a\\b",
        ] {
            assert!(check_thread_url(bad).is_err(), "{bad}");
        }
    }
}
