//! Census plans (`survey --warc FILE --plan PLAN`) are read a line at a time and kept packed: a
//! plan was read whole into a map at about six times its size (a 128 MiB plan took 821 MB). The
//! siblings: many captures, long lines, deep lines, a capture planned twice at the end, a NUL,
//! bytes that are not UTF-8, and a census name of escapes.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::support::{hostile_cmd, run, Ran};

/// The census file the plans name: a small WARC file of the census tests.
fn warc() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/census/hard.warc.gz")
}

/// A plan's header line, for a census named `name`.
fn header(name: &str) -> String {
    let header = serde_json::json!({
        "plan": "robotstxt-test census plan 1",
        "name": name,
        "warc": "hard.warc.gz",
        "part": 1,
        "parts": 1,
    });
    format!("{header}\n")
}

/// Writes a plan of `count` captures at offsets no record of the file has, then `tail`.
fn plan(path: &Path, name: &str, count: u64, tail: &str) {
    let mut out = std::io::BufWriter::new(fs::File::create(path).unwrap());
    out.write_all(header(name).as_bytes()).unwrap();
    for i in 0..count {
        writeln!(out, "{{\"offset\":{},\"status\":200}}", 1_000_000_000 + i).unwrap();
    }
    out.write_all(tail.as_bytes()).unwrap();
    out.flush().unwrap();
}

fn survey(dir: &Path) -> Ran {
    let cmd = hostile_cmd("plain", dir);
    let warc = warc();
    let args = [
        "survey",
        "--warc",
        warc.to_str().unwrap(),
        "--plan",
        "plan.jsonl",
        "--adapter-cmd",
        &cmd,
        "--out",
        "out",
    ];
    run(dir, &args)
}

/// Peak memory of a survey whose plan is [`MANY`] captures (32 MiB), in MiB: the plan's text was
/// held whole with a map of its entries (about 200 MiB at this size).
const MANY_MIB: f64 = 120.0;
const MANY: u64 = 1_000_000;

#[test]
fn a_large_plan_is_read_a_line_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    plan(&dir.path().join("plan.jsonl"), "big", MANY, "");
    let size = fs::metadata(dir.path().join("plan.jsonl")).unwrap().len();
    assert!(size > 30 << 20, "{size}");
    let ran = survey(dir.path());
    // Read whole, then checked against the file: it names captures the file does not hold.
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains(&format!("the plan names {MANY} captures")),
        "{}",
        ran.stderr
    );
    assert!(ran.peak_mib < MANY_MIB, "peak {:.0} MiB", ran.peak_mib);
}

#[test]
fn a_bad_line_anywhere_is_named_by_its_line() {
    let long = format!(
        "{{\"offset\":1,\"status\":200,\"x\":\"{}\"}}\n",
        "a".repeat(70 << 10)
    );
    let deep = format!(
        "{{\"offset\":1,\"status\":200,\"x\":{}1{}}}\n",
        "[".repeat(20),
        "]".repeat(20)
    );
    let siblings: [(&str, String, usize, &str); 5] = [
        (
            "planned twice",
            "{\"offset\":1000000005,\"status\":200}\n".to_owned(),
            1002,
            "planned twice",
        ),
        (
            "a long line",
            long,
            1002,
            "longer than the limit of 65536 bytes",
        ),
        ("a deep line", deep, 1002, "nested more than 8 levels"),
        (
            "a NUL inside a number",
            "{\"offset\":1,\"status\":2\u{0}0}\n".to_owned(),
            1002,
            "column",
        ),
        (
            "no hosts",
            "{\"offset\":7,\"status\":200,\"hosts\":0}\n".to_owned(),
            1002,
            "`hosts` is 0",
        ),
    ];
    for (what, tail, line, says) in siblings {
        let dir = tempfile::tempdir().unwrap();
        plan(&dir.path().join("plan.jsonl"), "bad", 1000, &tail);
        let ran = survey(dir.path());
        assert_eq!(ran.code, 2, "{what}: {}", ran.stderr);
        let place = format!("plan.jsonl:{line}: ");
        assert!(
            ran.stderr.contains(&place) && ran.stderr.contains(says),
            "{what}: {}",
            ran.stderr
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = header("x").into_bytes();
    bytes.extend_from_slice(b"{\"offset\":1,\"status\":200}\n{\"offset\":\"\xff\"}\n");
    fs::write(dir.path().join("plan.jsonl"), bytes).unwrap();
    let ran = survey(dir.path());
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("plan.jsonl:3: column 12: not UTF-8"),
        "{}",
        ran.stderr
    );
}

/// A census's name comes from its plan: an escape in it reaches neither the terminal nor
/// `survey.md` nor `survey.json` raw.
#[test]
fn a_census_name_of_escapes_is_shown_visibly() {
    let dir = tempfile::tempdir().unwrap();
    let captures = crate::support::run(
        dir.path(),
        &["survey", "captures", "--warc", warc().to_str().unwrap()],
    );
    assert_eq!(captures.code, 0, "{}", captures.stderr);
    let name = "c\x1b]0;owned\x07\n# forged\u{202e}";
    let mut text = header(name);
    // Every response planned as its host's last, none standing for a body: a plan the file holds.
    for line in captures.stdout.lines() {
        let capture: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut entry =
            serde_json::json!({"offset": capture["offset"], "status": capture["status"]});
        if let Some(index) = capture.get("index") {
            entry["index"] = index.clone();
        }
        text.push_str(&format!("{entry}\n"));
    }
    fs::write(dir.path().join("plan.jsonl"), text).unwrap();
    let ran = survey(dir.path());
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    for (what, text) in [
        ("stdout", ran.stdout.clone()),
        ("stderr", ran.stderr.clone()),
        (
            "survey.md",
            fs::read_to_string(dir.path().join("out/survey.md")).unwrap(),
        ),
        (
            "survey.json",
            fs::read_to_string(dir.path().join("out/survey.json")).unwrap(),
        ),
    ] {
        assert!(
            !text.contains(['\x1b', '\x07', '\u{202e}']),
            "{what}: {text}"
        );
        assert!(!text.contains("\n# forged"), "{what}: a forged line");
    }
}
