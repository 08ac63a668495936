//! The page's charts, drawn here as inline SVG (no script, no library): per parser, its score
//! over its own versions, each release step marked with the checks it fixed and broke and
//! linked to that step's diff; and its score over time, one point per report kept under
//! `report --history DIR`.
//!
//! Every text drawn comes from adapters (names, versions) or from files, and goes through
//! [`robotstxt_runtime::markup::html`].

use std::fmt::Write as _;

use crate::diff::ResultsFile;
use robotstxt_runtime::markup::html;

use super::matrix::Cell;
use super::versions::{self, Pair};
use super::Report;

const WIDTH: f64 = 420.0;
const HEIGHT: f64 = 170.0;
const LEFT: f64 = 44.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 26.0;
const BOTTOM: f64 = 34.0;

/// One point: its label on the x axis, its score, and a note drawn above the segment that ends
/// at it (a release step's `+3 −1`, linked to its diff).
struct Point {
    label: String,
    score: f64,
    step: Option<(String, String)>,
}

/// The section of charts, or nothing when there is nothing to draw.
pub fn section(report: &Report, history: &[ResultsFile]) -> String {
    let mut out = String::new();
    let pairs = versions::pairs(report);
    for series in versions::series(report) {
        let points: Vec<Point> = (series.members.iter())
            .filter_map(|&i| {
                let run = &report.adapters[i];
                let score = Cell::of(&run.claimed).percent()?;
                let step = pairs
                    .iter()
                    .find(|p| p.newer == i)
                    .map(|p| step_note(report, p));
                Some(Point {
                    label: run.handshake.version.raw().to_owned(),
                    score,
                    step,
                })
            })
            .collect();
        let title = format!(
            "{} over its versions (adapter {})",
            report.adapters[series.members[0]].handshake.parser, series.name
        );
        out.push_str(&chart(&title, "versions", &points));
    }
    for run in report
        .adapters
        .iter()
        .filter(|a| !a.handshake.name.raw().contains('@'))
    {
        let name = &run.handshake.name;
        let points: Vec<Point> = (history.iter())
            .filter_map(|file| {
                let score = file.adapter(name.raw())?.score()?;
                // The chart escapes what it draws.
                let date = (file.date.as_ref()).map_or("?", |d| d.raw());
                Some(Point {
                    label: date.get(..10).unwrap_or(date).to_owned(),
                    score,
                    step: None,
                })
            })
            .collect();
        if !points.is_empty() {
            out.push_str(&chart(&format!("{name} over time"), "time", &points));
        }
    }
    if out.is_empty() {
        return out;
    }
    format!(
        "<section id=\"trends\"><h2>Scores over versions and over time</h2>\n<p class=\"hint\">\
         Each parser's share of scored checks passed under the profile it claims. Over versions: \
         above each release, the checks it fixed (+) and broke (−) since the one before, linked to \
         the diff. Over time: one point per report kept with <code>report --history</code>.</p>\n\
         <div class=\"charts\">\n{out}</div></section>\n"
    )
}

/// `(+31 −1, diffs/python-protego-0.1.16-0.3.1.md)`.
fn step_note(report: &Report, pair: &Pair) -> (String, String) {
    let (fixed, broken, _) = pair.counts();
    (
        format!("+{fixed} −{broken}"),
        format!("diffs/{}", pair.page(report)),
    )
}

/// One line chart, points evenly spaced, the y axis from a round number below the lowest score
/// to 100%; a series of one point is its score as a number.
fn chart(title: &str, kind: &str, points: &[Point]) -> String {
    if let [only] = points {
        // One point draws no line: the score is shown as a number, with its date or version.
        return format!(
            "<figure class=\"chart single\" data-kind=\"{kind}\" data-points=\"1\">\
             <figcaption>{}</figcaption>\n<p class=\"score\">{:.1}%</p>\
             <p class=\"hint\">{}, the only point so far</p></figure>\n",
            html(title),
            only.score,
            html(&only.label)
        );
    }
    let lowest = points.iter().map(|p| p.score).fold(100.0, f64::min);
    let floor = ((lowest - 1.0) / 5.0).floor().clamp(0.0, 19.0) * 5.0;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |i: usize| {
        if points.len() == 1 {
            LEFT + plot_w / 2.0
        } else {
            LEFT + plot_w * i as f64 / (points.len() - 1) as f64
        }
    };
    let y = |score: f64| TOP + plot_h * (100.0 - score) / (100.0 - floor);
    let mut svg = format!(
        "<figure class=\"chart\" data-kind=\"{kind}\" data-points=\"{}\"><figcaption>{}</figcaption>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{}\">\n",
        points.len(),
        html(title),
        html(title)
    );
    for tick in [floor, (floor + 100.0) / 2.0, 100.0] {
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\">{tick:.0}%</text>",
            WIDTH - RIGHT,
            LEFT - 4.0,
            y(tick) + 3.0,
            y = y(tick)
        );
    }
    let path: Vec<String> = (points.iter().enumerate())
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.score)))
        .collect();
    let _ = writeln!(
        svg,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#2a6fb0\" stroke-width=\"2\"/>",
        path.join(" ")
    );
    for (i, p) in points.iter().enumerate() {
        let (px, py) = (x(i), y(p.score));
        let _ = writeln!(
            svg,
            "<circle class=\"point\" cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"3.5\" fill=\"#2a6fb0\"><title>{}: {:.1}%</title></circle>\
             <text x=\"{px:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">{}</text>",
            html(&p.label),
            p.score,
            HEIGHT - BOTTOM + 14.0,
            html(&p.label)
        );
        if let Some((note, link)) = &p.step {
            let mid = if i > 0 { (x(i - 1) + px) / 2.0 } else { px };
            let _ = writeln!(
                svg,
                "<a class=\"step\" href=\"{}\"><text x=\"{mid:.1}\" y=\"{:.1}\" font-size=\"10\" \
                 text-anchor=\"middle\" fill=\"#0645ad\">{}</text></a>",
                html(link),
                TOP - 8.0,
                html(note)
            );
        }
    }
    svg.push_str("</svg></figure>\n");
    svg
}
