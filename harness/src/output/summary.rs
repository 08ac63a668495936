//! A short Markdown summary of a run (`run --format markdown`), sized for a CI job summary
//! (GitHub's `$GITHUB_STEP_SUMMARY`, GitLab's report pages): one table row per adapter, then the
//! checks that broke the gate, capped so a bad day does not produce megabytes.
//!
//! All text from cases and adapters is escaped with the [`markup`](robotstxt_runtime::markup) helpers.

use std::fmt::Write as _;

use robotstxt_suite::cases::Case;
use robotstxt_suite::expectations::gate::Status;
use robotstxt_suite::run::{Outcome, Summary};
use robotstxt_suite::visible::Outside;

use crate::output::{plural, regressions, EngineRun, STDERR_LINES};
use robotstxt_runtime::markup::{md, md_cell, md_code, md_fence};

/// Listed checks per section before the rest is only counted.
const MAX_LISTED: usize = 30;

/// The summary of every engine's run.
pub fn markdown(runs: &[EngineRun<'_>], cases: &[Case], strict: bool) -> String {
    let mut table = String::from(
        "| adapter | parser | profile | score | passed | failed | errored | unspecified | result |\n\
         |---|---|---|---|---:|---:|---:|---:|---|\n",
    );
    let mut problems: Vec<String> = Vec::new();
    let mut surprises: Vec<String> = Vec::new();
    let mut bad = 0;
    for run in runs {
        let h = run.handshake;
        let s = Summary::of(run.results);
        let scored = s.passed + s.failed + s.errored;
        let result = run_result(run, cases, strict, &mut problems, &mut surprises);
        if result.starts_with('❌') {
            bad += 1;
        }
        let counts = if run.never_answered() {
            "– | – | – | – | –".to_owned()
        } else {
            format!(
                "{} | {}/{scored} | {} | {} | {}",
                md(&run.headline.label()),
                s.passed,
                s.failed,
                s.errored,
                s.unspecified
            )
        };
        // An adapter that never answered has no handshake: its parser and profile are unknown.
        let (parser, profile) = if run.never_answered() {
            ("–".to_owned(), "–".to_owned())
        } else {
            (
                format!("{} {}", md(h.parser.raw()), md(h.version.raw())),
                md(h.profile.raw()),
            )
        };
        let _ = writeln!(
            table,
            "| {} | {parser} | {profile} | {counts} | {} |",
            md_cell(&md_code(h.name.raw())),
            result
        );
    }
    let heading = if bad == 0 {
        format!(
            "### ✅ robotstxt-test: {} as expected\n\n",
            adapters(runs.len())
        )
    } else {
        format!(
            "### ❌ robotstxt-test: {bad} of {} not as expected\n\n",
            adapters(runs.len())
        )
    };
    let mut out = heading + &table;
    // The line to cite, with the suite version, for each adapter that answered.
    for run in runs.iter().filter(|r| !r.never_answered()) {
        let _ = writeln!(
            out,
            "\n{}: {}",
            md_code(run.handshake.name.raw()),
            md(&run.headline.citation())
        );
    }
    for run in runs {
        out.push_str(&group_table(run, cases));
    }
    section(&mut out, "Not as expected", &problems);
    section(&mut out, "Listed but now passing", &surprises);
    out
}

/// A gated run's regressions counted by group, as a table: what a pull request's reviewer reads
/// before the list of checks. Nothing for a run with no regression.
fn group_table(run: &EngineRun<'_>, cases: &[Case]) -> String {
    let Some((_, judged)) = run.gate else {
        return String::new();
    };
    let groups = regressions::groups(judged, cases, run.results);
    if groups.is_empty() {
        return String::new();
    }
    let total: usize = groups.iter().map(|g| g.members.len()).sum();
    let mut out = format!(
        "\n#### {}: {total} {} in {} {}\n\n| group | regressions | e.g. |\n|---|---:|---|\n",
        md_code(run.handshake.name.raw()),
        plural(total, "regression", "regressions"),
        groups.len(),
        plural(groups.len(), "group", "groups")
    );
    for group in &groups {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            md_cell(&md(group.cause.label())),
            group.members.len(),
            md_cell(&md_code(&group.example(cases, run.results)))
        );
    }
    out
}

/// `1 adapter`, `3 adapters`.
fn adapters(n: usize) -> String {
    format!("{n} {}", if n == 1 { "adapter" } else { "adapters" })
}

/// The last cell of an adapter's row; pushes the lines for the sections below the table.
fn run_result(
    run: &EngineRun<'_>,
    cases: &[Case],
    strict: bool,
    problems: &mut Vec<String>,
    surprises: &mut Vec<String>,
) -> String {
    let name = md_code(run.handshake.name.raw());
    let id = |i: usize| {
        let r = &run.results[i];
        md_code(&format!("{}#{}", cases[r.case].id, r.check))
    };
    if let Some(why) = run.unavailable {
        let (what, why) = if run.never_answered() {
            ("unavailable", why.raw().trim_start_matches("unavailable: "))
        } else {
            ("broke down part way", why.raw())
        };
        // The first line in the list; what follows (a traceback, a stderr tail) keeps its lines
        // in a fence under it, its end only.
        let (first, rest) = why.split_once('\n').unwrap_or((why, ""));
        let mut item = format!("{name}: {what}: {}", md(first.trim()));
        let rest: Vec<&str> = rest.lines().filter(|l| !l.trim().is_empty()).collect();
        if !rest.is_empty() {
            let tail = rest[rest.len().saturating_sub(STDERR_LINES)..].join("\n");
            let fence = md_fence(&tail);
            item.push('\n');
            for line in fence.lines() {
                let _ = write!(item, "\n  {line}");
            }
        }
        if let Some(hint) = run.check_hint {
            let _ = write!(item, "\n\n  {}", md_code(hint));
        }
        problems.push(item);
        return format!("❌ {what}");
    }
    let Some((expectations, judged)) = run.gate else {
        let mut failing = 0;
        for (i, r) in run.results.iter().enumerate() {
            if !matches!(r.outcome, Outcome::Pass | Outcome::Unspecified) {
                failing += 1;
                problems.push(format!("{name} {}: {}", id(i), describe(run, i)));
            }
        }
        return if failing == 0 {
            "✅ all passed".to_owned()
        } else {
            format!("❌ {failing} not passed")
        };
    };
    for (i, status) in judged.statuses.iter().enumerate() {
        match *status {
            Status::Regression(listed) => {
                let was = listed.map_or_else(
                    || "not listed".to_owned(),
                    |e| format!("listed as {}", expectations.entries[e].outcome),
                );
                problems.push(format!("{name} {}: {} ({was})", id(i), describe(run, i)));
            }
            Status::Unstable(_) => {
                problems.push(format!("{name} {}: unstable: {}", id(i), describe(run, i)));
            }
            Status::UnexpectedPass(e) => {
                let entry = &expectations.entries[e];
                surprises.push(format!(
                    "{name} {}: listed as {} ({}), now {}",
                    id(i),
                    entry.outcome,
                    md(entry.reason.trim()),
                    run.results[i].outcome
                ));
            }
            _ => {}
        }
    }
    let t = judged.tally();
    let mut cell = if judged.fails(strict) { "❌" } else { "✅" }.to_owned();
    // The file's size, so that a gate summary shows the list growing in every diff.
    let _ = write!(
        cell,
        " {} as listed, of {} in {}",
        t.as_listed,
        expectations.entries.len(),
        md_code(&file_name(&expectations.file))
    );
    if t.regressions > 0 {
        let _ = write!(
            cell,
            ", {} {}",
            t.regressions,
            plural(t.regressions, "regression", "regressions")
        );
    }
    if t.unstable > 0 {
        let _ = write!(cell, ", {} unstable", t.unstable);
    }
    if !run.slow.is_empty() {
        let _ = write!(
            cell,
            ", {} slow (answered when asked alone)",
            run.slow.len()
        );
    }
    if t.unexpected_passes > 0 {
        let passes = plural(t.unexpected_passes, "unexpected pass", "unexpected passes");
        let _ = write!(cell, ", {} {passes}", t.unexpected_passes);
    }
    cell
}

/// `fail: allowed, expected disallowed (norobots-1994)` and the like.
fn describe(run: &EngineRun<'_>, i: usize) -> String {
    let r = &run.results[i];
    match (r.outcome, r.actual) {
        (Outcome::Fail, Some(actual)) => format!(
            "fail: {actual}, expected {} ({})",
            r.expected
                .map_or_else(|| "nothing".to_owned(), |e| e.to_string()),
            r.scored_under.map_or("no profile", |p| p.name())
        ),
        (outcome, _) => {
            let shown = r
                .detail
                .as_ref()
                .map(Outside::to_string)
                .unwrap_or_default();
            let detail = shown.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            let detail: String = detail.chars().take(100).collect();
            format!("{outcome}: {}", md(&detail))
        }
    }
}

fn section(out: &mut String, title: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let _ = write!(out, "\n#### {title} ({})\n\n", lines.len());
    for line in lines.iter().take(MAX_LISTED) {
        let _ = writeln!(out, "- {line}");
    }
    if lines.len() > MAX_LISTED {
        let _ = writeln!(
            out,
            "- … and {} more (run with `--format human` for every one)",
            lines.len() - MAX_LISTED
        );
    }
}

/// A file's name without its folders, for a table cell.
fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
