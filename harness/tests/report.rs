//! `robotstxt-test report` through the binary: every file written, hostile case content and
//! adapter names escaped in every format, an unavailable adapter shown as "no data", and a failed
//! run leaving the previous reports untouched.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{Scratch, HOSTILE, HOSTILE_NAME, HOSTILE_VERSION, REPORTED};

/// A report of the hostile corpus by three adapters: a hostile-named one that answers `allowed`
/// everywhere, a plain one that rejects the hostile body, and one that cannot start.
fn hostile_report() -> Scratch {
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
            "--adapter-cmd",
            "/nonexistent/adapter",
        ],
    );
    assert_eq!(out.code, 0, "{out:?}");
    s
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn writes_every_file() {
    let s = hostile_report();
    let out = s.path("out");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "README.md",
            "SCHEMA.md",
            "badges",
            "evil-img-src-x-onerror--document.title--pwned-name-----_-x--y-.md",
            "fake.md",
            "history",
            "index.html",
            "nonexistent-adapter.md",
            "results.csv",
            "results.json"
        ]
    );
    // A badge and its shields.io endpoint per adapter; the hostile name is text in the SVG.
    let badges = out.join("badges");
    let names = common::names_in(&badges);
    assert_eq!(names.len(), 6, "{names:?}");
    let fake: serde_json::Value = serde_json::from_str(&read(&badges, "fake.json")).unwrap();
    assert_eq!(fake["schemaVersion"], 1);
    assert_eq!(fake["label"], "robotstxt-test suite none (norobots-1994)");
    assert!(
        fake["message"]
            .as_str()
            .unwrap()
            .ends_with("% of decided checks"),
        "{fake}"
    );
    let missing: serde_json::Value =
        serde_json::from_str(&read(&badges, "nonexistent-adapter.json")).unwrap();
    assert_eq!(missing["message"], "no data");
    assert_eq!(missing["color"], "lightgrey");
    let evil = read(
        &badges,
        "evil-img-src-x-onerror--document.title--pwned-name-----_-x--y-.svg",
    );
    assert!(!evil.contains("<img"), "{evil}");
}

#[test]
fn results_json_has_everything() {
    let s = hostile_report();
    let doc: serde_json::Value =
        serde_json::from_str(&read(&s.path("out"), "results.json")).unwrap();
    assert_eq!(doc["schema"], 1);
    assert!(doc["suite_commit"].is_string());
    assert_eq!(doc["tool_version"], env!("CARGO_PKG_VERSION"));
    let date = doc["date"].as_str().unwrap();
    assert!(
        date.len() == 20 && date.ends_with('Z') && &date[10..11] == "T",
        "{date}"
    );
    assert_eq!(doc["profiles"][0], "norobots-1994");
    assert_eq!(doc["cases"][0]["id"], "gate/script-tags");
    assert_eq!(doc["cases"][0]["checks"][1]["id"], "gate/script-tags#1");
    assert!(doc["cases"][0].get("reported").is_none());
    assert_eq!(doc["cases"][1]["reported"], REPORTED);
    let adapters = doc["adapters"].as_array().unwrap();
    assert_eq!(adapters.len(), 3);
    let evil = &adapters[0];
    assert_eq!(evil["handshake"]["name"], HOSTILE_NAME);
    assert_eq!(evil["handshake"]["version"], HOSTILE_VERSION);
    assert_eq!(evil["has_data"], true);
    assert_eq!(evil["checks"][0]["answer"], "allowed");
    assert_eq!(evil["checks"][0]["outcome"]["claimed"], "fail");
    assert_eq!(evil["checks"][0]["outcome"]["norobots-1994"], "fail");
    assert_eq!(evil["totals"]["claimed"]["passed"], 2);
    assert_eq!(evil["totals"]["claimed"]["scored"], 4);
    assert_eq!(evil["timings"]["case_ms"].as_array().unwrap().len(), 2);
    let plain = &adapters[1];
    assert_eq!(plain["checks"][0]["answer"], "error");
    assert!(plain["checks"][0]["detail"]
        .as_str()
        .unwrap()
        .contains("Rejected \u{1}\u{1b} <&>"));
    let missing = &adapters[2];
    assert_eq!(missing["has_data"], false);
    assert!(missing["unavailable"]
        .as_str()
        .unwrap()
        .contains("/nonexistent/adapter"));
    assert_eq!(missing["checks"][0]["outcome"]["claimed"], "skipped");
}

#[test]
fn html_escapes_everything() {
    let s = hostile_report();
    let html = read(&s.path("out"), "index.html");
    // Exactly the page's own two script elements: the data block and the code.
    assert_eq!(html.matches("<script").count(), 2, "{html}");
    assert_eq!(html.matches("</script>").count(), 2);
    assert!(!html.contains("<img"), "an <img> tag reached the page");
    assert!(!html.contains("pwned'</script>"));
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http"),
        "no external assets"
    );
    // The data is all there, and reads back exactly.
    let start = html
        .find("<script id=\"data\" type=\"application/json\">")
        .unwrap();
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let data: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(data["cases"][0]["spec"], format!("spec {HOSTILE}"));
    assert_eq!(data["adapters"][0]["name"], HOSTILE_NAME);
    let body = data["cases"][0]["body"].as_str().unwrap();
    assert!(body.contains("<BOM>User-agent: *␍␊"), "{body}");
    assert!(body.contains("␁␛␉REJECT␊"), "{body}");
    assert!(body.contains("<script>window.__pwned=1</script>"), "{body}");
    // The page never builds markup from data: no innerHTML, outerHTML, insertAdjacentHTML or
    // document.write anywhere in its code.
    let code = &html[html.rfind("<script>").unwrap()..];
    for sink in [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
    ] {
        assert!(!code.contains(sink), "the page uses {sink}");
    }
}

#[test]
fn markdown_escapes_names_and_fences_content() {
    let s = hostile_report();
    let out = s.path("out");
    let readme = read(&out, "README.md");
    assert!(
        !readme.contains("<img") && !readme.contains("<script"),
        "{readme}"
    );
    assert!(
        readme.contains(
            "evil&lt;img src=x onerror=\"document.title='pwned-name'\"&gt;\\|\\*\\_\\[x\\]\\(y\\)"
        ),
        "{readme}"
    );
    // The adapter that could not run: "no data" and why, never a score.
    let row = readme
        .lines()
        .find(|l| l.starts_with("| [/nonexistent/adapter]"))
        .unwrap();
    assert!(row.contains("no data: "), "{row}");
    assert!(!row.contains('%'), "{row}");
    // The split between the two adapters with data.
    assert!(readme.contains("### gate (1 of 2 cases split)"), "{readme}");
    assert!(
        readme.contains("- `script-tags` (expected `DA`): "),
        "{readme}"
    );
    // Per-adapter pages: the hostile body only inside a fence.
    let page = read(&out, "fake.md");
    assert!(page.contains("### `gate/script-tags#0` error"), "{page}");
    let fence = page
        .find("````text\n")
        .or_else(|| page.find("```text\n"))
        .unwrap();
    let hostile = page.find("<script>window.__pwned=1").unwrap();
    assert!(hostile > fence, "{page}");
    assert!(page.contains("[in the matrix](index.html#adapter=fake&check=gate%2Fscript-tags%230)"));
    let missing = read(&out, "nonexistent-adapter.md");
    assert!(missing.contains("**No data**"), "{missing}");
}

fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let bytes = if e.path().is_file() {
                std::fs::read(e.path()).unwrap()
            } else {
                Vec::new()
            };
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

#[test]
fn a_failed_run_keeps_the_previous_report() {
    let s = hostile_report();
    let out = s.path("out");
    let before = snapshot(&out);
    let plain = s.fake_cmd("fake 1.0");
    // A bad case file: nothing is run, nothing written.
    std::fs::write(s.path("cases/broken.yaml"), "cases:\n  - name: Not Kebab\n").unwrap();
    let bad = s.run("report", &["--out", "out", "--adapter-cmd", &plain]);
    assert_eq!(bad.code, 2, "{bad:?}");
    assert!(bad.stderr.contains("broken.yaml:2"), "{bad:?}");
    assert_eq!(snapshot(&out), before);
    std::fs::remove_file(s.path("cases/broken.yaml")).unwrap();
    // A file that cannot be replaced: no file is replaced, no temporary is left, and the exit
    // code says the output failed (5), not the input.
    std::fs::remove_file(out.join("results.json")).unwrap();
    std::fs::create_dir(out.join("results.json")).unwrap();
    let before = snapshot(&out);
    let blocked = s.run("report", &["--out", "out", "--adapter-cmd", &plain]);
    assert_eq!(blocked.code, 5, "{blocked:?}");
    assert!(
        blocked
            .stderr
            .contains("results.json: exists and is not a file"),
        "{blocked:?}"
    );
    assert_eq!(snapshot(&out), before);
}

#[test]
fn reported_threads_are_shown_next_to_the_case() {
    let s = hostile_report();
    let out = s.path("out");
    // The adapter that answers `allowed` everywhere fails gate/plain#0, a reported case.
    let page = read(
        &out,
        "evil-img-src-x-onerror--document.title--pwned-name-----_-x--y-.md",
    );
    let link = format!("[reported](<{REPORTED}>)");
    assert!(
        page.contains("1 reported case(s) not passed")
            && page.contains("in 1 the adapter answers a check of the reported behaviour as")
            && page.contains(&format!(
                "- `gate/plain` — {link}: `#0` fail, the reported behaviour"
            )),
        "{page}"
    );
    let heading = page
        .find("### `gate/plain#0` fail")
        .expect("the failure is listed");
    assert!(page[heading..].contains(&format!(" · {link}")), "{page}");
    let html = read(&out, "index.html");
    // The page's data is JSON made safe for a script block (`&` written as an escape).
    assert!(html.contains("\"reported\":\"https://example.com/t/1?q=%3Cb%3E"));
}

#[test]
fn two_versions_of_one_parser_side_by_side() {
    // `fake` 1.0 rejects the hostile body; `fake@0.9`, the same parser at 0.9, answers it.
    let s = Scratch::new(&common::hostile_corpus());
    let newer = s.fake_cmd("fake 1.0");
    let older = s.fake_cmd("fake@0.9 0.9 agree");
    let out = s.run(
        "report",
        &[
            "--out",
            "out",
            "--adapter-cmd",
            &newer,
            "--adapter-cmd",
            &older,
        ],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let dir = s.path("out");
    let readme = read(&dir, "README.md");
    assert!(
        readme.contains("| fake | [0.9](fake-0.9.md) | [1.0](fake.md) | 2 | 0 | 1 | 1 |"),
        "{readme}"
    );
    for page in ["fake.md", "fake-0.9.md"] {
        let page = read(&dir, page);
        assert!(page.contains("## fake 0.9 against 1.0"), "{page}");
        assert!(
            page.contains("| pass (allowed) | error | broken |")
                && page.contains("| fail (allowed) | error | changed |"),
            "{page}"
        );
    }
    let html = read(&dir, "index.html");
    assert!(
        html.contains(r#""versions":[{"older":1,"newer":0,"changes":[{"check":0,"older":"fail (allowed)","newer":"error","direction":"changed"},{"check":1,"older":"pass (allowed)","newer":"error","direction":"broken"}]}]"#),
        "{html}"
    );
    // The step's diff page: every change under its group, each check linked to its cell.
    let step = read(&dir, "diffs/fake-0.9-1.0.md");
    assert!(!step.contains("cause not recorded"), "{step}");
    assert!(
        step.contains("- [`gate/script-tags#1`](<../index.html#adapter=fake&check=gate%2Fscript-tags%231>): pass (allowed) → error"),
        "{step}"
    );
}

/// A report made outside a checkout (an author's own page) names the suite it was made with and
/// the command that made it, in every file.
#[test]
fn a_report_names_its_suite_and_the_command_that_made_it() {
    let s = Scratch::new(&common::hostile_corpus());
    let plain = s.fake_cmd("fake 1.0");
    let out = s.run("report", &["--out", "out", "--adapter-cmd", &plain]);
    assert_eq!(out.code, 0, "{out:?}");
    let dir = s.path("out");
    let data: serde_json::Value = serde_json::from_str(&read(&dir, "results.json")).unwrap();
    let commit = data["suite_commit"].as_str().unwrap();
    assert_eq!(commit, robotstxt_suite::embedded::COMMIT);
    assert_ne!(
        commit, "unknown",
        "the binary was built from a git checkout"
    );
    // The command as it made the report, but for where the files went: `--out` is left out,
    // and the adapter's absolute path is cut to its file name.
    let command = data["command"].as_str().unwrap();
    assert_eq!(
        command,
        "robotstxt-test report --cases cases --adapter-cmd 'python3 fake.py fake 1.0'"
    );
    for page in ["README.md", "fake.md", "index.html"] {
        let text = read(&dir, page);
        assert!(
            text.contains("robotstxt-test report --cases cases --adapter-cmd"),
            "{page}"
        );
        assert!(text.contains(commit), "{page}: {text}");
    }
}

/// No published file names a folder of the publisher's machine: not the reports folder given
/// by an absolute path, nor the adapter's, nor the history's.
#[test]
fn no_published_file_holds_a_local_path() {
    let s = Scratch::new(&common::hostile_corpus());
    let plain = s.fake_cmd("fake 1.0");
    let out = s.path("published");
    let history = s.path("kept");
    let args = [
        "--out",
        out.to_str().unwrap(),
        "--history",
        history.to_str().unwrap(),
        "--adapter-cmd",
        &plain,
    ];
    let run = s.run("report", &args);
    assert_eq!(run.code, 0, "{run:?}");
    let scratch = s.path("");
    let scratch = scratch.to_str().unwrap().trim_end_matches('/');
    let mut seen = 0;
    for entry in walkdir::WalkDir::new(&out) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let text = String::from_utf8_lossy(&std::fs::read(entry.path()).unwrap()).into_owned();
            assert!(!text.contains(scratch), "{}", entry.path().display());
            seen += 1;
        }
    }
    assert!(seen >= 6, "{seen} files");
    assert_eq!(std::fs::read_dir(&history).unwrap().count(), 1);
}

/// `results.csv`: a header, then one row per adapter, profile and check, each with its
/// group where it did not pass; a hostile adapter name is quoted and cannot run as a formula.
#[test]
fn results_csv_has_every_result() {
    let s = hostile_report();
    let out = s.path("out");
    let csv = read(&out, "results.csv");
    let mut lines = csv.split("\r\n");
    assert_eq!(
        lines.next(),
        Some("adapter,version,profile,claimed,check,expected,actual,outcome,group")
    );
    let data: serde_json::Value = serde_json::from_str(&read(&out, "results.json")).unwrap();
    let adapters = data["adapters"].as_array().unwrap().len();
    let checks: usize = (data["cases"].as_array().unwrap().iter())
        .map(|c| c["checks"].as_array().unwrap().len())
        .sum();
    let rows: Vec<&str> = lines.filter(|l| !l.is_empty()).collect();
    assert_eq!(rows.len(), adapters * 2 * checks, "{csv}");
    // The plain adapter rejects the hostile body: an error, grouped as a refusal.
    let refused = rows
        .iter()
        .find(|r| r.starts_with("fake,1.0,norobots-1994,yes,") && r.contains(",error,error,"))
        .unwrap_or_else(|| panic!("{csv}"));
    assert!(refused.ends_with(",rejects the body"), "{refused}");
    // A pass has no group.
    assert!(
        rows.iter()
            .any(|r| r.contains(",pass,") && r.ends_with(",pass,")),
        "{csv}"
    );
    assert!(
        rows.iter().all(|r| !r.starts_with(['=', '+', '-', '@'])),
        "{csv}"
    );
}

/// History is kept by default, under the reports folder; a series of one report is shown as a
/// number, not drawn as a chart of one point.
#[test]
fn history_is_kept_by_default_and_one_point_is_a_number() {
    let s = hostile_report();
    let out = s.path("out");
    let kept: Vec<_> = std::fs::read_dir(out.join("history")).unwrap().collect();
    assert_eq!(kept.len(), 1);
    let page = read(&out, "index.html");
    assert!(page.contains("<figure class=\"chart single\" data-kind=\"time\" data-points=\"1\">"));
    let figures: Vec<&str> = page.split("<figure").skip(1).collect();
    assert!(!figures.is_empty());
    for figure in figures {
        let figure = figure.split("</figure>").next().unwrap();
        assert!(!figure.contains("<svg"), "{figure}");
        assert!(figure.contains("<p class=\"score\">"), "{figure}");
    }
    // Without history, no folder and no chart over time.
    let plain = s.fake_cmd("fake 1.0");
    let run = s.run(
        "report",
        &["--out", "bare", "--no-history", "--adapter-cmd", &plain],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!s.path("bare/history").exists());
    assert!(!read(&s.path("bare"), "index.html").contains("data-kind=\"time\""));
}

/// The scoring rule in reports/README.md: a check its profile leaves open is never scored, even
/// when the adapter errs on it (the error is still shown), so every adapter scored under one
/// profile has the same denominator: the checks that profile decides.
#[test]
fn the_matrix_scores_exactly_the_checks_a_profile_decides() {
    let corpus = "cases:\n\
        \x20 - name: rejected\n    spec: test\n    robots: \"User-agent: *\\nREJECT\\n\"\n    checks:\n\
        \x20     - { agent: FooBot, path: /a, expect: allowed }\n\
        \x20     - { agent: FooBot, path: /b, expect: { norobots-1994: unspecified, rfc9309: unspecified } }\n\
        \x20 - name: answered\n    spec: test\n    robots: \"User-agent: *\\nDisallow: /a\\n\"\n    checks:\n\
        \x20     - { agent: FooBot, path: /a, expect: disallowed }\n\
        \x20     - { agent: FooBot, path: /b, expect: { norobots-1994: unspecified, rfc9309: allowed } }\n";
    let s = Scratch::new(corpus);
    let rejecting = s.fake_cmd("rejecting 1.0");
    let answering = s.fake_cmd("answering 1.0 agree");
    let args = [
        "--out",
        "out",
        "--adapter-cmd",
        &rejecting,
        "--adapter-cmd",
        &answering,
    ];
    let out = s.run("report", &args);
    assert_eq!(out.code, 0, "{out:?}");
    let data: serde_json::Value =
        serde_json::from_str(&read(&s.path("out"), "results.json")).unwrap();
    // (scoring, checks it decides, passed by the rejecting adapter, passed by the answering one)
    for (scoring, decided, passed) in [
        ("norobots-1994", 2, [0, 1]),
        ("rfc9309", 3, [1, 2]),
        ("claimed", 2, [0, 1]),
    ] {
        for (adapter, passed) in data["adapters"].as_array().unwrap().iter().zip(passed) {
            let totals = &adapter["totals"][scoring];
            let name = &adapter["name"];
            assert_eq!(
                totals["scored"], decided,
                "{name} under {scoring}: {totals}"
            );
            assert_eq!(totals["passed"], passed, "{name} under {scoring}: {totals}");
            let counted = ["passed", "failed", "errored"]
                .map(|k| totals[k].as_u64().unwrap())
                .iter()
                .sum::<u64>();
            assert_eq!(counted, decided, "{name} under {scoring}: {totals}");
        }
    }
    // The rejecting adapter's error on the open check is shown, not scored.
    let open = &data["adapters"][0]["checks"][1];
    assert_eq!(open["outcome"]["norobots-1994"], "unspecified", "{open}");
    assert!(
        open["detail"].as_str().unwrap().starts_with("Rejected"),
        "{open}"
    );
}

/// An adapter run from its folder: its page and `results.json` say how it calls its parser, from
/// the manifest's `input` and `note`; a bare command has nothing to say.
#[test]
fn an_adapter_page_says_how_its_parser_is_called() {
    let s = Scratch::new(&common::hostile_corpus());
    let folder = s.path("adapters/fake");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(s.path("fake.py"), folder.join("fake.py")).unwrap();
    let manifest = "name: fake\nparser: fake\nlanguage: Python\nhomepage: https://example.org\n\
        profile: norobots-1994\npackage: { name: fake, version: \"1.0\", registry: stdlib }\n\
        input: \"bytes, as they are\"\nnote: \"Unlike fake-two, it reads *bytes*.\"\n\
        agent: as-given\nrequires: [python3]\nrun: [\"python3\", \"{dir}/fake.py\", \"fake\", \"1.0\"]\n";
    std::fs::write(folder.join("adapter.yaml"), manifest).unwrap();
    let manifest = folder.join("adapter.yaml");
    let plain = s.fake_cmd("plain 1.0");
    let out = s.run(
        "report",
        &[
            "--out",
            "out",
            "--adapter-cmd",
            manifest.to_str().unwrap(),
            "--adapter-cmd",
            &plain,
        ],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let dir = s.path("out");
    let page = read(&dir, "fake.md");
    assert!(
        page.contains(
            "How the adapter calls it: bytes, as they are.\n\nUnlike fake-two, it reads \\*bytes\\*.\n"
        ),
        "{page}"
    );
    assert!(!read(&dir, "plain.md").contains("How the adapter calls it"));
    let doc: serde_json::Value = serde_json::from_str(&read(&dir, "results.json")).unwrap();
    let (fake, plain) = (&doc["adapters"][0], &doc["adapters"][1]);
    assert_eq!(fake["name"], "fake");
    assert_eq!(fake["input"], "bytes, as they are");
    assert_eq!(fake["note"], "Unlike fake-two, it reads *bytes*.");
    assert!(
        plain["input"].is_null() && plain["note"].is_null(),
        "{plain}"
    );
}
