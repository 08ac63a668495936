//! The crawl mode against small crawlers of known behaviour (`fixtures/fake_crawler.py`): an
//! obedient one passes every scored check, broken ones fail where they are broken, one that
//! fetches nothing is no data, and hostile ones are stopped and leave nothing behind.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use robotstxt_crawl::case::{self, AccessCase};
use robotstxt_crawl::command::CommandTemplate;
use robotstxt_crawl::process::any_marked_left;
use robotstxt_crawl::runner::{run_crawler, CrawlerRun, CrawlerUnderTest};
use robotstxt_crawl::score::AccessOutcome;
use robotstxt_crawl::session::{CaseBounds, CaseFault};
use robotstxt_reference::Profile;

fn access_cases() -> Vec<AccessCase> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/access");
    case::load(&root).expect("the access cases load")
}

fn fake(mode: &str) -> CommandTemplate {
    let script: PathBuf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_crawler.py");
    CommandTemplate::Argv(vec![
        "python3".into(),
        script.to_string_lossy().into_owned(),
        mode.into(),
        "{url}".into(),
        "{agent}".into(),
        "{timeout}".into(),
    ])
}

fn bounds() -> CaseBounds {
    CaseBounds {
        request_timeout: 1,
        case_limit: Duration::from_secs(20),
        max_requests: 100,
    }
}

/// One crawler at a time: "no marked process left" must not see another test's crawler.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn run(mode: &str, profile: Profile, cases: &[AccessCase], bounds: CaseBounds) -> CrawlerRun {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let crawler = CrawlerUnderTest {
        name: mode.into(),
        profile,
        command: fake(mode),
        departures: Vec::new(),
    };
    let result = run_crawler(&crawler, cases, bounds, 6, &|_| {});
    assert!(
        !any_marked_left(),
        "{mode}: a crawler process was left running"
    );
    result
}

/// Every check id not passed, with what was seen.
fn failures(run: &CrawlerRun) -> Vec<String> {
    (run.cases.iter())
        .flat_map(|c| &c.checks)
        .filter(|c| c.outcome.is_failure())
        .map(|c| format!("{} {}: {}", c.id, c.target, c.observed))
        .collect()
}

fn failed_cases(run: &CrawlerRun) -> Vec<&str> {
    (run.cases.iter())
        .filter(|c| c.checks.iter().any(|k| k.outcome.is_failure()))
        .map(|c| c.case_id.as_str())
        .collect()
}

#[test]
fn an_obedient_crawler_passes_every_scored_check_under_both_profiles() {
    let cases = access_cases();
    for profile in Profile::ALL {
        let run = run("obedient", *profile, &cases, bounds());
        let counts = run.counts();
        assert_eq!(failures(&run), Vec::<String>::new(), "{}", profile.name());
        assert_eq!(counts.cases_with_data, cases.len(), "{}", profile.name());
        assert!(counts.pass >= 15, "{counts:?}");
        assert!(
            run.cases.iter().all(|c| c.faults.is_empty()),
            "{:?}",
            run.cases
        );
    }
}

#[test]
fn a_crawler_allowing_all_on_5xx_fails_the_5xx_reset_and_stall_cases() {
    let run = run("allow-on-5xx", Profile::Rfc9309, &access_cases(), bounds());
    let failed = failed_cases(&run);
    for case in [
        "access/status/server-error-500-html",
        "access/status/unavailable-503-rules",
        "access/faults/reset-before-status",
        "access/faults/closed-mid-body",
        "access/faults/stall-past-the-timeout",
    ] {
        assert!(failed.contains(&case), "{case} not failed: {failed:?}");
    }
    assert!(
        !failed.contains(&"access/status/success-rules-obeyed"),
        "{failed:?}"
    );
}

#[test]
fn a_crawler_that_never_reads_robots_txt_fails() {
    let run = run(
        "no-robots",
        Profile::Norobots1994,
        &access_cases(),
        bounds(),
    );
    let failed = failed_cases(&run);
    assert!(
        failed.contains(&"access/status/success-rules-obeyed"),
        "{failed:?}"
    );
    assert!(
        failed.contains(&"access/authorities/robots-txt-per-authority"),
        "{failed:?}"
    );
}

#[test]
fn a_crawler_that_fetches_nothing_is_no_data_never_a_pass() {
    let run = run("nothing", Profile::Rfc9309, &access_cases(), bounds());
    assert!(run.has_no_data());
    let counts = run.counts();
    assert_eq!(
        (counts.pass, counts.fail, counts.fault),
        (0, 0, 0),
        "{counts:?}"
    );
    assert!(counts.no_data > 0);
}

fn one_case(id: &str) -> Vec<AccessCase> {
    access_cases().into_iter().filter(|c| c.id == id).collect()
}

fn faults(run: &CrawlerRun) -> Vec<CaseFault> {
    run.cases.iter().flat_map(|c| c.faults.clone()).collect()
}

/// Every authority the crawler reached (each logged `host:port`) is closed now: the case's site
/// left no port open behind it.
fn assert_ports_closed(run: &CrawlerRun) {
    let hosts: std::collections::BTreeSet<&str> = (run.cases.iter())
        .flat_map(|c| &c.log)
        .map(|r| r.host.as_str())
        .collect();
    assert!(!hosts.is_empty(), "the crawler reached no authority");
    for host in hosts {
        let address = host.parse().unwrap_or_else(|e| panic!("{host}: {e}"));
        let refused = TcpStream::connect_timeout(&address, Duration::from_millis(500)).is_err();
        assert!(refused, "{host} still accepts connections");
    }
}

#[test]
fn a_hanging_crawler_is_stopped_at_the_limit_and_its_ports_are_closed() {
    let cases = one_case("access/status/success-rules-obeyed");
    // Long enough for a Python to start and fetch the seed on a loaded machine.
    let tight = CaseBounds {
        case_limit: Duration::from_secs(6),
        ..bounds()
    };
    let run = run("hang", Profile::Rfc9309, &cases, tight);
    assert_eq!(faults(&run), [CaseFault::Timeout { seconds: 6 }]);
    assert!(run.cases[0].seconds < 10.0, "{}", run.cases[0].seconds);
    // The seed was fetched, so the site's home was listening: it is closed now.
    assert_ports_closed(&run);
}

#[test]
fn a_flooding_crawler_is_stopped_as_a_fault() {
    let cases = one_case("access/status/success-rules-obeyed");
    let run = run("flood", Profile::Rfc9309, &cases, bounds());
    assert_eq!(faults(&run), [CaseFault::Flood { requests: 100 }]);
    assert_eq!(run.cases[0].log.len(), 100);
    assert_ports_closed(&run);
    assert!(run.cases[0]
        .checks
        .iter()
        .any(|c| c.outcome == AccessOutcome::Fault));
}

#[test]
fn a_forking_crawler_has_its_detached_child_killed_and_recorded() {
    let cases = one_case("access/status/success-rules-obeyed");
    let run = run("fork", Profile::Rfc9309, &cases, bounds());
    assert_eq!(faults(&run), [CaseFault::LeftBehind { processes: 1 }]);
    assert_ports_closed(&run);
}

#[test]
fn a_crawler_exiting_part_way_is_a_fault_with_no_data() {
    let cases = one_case("access/status/success-rules-obeyed");
    let run = run("part-way", Profile::Rfc9309, &cases, bounds());
    assert!(
        matches!(faults(&run)[..], [CaseFault::ExitedPartWay { .. }]),
        "{:?}",
        faults(&run)
    );
    assert!(run.has_no_data());
    assert_ports_closed(&run);
}

#[test]
fn crawlers_run_side_by_side_keep_their_own_results_in_case_order() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let cases = access_cases();
    let crawler = |mode: &str| CrawlerUnderTest {
        name: mode.into(),
        profile: Profile::Rfc9309,
        command: fake(mode),
        departures: Vec::new(),
    };
    let crawlers = [crawler("obedient"), crawler("allow-on-5xx")];
    let runs = robotstxt_crawl::runner::run_crawlers(&crawlers, &cases, bounds(), 12, &|_, _| {});
    assert!(!any_marked_left(), "a crawler process was left running");
    assert_eq!(runs.len(), 2);
    for (run, crawler) in runs.iter().zip(&crawlers) {
        assert_eq!(run.crawler, crawler.name);
        let order: Vec<&str> = run.cases.iter().map(|c| c.case_id.as_str()).collect();
        let expected: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(order, expected);
    }
    assert!(failures(&runs[0]).is_empty(), "{:?}", failures(&runs[0]));
    assert!(failed_cases(&runs[1]).contains(&"access/status/unavailable-503-rules"));
}
