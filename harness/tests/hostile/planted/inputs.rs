//! The file doors: a case file (its fields and its name), an expectation file, and an adapter's
//! manifest, each field planted in turn, read by every command that takes them.

use std::fs;
use std::path::Path;

use serde_json::Value;

use super::adapters::{hello, Scratch};
use super::{
    assert_files_inert, assert_shown_or_named, planted_siblings, run_inert, yaml_text, yaml_tree,
    Reading, PLANT,
};

/// Every field a case may have: a spec per profile, a reported thread, a note, readings, a body
/// in base64, and a check's mapping of verdicts and its reported answer.
const CASE_FILE: &str = r#"cases:
  - name: planted
    spec:
      norobots-1994: 'Format: "Unrecognised headers are ignored."; Disallow: "This can be a full path, or a partial path; any URL that starts with this value will not be retrieved."'
      rfc9309: 'RFC 9309 2.2.3, Figure 6: "/path/file-with-a-%2A.html | https://www.example.com/path/file-with-a-*.html"'
    reported: https://github.com/google/robotstxt/issues/57
    note: a note
    reading: percent-as-written-1994
    robots: "User-agent: FooBot\nDisallow: /path/file-with-a-%2A.html\nAllow: /\n"
    checks:
      - { agent: FooBot, path: '/path/file-with-a-*.html', expect: { norobots-1994: allowed, rfc9309: disallowed }, reading: percent-as-written-1994, reported: allowed }
      - { agent: FooBot, path: /b, expect: allowed }
  - name: second
    spec: test
    robots_base64: "VXNlci1hZ2VudDogKgpEaXNhbGxvdzogLwo="
    checks:
      - { agent: FooBot, path: /a, expect: disallowed }
"#;

/// Runs every command that reads the cases under `in/cases`, then scans what they wrote;
/// returns everything printed and written.
fn read_cases(what: &str, scratch: &Scratch) -> String {
    let cmd = scratch.refusing_adapter();
    let mut reading = Reading::new(what, scratch.path());
    let cases = ["--cases", "in/cases"];
    for format in ["human", "long", "markdown", "junit", "github", "json"] {
        reading.run(&[&["run"], &cases, &["--format", format]]);
        reading.run(&[
            &["run"],
            &cases,
            &["--adapter-cmd", &cmd, "--format", format],
        ]);
    }
    reading.run(&[
        &["report"],
        &cases,
        &["--adapter-cmd", &cmd, "--out", "out/r", "--no-crawlers"],
    ]);
    reading.run(&[
        &["fuzz"],
        &cases,
        &["--adapter-cmd", &cmd, "--docs", "20", "--out", "out/f"],
    ]);
    reading.finish(&scratch.inputs()).1
}

#[test]
fn every_field_of_a_case_file() {
    for (pointer, planted) in planted_siblings(&yaml_tree(CASE_FILE)) {
        let scratch = Scratch::new();
        fs::write(
            scratch.inputs().join("cases/cases.yaml"),
            yaml_text(&planted),
        )
        .unwrap();
        let what = format!("case file {pointer}");
        assert_shown_or_named(&what, &pointer, &read_cases(&what, &scratch));
    }
}

#[test]
fn a_case_file_named_with_escapes() {
    let scratch = Scratch::new();
    let cases = scratch.inputs().join("cases");
    fs::remove_file(cases.join("cases.yaml")).unwrap();
    let name = format!("{}.yaml", PLANT.replace('/', "-"));
    fs::write(cases.join(&name), CASE_FILE).unwrap();
    read_cases("a case file's name", &scratch);
    // And one that cannot be read, so that its name is quoted in an error.
    fs::write(cases.join(&name), "cases: [").unwrap();
    let printed = read_cases("a bad case file's name", &scratch);
    assert!(printed.contains("forged"), "{printed}");
}

/// The expectation file the plain adapter's run writes, then each of its fields planted.
#[test]
fn every_field_of_an_expectation_file() {
    let scratch = Scratch::new();
    let dir = scratch.path();
    fs::write(scratch.inputs().join("cases/cases.yaml"), CASE_FILE).unwrap();
    let cmd = scratch.refusing_adapter();
    let run = ["run", "--cases", "in/cases", "--adapter-cmd", &cmd];
    let ran = run_inert(
        "update",
        dir,
        &[&run[..], &["--update-expectations", "in/base.yaml"]].concat(),
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let base = fs::read_to_string(scratch.inputs().join("base.yaml")).unwrap();
    let siblings = planted_siblings(&yaml_tree(&base));
    assert!(siblings.len() >= 8, "{base}");
    for (pointer, planted) in siblings {
        let what = format!("expectation file {pointer}");
        fs::write(scratch.inputs().join("exp.yaml"), yaml_text(&planted)).unwrap();
        let mut reading = Reading::new(&what, dir);
        let expectations = ["--expectations", "in/exp.yaml"];
        for format in ["human", "long", "markdown", "junit", "github", "json"] {
            reading.run(&[&run, &expectations, &["--format", format]]);
        }
        let fuzz = [
            "fuzz",
            "--adapter-cmd",
            &cmd,
            "--docs",
            "10",
            "--out",
            "out/f",
        ];
        reading.run(&[&fuzz, &expectations]);
        assert_shown_or_named(&what, &pointer, &reading.finish(&scratch.inputs()).1);
    }
}

/// A manifest with every field it may have.
const MANIFEST: &str = r#"name: scripted
parser: scripted
language: Python
homepage: https://example.org/scripted
profile: rfc9309
package: { name: scripted, version: "1.0", registry: stdlib }
input: the bytes as they are
note: a note
agent: as-given
requires: [python3]
probe: ["python3", "-c", "pass"]
install_hint: install Python
setup: []
run: ["python3", "{dir}/adapter.py", "{dir}/script.json"]
"#;

fn write_adapter(folder: &Path, manifest: &str) {
    fs::create_dir_all(folder).unwrap();
    let player = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adapters/scripted.py");
    fs::copy(player, folder.join("adapter.py")).unwrap();
    let answer = serde_json::json!({"id": "$ID", "results": ["disallowed"]});
    let script = serde_json::json!({"hello": hello(), "answer": answer});
    fs::write(folder.join("script.json"), script.to_string()).unwrap();
    fs::write(folder.join("adapter.yaml"), manifest).unwrap();
}

#[test]
fn every_field_of_an_adapters_manifest() {
    let tree: Value = yaml_tree(MANIFEST);
    for (pointer, planted) in planted_siblings(&tree) {
        let scratch = Scratch::new();
        write_adapter(
            &scratch.inputs().join("adapters/scripted"),
            &yaml_text(&planted),
        );
        let what = format!("manifest {pointer}");
        let mut reading = Reading::new(&what, scratch.path());
        let adapters = ["--adapters", "in/adapters", "--cache-dir", "out/cache"];
        reading.run(&[&["adapters", "list"], &adapters]);
        reading.run(&[&["adapters", "install"], &adapters]);
        reading.run(&[&["adapters", "check", "--adapter", "scripted"], &adapters]);
        let run = ["run", "--cases", "in/cases", "--adapter", "all"];
        for format in ["human", "json", "junit", "github"] {
            reading.run(&[&run, &["--format", format], &adapters]);
        }
        let report = [
            "report",
            "--cases",
            "in/cases",
            "--out",
            "out/r",
            "--no-crawlers",
        ];
        reading.run(&[&report, &adapters]);
        let compare = [
            "compare",
            "--robots",
            "in/robots.txt",
            "--agent",
            "FooBot",
            "--path",
            "/a",
        ];
        reading.run(&[&compare, &adapters]);
        assert_shown_or_named(&what, &pointer, &reading.finish(&scratch.inputs()).1);
    }
}

/// A robots.txt given on the command line, planted in its body and its name, read by `check`,
/// `compare` and `minimize`; and the agent and path arguments themselves.
#[test]
fn a_robots_file_and_the_arguments_that_name_it() {
    let scratch = Scratch::new();
    let dir = scratch.path();
    let cmd = scratch.refusing_adapter();
    let name = format!("in/{}.txt", PLANT.replace('/', "-"));
    let body = format!("User-agent: FooBot{PLANT}\nDisallow: /a{PLANT}\nAllow: /{PLANT}\n");
    fs::write(dir.join(&name), &body).unwrap();
    let mut reading = Reading::new("a robots file", dir);
    let planted_path = format!("/a{PLANT}");
    for (agent, path) in [("FooBot", "/a"), (PLANT, "/a"), ("FooBot", &*planted_path)] {
        let asked = ["--robots", &name, "--agent", agent, "--path", path];
        for profile in ["norobots-1994", "rfc9309"] {
            reading.run(&[&["check"], &asked, &["--profile", profile]]);
        }
        for format in ["human", "json", "markdown"] {
            reading.run(&[
                &["compare"],
                &asked,
                &["--adapter-cmd", &cmd, "--format", format],
            ]);
        }
        reading.run(&[&["minimize"], &asked, &["--adapter-cmd", &cmd]]);
    }
    let (_, seen) = reading.finish(&scratch.inputs());
    assert!(seen.contains("forged"), "{seen}");
}

/// Output places named with the plant: what is said of them on the terminal, and what the
/// files written there hold of their own names.
#[test]
fn output_places_named_with_escapes() {
    let scratch = Scratch::new();
    let dir = scratch.path();
    let cmd = scratch.refusing_adapter();
    let name = PLANT.replace('/', "-");
    let (reports, findings, survey) = (format!("r{name}"), format!("f{name}"), format!("s{name}"));
    let also = format!("json=j{name}.json");
    let cases = ["--cases", "in/cases", "--adapter-cmd", &cmd];
    for args in [
        &["run", "--also-write", &also][..],
        &["run", "--update-expectations", &format!("e{name}.yaml")][..],
        &["report", "--no-crawlers", "--out", &reports][..],
        &["fuzz", "--docs", "10", "--out", &findings][..],
        &["survey", "--corpus", "in/corpus", "--out", &survey][..],
    ] {
        let cases: &[&str] = if args[0] == "run" || args[0] == "report" {
            &cases
        } else {
            &cases[2..]
        };
        let ran = run_inert("an output place", dir, &[args, cases].concat());
        assert!(ran.code < 2, "{args:?}: {}", ran.stderr);
    }
    let (files, _) = assert_files_inert("output places", dir, &[scratch.inputs()]);
    assert!(files >= 10, "{files}");
}
