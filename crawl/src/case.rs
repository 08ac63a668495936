//! Access cases: what a loopback site answers a crawler, and what the crawler must then fetch or
//! leave alone. The format is documented in `cases/README.md` ("Access cases"); files live under
//! `cases/access/` and are read here, never by the parser corpus's loader.
//!
//! A site has three authorities: `home` (the seed page and the control, with no robots.txt), and
//! `a` and `b`, the two authorities under test, each answering `/robots.txt` with the case's next
//! response. A check names a URL as `a:/path` or `b:/path`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use robotstxt_reference::Profile;
use robotstxt_suite::input::{Format, Input};
use robotstxt_suite::limits::CASE_FILE;
use robotstxt_suite::located::LocatedError;
use robotstxt_suite::quotes;
use robotstxt_suite::visible::is_control_or_bidi;
use robotstxt_suite::walk;
use serde::{Deserialize, Serialize};

/// Largest generated padding, in KiB: past RFC 9309's 500 KiB floor, and no more.
pub const MAX_PADDING_KIB: u32 = 1024;

/// One of the two authorities under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthorityId {
    A,
    B,
}

impl AuthorityId {
    pub fn label(self) -> &'static str {
        match self {
            AuthorityId::A => "a",
            AuthorityId::B => "b",
        }
    }
}

/// A fault served instead of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ServedFault {
    /// The connection is reset (RST) before the status line.
    Reset,
    /// The head and half the body are sent, then the connection is closed.
    CloseMidBody,
    /// Nothing is sent until the case ends: longer than any crawler timeout it was given.
    Stall,
}

/// What the padding before a body is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PaddingKind {
    /// Comment lines: bytes no rule reads.
    #[default]
    Comments,
    /// `Disallow: /filler/N` lines, rules that match none of the case's pages.
    Rules,
}

/// One answer of the site, as written in a case.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteAnswer {
    #[serde(default = "ok")]
    pub status: u16,
    /// `text/plain` unless given.
    #[serde(default)]
    pub content_type: Option<String>,
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// The body; `{token}` becomes the crawler's product token, `{padding}` the padding.
    #[serde(default)]
    pub body: String,
    /// Generated padding of this many KiB, at `{padding}` in the body or before it.
    #[serde(default)]
    pub padding_kib: u32,
    #[serde(default)]
    pub padding: PaddingKind,
    /// A redirect's target: `/path` on the same authority, or `a:/path`, `b:/path`.
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default)]
    pub fault: Option<ServedFault>,
}

fn ok() -> u16 {
    200
}

/// What one authority under test serves besides its pages.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Authority {
    /// Successive answers to `/robots.txt`; the last one repeats. None: a 404.
    #[serde(default)]
    pub robots: Vec<SiteAnswer>,
    /// Other fixed answers (redirect hops, a moved robots.txt), by path.
    #[serde(default)]
    pub paths: BTreeMap<String, SiteAnswer>,
}

/// What a check expects under one profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccessVerdict {
    Fetched,
    NotFetched,
    /// For `robots-first`: robots.txt was asked before any page of the authority.
    Holds,
    Unspecified,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Expect {
    Same(AccessVerdict),
    PerProfile(BTreeMap<String, AccessVerdict>),
}

/// A check as written: `url` (a page) or `robots-first` (an authority), and `expect`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCheck {
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    robots_first: Option<AuthorityId>,
    expect: Expect,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: String,
    spec: AccessSpec,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    reported: Option<String>,
    #[serde(default)]
    a: Authority,
    #[serde(default)]
    b: Authority,
    checks: Vec<RawCheck>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AccessSpec {
    Plain(String),
    PerProfile(BTreeMap<String, String>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    cases: Vec<RawCase>,
}

/// What a check looks at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// A page on an authority under test.
    Page { side: AuthorityId, path: String },
    /// Whether `/robots.txt` of the authority came before any page of it.
    RobotsFirst(AuthorityId),
}

impl Target {
    pub fn shown(&self) -> String {
        match self {
            Target::Page { side, path } => format!("{}:{path}", side.label()),
            Target::RobotsFirst(side) => format!("robots.txt of {} first", side.label()),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AccessCheck {
    pub target: Target,
    /// The verdict under each profile (every profile named; `unspecified` where open).
    pub expect: BTreeMap<String, AccessVerdict>,
}

impl AccessCheck {
    pub fn verdict(&self, profile: Profile) -> AccessVerdict {
        self.expect
            .get(profile.name())
            .copied()
            .unwrap_or(AccessVerdict::Unspecified)
    }
}

/// An access case, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AccessCase {
    /// `access/<file>/<name>`.
    pub id: String,
    pub name: String,
    pub file: PathBuf,
    /// The line of `name:` in its file.
    pub line: usize,
    pub spec: AccessSpec,
    pub note: Option<String>,
    pub reported: Option<String>,
    pub a: Authority,
    pub b: Authority,
    pub checks: Vec<AccessCheck>,
}

impl AccessCase {
    pub fn authority(&self, side: AuthorityId) -> &Authority {
        match side {
            AuthorityId::A => &self.a,
            AuthorityId::B => &self.b,
        }
    }

    /// The pages the seed links: every page a check names, in order, once each.
    pub fn pages(&self) -> Vec<(AuthorityId, String)> {
        let mut pages: Vec<(AuthorityId, String)> = Vec::new();
        for check in &self.checks {
            if let Target::Page { side, path } = &check.target {
                if !pages.iter().any(|(s, p)| s == side && p == path) {
                    pages.push((*side, path.clone()));
                }
            }
        }
        pages
    }
}

/// Loads every `*.yaml` file under `root` (a folder, or one file) as access cases, each with the
/// id `access/<file stem>/<name>`; every file is read and every error returned.
pub fn load(root: &Path) -> Result<Vec<AccessCase>, Vec<LocatedError>> {
    // The suite's walk: a symbolic-link loop is an error, a file reached twice is read once.
    let files = walk::files_with_extension(root, "yaml").map_err(|e| {
        vec![LocatedError::new(
            root,
            None,
            format!("cannot read the access cases: {e}"),
        )]
    })?;
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for file in files {
        let group = file
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let parsed = Input::read(&file, Format::Yaml, CASE_FILE)
            .and_then(|input| parse_input(&input, &group));
        match parsed {
            Ok(file_cases) => cases.extend(file_cases),
            Err(e) => errors.push(e),
        }
    }
    if cases.is_empty() && errors.is_empty() {
        errors.push(LocatedError::new(
            root,
            None,
            "holds no access case".to_owned(),
        ));
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors)
    }
}

/// Parses one file's text; `group` is the file's stem, the middle of each case's id.
pub fn parse(text: &str, file: &Path, group: &str) -> Result<Vec<AccessCase>, LocatedError> {
    let input = Input::from_bytes(file, text.as_bytes().to_vec(), Format::Yaml, CASE_FILE)?;
    parse_input(&input, group)
}

/// Parses one screened file; `group` is the file's stem.
fn parse_input(input: &Input, group: &str) -> Result<Vec<AccessCase>, LocatedError> {
    let (text, file) = (input.text(), input.path());
    let raw: RawFile = input.parse()?;
    if raw.cases.is_empty() {
        return Err(LocatedError::new(file, Some(1), "cases: empty".to_owned()));
    }
    let mut cases: Vec<AccessCase> = Vec::new();
    for (index, case) in raw.cases.into_iter().enumerate() {
        let line = line_of_name(text, &case.name).unwrap_or(1);
        let at = |field: &str, message: String| {
            let line = line_below(text, line, field).unwrap_or(line);
            LocatedError::new(
                file,
                Some(line),
                format!("cases[{index}].{field}: {message}"),
            )
        };
        let checked = check_case(case, group, file, line, &at)?;
        if cases.iter().any(|c| c.name == checked.name) {
            return Err(at("name", format!("duplicate name `{}`", checked.name)));
        }
        cases.push(checked);
    }
    Ok(cases)
}

type At<'a> = &'a dyn Fn(&str, String) -> LocatedError;

fn check_case(
    raw: RawCase,
    group: &str,
    file: &Path,
    line: usize,
    at: At,
) -> Result<AccessCase, LocatedError> {
    let kebab = !raw.name.is_empty()
        && raw.name.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        });
    if !kebab {
        return Err(at("name", format!("`{}` is not kebab-case", raw.name)));
    }
    check_spec(&raw.spec, at)?;
    if let Some(url) = &raw.reported {
        let host = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"));
        if host.is_none_or(|h| h.is_empty() || h.starts_with('/')) {
            return Err(at("reported", format!("`{url}` is not an http(s) URL")));
        }
    }
    for (side, authority) in [("a", &raw.a), ("b", &raw.b)] {
        for (i, response) in authority.robots.iter().enumerate() {
            check_response(response, &format!("{side}.robots[{i}]"), at)?;
        }
        for (path, response) in &authority.paths {
            if !path.starts_with('/')
                || path == "/robots.txt"
                || path.chars().any(char::is_whitespace)
            {
                return Err(at(
                    &format!("{side}.paths"),
                    format!("`{path}` must start with `/`, hold no space and not be /robots.txt"),
                ));
            }
            check_response(response, &format!("{side}.paths.{path}"), at)?;
        }
    }
    if raw.checks.is_empty() {
        return Err(at("checks", "empty".to_owned()));
    }
    let mut checks = Vec::new();
    for (i, check) in raw.checks.into_iter().enumerate() {
        checks.push(check_check(
            check,
            &raw.a,
            &raw.b,
            &format!("checks[{i}]"),
            at,
        )?);
    }
    for profile in Profile::ALL {
        if checks
            .iter()
            .any(|c| c.verdict(*profile) != AccessVerdict::Unspecified)
        {
            check_quotes(&raw.spec, *profile, at)?;
        }
    }
    Ok(AccessCase {
        id: format!("access/{group}/{}", raw.name),
        name: raw.name,
        file: file.to_owned(),
        line,
        spec: raw.spec,
        note: raw.note,
        reported: raw.reported,
        a: raw.a,
        b: raw.b,
        checks,
    })
}

fn check_spec(spec: &AccessSpec, at: At) -> Result<(), LocatedError> {
    let texts: Vec<&String> = match spec {
        AccessSpec::Plain(text) => vec![text],
        AccessSpec::PerProfile(map) => {
            for profile in map.keys() {
                if profile.parse::<Profile>().is_err() {
                    return Err(at("spec", format!("unknown profile `{profile}`")));
                }
            }
            map.values().collect()
        }
    };
    if texts
        .iter()
        .any(|t| !t.contains('"') || t.chars().any(is_control_or_bidi))
    {
        return Err(at(
            "spec",
            "must quote the sentence it rests on, in \"…\", on one line".to_owned(),
        ));
    }
    Ok(())
}

/// A profile that scores a check must have its clause in `spec`, quoting its text.
fn check_quotes(spec: &AccessSpec, profile: Profile, at: At) -> Result<(), LocatedError> {
    let text = match spec {
        AccessSpec::Plain(text) => Some(text).filter(|t| quotes::profile_of(t) == profile),
        AccessSpec::PerProfile(map) => map.get(profile.name()),
    };
    let Some(text) = text else {
        return Err(at(
            "spec",
            format!(
                "{} scores a check, so spec must quote its text",
                profile.name()
            ),
        ));
    };
    quotes::clauses(profile, text)
        .map(|_| ())
        .map_err(|e| at("spec", e.to_string()))
}

fn check_response(response: &SiteAnswer, field: &str, at: At) -> Result<(), LocatedError> {
    if !(100..=599).contains(&response.status) {
        return Err(at(
            field,
            format!("status {} is not 100-599", response.status),
        ));
    }
    if response.padding_kib > MAX_PADDING_KIB {
        return Err(at(
            field,
            format!("padding_kib is at most {MAX_PADDING_KIB}"),
        ));
    }
    let redirect = (300..=399).contains(&response.status);
    match &response.location {
        Some(location) if !redirect => {
            return Err(at(
                field,
                format!("location `{location}` needs a 3xx status"),
            ));
        }
        Some(location) if parse_location(location).is_none() => {
            return Err(at(
                field,
                format!("location `{location}` must be `/path`, `a:/path` or `b:/path`"),
            ));
        }
        None if redirect => return Err(at(field, "a 3xx status needs a location".to_owned())),
        _ => {}
    }
    let header_ok = |s: &str| !s.chars().any(|c| c.is_control() || c == ':') && !s.is_empty();
    if response
        .headers
        .iter()
        .any(|(k, v)| !header_ok(k) || v.chars().any(char::is_control))
    {
        return Err(at(
            field,
            "a header name or value holds a control character".to_owned(),
        ));
    }
    if response.fault.is_some()
        && (response.location.is_some() || response.status != 200 || !response.headers.is_empty())
    {
        return Err(at(
            field,
            "a fault takes no status, location or headers".to_owned(),
        ));
    }
    Ok(())
}

/// `/path` (same authority), `a:/path` or `b:/path`.
pub fn parse_location(location: &str) -> Option<(Option<AuthorityId>, &str)> {
    let (side, path) = match location.split_once(':') {
        Some(("a", path)) => (Some(AuthorityId::A), path),
        Some(("b", path)) => (Some(AuthorityId::B), path),
        Some(_) => return None,
        None => (None, location),
    };
    (path.starts_with('/') && !path.chars().any(|c| c.is_whitespace() || c.is_control()))
        .then_some((side, path))
}

fn check_check(
    raw: RawCheck,
    a: &Authority,
    b: &Authority,
    field: &str,
    at: At,
) -> Result<AccessCheck, LocatedError> {
    let target = match (raw.url, raw.robots_first) {
        (Some(url), None) => {
            match parse_location(&url) {
                Some((Some(side), path)) => {
                    let authority = if side == AuthorityId::A { a } else { b };
                    if path == "/robots.txt" || authority.paths.contains_key(path) {
                        return Err(at(
                        field,
                        format!("url `{url}` is robots.txt or one of the authority's paths, not a page"),
                    ));
                    }
                    Target::Page {
                        side,
                        path: path.to_owned(),
                    }
                }
                _ => {
                    return Err(at(
                        field,
                        format!("url `{url}` must be `a:/path` or `b:/path`"),
                    ))
                }
            }
        }
        (None, Some(side)) => Target::RobotsFirst(side),
        _ => {
            return Err(at(
                field,
                "give exactly one of `url` and `robots-first`".to_owned(),
            ))
        }
    };
    let mut expect = BTreeMap::new();
    for profile in Profile::ALL {
        let verdict = match &raw.expect {
            Expect::Same(v) => Some(*v),
            Expect::PerProfile(map) => map.get(profile.name()).copied(),
        };
        let Some(verdict) = verdict else {
            return Err(at(
                field,
                format!("expect names no verdict under {}", profile.name()),
            ));
        };
        expect.insert(profile.name().to_owned(), verdict);
    }
    if let Expect::PerProfile(map) = &raw.expect {
        if let Some(unknown) = map.keys().find(|k| k.parse::<Profile>().is_err()) {
            return Err(at(field, format!("expect: unknown profile `{unknown}`")));
        }
    }
    let fits = |v: &AccessVerdict| match target {
        Target::Page { .. } => matches!(
            v,
            AccessVerdict::Fetched | AccessVerdict::NotFetched | AccessVerdict::Unspecified
        ),
        Target::RobotsFirst(_) => matches!(v, AccessVerdict::Holds | AccessVerdict::Unspecified),
    };
    if !expect.values().all(fits) {
        return Err(at(
            field,
            "a url expects fetched, not-fetched or unspecified; robots-first expects holds or unspecified"
                .to_owned(),
        ));
    }
    Ok(AccessCheck { target, expect })
}

fn line_of_name(text: &str, name: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            let l = l.trim_start().trim_start_matches("- ").trim_start();
            l.strip_prefix("name:")
                .is_some_and(|rest| rest.trim().trim_matches(['"', '\'']) == name)
        })
        .map(|i| i + 1)
}

/// The first line at or after `from` whose text starts with `field`'s first word, if any.
fn line_below(text: &str, from: usize, field: &str) -> Option<usize> {
    let key = field.split(['.', '[']).next().unwrap_or(field);
    text.lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .find(|(_, l)| {
            let l = l.trim_start().trim_start_matches("- ").trim_start();
            l.starts_with(&format!("{key}:"))
        })
        .map(|(i, _)| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<Vec<AccessCase>, LocatedError> {
        parse(text, Path::new("status.yaml"), "status")
    }

    const GOOD: &str = r#"cases:
  - name: ok
    spec: { norobots-1994: 'Disallow: "a"', rfc9309: 'RFC 9309 2.3: "a"' }
    a:
      robots:
        - { body: "User-agent: *\nDisallow: /private\n" }
    checks:
      - { url: a:/private, expect: not-fetched }
      - { robots-first: a, expect: { norobots-1994: unspecified, rfc9309: holds } }
"#;

    #[test]
    fn a_good_case_loads_with_its_id_and_verdicts() {
        let cases = parse_text(GOOD).unwrap();
        assert_eq!(cases[0].id, "access/status/ok");
        assert_eq!(
            cases[0].checks[0].verdict(Profile::Rfc9309),
            AccessVerdict::NotFetched
        );
        assert_eq!(
            cases[0].checks[1].verdict(Profile::Norobots1994),
            AccessVerdict::Unspecified
        );
        assert_eq!(
            cases[0].pages(),
            vec![(AuthorityId::A, "/private".to_owned())]
        );
    }

    #[test]
    fn an_unknown_field_names_the_file_and_line() {
        let text = GOOD.replace("expect: not-fetched }", "expect: not-fetched, oops: 1 }");
        let error = parse_text(&text).unwrap_err().to_string();
        assert!(error.starts_with("status.yaml:8"), "{error}");
        assert!(error.contains("oops"), "{error}");
    }

    #[test]
    fn a_redirect_without_location_is_refused_at_its_line() {
        let text = GOOD.replace("- { body:", "- { status: 301, body:");
        let error = parse_text(&text).unwrap_err().to_string();
        assert!(
            error.contains("cases[0].a.robots[0]: a 3xx status needs a location"),
            "{error}"
        );
        assert!(error.starts_with("status.yaml:4:"), "{error}");
    }

    #[test]
    fn a_check_with_a_wrong_verdict_kind_is_refused() {
        let text = GOOD.replace(
            "url: a:/private, expect: not-fetched",
            "url: a:/private, expect: holds",
        );
        let error = parse_text(&text).unwrap_err().to_string();
        assert!(error.contains("checks[0]"), "{error}");
    }

    #[test]
    fn a_profile_scoring_a_check_must_be_quoted() {
        let text = GOOD
            .replace("norobots-1994: 'Disallow: \"a\"', ", "")
            .replace(
                "expect: not-fetched",
                "expect: { norobots-1994: fetched, rfc9309: unspecified }",
            );
        let error = parse_text(&text).unwrap_err().to_string();
        assert!(error.contains("norobots-1994 scores a check"), "{error}");
    }

    #[test]
    fn a_folder_with_a_link_loop_is_an_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("status.yaml"), GOOD).unwrap();
        std::os::unix::fs::symlink(".", dir.path().join("again")).unwrap();
        let errors = load(dir.path()).unwrap_err();
        assert!(
            errors[0].to_string().contains("loops back"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn a_url_on_no_authority_is_refused() {
        let text = GOOD.replace("url: a:/private", "url: /private");
        let error = parse_text(&text).unwrap_err().to_string();
        assert!(error.contains("must be `a:/path` or `b:/path`"), "{error}");
    }
}
