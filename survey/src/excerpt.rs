//! The excerpt of a file that an example shows: every line that decided either verdict, and no
//! line that did not, with the lines left out marked.
//!
//! The reference says which of its lines decided ([`pinned`]): the User-agent lines through which
//! the chosen record applies, the rule that matched, the rule the probe came from, and an Allow
//! line that matches the path (which a parser that reads Allow, or reads rules in order,
//! follows). The adapter says nothing of its reasons, so its side is found by asking it
//! ([`deciding_lines`]): lines are dropped, in halves, quarters and so on down to single lines,
//! for as long as the adapter still gives its verdict, the reference still gives its own and the
//! cause read from what is left stays the example's. What remains is a file of the original
//! lines on which the disagreement, and its label, still hold, and from which no single line can
//! be dropped: each shown line decided something.

use robotstxt_reference::lines::raw_lines;
use robotstxt_reference::{Decision, GroupChoice, LineMeaning, Profile, RuleChoice, RuleKind};
use robotstxt_suite::blocks::visible_text;
use robotstxt_suite::cause::Cause;

use robotstxt_fuzzer::{Candidate, CandidateJudge};

/// Candidate files one excerpt may ask of the adapter: enough for a file of some hundred lines
/// of which a handful decide; past it the excerpt keeps every line not yet ruled out.
pub const EXCERPT_BUDGET: usize = 300;

/// Files larger than this (RFC 9309's 500 KiB parse limit, and a little) show the reference's
/// deciding lines only: asking the adapter about hundreds of copies of them costs too much.
pub const MAX_EXCERPT_BODY: usize = 512 << 10;

/// User-agent lines and matching Allow lines pinned per example: a record naming a robot many
/// times shows the first few.
const PINNED_PER_KIND: usize = 4;

/// The lines the reference says decided its verdict for `decision` (made for `path`), and the
/// probe's own rule line, ascending.
pub fn pinned(decision: &Decision, path: &str, probe_line: Option<u32>) -> Vec<u32> {
    let e = &decision.explanation;
    let mut lines = Vec::new();
    if let GroupChoice::Chosen { groups, .. } = &e.groups {
        lines.extend(groups.iter().map(|g| g.agent_line));
    }
    let applying_agents = e.lines.iter().filter_map(|l| match &l.reading {
        LineMeaning::Agent { applies: true, .. } => Some(l.line),
        _ => None,
    });
    lines.extend(applying_agents.take(PINNED_PER_KIND));
    if let RuleChoice::Matched { line, .. } = &e.rule {
        lines.push(*line);
    }
    let matching_allows = e.lines.iter().filter_map(|l| match &l.reading {
        LineMeaning::Rule {
            kind: RuleKind::Allow,
            matches: true,
            ..
        } => Some(l.line),
        LineMeaning::Other { name, value }
            if name.eq_ignore_ascii_case("allow")
                && !value.is_empty()
                && robotstxt_reference::rfc9309::matches(value.as_bytes(), path.as_bytes()) =>
        {
            Some(l.line)
        }
        _ => None,
    });
    lines.extend(matching_allows.take(PINNED_PER_KIND));
    lines.extend(probe_line);
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// The body made of the lines whose `keep` is true, each with its own terminator.
fn body_of(lines: &[(&[u8], &[u8])], keep: &[bool]) -> Vec<u8> {
    let mut body = Vec::new();
    for ((text, end), _) in lines.iter().zip(keep).filter(|(_, &k)| k) {
        body.extend_from_slice(text);
        body.extend_from_slice(end);
    }
    body
}

/// The lines of `body` that decided both verdicts: `pinned` and those the adapter needs, found by
/// dropping lines while `judge` keeps the disagreement and the cause read under `profile` stays
/// `cause` (see the module docs), within [`EXCERPT_BUDGET`] candidates. `None` when the whole
/// file itself does not hold (the adapter now answers otherwise, or not at all).
pub fn deciding_lines(
    judge: &mut dyn CandidateJudge,
    profile: Profile,
    cause: Cause,
    body: &[u8],
    agent: &str,
    path: &str,
    pinned: &[u32],
) -> Option<Vec<u32>> {
    let lines: Vec<(&[u8], &[u8])> = raw_lines(body).map(|l| (l.text, l.terminator)).collect();
    let mut keep = vec![true; lines.len()];
    let asked = std::cell::Cell::new(0usize);
    let mut holds = |keep: &[bool]| {
        asked.set(asked.get() + 1);
        let candidate = Candidate {
            body: body_of(&lines, keep),
            agent: agent.to_owned(),
            path: path.to_owned(),
        };
        robotstxt_fuzzer::case::cause_of(profile, &candidate) == cause
            && judge.keeps(std::slice::from_ref(&candidate)) == [true]
    };
    if !holds(&keep) {
        return None;
    }
    let free = |keep: &[bool]| -> Vec<usize> {
        (0..keep.len())
            .filter(|&i| keep[i] && pinned.binary_search(&(i as u32 + 1)).is_err())
            .collect()
    };
    let mut chunk = free(&keep).len().div_ceil(2).max(1);
    'sizes: loop {
        let mut dropped_any = false;
        let mut start = 0;
        loop {
            let candidates = free(&keep);
            if start >= candidates.len() {
                break;
            }
            if asked.get() >= EXCERPT_BUDGET {
                break 'sizes;
            }
            let end = (start + chunk).min(candidates.len());
            let mut trial = keep.clone();
            for &i in &candidates[start..end] {
                trial[i] = false;
            }
            if holds(&trial) {
                keep = trial;
                dropped_any = true;
            } else {
                start = end;
            }
        }
        if chunk == 1 && !dropped_any {
            break;
        }
        if chunk > 1 {
            chunk = chunk.div_ceil(2);
        }
    }
    Some(
        (0..keep.len())
            .filter(|&i| keep[i])
            .map(|i| i as u32 + 1)
            .collect(),
    )
}

/// The lines numbered `wanted` (ascending), as `  12 │ text`, numbered by [`raw_lines`] as the
/// reference numbers them, a leading byte-order mark shown; each run of lines left out, before,
/// between or after them, is one line `      │ … 3 lines left out`.
pub fn excerpt(body: &[u8], wanted: &[u32]) -> Vec<String> {
    let mut out = Vec::new();
    let mut left_out = 0usize;
    let flush = |out: &mut Vec<String>, left_out: &mut usize| {
        if *left_out > 0 {
            let s = if *left_out == 1 { "" } else { "s" };
            out.push(format!("{:>5} │ … {left_out} line{s} left out", ""));
            *left_out = 0;
        }
    };
    for line in raw_lines(body) {
        if wanted.binary_search(&line.number).is_ok() {
            flush(&mut out, &mut left_out);
            out.push(format!("{:>5} │ {}", line.number, visible_text(line.text)));
        } else if !(line.text.is_empty() && line.terminator.is_empty()) {
            left_out += 1;
        }
    }
    flush(&mut out, &mut left_out);
    out
}

/// The numbers of the lines an excerpt shows: what a test reads back.
pub fn shown_numbers(excerpt: &[String]) -> Vec<u32> {
    excerpt
        .iter()
        .filter_map(|l| l.split_once(" │ ")?.0.trim().parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use robotstxt_reference::Robots;

    /// Keeps a candidate while it still holds `needed`: an adapter whose verdict rests on it.
    struct Needs(&'static [u8]);

    impl CandidateJudge for Needs {
        fn keeps(&mut self, batch: &[Candidate]) -> Vec<bool> {
            let holds = |c: &Candidate| c.body.windows(self.0.len()).any(|w| w == self.0);
            batch.iter().map(holds).collect()
        }
    }

    #[test]
    fn the_adapters_lines_join_the_references() {
        let body = b"User-agent: *\n# note\nAllow: /\nDisallow: /includes/\nDisallow: /x\n";
        let profile = Profile::Norobots1994;
        let decision = Robots::parse(profile, body).decide("FooBot", "/includes/");
        let pinned = pinned(&decision, "/includes/", None);
        assert_eq!(pinned, [1, 3, 4], "the Allow line matches: pinned too");
        let cause = robotstxt_fuzzer::case::cause_of(
            profile,
            &Candidate {
                body: body.to_vec(),
                agent: "FooBot".into(),
                path: "/includes/".into(),
            },
        );
        // Only the reference's lines pinned: the adapter's Allow line is found by asking.
        let found = deciding_lines(
            &mut Needs(b"Allow: /\n"),
            profile,
            cause,
            body,
            "FooBot",
            "/includes/",
            &[1, 4],
        );
        assert_eq!(found, Some(vec![1, 3, 4]));
        // A judge that no longer sees the disagreement on the whole file: nothing found.
        let none = deciding_lines(
            &mut Needs(b"absent"),
            profile,
            cause,
            body,
            "FooBot",
            "/includes/",
            &[1, 4],
        );
        assert_eq!(none, None);
    }

    #[test]
    fn an_excerpt_marks_what_it_leaves_out() {
        let body = b"User-agent: *\n# one\n# two\nDisallow: /a\nAllow: /\n";
        assert_eq!(
            excerpt(body, &[1, 4]),
            [
                "    1 │ User-agent: *",
                "      │ … 2 lines left out",
                "    4 │ Disallow: /a",
                "      │ … 1 line left out",
            ]
        );
        assert_eq!(shown_numbers(&excerpt(body, &[1, 4])), [1, 4]);
        assert_eq!(excerpt(b"a\nb", &[1, 2]), ["    1 │ a", "    2 │ b"]);
    }
}
