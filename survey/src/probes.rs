//! Probe queries derived from a robots.txt body itself, for surveys of files that come with no
//! expectations.
//!
//! For each file: every robot it names (up to [`MAX_AGENTS`]) and a generic one ([`GENERIC_AGENT`])
//! ask for `/`; then, for the first [`MAX_RULES`] distinct Allow/Disallow values in file order,
//! the value made into a path and five neighbours of it, asked by the robot whose group the rule
//! is in (the generic robot for `*` groups). The list stops at the query limit. Everything is
//! a function of the body alone: the same file always gets the same probes.

use std::fmt::Write as _;

use robotstxt_reference::lines::{field_is, lines, LineKind};
use serde::{Deserialize, Serialize};

use robotstxt_suite::engine::Query;

/// The robot that no file names: it gets the `*` record.
pub const GENERIC_AGENT: &str = "FooBot";
/// Named robots probed per file, besides the generic one.
pub const MAX_AGENTS: usize = 4;
/// Distinct rule values probed per file.
pub const MAX_RULES: usize = 16;
/// Queries per file, unless the caller asks for fewer.
pub const MAX_QUERIES: usize = 32;

/// Where a probe's path comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProbeKind {
    /// `/`, asked by each robot.
    Root,
    /// The rule's value as a path (`*` instantiated as `x`, a final `$` dropped).
    Exact,
    /// The folder above it: `/a/b` → `/a/`.
    Parent,
    /// Something inside it: `/a` → `/a/child`, `/a/` → `/a/child`.
    Child,
    /// A name that starts like it: `/a/b` → `/a/bx`, `/a/` → `/ax/`.
    Sibling,
    /// Its ASCII letters with their case swapped: `/Private` → `/pRIVATE`.
    Cased,
    /// With a query string: `/a` → `/a?q=1`.
    Query,
}

impl ProbeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProbeKind::Root => "root",
            ProbeKind::Exact => "exact",
            ProbeKind::Parent => "parent",
            ProbeKind::Child => "child",
            ProbeKind::Sibling => "sibling",
            ProbeKind::Cased => "cased",
            ProbeKind::Query => "query",
        }
    }
}

/// One probe query and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    pub query: Query,
    pub kind: ProbeKind,
    /// The rule line the path was derived from (1-based, as the reference counts lines).
    pub line: Option<u32>,
    /// That rule's value, as text (bytes that are not UTF-8 replaced).
    pub value: Option<String>,
}

/// The probes for `body`: at most `max_queries` (at least the generic robot's `/`), deterministic.
pub fn probes(body: &[u8], max_queries: usize) -> Vec<Probe> {
    let found = scan(body);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |out: &mut Vec<Probe>, agent: &str, path: String, kind, rule: Option<&Rule>| {
        if out.len() < max_queries.max(1) && seen.insert((agent.to_owned(), path.clone())) {
            out.push(Probe {
                query: Query {
                    agent: agent.to_owned(),
                    path,
                },
                kind,
                line: rule.map(|r| r.line),
                value: rule.map(|r| r.value.clone()),
            });
        }
    };
    push(
        &mut out,
        GENERIC_AGENT,
        "/".to_owned(),
        ProbeKind::Root,
        None,
    );
    for agent in &found.agents {
        push(&mut out, agent, "/".to_owned(), ProbeKind::Root, None);
    }
    for rule in &found.rules {
        let agent = rule
            .agent
            .map_or(GENERIC_AGENT, |i| found.agents[i].as_str());
        for (kind, path) in variants(&rule.path) {
            push(&mut out, agent, path, kind, Some(rule));
        }
    }
    out
}

/// What the body names: robots, and rule values with the robot whose group holds them.
struct Found {
    agents: Vec<String>,
    rules: Vec<Rule>,
}

struct Rule {
    value: String,
    path: String,
    line: u32,
    /// Index into `agents`; `None` for the generic robot.
    agent: Option<usize>,
}

fn scan(body: &[u8]) -> Found {
    let mut found = Found {
        agents: Vec::new(),
        rules: Vec::new(),
    };
    let mut values = std::collections::HashSet::new();
    // The robot that the current group's rules are probed with.
    let mut group_agent: Option<usize> = None;
    let mut group_open = false;
    for line in lines(body) {
        let LineKind::Field { name, value } = line.kind else {
            continue;
        };
        if field_is(name, "user-agent") {
            if !group_open {
                group_open = true;
                group_agent = None;
            }
            let Some(agent) = agent_of(value) else {
                continue;
            };
            let known = found
                .agents
                .iter()
                .position(|a| a.eq_ignore_ascii_case(&agent));
            let index = match known {
                Some(i) => Some(i),
                None if found.agents.len() < MAX_AGENTS => {
                    found.agents.push(agent);
                    Some(found.agents.len() - 1)
                }
                None => None,
            };
            group_agent = group_agent.or(index);
        } else if field_is(name, "allow") || field_is(name, "disallow") {
            group_open = false;
            if value.is_empty() || found.rules.len() >= MAX_RULES || !values.insert(value) {
                continue;
            }
            found.rules.push(Rule {
                value: String::from_utf8_lossy(value).into_owned(),
                path: path_of(value),
                line: line.number,
                agent: group_agent,
            });
        }
    }
    found
}

/// A User-agent value as a robot's name to ask with: `None` for `*`, empty values and values
/// the protocol cannot carry (control characters).
fn agent_of(value: &[u8]) -> Option<String> {
    let agent = String::from_utf8_lossy(value);
    let agent = agent.trim();
    let usable = !agent.is_empty() && agent != "*" && !agent.chars().any(char::is_control);
    usable.then(|| agent.to_owned())
}

/// A rule value as a local URL: `/` in front when missing, each `*` instantiated as `x`, a final
/// `$` dropped, and every byte a path cannot carry (space, controls, non-UTF-8) percent-encoded.
fn path_of(value: &[u8]) -> String {
    let value = value.strip_suffix(b"$").unwrap_or(value);
    let mut path = String::with_capacity(value.len() + 1);
    if !value.starts_with(b"/") {
        path.push('/');
    }
    for chunk in value.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '*' => path.push('x'),
                c if c == ' ' || c.is_control() => {
                    let mut buf = [0; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        let _ = write!(path, "%{b:02X}");
                    }
                }
                c => path.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(path, "%{b:02X}");
        }
    }
    path
}

/// The path and its neighbours, in probe order.
fn variants(path: &str) -> Vec<(ProbeKind, String)> {
    let (local, query) = match path.find('?') {
        Some(q) => (&path[..q], Some(&path[q..])),
        None => (path, None),
    };
    let mut out = vec![(ProbeKind::Exact, path.to_owned())];
    let trimmed = local.strip_suffix('/').unwrap_or(local);
    if let Some(slash) = trimmed.rfind('/') {
        if local.len() > 1 {
            out.push((ProbeKind::Parent, trimmed[..=slash].to_owned()));
        }
    }
    let child = if local.ends_with('/') {
        format!("{local}child")
    } else {
        format!("{local}/child")
    };
    out.push((ProbeKind::Child, child));
    let sibling = match local.strip_suffix('/') {
        Some(stem) if !stem.is_empty() => format!("{stem}x/"),
        _ => format!("{local}x"),
    };
    out.push((ProbeKind::Sibling, sibling));
    if path.bytes().any(|b| b.is_ascii_alphabetic()) {
        let cased: String = path
            .chars()
            .map(|c| {
                if c.is_ascii_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        out.push((ProbeKind::Cased, cased));
    }
    let with_query = match query {
        Some(_) => format!("{path}&q=1"),
        None => format!("{path}?q=1"),
    };
    out.push((ProbeKind::Query, with_query));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(body: &[u8], max: usize) -> Vec<String> {
        probes(body, max)
            .iter()
            .map(|p| {
                format!(
                    "{} {} {} {:?}",
                    p.query.agent,
                    p.query.path,
                    p.kind.as_str(),
                    p.line
                )
            })
            .collect()
    }

    #[test]
    fn agents_then_rule_neighbours_with_the_groups_robot() {
        let body =
            b"User-agent: *\nDisallow: /a/b\n\nUser-agent: BarBot\nUser-agent: *\nAllow: /*.gif$\n";
        assert_eq!(
            shown(body, 64),
            [
                "FooBot / root None",
                "BarBot / root None",
                "FooBot /a/b exact Some(2)",
                "FooBot /a/ parent Some(2)",
                "FooBot /a/b/child child Some(2)",
                "FooBot /a/bx sibling Some(2)",
                "FooBot /A/B cased Some(2)",
                "FooBot /a/b?q=1 query Some(2)",
                "BarBot /x.gif exact Some(6)",
                "BarBot /x.gif/child child Some(6)",
                "BarBot /x.gifx sibling Some(6)",
                "BarBot /X.GIF cased Some(6)",
                "BarBot /x.gif?q=1 query Some(6)",
            ]
        );
    }

    #[test]
    fn bounded_deterministic_and_protocol_safe() {
        let mut body = Vec::new();
        for i in 0..40 {
            body.extend_from_slice(format!("User-agent: bot{i}\nDisallow: /p{i} x").as_bytes());
            body.extend_from_slice(b"\xff\n");
        }
        let first = probes(&body, 64);
        assert_eq!(first, probes(&body, 64));
        assert_eq!(first.len(), 64);
        assert_eq!(
            first.iter().filter(|p| p.kind == ProbeKind::Root).count(),
            1 + MAX_AGENTS
        );
        assert!(first
            .iter()
            .all(|p| p.query.path.starts_with('/') && !p.query.path.bytes().any(|b| b <= b' ')));
        assert!(first.iter().any(|p| p.query.path == "/p0%20x%FF"));
        assert_eq!(probes(b"", 64).len(), 1);
        assert_eq!(probes(b"<html>\n<body>", 64).len(), 1);
        assert_eq!(probes(&body, 5).len(), 5);
    }

    #[test]
    fn paths_with_queries_and_folders() {
        let kinds = |p: &str| {
            variants(p)
                .into_iter()
                .map(|(k, v)| format!("{}={v}", k.as_str()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            kinds("/a/?s=1"),
            [
                "exact=/a/?s=1",
                "parent=/",
                "child=/a/child",
                "sibling=/ax/",
                "cased=/A/?S=1",
                "query=/a/?s=1&q=1"
            ]
        );
        assert_eq!(
            kinds("/"),
            ["exact=/", "child=/child", "sibling=/x", "query=/?q=1"]
        );
    }
}
