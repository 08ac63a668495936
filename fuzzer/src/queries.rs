//! Queries for a body: the agents and paths it names, and their neighbours.
//!
//! A parser's bugs sit at the edges of what a file says: the path a rule names, its parent, a
//! child, a sibling, the same path in other case; the robot a record names, under another case,
//! with a version, a prefix of its name. The candidates come from the body itself (so any bytes
//! get sensible queries) and the fuzzer's input picks among them.

use arbitrary::Unstructured;
use robotstxt_reference::lines::{field_is, lines, LineKind};

use robotstxt_suite::engine::Query;

/// An agent no record is written for.
const STRANGER: &str = "OtherBot";

/// Up to `max` queries about `body`, chosen by `u` among the candidates (all of them when few).
pub fn queries_for(body: &[u8], u: &mut Unstructured<'_>, max: usize) -> Vec<Query> {
    let (agents, paths) = candidates(body);
    let total = agents.len() * paths.len();
    let mut queries = Vec::with_capacity(total.min(max));
    if total <= max {
        for agent in &agents {
            for path in &paths {
                queries.push(Query {
                    agent: agent.clone(),
                    path: path.clone(),
                });
            }
        }
        return queries;
    }
    // Every agent and every path at least once where the cap allows, then the rest by choice.
    for i in 0..max {
        let (a, p) = match (u.choose_index(agents.len()), u.choose_index(paths.len())) {
            (Ok(a), Ok(p)) if i >= agents.len().max(paths.len()) => (a, p),
            _ => (i % agents.len(), i % paths.len()),
        };
        let query = Query {
            agent: agents[a].clone(),
            path: paths[p].clone(),
        };
        if !queries.contains(&query) {
            queries.push(query);
        }
    }
    queries
}

/// The candidate agents and paths of a body, without duplicates, in a stable order.
pub fn candidates(body: &[u8]) -> (Vec<String>, Vec<String>) {
    let mut agents = Vec::new();
    let mut paths = Vec::new();
    for line in lines(body) {
        let LineKind::Field { name, value } = line.kind else {
            continue;
        };
        if field_is(name, "user-agent") {
            agent_neighbours(value, &mut agents);
        } else if !value.is_empty() && agents.len() + paths.len() < 200 {
            path_neighbours(value, &mut paths);
        }
    }
    push(&mut agents, STRANGER.to_owned());
    push(&mut paths, "/".to_owned());
    push(&mut paths, "/a".to_owned());
    (agents, paths)
}

fn push(list: &mut Vec<String>, item: String) {
    if !item.is_empty() && !list.contains(&item) {
        list.push(item);
    }
}

/// An agent string a case file accepts: no control characters, not empty.
fn clean_agent(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .to_owned()
}

fn agent_neighbours(value: &[u8], agents: &mut Vec<String>) {
    let value = clean_agent(&String::from_utf8_lossy(value));
    if value == "*" || value.is_empty() {
        return;
    }
    let name = value.split('/').next().unwrap_or("").trim().to_owned();
    push(agents, value.clone());
    push(agents, name.clone());
    push(agents, format!("{name}/2.1"));
    push(agents, name.to_ascii_lowercase());
    push(agents, name.to_ascii_uppercase());
    if let Some((cut, _)) = name.char_indices().nth(3) {
        push(agents, name[..cut].to_owned());
    }
    push(agents, format!("{name}Extra"));
}

/// A path a case file accepts: starts with `/`, with spaces, controls and octets outside ASCII
/// percent-encoded.
pub fn clean_path(value: &[u8]) -> String {
    let mut path = String::new();
    if value.first() != Some(&b'/') {
        path.push('/');
    }
    for &b in value {
        if b.is_ascii_graphic() {
            path.push(char::from(b));
        } else {
            path.push_str(&format!("%{b:02X}"));
        }
    }
    path
}

fn path_neighbours(value: &[u8], paths: &mut Vec<String>) {
    let path = clean_path(value);
    let trimmed = path.trim_end_matches(['$', '*']).to_owned();
    push(paths, path.clone());
    push(paths, trimmed.clone());
    // Parent: up to and including the last `/` before the end.
    if let Some(slash) = trimmed[..trimmed.len().saturating_sub(1)].rfind('/') {
        push(paths, trimmed[..=slash].to_owned());
    }
    // Children.
    let sep = if trimmed.ends_with('/') { "" } else { "/" };
    push(paths, format!("{trimmed}{sep}x"));
    push(paths, format!("{trimmed}x"));
    // Sibling: the last character changed.
    if let Some(last) = trimmed.chars().last().filter(|c| c.is_ascii_alphanumeric()) {
        let other = if last == 'z' { 'y' } else { 'z' };
        push(paths, format!("{}{other}", &trimmed[..trimmed.len() - 1]));
    }
    // Other case.
    push(paths, trimmed.to_ascii_uppercase());
    // The query part, and the path without it.
    if let Some(q) = trimmed.find('?') {
        push(paths, trimmed[..q].to_owned());
    }
    // `*` and `$` as characters of the path.
    if trimmed.contains('*') {
        push(paths, trimmed.replace('*', "x/y"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_of_agents_and_paths() {
        let (agents, paths) = candidates(b"User-agent: FooBot/1.0\nDisallow: /a/b\n");
        for agent in [
            "FooBot/1.0",
            "FooBot",
            "FooBot/2.1",
            "foobot",
            "FOOBOT",
            "Foo",
            "OtherBot",
        ] {
            assert!(agents.contains(&agent.to_owned()), "{agent}: {agents:?}");
        }
        for path in ["/a/b", "/a/", "/a/b/x", "/a/bx", "/a/z", "/A/B", "/"] {
            assert!(paths.contains(&path.to_owned()), "{path}: {paths:?}");
        }
    }

    #[test]
    fn paths_are_valid_case_paths() {
        assert_eq!(clean_path(b"a b\xff"), "/a%20b%FF");
    }
}
