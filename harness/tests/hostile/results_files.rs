//! Results files given to `diff` (and kept by `report --history`) are screened a piece at a
//! time and deserialized as a stream into what `diff` keeps: a 170 MB file once took 1.2 GB.
//! The siblings: many checks, a few checks with long ignored fields, many adapters, the run
//! format, deep nesting, bytes that are not UTF-8, and a `suite_version` whose line feed forged a
//! line of the output.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::support::{run, Ran};

/// A report's `results.json` of `adapters` adapters with `checks` checks each, every check
/// carrying `note` in a field `diff` does not read.
fn report(path: &Path, adapters: usize, checks: usize, note: &str, suite_version: &str) {
    let mut out = std::io::BufWriter::new(fs::File::create(path).unwrap());
    let version = serde_json::to_string(suite_version).unwrap();
    write!(
        out,
        "{{\"schema\": 1, \"suite_version\": {version}, \"corpus_digest\": \"sha256:00\", \
         \"date\": \"2026-11-28T10:00:00Z\", \"cases\": [{{\"checks\": ["
    )
    .unwrap();
    for i in 0..checks {
        let comma = if i + 1 < checks { "," } else { "" };
        write!(out, "{{\"id\": \"c/{i}#0\", \"digest\": \"d{i}\"}}{comma}").unwrap();
    }
    write!(out, "]}}], \"adapters\": [").unwrap();
    let note = serde_json::to_string(note).unwrap();
    for a in 0..adapters {
        write!(
            out,
            "{{\"name\": \"a{a}\", \"handshake\": {{\"version\": \"1\"}}, \"has_data\": true, \
             \"checks\": ["
        )
        .unwrap();
        for i in 0..checks {
            let comma = if i + 1 < checks { "," } else { "" };
            let answer = if (i + a) % 7 == 0 {
                "disallowed"
            } else {
                "allowed"
            };
            write!(
                out,
                "{{\"id\": \"c/{i}#0\", \"answer\": \"{answer}\", \"outcome\": {{\"claimed\": \
                 \"pass\", \"rfc9309\": \"pass\"}}, \"cause\": null, \"note\": {note}}}{comma}"
            )
            .unwrap();
        }
        let comma = if a + 1 < adapters { "," } else { "" };
        write!(out, "]}}{comma}").unwrap();
    }
    write!(out, "]}}").unwrap();
    out.flush().unwrap();
}

fn diff(dir: &Path, old: &str, new: &str, format: &str) -> Ran {
    run(dir, &["diff", old, new, "--format", format])
}

/// Peak memory of `diff` of two results files of [`SIZE_MB`] MiB each, in MiB (a debug build:
/// the 170 MB file of the README's table is measured with the release binary). A tree of the
/// file's values took seven times its size (two such files: about 200 MiB).
const SIZE_MB: usize = 12;
const PEAK_MIB: f64 = 100.0;

#[test]
fn large_results_files_are_read_as_a_stream() {
    type Shape<'a> = (&'a str, usize, usize, &'a str);
    let siblings: [Shape<'_>; 3] = [
        ("many checks", 1, 0, ""),
        ("long fields read past", 1, 0, "n"),
        ("many adapters", 300, 0, ""),
    ];
    for (what, adapters, _, note) in siblings {
        let dir = tempfile::tempdir().unwrap();
        // Each check takes about 110 bytes of file; a note of 4 KiB makes it 4 KiB.
        let note = note.repeat(4 << 10);
        let per_check = 110 + note.len();
        let checks = (SIZE_MB << 20) / per_check / adapters;
        report(
            &dir.path().join("old.json"),
            adapters,
            checks,
            &note,
            "1.0.0",
        );
        report(
            &dir.path().join("new.json"),
            adapters,
            checks,
            &note,
            "1.0.0",
        );
        let size = fs::metadata(dir.path().join("old.json")).unwrap().len();
        assert!(size > (SIZE_MB as u64 - 4) << 20, "{what}: {size} bytes");
        let ran = diff(dir.path(), "old.json", "new.json", "text");
        assert_eq!(ran.code, 0, "{what}: {}", ran.stderr);
        assert!(
            ran.stdout.contains("0 fixed, 0 broken"),
            "{what}: {}",
            ran.stdout
        );
        assert!(
            ran.peak_mib < PEAK_MIB,
            "{what}: peak {:.0} MiB",
            ran.peak_mib
        );
    }
}

#[test]
fn a_bad_results_file_is_named_by_its_line() {
    let dir = tempfile::tempdir().unwrap();
    report(&dir.path().join("good.json"), 1, 3, "", "1.0.0");
    let deep = format!(
        "{{\"schema\": 1, \"x\": {}1{}}}",
        "[".repeat(40),
        "]".repeat(40)
    );
    let siblings: [(&str, Vec<u8>, &str); 4] = [
        (
            "deep",
            deep.into_bytes(),
            "bad.json:1:51: nested more than 32 levels deep",
        ),
        (
            "latin-1",
            b"{\n\"schema\": 1,\n\"date\": \"\xe9\"}".to_vec(),
            "bad.json:3:10: not UTF-8",
        ),
        (
            "cut",
            b"{\n \"adapter\": 1,\n".to_vec(),
            "bad.json:3: not a results file",
        ),
        (
            "wrong type",
            b"[{\"adapter\": \"a\",\n \"handshake\": 7}]".to_vec(),
            "bad.json:2: not a results file",
        ),
    ];
    for (what, bytes, says) in siblings {
        fs::write(dir.path().join("bad.json"), bytes).unwrap();
        let ran = diff(dir.path(), "good.json", "bad.json", "text");
        assert_eq!(ran.code, 2, "{what}: {}", ran.stderr);
        assert!(ran.stderr.contains(says), "{what}: {}", ran.stderr);
    }
}

/// A results file's words reach no output raw: a `suite_version` holding a line feed, ESC and a
/// runner command forges no line, in any format.
#[test]
fn a_suite_version_forges_no_line() {
    let dir = tempfile::tempdir().unwrap();
    let version = "1.0.0\nnew: forged\x1b[2J\n::error::x ##[error]";
    report(&dir.path().join("old.json"), 1, 3, "", version);
    report(&dir.path().join("new.json"), 1, 3, "", "1.0.0");
    for format in ["text", "markdown", "json"] {
        let ran = diff(dir.path(), "old.json", "new.json", format);
        assert_eq!(ran.code, 0, "{format}: {}", ran.stderr);
        assert!(
            !ran.stdout.contains('\x1b'),
            "{format}: a raw ESC\n{}",
            ran.stdout
        );
        let forged: Vec<&str> = (ran.stdout.lines())
            .filter(|l| l.starts_with("new: forged") || l.trim_start().starts_with("::"))
            .collect();
        assert!(forged.is_empty(), "{format}: {forged:?}\n{}", ran.stdout);
        if format != "json" {
            assert!(!ran.stdout.contains("##["), "{format}: {}", ran.stdout);
        }
    }
}
