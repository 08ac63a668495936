//! Every adapter this machine can run, over a small corpus: each one answers every case, and a few
//! known differences between parsers show up where they should. Adapters whose interpreter is
//! missing here are named and left out (CI installs them all).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use robotstxt_runtime::adapter::{self, Availability, Limits};
use robotstxt_suite::cases::{load_corpus, Case};
use robotstxt_suite::engine::ClaimedProfile;
use robotstxt_suite::run::{run_cases, Outcome, Scoring};

const CORPUS: &str = r#"cases:
  - name: plain
    spec: test
    robots: "User-agent: *\nDisallow: /tmp/\n"
    checks:
      - { agent: FooBot, path: /tmp/x, expect: disallowed }
      - { agent: FooBot, path: /x, expect: allowed }
  - name: cr-only
    spec: test
    robots: "User-agent: *\rDisallow: /private\r"
    checks:
      - { agent: FooBot, path: /private/x, expect: disallowed }
      - { agent: FooBot, path: /public, expect: allowed }
  - name: allow-line
    spec: test
    robots: "User-agent: *\nAllow: /public\nDisallow: /\n"
    checks:
      - { agent: FooBot, path: /public, expect: { norobots-1994: disallowed, rfc9309: allowed } }
  - name: wildcard
    spec: test
    robots: "User-agent: *\nDisallow: /*.gif$\n"
    checks:
      - { agent: FooBot, path: /a.gif, expect: { norobots-1994: allowed, rfc9309: disallowed } }
"#;

/// Per adapter and case: did every check of the case pass?
fn run_all() -> BTreeMap<String, BTreeMap<String, bool>> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("known.yaml"), CORPUS).unwrap();
    let cases: Vec<Case> = load_corpus(&[PathBuf::from(dir.path())]).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut table = BTreeMap::new();
    for a in adapter::discover(&root.join("adapters"), root).unwrap() {
        if let Availability::Unavailable(why) = adapter::availability(&a) {
            eprintln!("note: {} is not available here ({why}); left out", a.name());
            continue;
        }
        let mut engine = adapter::open(&a, Limits::default(), &mut |line| eprintln!("{line}"));
        assert_eq!(engine.unavailable(), None, "{} did not start", a.name());
        let scoring = Scoring::Claimed(engine.handshake().claimed_profile());
        let results = run_cases(&cases, engine.as_mut(), scoring, &mut |_, _| {});
        for r in &results {
            assert!(
                matches!(r.outcome, Outcome::Pass | Outcome::Fail | Outcome::Error),
                "{} on {}#{}: {:?} {:?}",
                a.name(),
                cases[r.case].id,
                r.check,
                r.outcome,
                r.detail
            );
        }
        let mut passed = BTreeMap::new();
        for case in &cases {
            let index = cases.iter().position(|c| c.id == case.id).unwrap();
            let all = results
                .iter()
                .filter(|r| r.case == index)
                .all(|r| r.outcome == Outcome::Pass);
            passed.insert(case.name.clone(), all);
        }
        table.insert(a.name().to_owned(), passed);
    }
    table
}

#[test]
fn every_adapter_answers_and_known_differences_show() {
    let table = run_all();
    let passes = |adapter: &str, case: &str| table.get(adapter).map(|t| t[case]);
    assert!(
        table.contains_key("reference"),
        "the reference adapter always runs"
    );
    for (adapter, cases) in &table {
        assert!(cases["plain"], "{adapter} fails the plain case: {cases:?}");
    }
    for case in ["plain", "cr-only", "allow-line", "wildcard"] {
        assert_eq!(passes("reference", case), Some(true), "reference on {case}");
    }
    // Parsers without CR-only line endings disagree on the CR-only case.
    for adapter in ["rust-robotparser", "ruby-webrobots"] {
        assert_ne!(
            passes(adapter, "cr-only"),
            Some(true),
            "{adapter} on cr-only"
        );
    }
    assert_ne!(
        passes("python-urllib", "cr-only"),
        Some(false),
        "urllib splits on CR"
    );
    // Parsers claiming RFC 9309 honour Allow lines and wildcards, scored under their profile.
    for adapter in [
        "rust-texting-robots",
        "python-protego",
        "python-google",
        "rust-robotxt",
        "go-grobotstxt",
        "java-crawler-commons",
    ] {
        assert_ne!(
            passes(adapter, "allow-line"),
            Some(false),
            "{adapter} on allow-line"
        );
        assert_ne!(
            passes(adapter, "wildcard"),
            Some(false),
            "{adapter} on wildcard"
        );
    }
    // urllib claims the 1994 text but obeys an Allow line that comes first: it fails the 1994
    // expectation.
    assert_ne!(
        passes("python-urllib", "allow-line"),
        Some(true),
        "urllib on allow-line"
    );
}
