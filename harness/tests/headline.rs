//! One score, everywhere: for one adapter, `run` in every format, `report`'s pages, its HTML, its
//! `results.json` and the badge all show the same percentage, with the same label and the suite
//! version; a filtered run names its version and says it is partial.

mod common;

use common::Scratch;

/// The shared four checks: see `common::FOUR_CHECKS`.
const CORPUS: &str = common::FOUR_CHECKS;

/// The corpus of a scratch folder has no release record: its suite version is `none`.
const CITATION: &str = "passes robotstxt-test suite none: 33.3% of decided checks (norobots-1994)";

fn read(s: &Scratch, name: &str) -> String {
    std::fs::read_to_string(s.path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_output_shows_the_same_score() {
    let s = Scratch::new(CORPUS);
    let cmd = s.fake_cmd("fake 1.0");
    for format in ["human", "long", "markdown", "junit", "github", "json"] {
        let out = s.run("run", &["--adapter-cmd", &cmd, "--format", format]);
        assert_eq!(out.code, 1, "{format}: {out:?}");
        // Markdown escapes the parentheses; the rest carry the line as it is.
        let shown = out.stdout.replace("\\(", "(").replace("\\)", ")");
        assert!(shown.contains(CITATION), "{format}: {}", out.stdout);
    }
    let json = s.run("run", &["--adapter-cmd", &cmd, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["score"]["percent"], "33.3%");
    assert_eq!(doc["suite_version"], "none");

    let report = s.run("report", &["--out", "out", "--adapter-cmd", &cmd]);
    assert_eq!(report.code, 0, "{report:?}");
    assert!(
        report.stderr.contains("33.3% of decided checks"),
        "{report:?}"
    );
    let page = read(&s, "out/fake.md")
        .replace("\\(", "(")
        .replace("\\)", ")");
    assert!(page.contains(CITATION), "{page}");
    assert!(read(&s, "out/README.md").contains("(33.3%)"));
    let results: serde_json::Value = serde_json::from_str(&read(&s, "out/results.json")).unwrap();
    assert_eq!(results["adapters"][0]["score"]["citation"], CITATION);
    assert!(read(&s, "out/index.html").contains(CITATION));
    let badge: serde_json::Value = serde_json::from_str(&read(&s, "out/badges/fake.json")).unwrap();
    assert_eq!(badge["message"], "33.3% of decided checks");
    assert_eq!(badge["label"], "robotstxt-test suite none (norobots-1994)");
    assert!(read(&s, "out/badges/fake.svg").contains(">33.3% of decided checks<"));
}

#[test]
fn the_version_gives_the_citation_form_anywhere() {
    let s = Scratch::new(CORPUS);
    for args in [
        &["-V"][..],
        &["--version"],
        &["run", "-V"],
        &["diff", "--version"],
    ] {
        let out = common::run_binary(s.dir.path(), args);
        assert_eq!(out.code, 0, "{args:?}: {out:?}");
        assert!(out.stdout.starts_with("robotstxt-test "), "{out:?}");
        assert!(
            out.stdout.contains(": NN.N% of decided checks (PROFILE)"),
            "{out:?}"
        );
    }
}

#[test]
fn a_filtered_run_names_its_version_and_says_it_is_partial() {
    let s = Scratch::new(CORPUS);
    let cmd = s.fake_cmd("fake 1.0");
    let out = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--case",
            "gate/closed#0",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.code, 1, "{out:?}");
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["results"].as_array().unwrap().len(), 1, "{doc}");
    assert_eq!(doc["suite_version"], "none");
    assert_eq!(doc["partial"], "case gate/closed#0");
    assert_eq!(doc["score"]["partial"], true);
    assert_eq!(doc["score"]["percent"], "0.0%");

    let human = s.run("run", &["--adapter-cmd", &cmd, "--topic", "gate"]);
    assert!(human.stdout.contains("partial run"), "{human:?}");
    assert!(human.stdout.contains("suite none"), "{human:?}");

    // A group of how the adapter fails keeps the checks that failed so.
    let grouped = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--group",
            "rejects-body",
            "--format",
            "json",
        ],
    );
    let doc: serde_json::Value = serde_json::from_str(&grouped.stdout).unwrap();
    let ids: Vec<&str> = (doc["results"].as_array().unwrap().iter())
        .map(|r| r["case"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["gate/rejected"], "{doc}");

    for (flag, value, said) in [
        ("--case", "gate/nope", "no such case"),
        ("--case", "gate/closed#7", "numbered from 0"),
        ("--topic", "nope", "no such topic"),
        ("--group", "nope", "no such group"),
    ] {
        let out = s.run("run", &["--adapter-cmd", &cmd, flag, value]);
        assert_eq!(out.code, 2, "{flag} {value}: {out:?}");
        assert!(out.stderr.contains(said), "{flag} {value}: {out:?}");
    }
    let update = s.run(
        "run",
        &[
            "--adapter-cmd",
            &cmd,
            "--topic",
            "gate",
            "--update-expectations",
            "x.yaml",
        ],
    );
    assert_eq!(update.code, 2, "{update:?}");
    assert!(!s.path("x.yaml").exists());
}
