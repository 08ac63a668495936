//! `report` with crawlers: a crawler folder of the small crawler of known behaviours
//! (`crawl/tests/fixtures/fake_crawler.py`), reported beside the reference; then the same
//! crawler behaving worse, which `diff` of the two `results.json` shows as broken checks; and
//! Ctrl-C while the crawlers run beside the adapters.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use rustix::process::{kill_process, Pid, Signal};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A crawlers folder holding one crawler, `fake`, started in `mode`.
fn crawlers_folder(dir: &Path, mode: &str) -> PathBuf {
    let script = root().join("crawl/tests/fixtures/fake_crawler.py");
    let folder = dir.join(format!("crawlers-{mode}"));
    std::fs::create_dir_all(folder.join("fake")).unwrap();
    let manifest = format!(
        "name: fake\ncrawler: a crawler of known behaviours\nlanguage: Python\n\
         homepage: https://example.invalid/fake\nprofile: rfc9309\n\
         package: {{ name: python3, version: \"{mode}\", registry: stdlib }}\n\
         robots_parser: {{ name: its own }}\nrequires: [python3]\n\
         run: [python3, \"{}\", {mode}, \"{{url}}\", \"{{agent}}\", \"{{timeout}}\"]\n",
        script.display()
    );
    std::fs::write(folder.join("fake/crawler.yaml"), manifest).unwrap();
    folder
}

fn report(crawlers: &Path, out: &Path, history: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .current_dir(root())
        .args(["report", "--adapter", "reference", "--crawler", "fake"])
        .arg("--crawlers")
        .arg(crawlers)
        .arg("--out")
        .arg(out)
        .arg("--history")
        .arg(history)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_report_shows_each_crawler_and_diff_shows_a_crawler_that_got_worse() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history");
    let (good, bad) = (dir.path().join("good"), dir.path().join("bad"));

    let run = report(&crawlers_folder(dir.path(), "obedient"), &good, &history);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let readme = std::fs::read_to_string(good.join("README.md")).unwrap();
    let section = readme
        .split("## Crawlers in the loop")
        .nth(1)
        .expect("a section of crawlers");
    assert!(
        section.contains("| [fake](crawlers/fake.md) |"),
        "{section}"
    );
    assert!(section.contains("| rfc9309 (claimed) |"), "{section}");
    assert!(section.contains("No scored check failed."), "{section}");
    let html = std::fs::read_to_string(good.join("index.html")).unwrap();
    assert!(html.contains("<section id=\"crawlers\">"));
    assert!(!html.contains("<!--CRAWLERS-->"));
    assert!(good.join("crawlers/fake.md").is_file());
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(good.join("results.json")).unwrap()).unwrap();
    let fake = &results["crawlers"][0];
    assert_eq!(fake["results_name"], "crawler-fake");
    assert_eq!(fake["totals"]["claimed"]["failed"], 0);
    assert!(fake["totals"]["claimed"]["passed"].as_u64().unwrap() > 20);
    let checks = fake["checks"].as_array().unwrap();
    let expected: usize = (results["access_cases"].as_array().unwrap().iter())
        .map(|c| c["checks"].as_array().unwrap().len())
        .sum();
    assert_eq!(checks.len(), expected);

    // Back in the history the next report reads, next to the new results.
    std::fs::rename(
        std::fs::read_dir(&history)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path(),
        history.join("2000-01-01-suite-old.json"),
    )
    .unwrap();
    let run = report(&crawlers_folder(dir.path(), "allow-on-5xx"), &bad, &history);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let readme = std::fs::read_to_string(bad.join("README.md")).unwrap();
    assert!(
        readme.contains("fetched a page it must leave alone, after robots.txt 503"),
        "{readme}"
    );
    let page = std::fs::read_to_string(bad.join("crawlers/fake.md")).unwrap();
    assert!(page.contains("request log ("), "{page}");

    let diff = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .arg("diff")
        .arg(good.join("results.json"))
        .arg(bad.join("results.json"))
        .output()
        .unwrap();
    let shown = text(&diff.stdout);
    assert_eq!(diff.status.code(), Some(1), "{shown}{}", text(&diff.stderr));
    let line = (shown.lines())
        .find(|l| l.starts_with("crawler-fake"))
        .unwrap_or_else(|| panic!("no line of the crawler in:\n{shown}"));
    assert!(line.contains("obedient → allow-on-5xx"), "{line}");
    assert!(!line.contains(" 0 broken"), "{line}");
    assert!(
        shown.contains("access/faults/stall-past-the-timeout#0: pass → fail"),
        "{shown}"
    );
}

/// Processes whose environment carries a crawler mark handed out by the harness `pid`.
fn marked_by(pid: u32) -> Vec<u32> {
    let prefix = format!("ROBOTSTXT_CRAWL_MARK={pid}-");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(n) = (entry.file_name().to_str()).and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        if (environ.split(|b| *b == 0)).any(|v| v.starts_with(prefix.as_bytes())) {
            found.push(n);
        }
    }
    found
}

#[test]
fn ctrl_c_during_a_report_leaves_no_crawler_behind_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut harness = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .current_dir(root())
        .args(["report", "--adapter", "reference", "--crawler", "fake"])
        .arg("--crawlers")
        .arg(crawlers_folder(dir.path(), "hang"))
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = harness.id();
    let started = Instant::now();
    while marked_by(pid).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no crawler ever started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    kill_process(Pid::from_raw(pid as i32).unwrap(), Signal::INT).unwrap();
    let status = harness.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    std::thread::sleep(Duration::from_millis(200));
    let left = marked_by(pid);
    // Not left running by the test either, whatever it finds.
    for leftover in &left {
        let _ = kill_process(Pid::from_raw(*leftover as i32).unwrap(), Signal::KILL);
    }
    assert_eq!(left, Vec::<u32>::new());
    assert!(
        !out.exists(),
        "a report interrupted wrote {}",
        out.display()
    );
}
