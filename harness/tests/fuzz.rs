//! The fuzzer's reducer, case writer and loop, against engines whose bugs are planted.

use std::time::{Duration, Instant};

use robotstxt_fuzzer::known::Known;
use robotstxt_fuzzer::session::{finding_case, fuzz, Event, Finding, Settings, Stats};
use robotstxt_fuzzer::{reduce, Candidate, EngineJudge, Judgement, Oracle};
use robotstxt_reference::lines::{field_is, lines, LineKind};
use robotstxt_reference::open_points::open_points;
use robotstxt_reference::{Profile, Robots, Verdict};
use robotstxt_suite::cases::{load_corpus, Ruling};
use robotstxt_suite::engine::{Engine, Failure, Handshake, Query, Reply};
use robotstxt_suite::reask::Between;
use robotstxt_suite::run::{run_cases, Outcome, Scoring};

/// A 1994 parser with one planted bug: on a body holding a CR LF, when some Disallow value holds
/// an `x`, every verdict is the reverse of the reference's.
struct Planted {
    handshake: Handshake,
    messages: usize,
    /// Instead of the CR LF bug: compares paths without regard to case.
    case_blind: bool,
}

impl Planted {
    fn new() -> Planted {
        Planted {
            handshake: Handshake {
                name: "planted".into(),
                parser: "planted".into(),
                version: "1.0".into(),
                language: "Rust".into(),
                homepage: Default::default(),
                profile: "norobots-1994".into(),
            },
            messages: 0,
            case_blind: false,
        }
    }
}

fn triggered(body: &[u8]) -> bool {
    body.windows(2).any(|w| w == b"\r\n")
        && lines(body).any(|l| {
            matches!(l.kind, LineKind::Field { name, value }
                if field_is(name, "disallow") && value.contains(&b'x'))
        })
}

impl Engine for Planted {
    fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    fn check(&mut self, _: &str, body: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        self.messages += 1;
        if self.case_blind {
            let lower = body.to_ascii_lowercase();
            let robots = Robots::parse(Profile::Norobots1994, &lower);
            return Ok(Reply::Verdicts(
                queries
                    .iter()
                    .map(
                        |q| match robots.is_allowed(&q.agent, &q.path.to_ascii_lowercase()) {
                            true => Verdict::Allowed,
                            false => Verdict::Disallowed,
                        },
                    )
                    .collect(),
            ));
        }
        let robots = Robots::parse(Profile::Norobots1994, body);
        let flip = triggered(body);
        Ok(Reply::Verdicts(
            queries
                .iter()
                .map(|q| match robots.is_allowed(&q.agent, &q.path) != flip {
                    true => Verdict::Allowed,
                    false => Verdict::Disallowed,
                })
                .collect(),
        ))
    }
}

/// About `size` bytes of settled noise in CR LF, with the planted record in the middle.
fn noisy_document(size: usize) -> Vec<u8> {
    let mut body = String::new();
    let mut i = 0;
    while body.len() < size {
        if body.len() >= size / 2 && !body.contains("FooBot") {
            body.push_str("# the one that matters\r\nUser-agent: FooBot\r\nAllow: /tmp/public\r\n");
            body.push_str("disallow:   /tmp/x  # temporary\r\nCrawl-delay: 5\r\n\r\n");
        }
        body.push_str(&format!(
            "# record {i}\r\nUser-agent: Bot{i}\r\nUSER-AGENT: Other{i}\r\nDisallow: /p{i}/\r\n\
             Allow: /q{i}\r\nDisallow: /cgi-bin/{i}.html\r\nSitemap: http://example.com/s{i}.xml\r\n\r\n"
        ));
        i += 1;
    }
    body.into_bytes()
}

fn reduce_planted(size: usize) -> (Candidate, Duration, usize) {
    let start = Candidate {
        body: noisy_document(size),
        agent: "FooBot/2.1".to_owned(),
        path: "/tmp/x/y.html".to_owned(),
    };
    let mut engine = Planted::new();
    let oracle = Oracle::new(Profile::Norobots1994);
    let began = Instant::now();
    let reduced = {
        let mut judge =
            EngineJudge::new(&mut engine, oracle, Verdict::Disallowed, Verdict::Allowed);
        reduce(start, &mut judge, 50_000)
    };
    (reduced, began.elapsed(), engine.messages)
}

#[test]
fn the_reducer_keeps_the_signature_and_reaches_the_canonical_form() {
    let (reduced, _, _) = reduce_planted(20_000);
    let text = String::from_utf8_lossy(&reduced.body);
    assert!(text.len() < 500, "not reduced: {} bytes", text.len());
    assert_eq!(text, "User-agent: *\nDisallow: /a/x\r\n");
    assert_eq!(
        (reduced.agent.as_str(), reduced.path.as_str()),
        ("FooBot", "/a/x")
    );
    // The signature holds: the reference disallows, the planted parser allows, and it is settled.
    let robots = Robots::parse(Profile::Norobots1994, &reduced.body);
    assert!(!robots.is_allowed(&reduced.agent, &reduced.path));
    assert!(triggered(&reduced.body));
    assert!(open_points(
        Profile::Norobots1994,
        &reduced.body,
        &reduced.agent,
        &reduced.path
    )
    .is_empty());
}

#[test]
fn paths_beyond_ascii_reduce_without_panicking() {
    // The case-blind parser disallows `/universität/x` under `Disallow: /Universität/`; the
    // reducer shortens the path character by character, never inside `ä`.
    let start = Candidate {
        body: "User-agent: FooBot\nDisallow: /Universität/\n"
            .as_bytes()
            .to_vec(),
        agent: "FooBot".to_owned(),
        path: "/universität/x".to_owned(),
    };
    let mut engine = Planted::new();
    engine.case_blind = true;
    let oracle = Oracle::new(Profile::Norobots1994);
    let reduced = {
        let mut judge =
            EngineJudge::new(&mut engine, oracle, Verdict::Allowed, Verdict::Disallowed);
        reduce(start, &mut judge, 5_000)
    };
    let robots = Robots::parse(Profile::Norobots1994, &reduced.body);
    assert!(
        robots.is_allowed(&reduced.agent, &reduced.path),
        "{reduced:?}"
    );
    assert!(reduced.path.len() <= "/universität/x".len(), "{reduced:?}");
}

/// `cargo test --release --test fuzz -- --ignored --nocapture`: the figure in `fuzz/README.md`.
#[test]
#[ignore]
fn benchmark_reducing_100_kb() {
    let (reduced, elapsed, messages) = reduce_planted(100_000);
    println!(
        "100 KB reduced to {} bytes, {} lines, in {:.3} s ({messages} engine messages)",
        reduced.body.len(),
        reduced.body.split(|&b| b == b'\n').count() - 1,
        elapsed.as_secs_f64()
    );
    assert!(reduced.body.len() < 60);
}

#[test]
fn a_finding_case_reproduces_when_run() {
    let (reduced, _, _) = reduce_planted(3_000);
    let engine = Planted::new();
    let case = finding_case(
        &engine.handshake,
        Oracle::new(Profile::Norobots1994),
        &reduced,
        Verdict::Disallowed,
        Verdict::Allowed,
        "Found by a test",
    );
    // Labelled with the cause `run` would group it under, its spec the clause that cause comes
    // from.
    let clause = case
        .cause
        .clause(Profile::Norobots1994)
        .expect("a cause of a body");
    assert_eq!(case.spec, clause.spec());
    assert!(
        case.note.ends_with(&format!("Cause: {}.", case.cause)),
        "{}",
        case.note
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("planted.yaml"), case.to_yaml()).unwrap();
    let cases = load_corpus(&[dir.path().to_owned()]).expect("the case file loads");
    assert_eq!(cases[0].robots, reduced.body);
    assert_eq!(
        cases[0].checks[0].expect.for_profile(Profile::Norobots1994),
        Some(Ruling::Is(Verdict::Disallowed))
    );
    let mut engine = Planted::new();
    let results = run_cases(
        &cases,
        &mut engine,
        Scoring::Claimed(Some(Profile::Norobots1994)),
        &mut |_, _| {},
    );
    assert_eq!(results[0].outcome, Outcome::Fail);
}

/// Fuzzes the case-blind planted parser for 300 documents of seed 3.
fn fuzz_case_blind(known: &mut Known) -> (Vec<Finding>, Stats) {
    let mut engine = Planted::new();
    engine.case_blind = true;
    let settings = Settings {
        seed: 3,
        time: None,
        docs: Some(300),
        budget: 5_000,
    };
    let mut found = Vec::new();
    let stats = fuzz(
        &mut engine,
        Between::in_process(),
        &settings,
        known,
        &mut |e| {
            if let Event::Finding(f) = e {
                found.push(f.clone());
            }
        },
    )
    .unwrap();
    assert_eq!(stats.docs, 300);
    (found, stats)
}

#[test]
fn a_seed_gives_the_same_findings_and_known_ones_are_not_repeated() {
    let run = |known: &mut Known| -> Vec<String> {
        let (found, _) = fuzz_case_blind(known);
        found.iter().map(|f| f.case.to_yaml()).collect()
    };
    let first = run(&mut Known::default());
    assert!(!first.is_empty(), "the planted bug is found");
    assert!(first.iter().all(|yaml| yaml.len() < 2000));
    assert_eq!(first, run(&mut Known::default()));
    // Written to a folder, the same findings are known to the next run.
    let dir = tempfile::tempdir().unwrap();
    for (i, yaml) in first.iter().enumerate() {
        std::fs::write(dir.path().join(format!("{i}.yaml")), yaml).unwrap();
    }
    let mut known = Known::load(&dir.path().join("none.yaml"), &[], dir.path()).unwrap();
    assert!(run(&mut known).is_empty());
}

#[test]
fn a_listed_bug_found_again_under_other_names_is_not_reported() {
    let (unlisted, _) = fuzz_case_blind(&mut Known::default());
    // The corpus has the case-blind bug with other words, cases and bytes than any finding.
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    std::fs::create_dir(&cases).unwrap();
    std::fs::write(
        cases.join("paths.yaml"),
        "cases:\n  - name: case\n    spec: Disallow\n    robots: \"User-agent: *\\r\\nDisallow: /PRIVATE/Files\\r\\n\"\n    checks:\n      - { agent: QuxBot, path: /private/files/x, expect: allowed }\n",
    )
    .unwrap();
    let expectations = dir.path().join("expectations.yaml");
    std::fs::write(
        &expectations,
        "adapter: planted\nexpectations:\n  - check: paths/case#0\n    outcome: fail\n    reason: paths compared without regard to case\n",
    )
    .unwrap();
    let mut known = Known::load(&expectations, &[cases], &dir.path().join("out")).unwrap();
    let (found, stats) = fuzz_case_blind(&mut known);
    assert_eq!(stats.listed_reduced, 1, "the listed check is reduced first");
    assert!(stats.listed > 0, "the run finds the listed bug again");
    assert!(found.len() < unlisted.len(), "{found:#?}");
    for f in &found {
        assert!(
            !known.is_listed(&f.case.case, f.signature.reference),
            "{f:?}"
        );
    }
}

/// One definition of "open": the corpus's `unspecified` marks and the open-point analysis that
/// the fuzzer, `minimize` and the survey use agree on every check of the corpus, both ways. A
/// check the corpus scores is settled for the oracle, and a check it leaves open is open.
#[test]
fn the_oracle_and_the_corpus_call_the_same_checks_open() {
    let cases = load_corpus(&["../cases".into()]).expect("corpus loads");
    let (mut scored, mut open_checks) = (0, 0);
    let mut disagreements = Vec::new();
    for case in &cases {
        for (i, check) in case.checks.iter().enumerate() {
            for &profile in Profile::ALL {
                let open = open_points(profile, &case.robots, &check.agent, &check.path);
                let id = format!("{}#{i} ({profile})", case.id);
                match check.expect.for_profile(profile) {
                    Some(Ruling::Unspecified) if open.is_empty() => {
                        disagreements.push(format!("{id}: unspecified in the corpus, settled"));
                    }
                    Some(Ruling::Is(_)) if !open.is_empty() => {
                        let names: Vec<&str> = open.iter().map(|p| p.name()).collect();
                        disagreements.push(format!(
                            "{id}: scored in the corpus, open for the oracle ({})",
                            names.join(", ")
                        ));
                    }
                    Some(Ruling::Unspecified) => open_checks += 1,
                    Some(Ruling::Is(_)) => scored += 1,
                    None => {}
                }
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} checks:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert!(scored > 3000 && open_checks > 300, "{scored} {open_checks}");
}

/// `minimize` starts from the oracle's judgement of the parser's answer: every check the corpus
/// scores, answered the other way, is a scored disagreement it accepts and reduces (never "not a
/// scored disagreement"), so a parser failing a scored check can always be minimized.
#[test]
fn every_scored_check_answered_wrong_is_a_disagreement_minimize_accepts() {
    let cases = load_corpus(&["../cases".into()]).expect("corpus loads");
    let mut refused = Vec::new();
    let mut accepted = 0;
    for case in &cases {
        for (i, check) in case.checks.iter().enumerate() {
            for &profile in Profile::ALL {
                let Some(Ruling::Is(expected)) = check.expect.for_profile(profile) else {
                    continue;
                };
                let wrong = match expected {
                    Verdict::Allowed => Verdict::Disallowed,
                    Verdict::Disallowed => Verdict::Allowed,
                };
                let query = Query {
                    agent: check.agent.clone(),
                    path: check.path.clone(),
                };
                match Oracle::new(profile).judge_one(&case.robots, &query, wrong) {
                    Judgement::Disagree { reference, theirs } => {
                        assert_eq!((reference, theirs), (expected, wrong), "{}#{i}", case.id);
                        accepted += 1;
                    }
                    other => refused.push(format!("{}#{i} ({profile}): {other:?}", case.id)),
                }
            }
        }
    }
    assert!(refused.is_empty(), "{}", refused.join("\n"));
    assert!(accepted > 3000, "{accepted}");
}
