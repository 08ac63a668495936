//! JUnit XML for CI systems (`run --format junit`): one `<testsuite>` per adapter, one
//! `<testcase>` per check, named by its check id (`line-endings/cr-only#0`) and classed by
//! `<adapter>.<group>` so CI tools group them by topic.
//!
//! Without an expectation file, a failed check is a `<failure>`, a rejected body, crash, timeout
//! or protocol error an `<error>`, and an unscored or skipped check `<skipped>`. With one, only
//! what breaks the gate is a `<failure>` (regressions; unexpected passes under `--strict`);
//! checks failing as listed are `<skipped>` with the listed reason, so the CI shows them as known.
//!
//! An adapter that could not start, or broke down part way, is one `<error>` carrying why (its
//! stderr tail, and what to try): the checks it never answered are `<skipped>`, never failures.
//!
//! Every string is escaped with [`markup::xml`](robotstxt_runtime::markup::xml), which also keeps characters
//! XML 1.0 forbids (adapters' error messages hold any bytes) out of the document.

use std::fmt::Write as _;

use robotstxt_suite::blocks::failure_block;
use robotstxt_suite::cases::Case;
use robotstxt_suite::expectations::gate::Status;
use robotstxt_suite::run::Outcome;
use robotstxt_suite::visible::Outside;

use crate::output::{regressions, EngineRun};
use robotstxt_runtime::markup::xml;

/// How one testcase is reported.
enum Verdict {
    Ok(Option<String>),
    Failure { kind: String, message: String },
    Error { kind: String, message: String },
    Skipped(String),
}

/// The whole document for every engine's run.
pub fn document(runs: &[EngineRun<'_>], cases: &[Case], strict: bool) -> String {
    let mut suites = String::new();
    let mut totals = [0usize; 4];
    for run in runs {
        let (suite, counts) = testsuite(run, cases, strict);
        suites.push_str(&suite);
        for (total, count) in totals.iter_mut().zip(counts) {
            *total += count;
        }
    }
    let [tests, failures, errors, skipped] = totals;
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"robotstxt-test\" \
         tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\">\n\
         {suites}</testsuites>\n"
    )
}

/// One engine's `<testsuite>` and its counts (tests, failures, errors, skipped).
fn testsuite(run: &EngineRun<'_>, cases: &[Case], strict: bool) -> (String, [usize; 4]) {
    let h = run.handshake;
    let mut cases_xml = String::new();
    let mut counts = [run.results.len(), 0, 0, 0];
    // An adapter that never answered is one error, carrying why (a crash's stderr included), not
    // a suite of skipped checks that a CI dashboard would show as green.
    let results = if run.never_answered() {
        counts = [1, 0, 1, 0];
        let why = run.unavailable.map(Outside::raw).unwrap_or_default();
        let _ = writeln!(
            cases_xml,
            "    <testcase name=\"start\" classname=\"{}\">\n      <error type=\"unavailable\" \
             message=\"{}\">{}</error>\n    </testcase>",
            xml(h.name.raw()),
            xml(why.lines().next().unwrap_or_default()),
            xml(why)
        );
        &[][..]
    } else {
        run.results
    };
    // An adapter that broke down part way is one error too, as at start: the checks from the
    // breakdown on are skipped, never failures (nothing is known about them).
    let broke_down_at = run.broke_down_at();
    if let Some(start) = broke_down_at {
        counts[0] += 1;
        counts[2] += 1;
        let why = run.unavailable.map(Outside::raw).unwrap_or_default();
        let hint = run.check_hint.map(|h| format!("\n{h}")).unwrap_or_default();
        let _ = writeln!(
            cases_xml,
            "    <testcase name=\"breakdown\" classname=\"{}\">\n      <error type=\"breakdown\" \
             message=\"{}\">{}</error>\n    </testcase>",
            xml(h.name.raw()),
            xml(&format!(
                "broke down part way, at {}: {}",
                cases[run.results[start].case].id,
                why.lines().next().unwrap_or_default()
            )),
            xml(&format!("{why}{hint}"))
        );
    }
    for (i, result) in results.iter().enumerate() {
        let case = &cases[result.case];
        let verdict = match run.gate {
            _ if broke_down_at.is_some_and(|start| i >= start) => Verdict::Skipped(format!(
                "not asked: {} broke down part way (see the breakdown's error)",
                h.name
            )),
            Some((expectations, judged)) => {
                gated_verdict(run, case, i, expectations, judged.statuses[i], strict)
            }
            None => plain_verdict(case, result),
        };
        let _ = write!(
            cases_xml,
            "    <testcase name=\"{}\" classname=\"{}\">",
            xml(&format!("{}#{}", case.id, result.check)),
            xml(&format!("{}.{}", h.name, case.group)),
        );
        match verdict {
            Verdict::Ok(None) => {}
            Verdict::Ok(Some(note)) => {
                let _ = write!(cases_xml, "<system-out>{}</system-out>", xml(&note));
            }
            Verdict::Failure { kind, message } => {
                counts[1] += 1;
                let body = failure_block(case, result);
                let _ = write!(
                    cases_xml,
                    "\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    ",
                    xml(&kind),
                    xml(&message),
                    xml(&body)
                );
            }
            Verdict::Error { kind, message } => {
                counts[2] += 1;
                let body = failure_block(case, result);
                let _ = write!(
                    cases_xml,
                    "\n      <error type=\"{}\" message=\"{}\">{}</error>\n    ",
                    xml(&kind),
                    xml(&message),
                    xml(&body)
                );
            }
            Verdict::Skipped(message) => {
                counts[3] += 1;
                let _ = write!(cases_xml, "<skipped message=\"{}\"/>", xml(&message));
            }
        }
        cases_xml.push_str("</testcase>\n");
    }
    let mut properties = String::new();
    for (name, value) in [
        ("parser", h.parser.raw()),
        ("version", h.version.raw()),
        ("language", h.language.raw()),
        ("homepage", h.homepage.raw()),
        ("profile", h.profile.raw()),
        ("score", &run.headline.label()),
        ("suite-version", &run.headline.suite_version),
        ("citation", &run.headline.citation()),
    ] {
        let _ = writeln!(
            properties,
            "      <property name=\"{name}\" value=\"{}\"/>",
            xml(value)
        );
    }
    if let Some(why) = run.unavailable {
        let _ = writeln!(
            properties,
            "      <property name=\"unavailable\" value=\"{}\"/>",
            xml(why.raw())
        );
    }
    // The regressions counted by group, one property each, largest first.
    if let Some((_, judged)) = run.gate {
        for group in regressions::groups(judged, cases, run.results) {
            let _ = writeln!(
                properties,
                "      <property name=\"regressions: {}\" value=\"{}\"/>",
                xml(group.cause.label()),
                group.members.len()
            );
        }
    }
    if let Some((expectations, _)) = run.gate {
        let _ = writeln!(
            properties,
            "      <property name=\"expectations\" value=\"{}\"/>",
            xml(&expectations.file.display().to_string())
        );
    }
    let suite = format!(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">\n    \
         <properties>\n{properties}    </properties>\n{cases_xml}  </testsuite>\n",
        xml(h.name.raw()),
        counts[0],
        counts[1],
        counts[2],
        counts[3]
    );
    (suite, counts)
}

fn plain_verdict(case: &Case, result: &robotstxt_suite::run::CheckResult) -> Verdict {
    let expected = result
        .expected
        .map_or_else(|| "nothing".to_owned(), |e| e.to_string());
    let profile = result.scored_under.map_or("no profile", |p| p.name());
    match result.outcome {
        Outcome::Pass => Verdict::Ok(None),
        Outcome::Fail => Verdict::Failure {
            kind: "fail".to_owned(),
            message: format!(
                "{}: expected {expected} under {profile}, got {}",
                case.id,
                result.actual.map_or("nothing", |v| v.as_str())
            ),
        },
        Outcome::Unspecified => Verdict::Skipped(format!("unspecified under {profile}")),
        Outcome::Skipped => Verdict::Skipped(result.detail.clone().unwrap_or_default().to_string()),
        other => Verdict::Error {
            kind: other.to_string(),
            message: format!("{other}: {}", first_line(result.detail.as_ref())),
        },
    }
}

fn gated_verdict(
    run: &EngineRun<'_>,
    case: &Case,
    index: usize,
    expectations: &robotstxt_suite::expectations::ExpectationFile,
    status: Status,
    strict: bool,
) -> Verdict {
    let result = &run.results[index];
    match status {
        Status::Pass => Verdict::Ok(None),
        Status::NotScored => plain_verdict(case, result),
        Status::AsListed(entry) => {
            let entry = &expectations.entries[entry];
            Verdict::Skipped(format!(
                "expected {}: {}",
                entry.outcome,
                entry.reason.trim()
            ))
        }
        Status::Regression(listed) => {
            let was = listed.map_or_else(
                || "not listed".to_owned(),
                |e| format!("listed as {}", expectations.entries[e].outcome),
            );
            let group = robotstxt_suite::cause::of_result(case, result);
            Verdict::Failure {
                kind: "regression".to_owned(),
                message: format!("regression: {} ({was}); group: {group}", result.outcome),
            }
        }
        Status::Unstable(_) => Verdict::Failure {
            kind: "unstable".to_owned(),
            message: format!("unstable: {}", first_line(result.detail.as_ref())),
        },
        Status::BrokeDown => Verdict::Skipped(format!(
            "not judged: {} broke down, and this check was not answered (see the breakdown's \
             error)",
            run.handshake.name
        )),
        Status::UnexpectedPass(entry) => {
            let entry = &expectations.entries[entry];
            let message = format!(
                "unexpected pass: listed as {} ({}), now {}",
                entry.outcome,
                entry.reason.trim(),
                result.outcome
            );
            if strict {
                Verdict::Failure {
                    kind: "unexpected-pass".to_owned(),
                    message,
                }
            } else {
                Verdict::Ok(Some(message))
            }
        }
    }
}

/// The first line of outside text that is not blank, made visible.
fn first_line(text: Option<&Outside>) -> String {
    let shown = text.map(Outside::to_string).unwrap_or_default();
    let line = shown.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    line.to_owned()
}
