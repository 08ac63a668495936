//! The survey for publishing: `survey.csv`, its rates as data, and `survey.html`, one page with a
//! chart of the disagreement rates per adapter. The page is whole in itself (inline SVG and
//! style, no script, nothing fetched), as the compatibility matrix is.

use std::fmt::Write as _;

use robotstxt_runtime::markup::html;
use robotstxt_suite::visible::shown;

use super::{AdapterSurvey, Survey};
use crate::limits::TOP_CAUSES;

/// The header of `survey.csv`.
pub const CSV_HEADER: &str = "adapter,parser,version,claims,compared_under,files,\
     disagreeing_files,disagreement_rate_percent,open_point_files,differing_files,errors,crashes,\
     timeouts,cause_id,cause,cause_files,cause_checks,cause_rate_percent";

/// `survey.csv`: a row per adapter with `cause_id` `all` (every scored disagreement), then a row
/// per cause of it, most files first. Rates are percentages of the files the adapter answered.
pub fn csv(survey: &Survey) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push_str("\r\n");
    for a in &survey.adapters {
        let h = &a.handshake;
        let head = [
            field(a.adapter.raw()),
            field(h.parser.raw()),
            field(h.version.raw()),
            field(h.profile.raw()),
            field(&a.compared_under),
            a.files.to_string(),
            a.disagreements.files.to_string(),
            rate(a.disagreements.files, a.files),
            a.open_points.files.to_string(),
            a.differing.files.to_string(),
            a.errors.to_string(),
            a.crashes.to_string(),
            a.timeouts.to_string(),
        ]
        .join(",");
        let _ = write!(
            out,
            "{head},all,every scored disagreement,{},{},{}\r\n",
            a.disagreements.files,
            a.disagreements.checks,
            rate(a.disagreements.files, a.files)
        );
        for c in &a.causes {
            let _ = write!(
                out,
                "{head},{},{},{},{},{}\r\n",
                c.cause.id(),
                field(c.cause.label()),
                c.files,
                c.checks,
                rate(c.files, a.files)
            );
        }
    }
    out
}

/// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; a leading
/// `=`, `+`, `-` or `@` is quoted too and prefixed with `'`, so that no spreadsheet reads an
/// adapter's words as a formula.
fn field(text: &str) -> String {
    let text = shown(text);
    let formula = text.starts_with(['=', '+', '-', '@']);
    if !formula && !text.contains([',', '"', '\n', '\r']) {
        return text.into_owned();
    }
    let quote = if formula { "'" } else { "" };
    format!("\"{quote}{}\"", text.replace('"', "\"\""))
}

fn rate(part: usize, whole: usize) -> String {
    if whole == 0 {
        String::new()
    } else {
        format!("{:.2}", 100.0 * part as f64 / whole as f64)
    }
}

/// Width of the chart's bars at 100%, and of the label column, in pixels.
const BAR_WIDTH: usize = 420;
const LABEL_WIDTH: usize = 300;
const ROW_HEIGHT: usize = 22;

/// `survey.html`: the survey's first table as a chart and a table, then each adapter's most
/// common causes with their examples.
pub fn page(survey: &Survey) -> String {
    let mut out = String::new();
    let title = format!("Survey: {}", shown(&survey.corpus));
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        html(&title),
        html(&title)
    );
    let unit = if survey.census.is_some() {
        "distinct bodies"
    } else {
        "files"
    };
    let _ = writeln!(
        out,
        "<p>{} real robots.txt {unit}, each asked probe queries derived from its own text ({} \
         queries in all). Every parser is compared with the reference under the profile it \
         claims (<code>norobots-1994</code> when it claims neither). A <em>scored \
         disagreement</em> is a file where the parser answers otherwise than the profile's text \
         settles; an <em>open point</em> is one where the reference's answer hinges on a point \
         the text leaves open. <code>survey.md</code> explains every column; \
         <code>survey.json</code> and <code>survey.csv</code> hold the data.</p>",
        survey.files, survey.queries
    );
    chart(&mut out, &survey.adapters);
    table(&mut out, &survey.adapters);
    for a in &survey.adapters {
        causes(&mut out, a);
    }
    out.push_str("</body>\n</html>\n");
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;\
padding:0 1rem;color:#222}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid \
#ccc;padding:.2rem .5rem;text-align:right}td:first-child,th:first-child{text-align:left}\
pre{background:#f6f6f6;padding:.5rem;overflow-x:auto}.legend span{display:inline-block;\
width:.8rem;height:.8rem;margin:0 .3rem 0 1rem}";

/// The chart: per adapter, highest rate first, a bar of its scored disagreement rate and, after
/// it, the files that differ on open points only.
fn chart(out: &mut String, adapters: &[AdapterSurvey]) {
    let height = ROW_HEIGHT * adapters.len() + 30;
    let width = LABEL_WIDTH + BAR_WIDTH + 70;
    let _ = writeln!(
        out,
        "<h2>Disagreement rates</h2>\n<p class=\"legend\"><span style=\"background:#c0392b\">\
         </span>scored disagreements<span style=\"background:#f0b27a\"></span>open points only \
         (share of the files answered; each parser against the reference under the profile in \
         brackets: the one it claims, else norobots-1994)</p>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
         role=\"img\" aria-label=\"Share of files on which each parser disagrees with the \
         reference\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-size=\"12\" font-family=\"system-ui,sans-serif\">"
    );
    let axis = adapters.len() * ROW_HEIGHT + 18;
    for tick in [0, 25, 50, 75, 100] {
        let x = LABEL_WIDTH + BAR_WIDTH * tick / 100;
        let _ = writeln!(
            out,
            "<line x1=\"{x}\" x2=\"{x}\" y1=\"0\" y2=\"{}\" stroke=\"#ddd\"/>\
             <text x=\"{x}\" y=\"{axis}\" text-anchor=\"middle\">{tick}%</text>",
            axis - 12
        );
    }
    // Highest rate first; adapters that answered nothing last.
    let mut order: Vec<&AdapterSurvey> = adapters.iter().collect();
    let rate_of = |a: &AdapterSurvey| match a.files {
        0 => -1.0,
        n => a.disagreements.files as f64 / n as f64,
    };
    order.sort_by(|a, b| {
        rate_of(b)
            .total_cmp(&rate_of(a))
            .then_with(|| a.adapter.cmp(&b.adapter))
    });
    for (i, a) in order.into_iter().enumerate() {
        let y = i * ROW_HEIGHT + 4;
        let share = |n: usize| {
            if a.files == 0 {
                0.0
            } else {
                n as f64 / a.files as f64
            }
        };
        let scored = share(a.disagreements.files);
        let open_only = (share(a.differing.files) - scored).max(0.0);
        let scored_width = scored * BAR_WIDTH as f64;
        let open_width = open_only * BAR_WIDTH as f64;
        let label = if a.files == 0 {
            "no file answered".to_owned()
        } else {
            format!("{:.1}%", 100.0 * scored)
        };
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <rect x=\"{LABEL_WIDTH}\" y=\"{y}\" width=\"{scored_width:.1}\" height=\"16\" \
             fill=\"#c0392b\"><title>{}: {} of {} files</title></rect>\
             <rect x=\"{:.1}\" y=\"{y}\" width=\"{open_width:.1}\" height=\"16\" \
             fill=\"#f0b27a\"/>\
             <text x=\"{:.1}\" y=\"{}\">{label}</text>",
            LABEL_WIDTH - 6,
            y + 12,
            html(&format!("{} ({})", a.adapter, a.compared_under)),
            html(a.adapter.raw()),
            a.disagreements.files,
            a.files,
            LABEL_WIDTH as f64 + scored_width,
            LABEL_WIDTH as f64 + scored_width + open_width + 4.0,
            y + 12,
        );
    }
    out.push_str("</svg>\n");
}

fn table(out: &mut String, adapters: &[AdapterSurvey]) {
    out.push_str(
        "<table>\n<tr><th>adapter</th><th>parser</th><th>compared under</th><th>files \
         answered</th><th>scored disagreements: files</th><th>rate</th><th>open points: \
         files</th><th>differing at all: files</th><th>errors</th><th>crashes</th>\
         <th>timeouts</th></tr>\n",
    );
    for a in adapters {
        let h = &a.handshake;
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            html(a.adapter.raw()),
            html(h.parser.raw()),
            html(h.version.raw()),
            html(&a.compared_under),
            a.files,
            a.disagreements.files,
            match rate(a.disagreements.files, a.files).as_str() {
                "" => "–".to_owned(),
                r => format!("{r}%"),
            },
            a.open_points.files,
            a.differing.files,
            a.errors,
            a.crashes,
            a.timeouts
        );
    }
    out.push_str("</table>\n");
}

/// An adapter's most common causes, each with its example's excerpt and reduced case.
fn causes(out: &mut String, a: &AdapterSurvey) {
    let h = &a.handshake;
    let _ = writeln!(
        out,
        "<h2 id=\"{}\">{} <small>({} {}, compared under {})</small></h2>",
        html(a.adapter.raw()),
        html(a.adapter.raw()),
        html(h.parser.raw()),
        html(h.version.raw()),
        html(&a.compared_under)
    );
    if a.causes.is_empty() {
        out.push_str("<p>No scored disagreements.</p>\n");
        return;
    }
    let _ = writeln!(
        out,
        "<p>{} causes of scored disagreements in {} files; the {} most common:</p>\n<ol>",
        a.causes.len(),
        a.disagreements.files,
        a.causes.len().min(TOP_CAUSES)
    );
    for c in a.causes.iter().take(TOP_CAUSES) {
        let Some(s) = c
            .signatures
            .first()
            .and_then(|first| a.signatures.iter().find(|s| &s.signature == first))
        else {
            continue;
        };
        let e = &s.example;
        let _ = writeln!(
            out,
            "<li><p><strong>{}</strong> ({} files, {} checks)<br>in <code>{}</code>: robot \
             <code>{}</code>, path <code>{}</code>: the reference says {}, the adapter {}.</p>\
             \n<pre>{}</pre>\n<p>Reference: {}</p>",
            html(c.cause.label()),
            c.files,
            c.checks,
            html(&shown(&e.file)),
            html(&shown(&e.agent)),
            html(&shown(&e.path)),
            html(&e.reference),
            html(&e.adapter),
            html(&e.lines.join("\n")),
            html(&e.explanation)
        );
        if !e.adapter_lines {
            out.push_str(
                "<p>(The reference's deciding lines only: the adapter could not be asked which \
                 lines its verdict rests on, or the file is too large to ask about.)</p>\n",
            );
        }
        if let Some(r) = &e.reduced {
            let _ = writeln!(
                out,
                "<p>Reduced (the same two verdicts): robot <code>{}</code>, path <code>{}</code></p>\
                 \n<pre>{}</pre>",
                html(&shown(&r.agent)),
                html(&shown(&r.path)),
                html(&r.robots.join("\n"))
            );
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_and_never_formulas() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("=1+1"), "\"'=1+1\"");
        assert_eq!(rate(1, 3), "33.33");
        assert_eq!(rate(1, 0), "");
    }
}
