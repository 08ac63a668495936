//! Shared by the tests that drive the `robotstxt-test` binary: a scratch folder with a corpus and a
//! small scripted adapter, and a way to run the binary and keep what it said.

#![allow(dead_code)] // each test file uses its own part of this

use std::path::{Path, PathBuf};
use std::process::Command;

/// An adapter in Python that answers `allowed` to everything, except that it rejects a body
/// holding `REJECT` with an error message full of characters that need escaping (unless its third
/// argument is `agree`), and takes its handshake's name and version from its arguments.
pub const FAKE_ADAPTER: &str = r#"
import base64, json, sys
name = sys.argv[1] if len(sys.argv) > 1 else "fake"
version = sys.argv[2] if len(sys.argv) > 2 else "1.0"
rejects = (sys.argv[3] if len(sys.argv) > 3 else "rejects") != "agree"
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        answer = {"name": name, "parser": "fake", "version": version, "language": "Python",
                  "homepage": "https://example.org/fake", "profile": "norobots-1994"}
    elif msg["type"] == "check":
        body = base64.b64decode(msg["robots_b64"])
        if rejects and b"REJECT" in body:
            answer = {"id": msg["id"], "error": "Rejected \x01\x1b <&> ]]> \"quoted\" 'single'"}
        else:
            answer = {"id": msg["id"], "results": ["allowed"] * len(msg["queries"])}
    else:
        break
    print(json.dumps(answer), flush=True)
"#;

/// A scratch folder: `cases/` (the corpus), the fake adapter, and room for outputs.
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new(corpus: &str) -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("cases")).unwrap();
        std::fs::write(dir.path().join("fake.py"), FAKE_ADAPTER).unwrap();
        let scratch = Scratch { dir };
        scratch.corpus(corpus);
        scratch
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Replaces the corpus with one file, `gate.yaml`.
    pub fn corpus(&self, yaml: &str) {
        std::fs::write(self.path("cases/gate.yaml"), yaml).unwrap();
    }

    /// The fake adapter's `--adapter-cmd` value.
    pub fn fake_cmd(&self, args: &str) -> String {
        format!("python3 {} {args}", self.path("fake.py").display())
    }

    /// The fake adapter's `--adapter-cmd` value, with arguments quoted as a shell would need.
    pub fn fake_cmd_quoted(&self, args: &[&str]) -> String {
        let script = self.path("fake.py").to_string_lossy().into_owned();
        let mut argv = vec!["python3", script.as_str()];
        argv.extend_from_slice(args);
        shlex::try_join(argv).unwrap()
    }

    /// Runs the binary in the scratch folder with `--cases cases` added after the subcommand.
    pub fn run(&self, subcommand: &str, args: &[&str]) -> Output {
        let mut all = vec![subcommand, "--cases", "cases"];
        all.extend_from_slice(args);
        run_binary(self.dir.path(), &all)
    }
}

/// What the binary did.
#[derive(Debug)]
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run_binary(dir: &Path, args: &[&str]) -> Output {
    output_of(&mut binary(dir, args))
}

/// The binary with `args`, to run in `dir`, without colours.
pub fn binary(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"));
    command.args(args).current_dir(dir).env("NO_COLOR", "1");
    command
}

/// Runs `command` to its end and keeps its exit code and what it said.
pub fn output_of(command: &mut Command) -> Output {
    let output = command.output().expect("the command runs");
    Output {
        code: output.status.code().expect("exited normally"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The names in a folder, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Text that would run script if any page put it into markup unescaped.
pub const HOSTILE: &str =
    "<script>window.__pwned=1</script>\"><img src=x onerror=\"document.title='pwned'\">\
                           </script><script>document.title='pwned-break'</script><!--";

/// An adapter name and version built to break pages that do not escape.
pub const HOSTILE_NAME: &str = "evil<img src=x onerror=\"document.title='pwned-name'\">|*_[x](y)";
pub const HOSTILE_VERSION: &str = "\"><script>document.title='pwned-version'</script>";

/// The thread the hostile corpus's plain case names: characters markup cares about, in the URL's
/// normal form.
pub const REPORTED: &str = "https://example.com/t/1?q=%3Cb%3E&x=(y)*_";

/// A corpus whose case content is hostile everywhere a string can go: the body (with control
/// bytes and a BOM too), the spec, the note, the agent and the path.
pub fn hostile_corpus() -> String {
    let body = format!(
        "\u{feff}User-agent: *\r\nDisallow: /private\r\n# {HOSTILE}\n\u{1}\u{1b}\tREJECT\n"
    );
    let doc = serde_json::json!({
        "cases": [
            {
                "name": "script-tags",
                "spec": format!("spec {HOSTILE}"),
                "note": format!("note {HOSTILE}"),
                "robots": body,
                "checks": [
                    { "agent": "\"><img src=x onerror=document.title='pwned-agent'>", "path": "/private/x", "expect": "disallowed" },
                    { "agent": "FooBot", "path": "/<script>document.title='pwned-path'</script>", "expect": "allowed" }
                ]
            },
            {
                "name": "plain",
                "spec": "test",
                "reported": REPORTED,
                "robots": "User-agent: *\nDisallow: /a\n",
                "checks": [
                    { "agent": "FooBot", "path": "/a", "expect": "disallowed", "reported": "allowed" },
                    { "agent": "FooBot", "path": "/b", "expect": "allowed" }
                ]
            }
        ]
    });
    serde_yaml::to_string(&doc).unwrap()
}

/// Every file under `dir` (symbolic links as files), as paths relative to it, sorted.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.is_symlink() {
                pending.push(path);
            } else {
                found.push(path.strip_prefix(dir).unwrap().to_owned());
            }
        }
    }
    found.sort();
    found
}

/// The root of this checkout.
pub fn checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// The target folder this test was built in (`<target>/<profile>/deps/<test binary>`), which a
/// `cargo install --path` reuses.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::current_exe()
            .unwrap()
            .ancestors()
            .nth(3)
            .unwrap()
            .to_owned(),
    }
}

/// A corpus of four checks for [`FAKE_ADAPTER`], which answers `allowed` everywhere: `open#0`
/// passes, `closed#0` fails, `closed#1` is open under the 1994 text, `rejected#0` is an error.
/// So 1 of 3 decided checks passes: 33.3%.
pub const FOUR_CHECKS: &str = r#"cases:
  - name: open
    spec: test
    robots: "User-agent: *\n"
    checks:
      - { agent: FooBot, path: /a, expect: allowed }
  - name: closed
    spec: test
    robots: "User-agent: *\nDisallow: /\n"
    checks:
      - { agent: FooBot, path: /a, expect: disallowed }
      - { agent: FooBot, path: /b, expect: { norobots-1994: unspecified } }
  - name: rejected
    spec: test
    robots: "REJECT\n"
    checks:
      - { agent: FooBot, path: /a, expect: allowed }
"#;
