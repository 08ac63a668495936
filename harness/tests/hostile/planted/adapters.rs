//! The adapter door: its handshake, its answers (verdicts, a query refused, a body refused) and
//! its stderr, each field planted in turn, read by `run` in every format (with an expectation file
//! and without), `report`, `compare`, `fuzz` and `survey`.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::{assert_files_inert, planted_siblings, run_inert, PLANT};

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
}

/// Every command that reads an adapter, in every format; then every file they wrote. Returns
/// whether the planted text was shown anywhere (made visible), not dropped.
fn read_everywhere(what: &str, script: &Value) -> bool {
    let scratch = Scratch::new();
    let dir = scratch.path();
    let cmd = scratch.adapter(script);
    let mut printed = String::new();
    let mut read = |args: &[&str]| {
        let ran = run_inert(what, dir, args);
        printed.push_str(&ran.stdout);
        printed.push_str(&ran.stderr);
    };
    for format in ["human", "long", "markdown", "junit", "github", "json"] {
        read(&[
            "run",
            "--cases",
            "in/cases",
            "--adapter-cmd",
            &cmd,
            "--format",
            format,
        ]);
    }
    for format in ["human", "markdown", "github"] {
        let gate = ["--expectations", "in/none.yaml", "--format", format];
        read(
            &[
                &["run", "--cases", "in/cases", "--adapter-cmd", &cmd][..],
                &gate,
            ]
            .concat(),
        );
    }
    let report = ["report", "--cases", "in/cases", "--adapter-cmd", &cmd];
    read(&[&report[..], &["--out", "out/reports", "--no-crawlers"]].concat());
    for format in ["human", "json", "markdown"] {
        let args = [
            "compare",
            "--robots",
            "in/robots.txt",
            "--agent",
            "FooBot",
            "--path",
            "/a",
        ];
        read(&[&args[..], &["--adapter-cmd", &cmd, "--format", format]].concat());
    }
    let fuzz = ["fuzz", "--adapter-cmd", &cmd, "--docs", "30", "--seed", "1"];
    read(&[&fuzz[..], &["--out", "out/findings"]].concat());
    let survey = ["survey", "--corpus", "in/corpus", "--adapter-cmd", &cmd];
    read(&[&survey[..], &["--out", "out/survey"]].concat());
    let (files, written) = assert_files_inert(what, dir, &[scratch.inputs()]);
    assert!(files >= 5, "{what}: the runs wrote {files} files");
    printed.contains("forged") || written.contains("forged")
}

fn script(hello: Value, answer: Value, stderr: &str, exit: bool) -> Value {
    json!({"hello": hello, "answer": answer, "stderr": stderr, "exit": exit})
}

#[test]
fn every_field_of_a_handshake() {
    for (pointer, hello) in planted_siblings(&hello()) {
        let [answer, _] = answers();
        read_everywhere(
            &format!("hello {pointer}"),
            &script(hello, answer, "", false),
        );
    }
}

#[test]
fn every_field_of_an_answer() {
    for answer in answers() {
        for (pointer, planted) in planted_siblings(&answer) {
            read_everywhere(
                &format!("answer {pointer}"),
                &script(hello(), planted, "", false),
            );
        }
    }
}

#[test]
fn stderr_of_an_adapter_that_answers_and_of_one_that_dies() {
    let [answer, _] = answers();
    for exit in [false, true] {
        read_everywhere(
            &format!("stderr, exit {exit}"),
            &script(hello(), answer.clone(), PLANT, exit),
        );
    }
}

/// The plain script reads and fails as its cases say: the planted ones differ from it by the
/// plant alone.
#[test]
fn the_plain_adapter_is_read_and_fails_its_cases() {
    let scratch = Scratch::new();
    let [answer, _] = answers();
    let cmd = scratch.adapter(&script(hello(), answer, "", false));
    let ran = run_inert(
        "plain",
        scratch.path(),
        &["run", "--cases", "in/cases", "--adapter-cmd", &cmd],
    );
    assert_eq!(ran.code, 1, "{}\n{}", ran.stdout, ran.stderr);
    assert!(ran.stdout.contains("scripted"), "{}", ran.stdout);
}
