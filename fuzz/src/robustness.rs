//! The `reference_robustness` target's properties.
//!
//! For any bytes, under every profile: parsing and deciding never panic; `decide` and
//! `is_allowed` agree; and the decisions stay the same when every line ending is rewritten to
//! another kind (without creating or removing a blank line) and when a comment-only line is
//! inserted after any line. Both texts make these so: CR, CR LF and LF end lines alike, and a
//! comment-only line is discarded without ending a record (1994) or is an empty line (RFC 9309).

use robotstxt_fuzzer::candidate::split;
use robotstxt_fuzzer::queries::candidates;
use robotstxt_reference::{Profile, Robots};
use robotstxt_suite::engine::Query;

/// Agents and paths asked per input, at most.
const MAX_SIDE: usize = 6;

/// Panics when a property fails (that is what libFuzzer records).
pub fn reference_robustness(data: &[u8]) {
    let choice = data.last().copied().unwrap_or(0);
    let body = data;
    let (agents, paths) = candidates(body);
    let queries: Vec<Query> = agents
        .iter()
        .take(MAX_SIDE)
        .flat_map(|a| {
            paths.iter().take(MAX_SIDE).map(move |p| Query {
                agent: a.clone(),
                path: p.clone(),
            })
        })
        .collect();
    let rewritten = rewrite_endings(body, choice);
    let commented = insert_comment(body, choice);
    for &profile in Profile::ALL {
        let verdicts = decisions(profile, body, &queries);
        assert_eq!(
            verdicts,
            decisions(profile, &rewritten, &queries),
            "{profile}: line endings rewritten ({choice})"
        );
        assert_eq!(
            verdicts,
            decisions(profile, &commented, &queries),
            "{profile}: comment line inserted ({choice})"
        );
    }
}

fn decisions(profile: Profile, body: &[u8], queries: &[Query]) -> Vec<bool> {
    let robots = Robots::parse(profile, body);
    queries
        .iter()
        .map(|q| {
            let allowed = robots.is_allowed(&q.agent, &q.path);
            let decision = robots.decide(&q.agent, &q.path);
            assert_eq!(
                allowed,
                decision.verdict == robotstxt_reference::Verdict::Allowed,
                "{profile}: decide and is_allowed differ for {q:?}"
            );
            let _ = decision.explanation.to_string();
            allowed
        })
        .collect()
}

/// Every line ending rewritten: all to one kind, or a mix, as `choice` says. A CR is never put
/// right before an empty line ended by LF, where the two would read as one CR LF and a blank
/// line would disappear.
pub fn rewrite_endings(body: &[u8], choice: u8) -> Vec<u8> {
    let lines = split(body);
    let kinds: [&[u8]; 3] = [b"\n", b"\r\n", b"\r"];
    let mut ends: Vec<&[u8]> = lines
        .iter()
        .enumerate()
        .map(|(i, (_, end))| match end.is_empty() {
            true => &b""[..],
            false if choice < 192 => kinds[usize::from(choice) % 3],
            false => kinds[(usize::from(choice) + i * 7 + i / 3) % 3],
        })
        .collect();
    for i in 0..lines.len().saturating_sub(1) {
        if ends[i] == b"\r" && lines[i + 1].0.is_empty() && ends[i + 1] == b"\n" {
            ends[i] = b"\r\n";
        }
    }
    let mut out = Vec::with_capacity(body.len() + lines.len());
    for ((text, _), end) in lines.iter().zip(ends) {
        out.extend_from_slice(text);
        out.extend_from_slice(end);
    }
    out
}

/// A comment-only line inserted after line `choice % lines` (never before the first line, where
/// it would move a byte-order mark away from the start).
pub fn insert_comment(body: &[u8], choice: u8) -> Vec<u8> {
    let lines = split(body);
    if lines.is_empty() {
        return body.to_vec();
    }
    let after = usize::from(choice) % lines.len();
    let mut out = Vec::with_capacity(body.len() + 16);
    for (i, (text, end)) in lines.iter().enumerate() {
        out.extend_from_slice(text);
        out.extend_from_slice(end);
        if i == after {
            if end.is_empty() {
                out.push(b'\n');
            }
            out.extend_from_slice(b"# inserted: comment\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewriting_keeps_blank_lines() {
        // LF then an empty line ended by LF: a CR before it must not merge with it.
        assert_eq!(rewrite_endings(b"a\n\nb", 2), b"a\r\rb");
        for choice in 0..=255 {
            let out = rewrite_endings(b"a\n\nb\r\n\r\nc", choice);
            assert_eq!(split(&out).len(), 5, "{choice}: {out:?}");
        }
        assert_eq!(rewrite_endings(b"a\r\nb\r", 0), b"a\nb\n");
        assert_eq!(
            insert_comment(b"a\r\nb", 1),
            b"a\r\nb\n# inserted: comment\n"
        );
    }
}
