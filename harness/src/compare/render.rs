//! A [`Comparison`] as a terminal table, a Markdown table or a JSON document.
//!
//! Rows are queries, columns are engines. A cell holds the answer and a mark: `✗` a scored
//! difference from the reference, `~` a decision on an open point (never scored), `!` no answer
//! (crash, timeout, protocol error, unavailable). Under the table: the reference's explanation of
//! each query under both profiles, then one line per differing cell naming the open points or
//! the clause involved.

use std::fmt::Write as _;

use robotstxt_reference::open_points::OpenPoint;
use robotstxt_reference::Profile;
use robotstxt_suite::engine::Query;
use robotstxt_suite::visible::Outside;
use serde_json::{json, Value};

use super::{Cell, Comparison, Mark};

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

fn cell_text(cell: &Cell) -> String {
    format!("{}{}", cell.answer.as_str(), marker(&cell.mark))
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

/// The table as plain strings: the query, the reference's verdict under each profile, then each
/// engine's cell.
fn table(comparison: &Comparison) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header = vec!["query".to_owned()];
    header.extend(Profile::ALL.iter().map(|p| format!("reference {p}")));
    header.extend(comparison.columns.iter().map(|c| c.handshake.name.clone()));
    let rows = comparison
        .queries
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let mut row = vec![query_text(q)];
            row.extend(
                comparison.reference[i]
                    .iter()
                    .map(|r| r.decision.verdict.to_string()),
            );
            row.extend(comparison.columns.iter().map(|c| cell_text(&c.cells[i])));
            row
        })
        .collect();
    (header, rows)
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
                        format!(" [open point(s): {}]", names(&r.open))
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
                    "{at}: {answer}, on open point(s) {}",
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
    let (header, rows) = table(comparison);
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            std::iter::once(&header)
                .chain(&rows)
                .map(|row| row[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(text, &width)| format!("{text:<width$}"))
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    let _ = writeln!(out, "\n{LEGEND}\n\nThe reference's explanation:");
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
    format!(
        "{} adapter(s), {} quer(ies): {} agree, {} differ, {} on open points, {} without an answer",
        comparison.columns.len(),
        comparison.queries.len(),
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
    let (header, rows) = table(comparison);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| {} |",
        header.iter().map(|h| md(h)).collect::<Vec<_>>().join(" | ")
    );
    let _ = writeln!(out, "|{}", "---|".repeat(header.len()));
    for row in rows {
        let _ = writeln!(
            out,
            "| {} |",
            row.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | ")
        );
    }
    let _ = writeln!(out, "\n{LEGEND}\n\n**The reference's explanation**\n");
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
