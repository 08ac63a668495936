//! Reading results files: both shapes, and the file's words kept exactly but shown visibly.

use std::path::PathBuf;

use robotstxt_reference::Verdict;
use robotstxt_results::{load, ResultsLoadError};
use robotstxt_suite::run::Outcome;

fn file(dir: &tempfile::TempDir, text: &str) -> PathBuf {
    let path = dir.path().join("results.json");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_run_reads_with_its_words_shown_visibly() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(
        &dir,
        r#"{"adapter": "evil\u001b[2J\nname", "handshake": {"version": "1.0\u202e"},
            "suite_version": "1.0.0\n::error::forged", "corpus_digest": "sha256:0123456789abcdef",
            "results": [{"case": "a/b", "check": 0, "digest": "d0", "actual": "allowed",
                         "outcome": "pass"}]}"#,
    );
    let read = load(&path).unwrap();
    let adapter = &read.adapters[0];
    assert_eq!(adapter.name.raw(), "evil\u{1b}[2J\nname");
    assert_eq!(adapter.name.to_string(), "evil␛[2J\nname");
    assert_eq!(adapter.version.to_string(), "1.0<U+202E>");
    assert_eq!(adapter.checks[0].id.raw(), "a/b#0");
    assert_eq!(adapter.checks[0].answer.verdict, Some(Verdict::Allowed));
    assert!(read.adapter("evil\u{1b}[2J\nname").is_some());
    assert_eq!(
        read.corpus_shown(),
        "suite 1.0.0␊::error::forged, corpus sha256:0123456789ab"
    );
}

#[test]
fn a_report_reads_its_adapters_digests_and_crawlers() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(
        &dir,
        r#"{"schema": 1, "date": "2026-11-28T00:00:00Z", "suite_version": "1.0.0",
            "cases": [{"checks": [{"id": "a/b#0", "digest": "d0"}]}],
            "adapters": [{"name": "p", "handshake": {"version": "2"}, "has_data": true,
                "checks": [{"id": "a/b#0", "answer": "disallowed",
                            "outcome": {"claimed": "fail", "rfc9309": "fail"}}]}],
            "crawlers": [{"results_name": "crawler-c", "has_data": true,
                "checks": [{"id": "x#0", "outcome": {"claimed": "fault"}}]}]}"#,
    );
    let read = load(&path).unwrap();
    assert_eq!(read.date.as_ref().unwrap().raw(), "2026-11-28T00:00:00Z");
    let p = read.adapter("p").unwrap();
    assert_eq!(p.checks[0].digest.as_deref(), Some("d0"));
    assert_eq!(p.checks[0].answer.outcome, Outcome::Fail);
    assert_eq!(p.score(), Some(0.0));
    let crawler = read.adapter("crawler-c").unwrap();
    assert_eq!(crawler.checks[0].answer.outcome, Outcome::Crash);
    assert_eq!(crawler.version.raw(), "");
}

#[test]
fn a_refusal_names_the_file_and_shows_its_words_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(
        &dir,
        r#"{"schema": 1, "cases": [], "adapters": [],
            "crawlers": [{"results_name": "c\n::warning::x", "has_data": true,
                "checks": [{"id": "x#0", "outcome": {"claimed": "maybe"}}]}]}"#,
    );
    let error = load(&path).unwrap_err();
    assert!(matches!(error, ResultsLoadError::Shape { line: 1, .. }));
    let text = error.to_string();
    assert!(text.contains("results.json:1:"), "{text}");
    assert!(text.contains("crawler `c␊::warning::x`"), "{text}");
    let neither = load(&file(&dir, "{}")).unwrap_err().to_string();
    assert!(neither.contains("neither a report"), "{neither}");
    let forged = dir.path().join("x\n::error::y.json");
    std::fs::write(&forged, "[]").unwrap();
    let named = load(&forged).unwrap_err().to_string();
    assert!(named.contains("x␊::error::y.json:1:"), "{named}");
}
