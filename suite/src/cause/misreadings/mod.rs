//! The bugs a parser may have, each written as the misreading it makes: an edit of the body and
//! the path after which the reference, deciding as usual, answers as a parser with that bug does.
//! A non-pass is put down to the first misreading that turns the reference's verdict into the
//! parser's answer, so its group names what to fix ("strip a whole-line comment", "accept white
//! space before the colon") rather than which step of the reference decided.
//!
//! A misreading applies only where its edit changes something (a body with no comment has no
//! comment bug), and only explains an answer when the edit flips the verdict to it, so on a
//! failing check a misreading is a hypothesis the parser's own answer confirmed. Where none
//! does, [`super::of_result`] falls back to reading the reference's decision.
//!
//! They are tried in `MISREADINGS` order: the narrower edits first (a comment, a colon, one
//! line break), so that an edit that rewrites much of the body (the whole path's query, every
//! rule but one) does not claim an answer a small one explains.

use robotstxt_reference::lines::{classify, contains_ci, field_is, is_space, LineKind};
use robotstxt_reference::rfc9309::product_token;
use robotstxt_reference::{LineMeaning, Profile, Robots, RuleKind, Verdict};

use super::Cause;
use crate::rivals::{draft_1996, edit_lines, rfc3986_normal};

/// A body and a path, as the reference will read them.
struct Input {
    body: Vec<u8>,
    path: String,
}

type Edit = fn(Profile, &[u8], &str, &str) -> Vec<Input>;

/// Every misreading, in the order tried: the cause it names and the edits that make it (none
/// where the body and path give it nothing to misread).
const MISREADINGS: [(Cause, Edit); 20] = [
    (Cause::CommentLineRead, comment_line_read),
    (Cause::CommentKeptInValue, comment_kept_in_value),
    (Cause::CommentEndsAgentLines, comment_ends_agent_lines),
    (Cause::FieldNameMatchedLoosely, field_name_matched_loosely),
    (Cause::EncodedWildcardDecoded, encoded_wildcard_decoded),
    (Cause::SpaceBeforeColon, space_before_colon),
    (Cause::MisspelledUserAgent, misspelled_user_agent),
    (Cause::OtherLineBreaks, other_line_breaks),
    (Cause::OtherWhiteSpaceTrimmed, other_white_space_trimmed),
    (Cause::TabInValueDropped, tab_in_value_dropped),
    (Cause::PercentDecoded, percent_decoded),
    (Cause::PercentNotDecoded, percent_not_decoded),
    (Cause::EmptyQueryDropped, empty_query_dropped),
    (Cause::PathParamsDropped, path_params_dropped),
    (Cause::QueryDropped, query_dropped),
    (Cause::StarInAgentName, star_in_agent_name),
    (Cause::PartOfTokenNamesRobot, part_of_token_names_robot),
    (
        Cause::OtherFieldEndsAgentLines,
        other_field_ends_agent_lines,
    ),
    (Cause::AllowIgnored, allow_ignored),
    (Cause::FirstMatchWins, first_match_wins),
];

/// The first misreading under which the reference, scoring under `profile`, answers `theirs`
/// where it answers otherwise on the body and path as they are.
pub fn explaining(
    profile: Profile,
    body: &[u8],
    agent: &str,
    path: &str,
    theirs: Verdict,
) -> Option<Cause> {
    let verdict = |body: &[u8], path: &str| {
        if Robots::parse(profile, body).is_allowed(agent, path) {
            Verdict::Allowed
        } else {
            Verdict::Disallowed
        }
    };
    if verdict(body, path) == theirs {
        return None;
    }
    let cause = MISREADINGS.iter().find_map(|&(cause, edit)| {
        edit(profile, body, agent, path)
            .iter()
            .any(|input| verdict(&input.body, &input.path) == theirs)
            .then_some(cause)
    });
    // The 1994 text has no Allow: there, reading rules in order is reading Allow at all.
    match (cause, profile) {
        (Some(Cause::FirstMatchWins), Profile::Norobots1994) => Some(Cause::AllowRead),
        _ => cause,
    }
}

/// `body` with lines edited; one input, or none when nothing changed.
fn edited(body: &[u8], path: &str, edit: impl Fn(&[u8]) -> Option<Vec<u8>>) -> Vec<Input> {
    let mut changed = false;
    let new = edit_lines(body, |_, text| {
        let out = edit(text).filter(|new| new != text);
        changed |= out.is_some();
        out
    });
    if changed {
        vec![Input {
            body: new,
            path: path.to_owned(),
        }]
    } else {
        Vec::new()
    }
}

fn same_body(body: &[u8], path: String, old: &str) -> Vec<Input> {
    if path == old {
        Vec::new()
    } else {
        vec![Input {
            body: body.to_vec(),
            path,
        }]
    }
}

fn is_rule(name: &[u8]) -> bool {
    field_is(name, "allow") || field_is(name, "disallow")
}

/// A line that only passes for a comment: `# User-agent: FooBot` read as the field it holds.
fn comment_line_read(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    edited(body, path, |text| {
        let start = text.iter().position(|&b| !is_space(b))?;
        let rest = text[start..].strip_prefix(b"#")?;
        let rest = rest.trim_ascii_start().trim_start_matches_hash();
        matches!(classify(rest), LineKind::Field { .. }).then(|| rest.to_vec())
    })
}

/// A comment after a value kept as part of it: a rule's value no path starts with, a User-agent
/// value that names no robot.
fn comment_kept_in_value(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    edited(body, path, |text| {
        let colon = text.iter().position(|&b| b == b':')?;
        if !text[colon..].contains(&b'#') {
            return None;
        }
        match classify(text) {
            LineKind::Field { name, value } if is_rule(name) && !value.is_empty() => {
                Some([name, b": ", value, b"%20%23-comment"].concat())
            }
            LineKind::Field { name, value } if field_is(name, "user-agent") && value != b"*" => {
                Some(b"User-agent: x-kept-comment".to_vec())
            }
            _ => None,
        }
    })
}

/// A field read by a name it only holds: `XDisallow`, `No-Disallow`, or a known field written
/// inside another's value (`X-Rule: Disallow: /a`).
fn field_name_matched_loosely(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    const KNOWN: [&str; 3] = ["user-agent", "disallow", "allow"];
    edited(body, path, |text| match classify(text) {
        LineKind::Field { name, value } if !KNOWN.iter().any(|f| field_is(name, f)) => {
            let inner = match classify(value) {
                LineKind::Field { name, value } => KNOWN
                    .iter()
                    .find(|f| field_is(name, f))
                    .map(|f| [f.as_bytes(), b": ", value].concat()),
                _ => None,
            };
            let held = || {
                let field = KNOWN.iter().find(|f| contains_ci(name, f.as_bytes()))?;
                Some([field.as_bytes(), b": ", value].concat())
            };
            inner.or_else(held)
        }
        _ => None,
    })
}

/// A rule's `%2A` and `%24` decoded into `*` and `$`, then read as a wildcard and an anchor
/// (RFC 9309: the 1994 text has neither).
fn encoded_wildcard_decoded(profile: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    if profile != Profile::Rfc9309 {
        return Vec::new();
    }
    edited(body, path, |text| match classify(text) {
        LineKind::Field { name, value } if is_rule(name) => {
            let mut out = Vec::with_capacity(value.len());
            let mut i = 0;
            while i < value.len() {
                let triplet = value.get(i..i + 3).map(|t| t.to_ascii_uppercase());
                match triplet.as_deref() {
                    Some(b"%2A") => out.push(b'*'),
                    Some(b"%24") => out.push(b'$'),
                    _ => {
                        out.push(value[i]);
                        i += 1;
                        continue;
                    }
                }
                i += 3;
            }
            (out != value).then(|| [name, b": ", &out].concat())
        }
        _ => None,
    })
}

/// A field with white space before its colon not recognised: the line is passed over.
fn space_before_colon(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    edited(body, path, |text| match classify(text) {
        LineKind::Field { name, .. } => {
            let colon = text.iter().position(|&b| b == b':')?;
            let spaced = colon > 0 && is_space(text[colon - 1]);
            let known = is_rule(name) || field_is(name, "user-agent");
            (spaced && known).then(|| b"X-unread: -".to_vec())
        }
        _ => None,
    })
}

/// `User agent`, `Useragent`, `User_agent`, `User-agents` read as `User-agent`.
fn misspelled_user_agent(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    edited(body, path, |text| match classify(text) {
        LineKind::Field { name, value } if !field_is(name, "user-agent") => {
            let squeezed: Vec<u8> = (name.iter())
                .filter(|b| b.is_ascii_alphanumeric())
                .map(u8::to_ascii_lowercase)
                .collect();
            let squeezed = squeezed.strip_suffix(b"s").unwrap_or(&squeezed);
            (squeezed == b"useragent").then(|| [b"User-agent: ", value].concat())
        }
        _ => None,
    })
}

/// The characters some line splitters (Python's `splitlines`, Unicode line breaking) end a
/// line at, beyond CR and LF.
fn is_other_line_break(c: char) -> bool {
    matches!(
        c,
        '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

fn is_other_white_space(c: char) -> bool {
    !matches!(c, ' ' | '\t' | '\r' | '\n') && (c.is_whitespace() || ('\x1c'..='\x1f').contains(&c))
}

/// Form feed, NEL, U+2028 and the like taken for line ends.
fn other_line_breaks(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    let Ok(text) = std::str::from_utf8(body) else {
        return Vec::new();
    };
    if !text.contains(is_other_line_break) {
        return Vec::new();
    }
    let body = text.replace(is_other_line_break, "\n").into_bytes();
    vec![Input {
        body,
        path: path.to_owned(),
    }]
}

/// Form feed, no-break space and the like trimmed from around a field's name and value, as
/// white space.
fn other_white_space_trimmed(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    edited(body, path, |text| {
        let text = std::str::from_utf8(text).ok()?;
        if !text.contains(is_other_white_space) {
            return None;
        }
        let trimmed = |s: &str| {
            s.trim_matches(|c| is_other_white_space(c) || c == ' ' || c == '\t')
                .to_owned()
        };
        let line = match text.split_once(':') {
            Some((name, value)) => format!("{}: {}", trimmed(name), trimmed(value)),
            None => trimmed(text),
        };
        Some(line.into_bytes())
    })
}

/// A tab inside a rule's value dropped, as URL parsers drop tabs.
fn tab_in_value_dropped(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    edited(body, path, |text| match classify(text) {
        LineKind::Field { name, value } if is_rule(name) && value.contains(&b'\t') => {
            let value: Vec<u8> = value.iter().copied().filter(|&b| b != b'\t').collect();
            Some([name, b": ", &value].concat())
        }
        _ => None,
    })
}

/// A `?` with nothing after it dropped, from a rule and from the path, as URL rebuilding does.
fn empty_query_dropped(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    let rules = edited(body, path, |text| match classify(text) {
        LineKind::Field { name, value } if is_rule(name) && value.ends_with(b"?") => {
            Some([name, b": ", &value[..value.len() - 1]].concat())
        }
        _ => None,
    });
    let new_path = path.strip_suffix('?').unwrap_or(path).to_owned();
    match rules.into_iter().next() {
        Some(input) => vec![Input {
            path: new_path,
            ..input
        }],
        None => same_body(body, new_path, path),
    }
}

/// The path's `;parameters` (of its last segment) dropped, as `urlparse` splits them off.
fn path_params_dropped(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    let (before, query) = match path.find('?') {
        Some(q) => path.split_at(q),
        None => (path, ""),
    };
    let segment = before.rfind('/').unwrap_or(0);
    match before[segment..].find(';') {
        Some(semi) => same_body(body, format!("{}{query}", &before[..segment + semi]), path),
        None => Vec::new(),
    }
}

/// The query string dropped from the path: only the path is matched.
fn query_dropped(_: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    match path.split_once('?') {
        Some((before, _)) => same_body(body, before.to_owned(), path),
        None => Vec::new(),
    }
}

/// A User-agent value whose product token is `agent`'s own, as a misreading would have it.
fn renamed_agents(
    body: &[u8],
    agent: &str,
    path: &str,
    names: impl Fn(&[u8], &[u8]) -> bool,
) -> Vec<Input> {
    let own = product_token(agent.as_bytes());
    edited(body, path, |text| match classify(text) {
        LineKind::Field { name, value } if field_is(name, "user-agent") => {
            let token = product_token(value);
            let renamed = !token.eq_ignore_ascii_case(own) && token != b"*" && names(value, own);
            renamed.then(|| [b"User-agent: ", own].concat())
        }
        _ => None,
    })
}

/// `*` inside a User-agent value read as a wildcard: `Foo*` names `FooBot`.
fn star_in_agent_name(profile: Profile, body: &[u8], agent: &str, path: &str) -> Vec<Input> {
    if profile != Profile::Rfc9309 {
        return Vec::new();
    }
    renamed_agents(body, agent, path, |value, own| {
        let value = value.split(|b| is_space(*b)).next().unwrap_or_default();
        match value.iter().position(|&b| b == b'*') {
            Some(star) if value.len() > 1 => {
                own.len() >= star && own[..star].eq_ignore_ascii_case(&value[..star])
            }
            _ => false,
        }
    })
}

/// A product token that is a part of the robot's (or holds it) taken to name it.
fn part_of_token_names_robot(profile: Profile, body: &[u8], agent: &str, path: &str) -> Vec<Input> {
    if profile != Profile::Rfc9309 {
        return Vec::new();
    }
    renamed_agents(body, agent, path, |value, own| {
        let token = product_token(value);
        !token.is_empty() && (contains_ci(own, token) || contains_ci(token, own))
    })
}

/// A field other than a rule between User-agent lines taken to end them: the record they begin
/// is left with no rules, as an empty Disallow leaves it under either profile.
fn other_field_ends_agent_lines(profile: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    line_ends_agent_lines(profile, body, path, |kind| {
        matches!(kind, LineKind::Field { .. } | LineKind::NoColon(_))
    })
}

/// A line holding only a comment between User-agent lines taken to end them.
fn comment_ends_agent_lines(profile: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    line_ends_agent_lines(profile, body, path, |kind| {
        matches!(kind, LineKind::CommentOnly)
    })
}

/// The lines `ends` holds between User-agent lines taken to end them.
fn line_ends_agent_lines(
    profile: Profile,
    body: &[u8],
    path: &str,
    ends_them: impl Fn(&LineKind<'_>) -> bool,
) -> Vec<Input> {
    // Under the 1994 text an Allow line is such a field too.
    let is_rule = |name: &[u8]| match profile {
        Profile::Norobots1994 => field_is(name, "disallow"),
        Profile::Rfc9309 => is_rule(name),
    };
    // Only a field with another User-agent line after it, before any rule, ends anything.
    let (mut in_agents, mut pending) = (false, None);
    let mut ends = Vec::new();
    for line in robotstxt_reference::lines::lines(body) {
        match line.kind {
            LineKind::Field { name, .. } if field_is(name, "user-agent") => {
                ends.extend(pending.take());
                in_agents = true;
            }
            LineKind::Field { name, .. } if is_rule(name) => {
                (in_agents, pending) = (false, None);
            }
            ref kind if in_agents && pending.is_none() && ends_them(kind) => {
                pending = Some(line.number);
            }
            _ => {}
        }
    }
    if ends.is_empty() {
        return Vec::new();
    }
    let body = edit_lines(body, |number, _| {
        ends.contains(&number).then(|| b"Disallow:".to_vec())
    });
    vec![Input {
        body,
        path: path.to_owned(),
    }]
}

/// Allow lines passed over (RFC 9309): only Disallow lines count.
fn allow_ignored(profile: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    if profile != Profile::Rfc9309 {
        return Vec::new();
    }
    edited(body, path, |text| match classify(text) {
        LineKind::Field { name, .. } if field_is(name, "allow") => Some(b"# allow".to_vec()),
        _ => None,
    })
}

/// Rules read in file order, the first that matches deciding, Allow lines included: under RFC
/// 9309 every other matching rule is passed over; under the 1994 text, which has no Allow, a
/// first matching Allow line passes over every matching Disallow line.
fn first_match_wins(profile: Profile, body: &[u8], agent: &str, path: &str) -> Vec<Input> {
    let e = Robots::parse(profile, body).decide(agent, path).explanation;
    let matching: Vec<(u32, bool)> = (e.lines.iter())
        .filter_map(|l| match &l.reading {
            LineMeaning::Rule {
                kind,
                matches: true,
                ..
            } => Some((l.line, *kind == RuleKind::Allow)),
            LineMeaning::Other { name, value }
                // An empty Allow, read as a prefix, matches every path.
                if name.eq_ignore_ascii_case("allow")
                    && robotstxt_reference::rfc9309::matches(value.as_bytes(), path.as_bytes()) =>
            {
                Some((l.line, true))
            }
            _ => None,
        })
        .collect();
    let Some(&(first, first_is_allow)) = matching.first() else {
        return Vec::new();
    };
    let dropped: Vec<u32> = match profile {
        Profile::Rfc9309 => matching
            .iter()
            .map(|m| m.0)
            .filter(|&n| n != first)
            .collect(),
        Profile::Norobots1994 if first_is_allow => {
            matching.iter().filter(|m| !m.1).map(|m| m.0).collect()
        }
        Profile::Norobots1994 => Vec::new(),
    };
    if dropped.is_empty() {
        return Vec::new();
    }
    let body = edit_lines(body, |number, _| {
        dropped.contains(&number).then(|| b"# passed over".to_vec())
    });
    vec![Input {
        body,
        path: path.to_owned(),
    }]
}

/// Rules and the path put in one normal form before comparing, where the 1994 text compares them
/// as written: the two URL readings of `crate::rivals`, and every triplet decoded, `%2F`
/// included, as decoding and quoting again (Python's `quote(unquote(...))`) does.
fn percent_decoded(profile: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    if profile != Profile::Norobots1994 {
        return Vec::new();
    }
    [
        rfc3986_normal as fn(&[u8]) -> Vec<u8>,
        draft_1996,
        fully_decoded,
    ]
    .into_iter()
    .flat_map(|normal| {
        let mut inputs = edited(body, path, |text| match classify(text) {
            LineKind::Field { name, value } if field_is(name, "disallow") => {
                Some([name, b": ", &normal(value)].concat())
            }
            _ => None,
        });
        let new_path = String::from_utf8_lossy(&normal(path.as_bytes())).into_owned();
        match inputs.first_mut() {
            Some(input) => input.path = new_path,
            None => inputs = same_body(body, new_path, path),
        }
        inputs
    })
    .collect()
}

/// Every triplet decoded, then written as [`draft_1996`] writes octets.
fn fully_decoded(s: &[u8]) -> Vec<u8> {
    let hex = |d: u8| (d as char).to_digit(16);
    let mut octets = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match (
            s[i],
            s.get(i + 1).and_then(|&d| hex(d)),
            s.get(i + 2).and_then(|&d| hex(d)),
        ) {
            (b'%', Some(h), Some(l)) => {
                octets.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                octets.push(b);
                i += 1;
            }
        }
    }
    // A decoded `%` is written `%25`, so that it is not read as a triplet again.
    let escaped: Vec<u8> = (octets.iter())
        .flat_map(|&b| if b == b'%' { b"%25".to_vec() } else { vec![b] })
        .collect();
    draft_1996(&escaped)
}

/// `%XX` compared as written where RFC 9309 compares the octets: every `%` of the rules and the
/// path written `%25`, so that the reference's decoding leaves each triplet as it stands.
fn percent_not_decoded(profile: Profile, body: &[u8], _: &str, path: &str) -> Vec<Input> {
    if profile != Profile::Rfc9309 {
        return Vec::new();
    }
    let escape = |v: &[u8]| -> Vec<u8> {
        v.iter()
            .flat_map(|&b| if b == b'%' { b"%25".to_vec() } else { vec![b] })
            .collect()
    };
    let mut inputs = edited(body, path, |text| match classify(text) {
        LineKind::Field { name, value } if is_rule(name) && value.contains(&b'%') => {
            Some([name, b": ", &escape(value)].concat())
        }
        _ => None,
    });
    let new_path = String::from_utf8(escape(path.as_bytes())).expect("only ASCII was added");
    match inputs.first_mut() {
        Some(input) => input.path = new_path,
        None => inputs = same_body(body, new_path, path),
    }
    inputs
}

trait TrimHash {
    fn trim_start_matches_hash(&self) -> &[u8];
}

impl TrimHash for [u8] {
    /// `## User-agent` is as much a comment as `# User-agent`.
    fn trim_start_matches_hash(&self) -> &[u8] {
        let start = self
            .iter()
            .position(|&b| b != b'#' && !is_space(b))
            .unwrap_or(self.len());
        &self[start..]
    }
}

#[cfg(test)]
mod tests;
