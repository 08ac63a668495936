//! The adapter door: its handshake, its answers (verdicts, a query refused, a body refused) and
//! its stderr, each field planted in turn, read by `run` in every format (with an expectation file
//! and without), `report`, `compare`, `fuzz` and `survey`.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::{planted_siblings, run_inert, Reading, PLANT};

/// Two cases that fail for an adapter answering `disallowed`, whose second query it refuses.
pub const CASES: &str = "cases:
  - name: first
    spec: test
    robots: \"User-agent: *\\nAllow: /\\n\"
    checks:
      - { agent: FooBot, path: /a, expect: allowed }
      - { agent: FooBot, path: /b, expect: allowed }
  - name: second
    spec: test
    robots: \"User-agent: FooBot\\nDisallow: /x\\n\"
    checks:
      - { agent: FooBot, path: /a, expect: allowed }
";

pub fn hello() -> Value {
    json!({
        "name": "scripted", "parser": "scripted", "version": "1.0", "language": "Python",
        "homepage": "https://example.org/scripted", "profile": "rfc9309"
    })
}

/// An answer of verdicts with one query refused; a body refused.
fn answers() -> [Value; 2] {
    [
        json!({"id": "$ID", "results": ["disallowed", {"error": "refused"}]}),
        json!({"id": "$ID", "error": "the parser rejected the body"}),
    ]
}

/// A scratch folder: the inputs under `in/` (cases, a robots.txt, a corpus, an empty
/// expectation file), and the adapter's command for `script`.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        let inputs = dir.path().join("in");
        fs::create_dir_all(inputs.join("cases")).unwrap();
        fs::create_dir_all(inputs.join("corpus")).unwrap();
        fs::write(inputs.join("cases/cases.yaml"), CASES).unwrap();
        fs::write(inputs.join("robots.txt"), "User-agent: *\nDisallow: /a\n").unwrap();
        fs::write(
            inputs.join("corpus/a.txt"),
            "User-agent: *\nAllow: /p\nDisallow: /\n",
        )
        .unwrap();
        fs::write(
            inputs.join("corpus/b.txt"),
            "User-agent: *\nDisallow: /*.gif$\n",
        )
        .unwrap();
        fs::write(
            inputs.join("none.yaml"),
            "adapter: scripted\nexpectations: []\n",
        )
        .unwrap();
        Scratch { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn inputs(&self) -> PathBuf {
        self.path().join("in")
    }

    /// Writes `script` and returns the `--adapter-cmd` that plays it.
    pub fn adapter(&self, script: &Value) -> String {
        let path = self.inputs().join("script.json");
        fs::write(&path, serde_json::to_vec(script).unwrap()).unwrap();
        let player = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adapters/scripted.py");
        format!("python3 {} {}", player.display(), path.display())
    }

    /// The plain adapter: it answers `disallowed`, and refuses every query after a body's first.
    pub fn refusing_adapter(&self) -> String {
        let [answer, _] = answers();
        self.adapter(&script(hello(), answer, "", false))
    }

    /// An adapter that answers `disallowed` to everything: it disagrees with the reference on
    /// what a body allows, so that a survey has causes and examples to show.
    pub fn disallowing_adapter(&self) -> String {
        let answer = json!({"id": "$ID", "results": ["disallowed"]});
        self.adapter(&script(hello(), answer, "", false))
    }
}

/// Every command that reads an adapter, in every format; then every file they wrote. Returns
/// whether the planted text was shown anywhere (made visible), not dropped.
fn read_everywhere(what: &str, script: &Value) -> bool {
    let scratch = Scratch::new();
    let cmd = scratch.adapter(script);
    let mut reading = Reading::new(what, scratch.path());
    let run = ["run", "--cases", "in/cases", "--adapter-cmd", &cmd];
    for format in ["human", "long", "markdown", "junit", "github", "json"] {
        reading.run(&[&run, &["--format", format]]);
    }
    for format in ["human", "markdown", "github"] {
        reading.run(&[
            &run,
            &["--expectations", "in/none.yaml", "--format", format],
        ]);
    }
    let report = ["report", "--cases", "in/cases", "--adapter-cmd", &cmd];
    reading.run(&[&report, &["--out", "out/reports", "--no-crawlers"]]);
    let compare = [
        "compare",
        "--robots",
        "in/robots.txt",
        "--agent",
        "FooBot",
        "--path",
        "/a",
    ];
    for format in ["human", "json", "markdown"] {
        reading.run(&[&compare, &["--adapter-cmd", &cmd, "--format", format]]);
    }
    let fuzz = ["fuzz", "--adapter-cmd", &cmd, "--docs", "30", "--seed", "1"];
    reading.run(&[&fuzz, &["--out", "out/findings"]]);
    reading.run(&[&[
        "survey",
        "--corpus",
        "in/corpus",
        "--adapter-cmd",
        &cmd,
        "--out",
        "out/survey",
    ]]);
    let (files, seen) = reading.finish(&scratch.inputs());
    assert!(files >= 5, "{what}: the runs wrote {files} files");
    seen.contains("forged")
}

fn script(hello: Value, answer: Value, stderr: &str, exit: bool) -> Value {
    json!({"hello": hello, "answer": answer, "stderr": stderr, "exit": exit})
}

#[test]
fn every_field_of_a_handshake() {
    for (pointer, hello) in planted_siblings(&hello()) {
        let [answer, _] = answers();
        let what = format!("hello {pointer}");
        let shown = read_everywhere(&what, &script(hello, answer, "", false));
        assert!(shown, "{what}: the plant is not shown");
    }
}

#[test]
fn every_field_of_an_answer() {
    for answer in answers() {
        for (pointer, planted) in planted_siblings(&answer) {
            let what = format!("answer {pointer}");
            let shown = read_everywhere(&what, &script(hello(), planted, "", false));
            assert!(shown, "{what}: the plant is not shown");
        }
    }
}

/// Stderr is shown when the adapter breaks down; one that answers has it kept quiet.
#[test]
fn stderr_of_an_adapter_that_answers_and_of_one_that_dies() {
    let [answer, _] = answers();
    for exit in [false, true] {
        let what = format!("stderr, exit {exit}");
        let shown = read_everywhere(&what, &script(hello(), answer.clone(), PLANT, exit));
        assert_eq!(shown, exit, "{what}");
    }
}

/// The plain script reads and fails as its cases say: the planted ones differ from it by the
/// plant alone.
#[test]
fn the_plain_adapter_is_read_and_fails_its_cases() {
    let scratch = Scratch::new();
    let cmd = scratch.refusing_adapter();
    let ran = run_inert(
        "plain",
        scratch.path(),
        &["run", "--cases", "in/cases", "--adapter-cmd", &cmd],
    );
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("scripted"), "{}", ran.stdout);
}
