//! A [`Comparison`] as a terminal table, a Markdown table or a JSON document.
//!
//! Rows are queries, columns are engines. A cell holds the answer and a mark: `✗` a scored
//! difference from the reference, `~` a decision on an open point (never scored), `!` no answer
//! (crash, timeout, protocol error, unavailable). Under the table: the reference's explanation of
//! each query under both profiles, then one line per differing cell naming the open points or
//! the clause involved.

use std::fmt::Write as _;

use robotstxt_reference::open_points::OpenPoint;
use robotstxt_reference::{Profile, Verdict};
use robotstxt_suite::engine::Query;
use robotstxt_suite::visible::Outside;
use serde_json::{json, Value};

use super::{AnswerCell, Comparison, EngineAnswer, Mark};

/// What the marks mean, printed under every table.
pub const LEGEND: &str = "✗ differs from the reference under the adapter's profile · \
~ on an open point of that profile (not scored) · ! no answer";

fn marker(mark: &Mark) -> &'static str {
    match mark {
        Mark::Agrees => "",
        Mark::Open { .. } => " ~",
        Mark::Differs { .. } => " ✗",
        Mark::Broken => " !",
    }
}

fn mark_name(mark: &Mark) -> &'static str {
    match mark {
        Mark::Agrees => "agrees",
        Mark::Open { .. } => "open",
        Mark::Differs { .. } => "differs",
        Mark::Broken => "broken",
    }
}

fn query_text(query: &Query) -> String {
    format!("{} {}", query.agent, query.path)
}

fn names(points: &[OpenPoint]) -> String {
    let names: Vec<&str> = points.iter().map(|p| p.name()).collect();
    names.join(", ")
}

/// The first line of outside text, made visible.
fn first_line(text: &Outside) -> Outside {
    text.first_line()
}

/// How wide a table may be: it fits a terminal of 120 columns.
const WIDTH: usize = 120;

/// What the short answers of the table mean.
pub const CODES: &str = "A allowed · D disallowed · E the parser refused the body · \
! no answer (crash, timeout, protocol error, unavailable)";

/// An answer in one or two characters: `A`, `D`, `E` or `!`, then its mark.
fn code(cell: &AnswerCell) -> String {
    let answer = match &cell.answer {
        EngineAnswer::Verdict(Verdict::Allowed) => "A",
        EngineAnswer::Verdict(Verdict::Disallowed) => "D",
        EngineAnswer::Error(_) => "E",
        EngineAnswer::Fault(..) => "!",
    };
    format!("{answer}{}", marker(&cell.mark))
}

fn verdict_code(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Allowed => "A",
        Verdict::Disallowed => "D",
    }
}

/// One row of the table: adapters that gave the same answers (and marks) to every query.
struct Group {
    names: Vec<Outside>,
    codes: Vec<String>,
}

impl Group {
    fn label(&self) -> String {
        match self.names.as_slice() {
            [one] => one.to_string(),
            many => format!("{} adapters", many.len()),
        }
    }
}

/// The reference once per profile, then the adapters grouped by their answers (the largest group
/// first). The carried `reference` adapter is left out when it answers as the reference under its
/// profile: it would repeat a row already there.
fn rows(comparison: &Comparison) -> Vec<Group> {
    let mut rows: Vec<Group> = Profile::ALL
        .iter()
        .enumerate()
        .map(|(slot, profile)| Group {
            names: vec![format!("reference {profile}").into()],
            codes: (comparison.reference.iter())
                .map(|r| verdict_code(r[slot].decision.verdict).to_owned())
                .collect(),
        })
        .collect();
    let mut groups: Vec<Group> = Vec::new();
    for column in &comparison.columns {
        let codes: Vec<String> = column.cells.iter().map(code).collect();
        let plain_reference = column.handshake.name == "reference"
            && column.unavailable.is_none()
            && column.cells.iter().all(|c| c.mark == Mark::Agrees);
        if plain_reference {
            continue;
        }
        match groups.iter_mut().find(|g| g.codes == codes) {
            Some(group) => group.names.push(column.handshake.name.clone()),
            None => groups.push(Group {
                names: vec![column.handshake.name.clone()],
                codes,
            }),
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.names.len()));
    rows.extend(groups);
    rows
}

/// `names` joined with `, `, in lines of at most `width` characters after `indent`.
fn wrapped(names: &[Outside], indent: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for name in names {
        let name = name.to_string();
        let name = cut_middle(&name, width - indent.len() - 2);
        if !line.is_empty()
            && indent.len() + line.chars().count() + name.chars().count() + 2 > width
        {
            lines.push(format!("{indent}{line},"));
            line.clear();
        }
        if !line.is_empty() {
            line.push_str(", ");
        }
        line.push_str(&name);
    }
    if !line.is_empty() {
        lines.push(format!("{indent}{line}"));
    }
    lines
}

fn cut_middle(text: &str, max: usize) -> String {
    robotstxt_suite::visible::cut_middle(text, max).into_owned()
}

/// The numbered queries, then the table: a row per profile of the reference and per group of
/// adapters answering alike, a column per query (as many blocks of columns as 120 characters
/// need), each group's names under it.
fn table_text(comparison: &Comparison) -> String {
    let mut out = String::new();
    for (i, query) in comparison.queries.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>4}  {}",
            i + 1,
            cut_middle(&query_text(query), WIDTH - 6)
        );
    }
    let rows = rows(comparison);
    let label_width = (rows.iter())
        .map(|r| r.label().chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    let cell_width = comparison.queries.len().to_string().len().max(3) + 1;
    let per_block = ((WIDTH - label_width - 2) / cell_width).max(1);
    let queries: Vec<usize> = (0..comparison.queries.len()).collect();
    for block in queries.chunks(per_block) {
        let header: String = block
            .iter()
            .map(|i| format!("{:<cell_width$}", i + 1))
            .collect();
        let _ = writeln!(out, "\n{:label_width$}  {}", "", header.trim_end());
        for row in &rows {
            let cells: String = block
                .iter()
                .map(|&i| format!("{:<cell_width$}", row.codes[i]))
                .collect();
            let label = cut_middle(&row.label(), label_width);
            let _ = writeln!(out, "{label:label_width$}  {}", cells.trim_end());
            if row.names.len() > 1 && block[0] == 0 {
                for line in wrapped(&row.names, "    ", WIDTH) {
                    let _ = writeln!(out, "{line}");
                }
            }
        }
    }
    out
}

/// The reference's explanation of each query under each profile, with the open points its
/// decision depends on.
fn explanations(comparison: &Comparison) -> Vec<(String, Vec<String>)> {
    comparison
        .queries
        .iter()
        .zip(&comparison.reference)
        .map(|(query, decisions)| {
            let lines = decisions
                .iter()
                .map(|r| {
                    let open = if r.open.is_empty() {
                        String::new()
                    } else {
                        let points = if r.open.len() == 1 {
                            "open point"
                        } else {
                            "open points"
                        };
                        format!(" [{points}: {}]", names(&r.open))
                    };
                    format!("{}: {}{open}", r.decision.verdict, r.decision.explanation)
                })
                .collect();
            (query_text(query), lines)
        })
        .collect()
}

/// One note per cell whose answer is not the reference's (and per unavailable engine): the open
/// points or the clause involved, or what went wrong.
fn notes(comparison: &Comparison) -> Vec<String> {
    let mut notes = Vec::new();
    for column in &comparison.columns {
        let name = &column.handshake.name;
        if let Some(why) = &column.unavailable {
            notes.push(format!("{name}: unavailable: {}", first_line(why)));
            continue;
        }
        for (query, cell) in comparison.queries.iter().zip(&column.cells) {
            let at = format!("{name} ({}), {}", column.judged_under, query_text(query));
            let answer = match cell.answer.detail() {
                Some(detail) => format!("{} ({})", cell.answer.as_str(), first_line(detail)),
                None => cell.answer.as_str().to_owned(),
            };
            match &cell.mark {
                Mark::Agrees | Mark::Open { differs: false, .. } => {}
                Mark::Open {
                    points,
                    differs: true,
                } => notes.push(format!(
                    "{at}: {answer}, on {} {}",
                    if points.len() == 1 {
                        "open point"
                    } else {
                        "open points"
                    },
                    names(points)
                )),
                Mark::Differs { clause } => {
                    notes.push(format!("{at}: {answer}; settled by {clause}"))
                }
                Mark::Broken => notes.push(format!("{at}: {answer}")),
            }
        }
    }
    notes
}

/// The comparison for a terminal: an aligned table, the legend, the explanations, the notes.
pub fn human(comparison: &Comparison) -> String {
    let mut out = table_text(comparison);
    let _ = writeln!(out, "\n{CODES}\n{LEGEND}\n\nThe reference's explanation:");
    for (query, lines) in explanations(comparison) {
        let _ = writeln!(out, "  {query}");
        for line in lines {
            let _ = writeln!(out, "    {line}");
        }
    }
    if !comparison.file.is_empty() {
        let _ = writeln!(out, "\nThe file has: {}", comparison.file.join(", "));
    }
    let notes = notes(comparison);
    if !notes.is_empty() {
        let _ = writeln!(out, "\nWhere adapters differ:");
        for note in notes {
            let _ = writeln!(out, "  {note}");
        }
    }
    let _ = writeln!(out, "\n{}", summary(comparison));
    out
}

fn summary(comparison: &Comparison) -> String {
    let tally = comparison.tally();
    let (adapters, queries) = (comparison.columns.len(), comparison.queries.len());
    format!(
        "{adapters} {}, {queries} {}: {} agree, {} differ, {} on open points, {} without an answer",
        if adapters == 1 { "adapter" } else { "adapters" },
        if queries == 1 { "query" } else { "queries" },
        tally.agree,
        tally.differ,
        tally.open,
        tally.broken
    )
}

/// Escapes a table cell for Markdown.
fn md(text: &str) -> String {
    text.replace('|', "\\|").replace('`', "\\`")
}

/// The comparison as Markdown: a table, the legend, the explanations and the notes as lists.
pub fn markdown(comparison: &Comparison) -> String {
    let mut out = String::new();
    for (i, query) in comparison.queries.iter().enumerate() {
        let _ = writeln!(out, "{}. `{}`", i + 1, query_text(query).replace('`', "'"));
    }
    let numbers: Vec<String> = (1..=comparison.queries.len())
        .map(|n| n.to_string())
        .collect();
    let _ = writeln!(out, "\n| | {} |", numbers.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(numbers.len()));
    for row in rows(comparison) {
        let label = match row.names.as_slice() {
            [one] => md(&one.to_string()),
            many => {
                let shown: Vec<String> = many.iter().map(Outside::to_string).collect();
                format!("{} adapters: {}", many.len(), md(&shown.join(", ")))
            }
        };
        let _ = writeln!(out, "| {label} | {} |", row.codes.join(" | "));
    }
    let _ = writeln!(
        out,
        "\n{CODES}  \n{LEGEND}\n\n**The reference's explanation**\n"
    );
    for (query, lines) in explanations(comparison) {
        let _ = writeln!(out, "- `{}`", query.replace('`', "'"));
        for line in lines {
            let _ = writeln!(out, "  - {}", md(&line));
        }
    }
    if !comparison.file.is_empty() {
        let _ = writeln!(out, "\nThe file has: {}", comparison.file.join(", "));
    }
    let notes = notes(comparison);
    if !notes.is_empty() {
        let _ = writeln!(out, "\n**Where adapters differ**\n");
        for note in notes {
            let _ = writeln!(out, "- {}", md(&note));
        }
    }
    let _ = writeln!(out, "\n{}", summary(comparison));
    out
}

/// The comparison as one JSON document.
pub fn json(comparison: &Comparison) -> Value {
    let queries: Vec<Value> = comparison
        .queries
        .iter()
        .zip(&comparison.reference)
        .map(|(q, decisions)| {
            let reference: serde_json::Map<String, Value> = decisions
                .iter()
                .map(|r| {
                    let value = json!({
                        "verdict": r.decision.verdict.as_str(),
                        "explanation": r.decision.explanation.to_string(),
                        "open_points": r.open.iter().map(|p| p.name()).collect::<Vec<_>>(),
                    });
                    (r.decision.explanation.profile.name().to_owned(), value)
                })
                .collect();
            json!({ "agent": q.agent, "path": q.path, "reference": reference })
        })
        .collect();
    let adapters: Vec<Value> = comparison
        .columns
        .iter()
        .map(|column| {
            let cells: Vec<Value> = column
                .cells
                .iter()
                .map(|cell| {
                    let mut value = json!({
                        "answer": cell.answer.as_str(),
                        "mark": mark_name(&cell.mark),
                    });
                    if let Some(detail) = cell.answer.detail() {
                        value["detail"] = json!(detail);
                    }
                    match &cell.mark {
                        Mark::Open { points, differs } => {
                            value["open_points"] =
                                json!(points.iter().map(|p| p.name()).collect::<Vec<_>>());
                            value["differs"] = json!(differs);
                        }
                        Mark::Differs { clause } => value["clause"] = json!(clause),
                        Mark::Agrees | Mark::Broken => {}
                    }
                    value
                })
                .collect();
            json!({
                "name": column.handshake.name,
                "parser": column.handshake.parser,
                "version": column.handshake.version,
                "profile": column.handshake.profile,
                "judged_under": column.judged_under.name(),
                "unavailable": column.unavailable,
                "cells": cells,
            })
        })
        .collect();
    json!({
        "queries": queries,
        "adapters": adapters,
        "file": comparison.file,
        "summary": comparison.tally(),
    })
}
