//! `survey.json` and `survey.md` (and, through [`super::publish`], `survey.csv` and
//! `survey.html`): writing them (atomically) and reading `survey.json` back.

use std::fmt::Write as _;
use std::path::Path;

use crate::limits::{MAX_SURVEY_FILE, SURVEY_JSON};
use robotstxt_runtime::atomic::{remove_stale_temporaries, write_atomic, WriteError};
use robotstxt_runtime::markup::{md_cell, md_code};
use robotstxt_suite::input::{Format, Input};
use robotstxt_suite::located::LocatedError;
use robotstxt_suite::visible::{shown_line, Outside};

use super::cause::SignatureCount;
use super::markdown::cell;
use super::{AdapterSurvey, Survey};

pub use crate::limits::TOP_CAUSES;

/// Writes `survey.json`, `survey.md`, `survey.csv` and `survey.html` into `dir` (created if
/// missing), each atomically.
pub fn write(survey: &Survey, dir: &Path) -> Result<(), WriteError> {
    std::fs::create_dir_all(dir).map_err(|source| WriteError {
        path: dir.to_owned(),
        source,
    })?;
    remove_stale_temporaries(dir);
    let json_file = dir.join("survey.json");
    let mut json = serde_json::to_string_pretty(survey).map_err(|e| WriteError {
        path: json_file.clone(),
        source: e.into(),
    })?;
    json.push('\n');
    // The exact texts, with bidi controls written as JSON escapes.
    let json = robotstxt_suite::visible::json_escaped(json);
    // Under the lock `report` takes to rebuild the folder, so that neither loses the other's work.
    let _lock = robotstxt_runtime::swap::lock_folder(dir).map_err(|source| WriteError {
        path: dir.to_owned(),
        source,
    })?;
    write_atomic(&json_file, json.as_bytes())?;
    write_atomic(&dir.join("survey.md"), markdown(survey).as_bytes())?;
    write_atomic(
        &dir.join("survey.csv"),
        super::publish::csv(survey).as_bytes(),
    )?;
    write_atomic(
        &dir.join("survey.html"),
        super::publish::page(survey).as_bytes(),
    )
}

/// A `survey.json` that could not be read back: the file, line and column, and why.
#[derive(Debug, thiserror::Error)]
#[error("{0} (not a survey.json that can be merged)")]
pub struct SurveyReadError(#[from] LocatedError);

/// Reads a `survey.json` through the one reader, under [`SURVEY_JSON`].
pub fn read(path: &Path) -> Result<Survey, SurveyReadError> {
    Ok(Input::read(path, Format::Json, SURVEY_JSON)?.parse()?)
}

/// The human report.
pub fn markdown(survey: &Survey) -> String {
    let mut out = String::new();
    // Every string of a survey is outside text: a corpus or WARC file's name, an adapter's words,
    // or whatever a merged `survey.json` held. Each goes through `cell` or `code`.
    let _ = writeln!(out, "# Survey: {}\n", cell(&survey.corpus));
    let shards = match &survey.shards {
        None => String::new(),
        Some(s) => {
            let list: Vec<String> = s
                .included
                .iter()
                .map(|k| format!("{k}/{}", s.count))
                .collect();
            format!(" (shards {} only)", list.join(", "))
        }
    };
    let p = &survey.probes;
    // A census surveys each distinct body of its hosts' last captures once.
    let unit = match survey.census {
        Some(_) => "distinct bodies",
        None => "files",
    };
    let _ = writeln!(
        out,
        "{} {unit} ({:.1} MB) from {}{shards}, each an untrusted robots.txt body with no expected \
         answers. Every file is asked probe queries derived from its own text: every robot it names \
         (up to {}) and the generic {} ask for `/`, and the first {} distinct Allow/Disallow values \
         become paths (`*` as `x`, a final `$` dropped), each asked with its parent, a child, a \
         sibling, a case-swapped and a query-string variant by the robot whose group holds the rule; \
         at most {} queries per file, {} in all.\n",
        survey.files,
        survey.bytes as f64 / 1e6,
        code(&survey.corpus),
        p.max_agents_per_file,
        code(&p.generic_agent),
        p.max_rules_per_file,
        p.max_queries_per_file,
        survey.queries,
    );
    if !survey.oversized.is_empty() {
        let names: Vec<String> = survey
            .oversized
            .iter()
            .map(|o| format!("{} ({} bytes)", code(&o.name), o.bytes))
            .collect();
        let more = match survey.oversized_unnamed {
            0 => String::new(),
            n => format!(", and {n} more not named"),
        };
        let _ = writeln!(
            out,
            "{} file(s) larger than {} bytes were skipped, unread: {}{more}.\n",
            (survey.oversized.len() as u64).saturating_add(survey.oversized_unnamed),
            MAX_SURVEY_FILE,
            names.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "The reference answers under every profile; each adapter is compared with the reference \
         under the profile it claims (`norobots-1994` when it claims neither). A difference is \
         *scored* when the profile's text settles the reference verdict, and an *open point* when \
         that verdict hinges on a point the profile leaves open: the two are counted apart, each \
         with its share of the files answered, and *differing at all* counts the files holding \
         either kind (a file may hold both), so the scored share is never mistaken for the share \
         of files that differ. The last columns compare every adapter with `norobots-1994`, every \
         difference counted. Errors are files the parser refused; crashes, timeouts and protocol \
         errors are files lost to faults (the adapter is restarted).\n"
    );
    out.push_str(
        "| adapter | parser | claims | compared under | files answered | \
         scored disagreements: files | checks | open-point disagreements: files | checks | \
         differing at all: files | errors | crashes | timeouts | \
         vs norobots-1994: files | checks |\n",
    );
    out.push_str("|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for a in &survey.adapters {
        let h = &a.handshake;
        let mut timeouts = a.timeouts.to_string();
        if a.protocol_errors > 0 {
            let _ = write!(timeouts, " (+{} protocol errors)", a.protocol_errors);
        }
        let _ = writeln!(
            out,
            "| {} | {} {} | {} | {} | {} | {} ({}) | {} | {} ({}) | {} | {} ({}) | {} | {} | {} | {} | {} |",
            cell(a.adapter.raw()),
            cell(h.parser.raw()),
            cell(h.version.raw()),
            cell(h.profile.raw()),
            cell(&a.compared_under),
            a.files,
            a.disagreements.files,
            percent(a.disagreements.files, a.files),
            a.disagreements.checks,
            a.open_points.files,
            percent(a.open_points.files, a.files),
            a.open_points.checks,
            a.differing.files,
            percent(a.differing.files, a.files),
            a.errors,
            a.crashes,
            timeouts,
            a.norobots_1994.files,
            a.norobots_1994.checks,
        );
    }
    let _ = writeln!(
        out,
        "\nThe reference's own profiles (`rfc9309` against `norobots-1994`) answer {} checks in {} \
         files differently.",
        survey.profiles.checks, survey.profiles.files
    );
    if let Some(census) = &survey.census {
        out.push_str(&super::census_write::section(survey, census));
    }
    for a in &survey.adapters {
        if a.skipped > 0 {
            let why = a.unavailable.as_ref().map_or("unavailable", Outside::raw);
            let _ = writeln!(
                out,
                "\n**{}** was not asked about {} files: {}",
                cell(a.adapter.raw()),
                a.skipped,
                cell(why.lines().next().unwrap_or(why))
            );
        }
    }
    out.push_str("\n## Causes\n\n");
    out.push_str(
        "Each disagreeing check has a signature: its cause (as `run` names causes), both \
         verdicts, the profile of the reference it agrees with instead (if any), how the \
         reference chose the record or group, the rule line that decided and what it holds (`*`, \
         `$`, `%`, `?`, non-ASCII), the kind of probe (and the rule it came from, when another \
         rule decided), and what is unusual about the file. Each signature's example is the \
         disagreement in the smallest file that has it (by size, then name). Its excerpt shows \
         every line that decided either verdict: the reference's (the User-agent lines through \
         which the record applies, the rule that matched, the probe's rule, an Allow line that \
         matches) and the adapter's, found by dropping lines while the adapter keeps its \
         verdict, the reference its own and the cause stays the same; `…` marks the lines left \
         out. Each example is also reduced against the adapter to a small canonical case, and \
         signatures whose examples reduce to the same case form one cause, named by what causes \
         the reduced case (the case is shown, `⏎` between its lines). A file counts once per \
         cause. The most common causes per adapter follow with their examples; `survey.json` \
         lists every signature.\n",
    );
    for a in &survey.adapters {
        adapter_causes(&mut out, a);
    }
    out
}

fn adapter_causes(out: &mut String, a: &AdapterSurvey) {
    let h = &a.handshake;
    let _ = writeln!(
        out,
        "\n### {} ({} {}, compared under {})\n",
        cell(a.adapter.raw()),
        cell(h.parser.raw()),
        cell(h.version.raw()),
        cell(&a.compared_under)
    );
    if a.causes.is_empty() {
        out.push_str("No scored disagreements.\n");
    } else {
        let _ = writeln!(
            out,
            "{} causes of scored disagreements in {} files; the {} most common:\n",
            a.causes.len(),
            a.disagreements.files,
            a.causes.len().min(TOP_CAUSES)
        );
        match a.hosts {
            Some(_) => {
                out.push_str("| # | cause | bodies | hosts | checks |\n|--:|---|--:|--:|--:|\n")
            }
            None => out.push_str("| # | cause | files | checks |\n|--:|---|--:|--:|\n"),
        }
        for (i, c) in a.causes.iter().take(TOP_CAUSES).enumerate() {
            let first = c.signatures.first().map_or("", String::as_str);
            let shown = if c.shape == first {
                cell(first)
            } else {
                let more = match c.signatures.len() {
                    1 => String::new(),
                    n => format!(" (and {} more signatures)", n - 1),
                };
                format!(
                    "{}: {} — {}{more}",
                    cell(c.cause.label()),
                    md_cell(&code(&c.shape)),
                    cell(first)
                )
            };
            let files = match c.hosts {
                Some(hosts) => format!("{} | {hosts}", c.files),
                None => c.files.to_string(),
            };
            let _ = writeln!(out, "| {} | {shown} | {files} | {} |", i + 1, c.checks);
        }
    }
    super::census_write::served(out, a);
    if !a.open_points_by_point.is_empty() {
        let mut points: Vec<(&String, &usize)> = a.open_points_by_point.iter().collect();
        points.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
        let list: Vec<String> = points
            .iter()
            .map(|(p, n)| format!("{} {n}", cell(p)))
            .collect();
        let _ = writeln!(
            out,
            "\nOpen-point disagreements, not scored ({} checks in {} files), by point: {}.",
            a.open_points.checks,
            a.open_points.files,
            list.join(", ")
        );
    }
    for (i, c) in a.causes.iter().take(TOP_CAUSES).enumerate() {
        let Some(s) = c
            .signatures
            .first()
            .and_then(|first| a.signatures.iter().find(|s| &s.signature == first))
        else {
            continue;
        };
        example(out, i + 1, s);
    }
}

fn example(out: &mut String, number: usize, s: &SignatureCount) {
    let e = &s.example;
    let served = match e.hosts {
        Some(hosts) => format!(" (a body {hosts} hosts serve)"),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "\n**{number}.** {} — in {}{served}: robot {}, path {}, {} probe: the reference says {}, the adapter {}.\n",
        cell(&s.signature),
        code(&e.file),
        code(&e.agent),
        code(&e.path),
        e.probe.as_str(),
        cell(&e.reference),
        cell(&e.adapter)
    );
    for line in &e.lines {
        let _ = writeln!(out, "    {}", shown_line(line));
    }
    if !e.lines.is_empty() {
        out.push('\n');
    }
    if !e.adapter_lines {
        out.push_str(
            "(The reference's deciding lines only: the adapter could not be asked which lines its \
             verdict rests on, or the file is too large to ask about.)\n\n",
        );
    }
    let _ = writeln!(out, "Reference: {}", cell(&e.explanation));
    if let Some(r) = &e.reduced {
        let _ = writeln!(
            out,
            "\nReduced (the same two verdicts): robot {}, path {}\n",
            code(&r.agent),
            code(&r.path)
        );
        for line in &r.robots {
            let _ = writeln!(out, "    {}", shown_line(line));
        }
    }
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// `text` as a Markdown code span, whatever backticks it holds, its controls and line breaks
/// shown visibly (a file's name may hold an ESC or a line feed).
fn code(text: &str) -> String {
    md_code(text)
}
