//! `index.html` in a real browser: headless Chromium (Debian's `chromium` package, which
//! `.ci/run` installs) loads a report of a hostile corpus with a hostile case's cell open, takes a
//! screenshot, and dumps the DOM after the page's script ran. The page must have drawn its matrix,
//! and nothing from case content or adapter names may have run: every payload would change the
//! title or add an element. Without Chromium on this machine the test says so and passes.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Scratch, HOSTILE_NAME, HOSTILE_VERSION};

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
            .find(|path| path.is_file())
    })
}

/// Runs Chromium headless on `url` with `extra` arguments; returns its stdout. Killed after a
/// minute so a wedged browser cannot hang the test run.
fn headless(chromium: &Path, profile: &Path, url: &str, extra: &[&str]) -> String {
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,1000",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

#[test]
fn the_page_renders_and_no_case_content_runs() {
    let Some(chromium) = chromium() else {
        eprintln!(
            "skipped: no `chromium` on PATH (Debian: apt-get install chromium; .ci/run installs it)"
        );
        return;
    };
    let s = Scratch::new(&common::hostile_corpus());
    let evil = s.fake_cmd_quoted(&[HOSTILE_NAME, HOSTILE_VERSION, "agree"]);
    let plain = s.fake_cmd("fake 1.0");
    let out = s.run(
        "report",
        &[
            "--out",
            "out",
            "--adapter-cmd",
            &evil,
            "--adapter-cmd",
            &plain,
        ],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let page = s.path("out/index.html");
    // Open the hostile case's cell for the hostile adapter, so the detail panel shows it all.
    let name: String = HOSTILE_NAME
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    let url = format!(
        "file://{}#adapter={name}&check=gate%2Fscript-tags%230",
        page.display()
    );

    let screenshot = s.path("index.png");
    headless(
        &chromium,
        &s.path("profile-shot"),
        &url,
        &[&format!("--screenshot={}", screenshot.display())],
    );
    let png = std::fs::read(&screenshot).expect("a screenshot was taken");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    if let Some(keep) = std::env::var_os("ROBOTSTXT_TEST_SCREENSHOT") {
        std::fs::copy(&screenshot, keep).unwrap();
    }

    let dom = headless(&chromium, &s.path("profile-dom"), &url, &["--dump-dom"]);
    // The page's own script ran to the end: it marks the body with the number of cells it drew
    // (2 adapters x 4 checks).
    assert!(dom.contains("data-rendered=\"8\""), "{dom}");
    assert!(dom.contains("<table id=\"summary\">"), "{dom}");
    // The page opens with what is tested, the counts and the suite version filled in; the
    // ranking says which profile its rows claim; nothing names a folder of this machine.
    let intro = dom.find("<section id=\"intro\">").expect("an introduction");
    assert!(intro < dom.find("<table id=\"summary\">").unwrap());
    assert!(dom.contains("4 checks in 2 cases"), "{dom}");
    assert!(dom.contains("passes robotstxt-test suite "), "{dom}");
    assert!(
        dom.contains("<tr class=\"profile\"><th class=\"l\" colspan=")
            && dom.contains("Claiming the 1994 text"),
        "{dom}"
    );
    let scratch = s.path("");
    assert!(
        !dom.contains(scratch.to_str().unwrap().trim_end_matches('/')),
        "{dom}"
    );
    // The totals fit a 1400 px window, and the counter counts adapters, not rows of tables.
    assert!(dom.contains("data-summary-overflows=\"false\""), "{dom}");
    assert!(dom.contains("4 of 4 checks, 2 of 2 adapters"), "{dom}");
    assert!(dom.contains("<table class=\"m\">"), "{dom}");
    // The detail panel shows the hostile body and names as text.
    assert!(
        dom.contains("&lt;script&gt;window.__pwned=1&lt;/script&gt;"),
        "{dom}"
    );
    assert!(dom.contains("<h2>gate/script-tags#0</h2>"), "{dom}");
    assert!(dom.contains("evil&lt;img src=x onerror="), "{dom}");
    // Nothing ran: the title is the page's own, no element came from the data.
    assert!(
        dom.contains("<title>robots.txt parser compatibility</title>"),
        "{dom}"
    );
    assert!(
        !dom.contains("pwned</title>") && !dom.contains("<img"),
        "{dom}"
    );
    assert_eq!(dom.matches("<script").count(), 2, "{dom}");
    for cause in [
        "a byte-order mark",
        "the `*` record applies",
        "rejects the body",
    ] {
        assert!(
            dom.contains(&format!(">{cause}</option>")),
            "{cause}: {dom}"
        );
    }

    // The matrix's filter, set from the URL as the page's controls set it. Of the four checks,
    // the evil adapter answers `allowed` to all; the plain one rejects the `script-tags` body.
    // So `script-tags#0` and `#1` are answered differently, `plain#0` is failed by both, and
    // `plain#1` is passed by both.
    for (i, (fragment, checks, rows)) in [
        ("", 4, 2),
        ("show=nonpass", 3, 2),
        ("show=disagree", 2, 2),
        ("search=plain", 2, 2),
        ("search=plain&show=nonpass", 1, 2),
        ("search=PLAIN%231", 1, 2),
        ("search=script-tags%231&show=nonpass", 1, 1),
        ("search=plain&show=disagree", 0, 0),
        ("group=gate&show=nonpass", 3, 2),
        ("group=no-such-group", 0, 0),
        // Causes, numbered as the page lists them: the evil adapter's (a byte-order mark; the
        // `*` record applies), then the plain one's new one (rejects the body).
        ("cause=2", 2, 1),
        ("cause=1", 1, 2),
    ]
    .into_iter()
    .enumerate()
    {
        let url = format!("file://{}#{fragment}", page.display());
        let profile = s.path(&format!("profile-filter-{i}"));
        let dom = headless(&chromium, &profile, &url, &["--dump-dom"]);
        let shown = format!("data-visible-checks=\"{checks}\" data-visible-rows=\"{rows}\"");
        assert!(dom.contains(&shown), "#{fragment}: want {shown} in {dom}");
        assert_eq!(
            dom.matches("<tr class=\"r").count(),
            rows,
            "#{fragment}: rows drawn"
        );
    }
}

/// The published page charts each parser's score over its versions: at least two parsers with
/// three or more versions each, drawn (inline SVG, laid out by the browser) with every release
/// step linked to its diff page, which exists.
#[test]
fn the_published_page_charts_scores_over_versions() {
    let Some(chromium) = chromium() else {
        eprintln!(
            "skipped: no `chromium` on PATH (Debian: apt-get install chromium; .ci/run installs it)"
        );
        return;
    };
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports");
    let profile = tempfile::tempdir().unwrap();
    let url = format!("file://{}", reports.join("index.html").display());
    let dom = headless(&chromium, profile.path(), &url, &["--dump-dom"]);
    assert!(dom.contains("data-rendered=\""), "the page's script ran");
    let series: Vec<(usize, usize)> = dom
        .split("<figure class=\"chart\" data-kind=\"versions\" data-points=\"")
        .skip(1)
        .map(|rest| {
            let points: usize = rest.split('"').next().unwrap().parse().unwrap();
            let figure = rest.split("</figure>").next().unwrap();
            (points, figure.matches("<circle class=\"point\"").count())
        })
        .collect();
    let long = series
        .iter()
        .filter(|(points, drawn)| *points >= 3 && drawn == points)
        .count();
    assert!(
        long >= 2,
        "charts over versions (points, drawn): {series:?}"
    );
    let links: Vec<&str> = dom
        .split("<a class=\"step\" href=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert!(links.len() >= 4, "{links:?}");
    for link in links {
        assert!(reports.join(link).is_file(), "{link} is written");
    }
    assert!(dom.contains("data-kind=\"time\""), "a chart over time");
}
