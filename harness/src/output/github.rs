//! `run --format github`: GitHub Actions workflow commands, one per problem, so that each shows
//! as an annotation on the pull request.
//!
//! With expectations, a regression is annotated on the expectation file, at the line of its
//! entry when it has one: that file is in the parser author's repository (the corpus is not), so
//! the annotation lands on a line of the pull request, the entry the author edits to accept a
//! change. A regression no entry lists is annotated on the file as a whole. Without
//! expectations, each failed check is an error with no file.

use std::fmt::Write as _;

use crate::grouping;
use robotstxt_suite::cases::Case;
use robotstxt_suite::expectations::gate::Status;
use robotstxt_suite::run::CheckResult;

use super::{regressions, EngineRun};

/// GitHub shows at most this many annotations of one level per step: beyond it, the last one
/// shown counts the rest, which the job summary (`--format markdown`) lists.
pub const MAX_PER_LEVEL: usize = 10;

/// One workflow command before it is written.
struct Annotation {
    level: &'static str,
    file: Option<String>,
    line: Option<usize>,
    message: String,
}

/// The annotations of every run (a gate's regressions one per group, with its count; at most
/// [`MAX_PER_LEVEL`] of each level), then each run's summary and its groups as plain text.
pub fn annotations(runs: &[EngineRun<'_>], cases: &[Case], strict: bool) -> String {
    let mut found: Vec<Annotation> = Vec::new();
    let mut text = String::new();
    for run in runs {
        let name = &run.handshake.name;
        if run.never_answered() {
            let why = run
                .unavailable
                .map_or(std::borrow::Cow::Borrowed("no answer"), |why| why.shown());
            found.push(Annotation {
                level: "error",
                file: None,
                line: None,
                message: format!("{name}: unavailable: {why}"),
            });
            continue;
        }
        match run.gate {
            Some((expectations, judged)) => {
                let file = expectations.file.display().to_string();
                let groups = regressions::groups(judged, cases, run.results);
                for group in &groups {
                    let first = group.members[0];
                    let r = &run.results[first];
                    let id = regressions::check_id(cases, r);
                    let listed = match judged.statuses[first] {
                        Status::Regression(Some(e)) => Some(&expectations.entries[e]),
                        _ => None,
                    };
                    let example = match listed {
                        Some(e) => format!("{id}: listed as {}, now {}", e.outcome, shown(r)),
                        None => format!(
                            "{id}: {} (expected {}), and no entry lists it",
                            shown(r),
                            expected(r)
                        ),
                    };
                    found.push(Annotation {
                        level: "error",
                        file: Some(file.clone()),
                        line: listed.and_then(|e| e.line),
                        message: format!("{name}: {}; e.g. {example}", group.counted()),
                    });
                }
                for (status, r) in judged.statuses.iter().zip(run.results) {
                    let id = regressions::check_id(cases, r);
                    let (level, entry, message) = match status {
                        Status::Unstable(i) => (
                            "warning",
                            i.map(|i| &expectations.entries[i]),
                            format!(
                                "{name}: {id} answered differently when asked again: {}",
                                shown(r)
                            ),
                        ),
                        Status::UnexpectedPass(i) => (
                            if strict { "error" } else { "notice" },
                            Some(&expectations.entries[*i]),
                            format!(
                                "{name}: {id} is listed as {}, and now {}: remove the entry",
                                expectations.entries[*i].outcome,
                                shown(r)
                            ),
                        ),
                        _ => continue,
                    };
                    found.push(Annotation {
                        level,
                        file: Some(file.clone()),
                        line: entry.and_then(|e| e.line),
                        message,
                    });
                }
                text.push_str(&super::summary_line(run.handshake, run.results));
                text.push('\n');
                text.push_str(&super::score_line(run.headline));
                text.push_str(&regressions::count_lines(&groups, cases, run.results));
            }
            None => {
                let results = run.answered();
                for group in grouping::group(cases, results) {
                    let r = &results[group.representative];
                    found.push(Annotation {
                        level: "error",
                        file: None,
                        line: None,
                        message: format!(
                            "{name}: {}; e.g. {}: {} (expected {})",
                            group.heading(),
                            regressions::check_id(cases, r),
                            shown(r),
                            expected(r)
                        ),
                    });
                }
                text.push_str(&super::summary_line(run.handshake, run.results));
                text.push('\n');
                text.push_str(&super::score_line(run.headline));
            }
        }
    }
    let mut out = String::new();
    for level in ["error", "warning", "notice"] {
        let of_level: Vec<&Annotation> = found.iter().filter(|a| a.level == level).collect();
        let shown_here = if of_level.len() > MAX_PER_LEVEL {
            MAX_PER_LEVEL - 1
        } else {
            of_level.len()
        };
        for a in &of_level[..shown_here] {
            command(&mut out, level, a.file.as_deref(), a.line, &a.message);
        }
        let rest = of_level.len() - shown_here;
        if rest > 0 {
            let message = format!(
                "{rest} more {level}s: GitHub shows {MAX_PER_LEVEL} per step; the job summary \
                 (run --format markdown) lists them"
            );
            command(&mut out, level, None, None, &message);
        }
    }
    out + &text
}

fn shown(r: &CheckResult) -> String {
    match r.actual {
        Some(v) => format!("{} ({v})", r.outcome),
        None => r.outcome.to_string(),
    }
}

fn expected(r: &CheckResult) -> String {
    r.expected
        .map_or_else(|| "unspecified".to_owned(), |e| e.to_string())
}

/// `::level file=F,line=N,title=robotstxt-test::message`, escaped as GitHub reads them.
fn command(out: &mut String, level: &str, file: Option<&str>, line: Option<usize>, message: &str) {
    let mut properties = Vec::new();
    if let Some(file) = file {
        properties.push(format!("file={}", property(file)));
        if let Some(line) = line {
            properties.push(format!("line={line}"));
        }
    }
    properties.push("title=robotstxt-test".to_owned());
    let _ = writeln!(out, "::{level} {}::{}", properties.join(","), data(message));
}

/// A command's message: `%`, CR and LF escaped, so that nothing in it can end the command or
/// start another (an adapter's name or error text is outside text); its controls shown visibly,
/// and a legacy `##[` command written `#\#[`.
fn data(text: &str) -> String {
    robotstxt_suite::visible::shown(text)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value: as [`data`], and `:` and `,` too.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_outside_can_end_or_start_a_command() {
        let mut out = String::new();
        command(
            &mut out,
            "error",
            Some("a,b:c.yaml"),
            Some(7),
            "x\n::error::injected 100%",
        );
        assert_eq!(
            out,
            "::error file=a%2Cb%3Ac.yaml,line=7,title=robotstxt-test::x%0A\\::error::injected 100%25\n"
        );
        let mut out = String::new();
        command(&mut out, "error", None, None, "p##[error]X: \x1b[2J");
        assert_eq!(out, "::error title=robotstxt-test::p#\\#[error]X: ␛[2J\n");
    }
}
