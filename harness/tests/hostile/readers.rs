//! Every place in the binary's sources that opens a file's contents or deserializes text goes
//! through the one reader (`robotstxt_suite::input`), or is listed here with the reason it need
//! not: a file the binary wrote itself, a kernel file under `/proc`, or a line from an adapter,
//! which the runtime caps before it is parsed. A new read anywhere else fails this test.

use std::fs;
use std::path::{Path, PathBuf};

/// What reads a file's contents or deserializes text.
const READS: &[&str] = &[
    "fs::read(",
    "read_to_string(",
    "File::open(",
    "OpenOptions",
    "serde_yaml::from_",
    "serde_json::from_reader",
    "serde_json::from_slice",
    "serde_json::from_str",
];

/// The crates the binary is made of.
const SOURCES: &[&str] = &[
    "suite/src",
    "results/src",
    "runtime/src",
    "harness/src",
    "survey/src",
    "fuzzer/src",
    "adapters/protocol/src",
    "crawl/src",
];

/// (file, text of the line, why it need not use the reader).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "crawl/src/process.rs",
        "std::fs::read(entry.path().join(\"environ\"))",
        "a kernel file",
    ),
    (
        "crawl/src/session.rs",
        "std::fs::File::open(workdir.join(\"stderr.txt\"))",
        "the file the harness gave a crawler for its stderr, read from its last 64 KiB",
    ),
    (
        "suite/src/input/mod.rs",
        "serde_yaml::from_str(&self.text)",
        "the reader itself",
    ),
    (
        "suite/src/input/mod.rs",
        "serde_json::from_str(text)",
        "the reader itself",
    ),
    (
        "suite/src/input/lines.rs",
        "let parsed = serde_json::from_str(text).map_err(|e| {",
        "the reader itself, a line at a time",
    ),
    (
        "results/src/load.rs",
        "serde_json::from_reader(screened_json_stream(path, RESULTS_JSON)?)",
        "a results file the one reader screened whole, deserialized as a stream",
    ),
    (
        "results/src/load.rs",
        "serde_json::from_reader::<_, IgnoredAny>(screened_json_stream(",
        "the same, read again to place a syntax error, keeping nothing",
    ),
    (
        "suite/src/input/mod.rs",
        "Ok(File::open(path)?)",
        "the reader itself, where no open can be told not to wait (what is not a regular file is \
         refused before)",
    ),
    (
        "runtime/src/suite.rs",
        "read_to_string(dir.join(\"harness/Cargo.toml\"))",
        "recognising a checkout of this repository: its own manifest",
    ),
    (
        "runtime/src/suite.rs",
        "File::open(path).is_ok_and(|file| {",
        "the cache's copy of a carried file, compared with it: a regular file of the same size, \
         read up to one byte past it",
    ),
    (
        "runtime/src/adapter/holders.rs",
        "/proc/{pid}/stat",
        "a kernel file",
    ),
    ("survey/src/census.rs", "/proc/self/status", "a kernel file"),
    (
        "runtime/src/adapter/install.rs",
        "read_to_string(marker)",
        "the install marker the binary wrote itself",
    ),
    (
        "runtime/src/adapter/codec.rs",
        "serde_json::from_slice(line)",
        "an adapter's line, capped at MAX_LINE by the pipes before it is parsed",
    ),
    (
        "runtime/src/adapter/check.rs",
        "serde_json::from_slice(answer)",
        "an adapter's line, capped at MAX_LINE by the pipes before it is parsed",
    ),
    (
        "runtime/src/adapter/departures.rs",
        "serde_json::from_slice::<Value>(line)",
        "an adapter's line, capped at MAX_LINE by the pipes before it is parsed",
    ),
    (
        "runtime/src/swap.rs",
        "File::open(out)?",
        "a folder opened to lock it",
    ),
    (
        "runtime/src/atomic.rs",
        "File::open(dir)",
        "a folder opened to sync it",
    ),
    (
        "runtime/src/swap.rs",
        "File::open(&path)?.sync_all()",
        "a file written, opened to sync it",
    ),
    (
        "runtime/src/swap.rs",
        "File::open(staging)?.sync_all()",
        "a folder opened to sync it",
    ),
    (
        "adapters/protocol/src/build.rs",
        "serde_yaml::from_str(&read(&manifest_path)?)",
        "an adapter's build script reading its own manifest at build time, not the binary",
    ),
    (
        "adapters/protocol/src/build.rs",
        "read_to_string(path)",
        "an adapter's build script reading its own manifest at build time, not the binary",
    ),
    (
        "adapters/protocol/src/wire.rs",
        "serde_json::from_slice(line)",
        "the adapter kit decoding a line, on the adapter's side",
    ),
    (
        "adapters/protocol/src/serve.rs",
        "serde_json::from_str(&line)",
        "the adapter kit decoding the harness's request, on the adapter's side",
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_place_that_reads_a_file_uses_the_one_reader() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    for dir in SOURCES {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "found {} source files", files.len());
    let mut unlisted = Vec::new();
    let mut used = vec![false; ALLOWED.len()];
    for file in &files {
        let name = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // A module's tests read the files they write; the binary does not run them (a module's
        // tests may have a file of their own, `tests.rs`).
        if name.ends_with("/tests.rs") {
            continue;
        }
        let text = fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        for (number, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") || !READS.iter().any(|r| line.contains(r)) {
                continue;
            }
            let allowed = ALLOWED
                .iter()
                .position(|(f, snippet, _)| *f == name && line.contains(snippet));
            match allowed {
                Some(i) => used[i] = true,
                None => unlisted.push(format!("{name}:{}: {}", number + 1, line.trim())),
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "reads that do not go through robotstxt_suite::input:\n{}",
        unlisted.join("\n")
    );
    let stale: Vec<_> = (ALLOWED.iter().zip(&used))
        .filter(|(_, used)| !**used)
        .map(|((f, s, _), _)| format!("{f}: {s}"))
        .collect();
    assert!(
        stale.is_empty(),
        "allowed reads no longer in the sources: {stale:?}"
    );
}
