//! `run --format github`: GitHub Actions workflow commands, one per problem, so that each shows
//! as an annotation on the pull request.
//!
//! With expectations, a regression is annotated on the expectation file, at the line of its
//! entry when it has one: that file is in the parser author's repository (the corpus is not), so
//! the annotation lands on a line of the pull request, the entry the author edits to accept a
//! change. A regression no entry lists is annotated on the file as a whole. Without
//! expectations, each failed check is an error with no file.

use std::fmt::Write as _;

use crate::grouping::is_grouped;
use robotstxt_suite::cases::Case;
use robotstxt_suite::expectations::gate::Status;
use robotstxt_suite::run::CheckResult;

use super::EngineRun;

/// The annotations of every run, then each run's summary line as plain text.
pub fn annotations(runs: &[EngineRun<'_>], cases: &[Case], strict: bool) -> String {
    let mut out = String::new();
    for run in runs {
        let name = &run.handshake.name;
        if run.never_answered() {
            let why = run
                .unavailable
                .map_or(std::borrow::Cow::Borrowed("no answer"), |why| why.shown());
            command(
                &mut out,
                "error",
                None,
                None,
                &format!("{name}: unavailable: {why}"),
            );
            continue;
        }
        match run.gate {
            Some((expectations, judged)) => {
                let file = expectations.file.display().to_string();
                for (status, r) in judged.statuses.iter().zip(run.results) {
                    let id = format!("{}#{}", cases[r.case].id, r.check);
                    let entry = |i: &Option<usize>| i.map(|i| &expectations.entries[i]);
                    let (level, entry, message) = match status {
                        Status::Regression(i) => (
                            "error",
                            entry(i),
                            match entry(i) {
                                Some(e) => format!(
                                    "{name}: regression on {id}: listed as {}, now {}",
                                    e.outcome,
                                    shown(r)
                                ),
                                None => format!(
                                    "{name}: regression on {id}: {} (expected {}), and no entry \
                                     lists it",
                                    shown(r),
                                    expected(r)
                                ),
                            },
                        ),
                        Status::Unstable(i) => (
                            "warning",
                            entry(i),
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
                    command(
                        &mut out,
                        level,
                        Some(&file),
                        entry.and_then(|e| e.line),
                        &message,
                    );
                }
            }
            None => {
                for r in run.results.iter().filter(|r| is_grouped(r)) {
                    let id = format!("{}#{}", cases[r.case].id, r.check);
                    let message = format!("{name}: {id}: {} (expected {})", shown(r), expected(r));
                    command(&mut out, "error", None, None, &message);
                }
            }
        }
        out.push_str(&super::summary_line(run.handshake, run.results));
        out.push('\n');
        out.push_str(&super::score_line(run.headline));
    }
    out
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
/// start another (an adapter's name or error text is outside text).
fn data(text: &str) -> String {
    text.replace('%', "%25")
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
            "::error file=a%2Cb%3Ac.yaml,line=7,title=robotstxt-test::x%0A::error::injected 100%25\n"
        );
    }
}
