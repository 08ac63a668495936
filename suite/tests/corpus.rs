//! `cargo test` for the case corpus: one test per case id, run against the reference under every
//! profile, plus generated cases too large to store. Filter as usual: `cargo test -- line-endings/`.

use std::path::PathBuf;

use libtest_mimic::{Arguments, Failed, Trial};
use robotstxt_reference::Profile;
use robotstxt_reference::Verdict::{self, Allowed, Disallowed};
use robotstxt_suite::blocks::failure_block;
use robotstxt_suite::cases::{load_corpus, Case, Check, Expected};
use robotstxt_suite::engine::ReferenceEngine;
use robotstxt_suite::readings::Readings;
use robotstxt_suite::run::{run_case, Outcome, Scoring};
use robotstxt_suite::spec::Spec;

fn main() {
    let args = Arguments::from_args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../cases");
    let mut trials = match load_corpus(&[root]) {
        Ok(cases) => cases.into_iter().map(trial).collect(),
        Err(errors) => {
            let message: Vec<String> = errors.iter().map(ToString::to_string).collect();
            vec![Trial::test("corpus/load", move || {
                Err(Failed::from(message.join("\n")))
            })]
        }
    };
    trials.extend(generated_cases().into_iter().map(trial));
    libtest_mimic::run(&args, trials).exit();
}

/// A test that runs every check of `case` under every profile; unspecified checks run too.
fn trial(case: Case) -> Trial {
    Trial::test(case.id.clone(), move || {
        let mut report = String::new();
        for &profile in Profile::ALL {
            let mut engine = ReferenceEngine::new(profile);
            for result in run_case(0, &case, &mut engine, Scoring::Claimed(Some(profile))) {
                if result.outcome != Outcome::Pass && result.outcome != Outcome::Unspecified {
                    report.push_str(&failure_block(&case, &result));
                    report.push('\n');
                }
            }
        }
        if report.is_empty() {
            Ok(())
        } else {
            Err(Failed::from(report))
        }
    })
}

/// Cases built here rather than stored: bodies over 1 MiB.
fn generated_cases() -> Vec<Case> {
    let check = |agent: &str, path: &str, verdict: Verdict| Check {
        agent: agent.to_owned(),
        path: path.to_owned(),
        expect: Expected::Same(verdict),
        readings: Readings::NONE,
        reported: None,
    };
    // 2 MiB of filler Disallow lines in one record; the line that matters comes last.
    let mut long_record = b"User-agent: *\n".to_vec();
    while long_record.len() < 2 << 20 {
        long_record.extend_from_slice(b"Disallow: /filler/0123456789/abcdefghij\n");
    }
    long_record.extend_from_slice(b"Disallow: /last\n");
    // A single 1.5 MiB line: a Disallow value that long is still a prefix like any other.
    let mut long_line = b"User-agent: *\nDisallow: /".to_vec();
    long_line.extend(std::iter::repeat_n(b'a', 3 << 19));
    long_line.extend_from_slice(b"\n");
    let long_path = format!("/{}", "a".repeat(3 << 19));
    vec![
        generated(
            "large-body-last-line-counts",
            "Disallow: \"any URL that starts with this value will not be retrieved\"",
            long_record,
            vec![
                check("FooBot", "/last/x", Disallowed),
                check("FooBot", "/filler/0123456789/abcdefghij/x", Disallowed),
                check("FooBot", "/other", Allowed),
            ],
        ),
        generated(
            "very-long-line",
            "Disallow: \"any URL that starts with this value will not be retrieved\"",
            long_line,
            vec![
                check("FooBot", &long_path, Disallowed),
                check("FooBot", "/aaaa", Allowed),
            ],
        ),
    ]
}

fn generated(name: &str, spec: &str, robots: Vec<u8>, checks: Vec<Check>) -> Case {
    Case {
        id: format!("generated/{name}"),
        group: "generated".to_owned(),
        name: name.to_owned(),
        spec: spec.into(),
        clauses: Spec::Same(spec.to_owned()),
        note: Some("built by suite/tests/corpus.rs".into()),
        reported: None,
        robots,
        checks,
        file: PathBuf::from(file!()),
    }
}
