//! `run`'s default text: the counts first, then the non-passes grouped by cause
//! ([`crate::grouping`]), each group with one check in full and the ids of the others. It fits
//! on a screen or two where the block-per-check text (`--verbose`) runs to thousands of lines.

use std::fmt::Write as _;

use crate::grouping::{self, Group};
use crate::output::fit;
use robotstxt_suite::blocks::failure_block;
use robotstxt_suite::cases::Case;
use robotstxt_suite::engine::Handshake;
use robotstxt_suite::headline::Headline;
use robotstxt_suite::run::CheckResult;

/// Width the lists of check ids are wrapped to.
const WIDTH: usize = 110;

/// Lines the grouped text aims to stay within: groups are shown with a check in full while they
/// fit, the rest as two lines each, so that a run fits a screen or two whatever the parser.
const LINE_BUDGET: usize = 140;

/// Lines of `also:` ids a group shows before the rest are counted.
const ALSO_LINES: usize = 2;

/// The summary line, then every group of non-passes.
pub fn human_grouped(
    handshake: &Handshake,
    headline: &Headline,
    cases: &[Case],
    results: &[CheckResult],
) -> String {
    let groups = grouping::group(cases, results);
    let mut out = super::summary_line(handshake, results);
    out.push('\n');
    out.push_str(&super::score_line(headline));
    if groups.is_empty() {
        return out;
    }
    let total: usize = groups.iter().map(|g| g.results.len()).sum();
    let _ = writeln!(
        out,
        "{total} not passed, in {} {} by cause; the largest show one check in full \
         (--verbose shows every one):",
        groups.len(),
        crate::output::plural(groups.len(), "group", "groups")
    );
    let mut used = out.lines().count();
    for (n, group) in groups.iter().enumerate() {
        let full = group_text(group, cases, results);
        let after = (groups.len() - n - 1) * 3;
        let text = if used + 1 + full.lines().count() + after <= LINE_BUDGET {
            full
        } else {
            short_text(group, cases, results)
        };
        used += 1 + text.lines().count();
        out.push('\n');
        out.push_str(&text);
    }
    out
}

/// One group: its heading, its representative check in full (fitted to the terminal), and the
/// ids of the others (at most `ALSO_LINES` lines of them).
pub fn group_text(group: &Group, cases: &[Case], results: &[CheckResult]) -> String {
    let mut out = format!("== {}\n", group.heading());
    let shown = &results[group.representative];
    out.push_str(&fit::block(
        &failure_block(&cases[shown.case], shown),
        Some(2),
    ));
    out.push_str(&others_text(group, cases, results, ALSO_LINES));
    out
}

/// A group in two lines: its heading, and one of its checks to look at.
fn short_text(group: &Group, cases: &[Case], results: &[CheckResult]) -> String {
    let shown = &results[group.representative];
    format!(
        "== {}\n  e.g. {}#{} (run --group {} to see its checks)\n",
        group.heading(),
        cases[shown.case].id,
        shown.check,
        group.cause.id()
    )
}

/// `  also: a#0,2, b#1, ...` wrapped, at most `max_lines` lines, then how many more.
fn others_text(group: &Group, cases: &[Case], results: &[CheckResult], max_lines: usize) -> String {
    // The others by case, their check numbers together: `records/a#0,2`.
    let mut others: Vec<(usize, Vec<String>)> = Vec::new();
    for &i in group.results.iter().filter(|&&i| i != group.representative) {
        let r = &results[i];
        match others.last_mut() {
            Some((case, checks)) if *case == r.case => checks.push(r.check.to_string()),
            _ => others.push((r.case, vec![r.check.to_string()])),
        }
    }
    let others: Vec<String> = (others.into_iter())
        .map(|(case, checks)| format!("{}#{}", cases[case].id, checks.join(",")))
        .collect();
    if others.is_empty() {
        return String::new();
    }
    let text = wrapped("  also: ", &others);
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= max_lines {
        return text;
    }
    let shown_ids = lines[..max_lines].join(" ").matches('#').count();
    let mut out: String = lines[..max_lines]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    let _ = writeln!(
        out,
        "        and {} more cases (--verbose, or --group {})",
        others.len() - shown_ids,
        group.cause.id()
    );
    out
}

/// `items` joined by `, ` after `lead`, wrapped at `WIDTH` with continuation lines indented.
pub fn wrapped(lead: &str, items: &[String]) -> String {
    let indent = " ".repeat(lead.chars().count());
    let mut out = String::new();
    let mut line = lead.to_owned();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item}, ")
        } else {
            item.clone()
        };
        if line.len() + piece.len() > WIDTH && line.trim().len() > lead.trim().len() {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.clone();
        }
        line.push_str(&piece);
    }
    out.push_str(&line);
    out.push('\n');
    out
}
