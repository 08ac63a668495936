//! `diff`: two runs compared per adapter, from report files and from `run --format json`.

mod common;

use std::path::PathBuf;

use common::{checkout, run_binary, Scratch};

/// `(fixed, broken, changed)` of every adapter in a `diff --format json` output.
fn counts(json: &str) -> Vec<(String, usize, usize, usize)> {
    let doc: serde_json::Value = serde_json::from_str(json).unwrap();
    doc["adapters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let n = |d: &str| {
                (a["moved"].as_array().unwrap().iter())
                    .filter(|m| m["direction"] == d)
                    .count()
            };
            (
                a["new_name"].as_str().unwrap().to_owned(),
                n("fixed"),
                n("broken"),
                n("changed"),
            )
        })
        .collect()
}

/// From protego 0.1.16 to 0.7.0: 25 fixed, 1 broken and 15 changed; six more checks timed out
/// under 0.1.16 and pass under 0.7.0, which is slowness, counted apart from the verdicts. `diff` of
/// the same two adapters of the committed report says the same as the report's version table
/// (both go through `diff::compare`).
const PROTEGO: (usize, usize, usize) = (25, 1, 15);

#[test]
fn two_adapters_of_the_committed_report_give_the_version_table_counts() {
    let root = checkout();
    let out = run_binary(
        &root,
        &[
            "diff",
            "reports/results.json",
            "--old-adapter",
            "python-protego@0.1.16",
            "--new-adapter",
            "python-protego",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.code, 1, "one check broke: {}", out.stderr);
    let (name, fixed, broken, changed) = counts(&out.stdout).remove(0);
    assert_eq!(name, "python-protego");
    assert_eq!((fixed, broken, changed), PROTEGO);
    let timed_out = out.stdout.matches("\"direction\": \"timed-out\"").count();
    assert_eq!(timed_out, 6, "{}", out.stdout);
}

/// `--all` lists every moved check where the default cuts a group at eight, and `--link` makes
/// each check id a link to its cell in the report page.
#[test]
fn all_lists_every_change_and_link_points_at_the_page() {
    let root = checkout();
    let diff_of = |old: &str, new: &str, extra: &[&str]| {
        let mut args = vec![
            "diff",
            "reports/results.json",
            "--old-adapter",
            old,
            "--new-adapter",
            new,
        ];
        args.extend_from_slice(extra);
        let out = run_binary(&root, &args);
        assert_eq!(out.code, 1, "{}", out.stderr);
        out.stdout
    };
    let diff = |extra: &[&str]| diff_of("python-protego@0.1.16", "python-protego", extra);
    let moved = |text: &str| text.lines().filter(|l| l.contains(" → ")).count();
    let (fixed, broken, changed) = PROTEGO;
    // Two releases of one parser whose fixes fall into groups of more than eight.
    let (old, new) = ("node-robots-parser@1.0.2", "node-robots-parser@2.1.1");
    let cut = diff_of(old, new, &[]);
    assert!(cut.contains("more (--all lists every one)"), "{cut}");
    let all = diff_of(old, new, &["--all"]);
    assert!(!all.contains("more"), "{all}");
    assert!(moved(&cut) < moved(&all));
    let every = diff(&["--all"]);
    assert!(!every.contains("more"), "{every}");
    // Each moved check on a line of its own, the 6 that timed out in one run only too, plus the
    // adapter's title line.
    assert_eq!(moved(&every), fixed + broken + changed + 6 + 1, "{every}");
    let linked = diff(&["--all", "--format", "markdown", "--link", "index.html"]);
    let links = linked
        .lines()
        .filter(|l| {
            l.starts_with("- [`") && l.contains("](<index.html#adapter=python-protego&check=")
        })
        .count();
    assert_eq!(links, fixed + broken + changed + 6, "{linked}");
}

#[test]
fn two_run_files_of_the_two_versions_give_the_same_counts() {
    let root = checkout();
    let listed = run_binary(&root, &["adapters"]);
    let usable = |name: &str| {
        listed
            .stdout
            .lines()
            .any(|l| l.split_whitespace().next() == Some(name) && !l.contains("unavailable"))
    };
    if !usable("python-protego") || !usable("python-protego@0.1.16") {
        eprintln!("note: protego's adapters are not installed here; `adapters install` installs them (CI does)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for name in ["python-protego@0.1.16", "python-protego"] {
        let out = run_binary(&root, &["run", "--adapter", name, "--format", "json"]);
        assert!(out.code <= 1, "{name}: {}", out.stderr);
        let file = dir.path().join(format!("{name}.json"));
        std::fs::write(&file, out.stdout).unwrap();
        files.push(file);
    }
    let out = run_binary(
        &root,
        &[
            "diff",
            files[0].to_str().unwrap(),
            files[1].to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let (_, fixed, broken, changed) = counts(&out.stdout).remove(0);
    assert_eq!((fixed, broken, changed), PROTEGO);
}

const CORPUS: &str = r#"cases:
  - name: plain
    spec: test
    robots: "User-agent: *\nDisallow: /tmp/\n"
    checks:
      - { agent: FooBot, path: /tmp/x, expect: disallowed }
      - { agent: FooBot, path: /x, expect: allowed }
  - name: other
    spec: test
    robots: "User-agent: *\nDisallow: /a\n"
    checks:
      - { agent: FooBot, path: /b, expect: allowed }
"#;

/// A `run --format json` of the fake adapter over [`CORPUS`], written to `run.json`.
fn run_file(scratch: &Scratch) -> PathBuf {
    let out = scratch.run(
        "run",
        &[
            "--adapter-cmd",
            &scratch.fake_cmd("fake 1.0"),
            "--format",
            "json",
        ],
    );
    assert_eq!(
        out.code, 1,
        "the fake adapter allows /tmp/x: {}",
        out.stderr
    );
    let file = scratch.path("run.json");
    std::fs::write(&file, &out.stdout).unwrap();
    file
}

#[test]
fn an_edited_check_breaks_and_is_named_and_identical_files_are_no_change() {
    let scratch = Scratch::new(CORPUS);
    let old = run_file(&scratch);
    let same = scratch.run_diff(&["run.json", "run.json"]);
    assert_eq!(same.code, 0, "{}", same.stderr);
    assert!(same.stdout.contains("no change"), "{}", same.stdout);

    // `other#0` passed; edited to a failure with the other verdict.
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&old).unwrap()).unwrap();
    let row = (doc["results"].as_array_mut().unwrap().iter_mut())
        .find(|r| r["case"] == "gate/other")
        .unwrap();
    assert_eq!(row["outcome"], "pass");
    row["outcome"] = "fail".into();
    row["actual"] = "disallowed".into();
    std::fs::write(scratch.path("edited.json"), doc.to_string()).unwrap();
    let broke = scratch.run_diff(&["run.json", "edited.json"]);
    assert_eq!(broke.code, 1, "{}", broke.stderr);
    assert!(
        broke
            .stdout
            .contains("gate/other#0: pass (allowed) → fail (disallowed)"),
        "{}",
        broke.stdout
    );
    assert!(
        broke.stdout.contains("0 fixed, 1 broken, 0 changed"),
        "{}",
        broke.stdout
    );
    let markdown = scratch.run_diff(&["run.json", "edited.json", "--format", "markdown"]);
    assert_eq!(markdown.code, 1);
    assert!(
        markdown.stdout.contains("| fake 1.0 | 0 | 1 | 0 | 0 |"),
        "{}",
        markdown.stdout
    );
    // The other way, it is a fix: nothing broke.
    let fixed = scratch.run_diff(&["edited.json", "run.json"]);
    assert_eq!(fixed.code, 0);
    assert!(
        fixed.stdout.contains("1 fixed, 0 broken"),
        "{}",
        fixed.stdout
    );
}

#[test]
fn checks_of_another_corpus_are_not_compared_and_counted() {
    let scratch = Scratch::new(CORPUS);
    run_file(&scratch);
    // The same corpus, `plain#0` rescored and a case added.
    let changed = CORPUS.replace("/tmp/x, expect: disallowed", "/tmp/x, expect: allowed")
        + "  - name: added\n    spec: test\n    robots: \"\"\n    checks:\n      - { agent: FooBot, path: /, expect: allowed }\n";
    scratch.corpus(&changed);
    let out = scratch.run(
        "run",
        &[
            "--adapter-cmd",
            &scratch.fake_cmd("fake 1.0"),
            "--format",
            "json",
        ],
    );
    std::fs::write(scratch.path("new.json"), &out.stdout).unwrap();
    let diff = scratch.run_diff(&["run.json", "new.json"]);
    assert_eq!(diff.code, 0, "{}", diff.stdout);
    assert!(
        diff.stdout.contains("the corpora differ"),
        "{}",
        diff.stdout
    );
    assert!(
        diff.stdout.contains("1 could not be compared"),
        "{}",
        diff.stdout
    );
    assert!(
        diff.stdout
            .contains("0 fixed, 0 broken, 0 changed; 1 new in the suite; 1 not comparable"),
        "{}",
        diff.stdout
    );
}

#[test]
fn bad_input_is_exit_2_naming_the_file() {
    let scratch = Scratch::new(CORPUS);
    std::fs::write(scratch.path("bad.json"), "{\n \"adapter\": 1,\n").unwrap();
    std::fs::write(scratch.path("other.json"), "{\"a\": 1}").unwrap();
    let broken = scratch.run_diff(&["bad.json", "bad.json"]);
    assert_eq!(broken.code, 2);
    assert!(
        broken.stderr.contains("bad.json:3: not a results file"),
        "{}",
        broken.stderr
    );
    let shape = scratch.run_diff(&["other.json", "other.json"]);
    assert_eq!(shape.code, 2);
    assert!(
        shape.stderr.contains("other.json:1: not a results file"),
        "{}",
        shape.stderr
    );
    let missing = scratch.run_diff(&["none.json", "other.json"]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("none.json:1: cannot read"),
        "{}",
        missing.stderr
    );
}

trait RunDiff {
    fn run_diff(&self, args: &[&str]) -> common::Output;
}

impl RunDiff for Scratch {
    fn run_diff(&self, args: &[&str]) -> common::Output {
        let mut all = vec!["diff"];
        all.extend_from_slice(args);
        run_binary(self.dir.path(), &all)
    }
}
