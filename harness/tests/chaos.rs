//! The harness against a misbehaving adapter: every fault is classified, the run completes, no
//! process is left behind, and the cases around the fault are unaffected.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use robotstxt_runtime::adapter::{AdapterProcess, Limits};
use robotstxt_runtime::lifecycle::Lifecycle;
use robotstxt_suite::cases::{load_corpus, Case};
use robotstxt_suite::run::{run_cases, CheckResult, Outcome, Scoring};

fn chaos(mode: &str, limits: Limits) -> AdapterProcess {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adapters/chaos.py");
    let argv = vec![
        "python3".into(),
        script.to_string_lossy().into_owned(),
        mode.into(),
    ];
    AdapterProcess::start(argv, limits).expect("the chaos adapter starts")
}

fn limits() -> Limits {
    Limits {
        timeout: Duration::from_millis(1500),
        start_timeout: Duration::from_secs(10),
        max_consecutive_faults: 3,
    }
}

/// A corpus of `bodies` (one case each, two checks expecting `allowed`).
fn corpus(bodies: &[&str]) -> (tempfile::TempDir, Vec<Case>) {
    let dir = tempfile::tempdir().unwrap();
    let mut yaml = String::from("cases:\n");
    for (i, body) in bodies.iter().enumerate() {
        yaml.push_str(&format!(
            "  - name: case-{i}\n    spec: test\n    robots: {body:?}\n    checks:\n\
             \x20     - {{ agent: FooBot, path: /a, expect: allowed }}\n\
             \x20     - {{ agent: FooBot, path: /b, expect: allowed }}\n"
        ));
    }
    std::fs::write(dir.path().join("chaos.yaml"), yaml).unwrap();
    let cases = load_corpus(&[PathBuf::from(dir.path())]).unwrap();
    (dir, cases)
}

fn run(mode: &str, bodies: &[&str]) -> Vec<CheckResult> {
    let (_dir, cases) = corpus(bodies);
    let mut engine = chaos(mode, limits());
    let results = run_cases(&cases, &mut engine, Scoring::Claimed(None), &mut |_, _| {});
    drop(engine);
    assert_no_zombies();
    results
}

fn outcomes(results: &[CheckResult]) -> Vec<Outcome> {
    results.iter().map(|r| r.outcome).collect()
}

/// The fault lands on the middle case only; the cases before and after pass.
fn assert_fault_isolated(mode: &str, fault: Outcome) -> Vec<CheckResult> {
    let results = run(mode, &["User-agent: *\n", "FAULT\n", "User-agent: *\n"]);
    assert_eq!(
        outcomes(&results),
        [
            Outcome::Pass,
            Outcome::Pass,
            fault,
            fault,
            Outcome::Pass,
            Outcome::Pass
        ],
        "{mode}: {results:#?}"
    );
    results
}

#[test]
fn hang_is_a_timeout() {
    let started = Instant::now();
    let results = assert_fault_isolated("hang", Outcome::Timeout);
    assert!(results[2]
        .detail
        .as_ref()
        .map(|d| d.raw())
        .unwrap()
        .contains("no answer within 1.5 s"));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the hang held the run up"
    );
}

#[test]
fn crash_mid_batch_is_a_crash_with_stderr() {
    let results = assert_fault_isolated("crash", Outcome::Crash);
    let detail = results[2].detail.as_ref().map(|d| d.raw()).unwrap();
    assert!(detail.contains("exit status: 3"), "{detail}");
    assert!(detail.contains("chaos: committing fault crash"), "{detail}");
}

#[test]
fn garbage_is_a_protocol_error() {
    let results = assert_fault_isolated("garbage", Outcome::ProtocolError);
    assert!(results[2]
        .detail
        .as_ref()
        .map(|d| d.raw())
        .unwrap()
        .contains("not a JSON object"));
}

#[test]
fn wrong_number_of_results_is_a_protocol_error() {
    let results = assert_fault_isolated("wrong-count", Outcome::ProtocolError);
    assert!(results[2]
        .detail
        .as_ref()
        .map(|d| d.raw())
        .unwrap()
        .contains("3 results for 2 queries"));
}

#[test]
fn flood_is_bounded_and_a_fault() {
    // The flood never ends a line: the reader gives up at the line cap (a protocol error) or the
    // timeout fires first; either way memory stays bounded and the run goes on.
    let results = run("flood", &["User-agent: *\n", "FAULT\n", "User-agent: *\n"]);
    assert_eq!(results[0].outcome, Outcome::Pass);
    assert!(
        matches!(
            results[2].outcome,
            Outcome::ProtocolError | Outcome::Timeout
        ),
        "{results:#?}"
    );
    assert_eq!(results[4].outcome, Outcome::Pass);
}

#[test]
fn early_exit_with_status_zero_is_a_crash() {
    let results = assert_fault_isolated("exit0", Outcome::Crash);
    assert!(results[2]
        .detail
        .as_ref()
        .map(|d| d.raw())
        .unwrap()
        .contains("exit status: 0"));
}

#[test]
fn rejection_is_an_error_not_a_fault() {
    let results = assert_fault_isolated("reject", Outcome::Error);
    assert_eq!(
        results[2].detail.as_ref().map(|d| d.raw()),
        Some("ValueError: refused")
    );
}

#[test]
fn a_refused_query_is_a_query_error_and_the_rest_are_answered() {
    let results = run("refuse-query", &["ok", "FAULT", "ok"]);
    assert_eq!(
        outcomes(&results),
        [
            Outcome::Pass,
            Outcome::Pass,
            Outcome::QueryError,
            Outcome::Pass,
            Outcome::Pass,
            Outcome::Pass
        ]
    );
    assert_eq!(
        results[2].detail.as_ref().map(|d| d.raw()),
        Some("InvalidURI: bad URI")
    );
}

#[test]
fn slow_start_is_fine() {
    let results = run("slow-start", &["User-agent: *\n", "User-agent: *\n"]);
    assert_eq!(outcomes(&results), [Outcome::Pass; 4]);
}

#[test]
fn repeated_faults_mark_the_adapter_broken() {
    let bodies = [
        "FAULT\n",
        "FAULT\n",
        "FAULT\n",
        "User-agent: *\n",
        "User-agent: *\n",
    ];
    let (_dir, cases) = corpus(&bodies);
    let mut engine = chaos("crash", limits());
    let results = run_cases(&cases, &mut engine, Scoring::Claimed(None), &mut |_, _| {});
    let crashes = &outcomes(&results)[..6];
    assert_eq!(crashes, [Outcome::Crash; 6]);
    assert_eq!(&outcomes(&results)[6..], [Outcome::Skipped; 4]);
    let why = engine.unavailable().expect("marked broken");
    assert!(
        why.raw().starts_with("3 faults in a row, the last: crash"),
        "{why}"
    );
    drop(engine);
    assert_no_zombies();
}

#[test]
fn an_unknown_profile_in_the_hello_is_a_protocol_error() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adapters/chaos.py");
    let argv = vec![
        "python3".into(),
        script.to_string_lossy().into_owned(),
        "typo-profile".into(),
    ];
    let failure = AdapterProcess::start(argv, limits())
        .err()
        .expect("a hello claiming `rfc-9309` is refused");
    assert_eq!(failure.fault.as_str(), "protocol-error");
    assert!(
        failure
            .detail
            .raw()
            .contains("profile `rfc-9309` is not one of"),
        "{}",
        failure.detail
    );
    assert_no_zombies();
}

#[test]
fn a_command_that_does_not_exist_is_unavailable() {
    let failure = AdapterProcess::start(vec!["/nonexistent/adapter".into()], limits())
        .err()
        .expect("cannot start");
    assert!(failure
        .detail
        .raw()
        .contains("cannot start `/nonexistent/adapter`"));
}

/// No child of this test process is left as a zombie. Tests run in parallel, so another test's
/// child may be a zombie for the instant between its exit and its reaping: only one that stays a
/// zombie for two seconds counts.
fn assert_no_zombies() {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let zombies = zombie_children();
        if zombies.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "zombie children: {zombies:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn zombie_children() -> Vec<String> {
    let me = std::process::id().to_string();
    let mut zombies = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: comm may hold spaces, so split after its closing paren.
        let Some((_, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let fields: Vec<&str> = rest.split(' ').collect();
        if fields.get(1) == Some(&me.as_str()) && fields[0] == "Z" {
            zombies.push(stat);
        }
    }
    zombies
}
