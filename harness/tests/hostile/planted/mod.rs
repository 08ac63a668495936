//! Escapes planted in every field of every input, looked for in every output.
//!
//! Each door the binary reads outside text through (an adapter's handshake, answers and stderr; a
//! case file; an expectation file; an adapter's manifest; a results file given to `diff` or kept
//! in the history; a corpus's file names; a census plan; a survey merged; a crawler's manifest
//! and requests) is given a plain input that works, and then one sibling per field of it: each
//! value in the tree with [`PLANT`] added (a number or a flag replaced by it), and each key
//! renamed with it, so that both the text a reader keeps and the text an error quotes are tried.
//! Every command that reads the door runs in every format it has, and everything it prints and
//! writes is scanned: no raw control or bidirectional character, no line a CI runner would obey.

mod adapters;
mod crawl;
mod inputs;
mod results;
mod survey;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{own_annotation, run, Ran};

/// What is planted: a colour, a right-to-left override, a bell, a C1 CSI, a carriage return, and
/// a carriage return, and line feeds that would start runner commands, with the legacy forms inside a line.
pub const PLANT: &str = "p\x1b[31m\u{202e}\x07\r\u{9b}\n::error::forged\n  ::add-mask::forged \
                         ##[error]forged ##vso[task.complete]forged";

/// Whether `c` must not reach any output raw: a control character but the line feed, or a
/// bidirectional formatting character. (Written out here rather than taken from the crate under
/// test, so that a mistake there shows.)
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Panics when `text` holds a raw hidden character or a line a CI runner would read as a
/// command. `annotations`: the text is `--format github` output, where the binary's own
/// annotations are lines of their own.
pub fn assert_inert(what: &str, text: &str, annotations: bool) {
    if let Some(problem) = problem(text, annotations) {
        panic!("{what}: {problem}");
    }
}

/// What in `text` is not inert, if anything (see [`assert_inert`]).
fn problem(text: &str, annotations: bool) -> Option<String> {
    if let Some(at) = text.find(hidden) {
        let from = text[..at]
            .char_indices()
            .rev()
            .nth(40)
            .map_or(0, |(i, _)| i);
        let to = (at + 60).min(text.len());
        let to = (to..=text.len())
            .find(|&i| text.is_char_boundary(i))
            .unwrap();
        return Some(format!("a raw hidden character: {:?}", &text[from..to]));
    }
    for line in text.lines() {
        if line.trim_start().starts_with("::") && !(annotations && own_annotation(line)) {
            return Some(format!("a runner command line: {line:?}"));
        }
        if line.contains("##[") || line.contains("##vso[") {
            return Some(format!("a legacy runner command: {line:?}"));
        }
    }
    None
}

/// Scans what a run printed (`github`: its stdout is annotations).
pub fn assert_ran_inert(what: &str, ran: &Ran, github: bool) {
    assert!(
        ran.code != 101 && ran.code < 128,
        "{what}: exit {}\n{}",
        ran.code,
        ran.stderr
    );
    assert_inert(&format!("{what}, stdout"), &ran.stdout, github);
    assert_inert(&format!("{what}, stderr"), &ran.stderr, false);
}

/// Scans every file under `dir` but those under `skip` (what the runs wrote); returns how many,
/// and their text.
pub fn assert_files_inert(what: &str, dir: &Path, skip: &[PathBuf]) -> (usize, String) {
    let mut scanned = 0;
    let mut all = String::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        let path = entry.path();
        if !entry.file_type().is_file() || skip.iter().any(|s| path.starts_with(s)) {
            continue;
        }
        let bytes = std::fs::read(path).unwrap();
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if path.extension().is_some_and(|e| e == "csv") {
            // RFC 4180 ends a record with CRLF: the format's, not the text's (the plant's carriage
            // return stands alone).
            text = text.replace("\r\n", "\n");
        }
        assert_inert(&format!("{what}: {path:?}"), &text, false);
        scanned += 1;
        all += &text;
    }
    (scanned, all)
}

/// Asserts that what a planted input gave was not silently dropped: the plant is shown (made
/// visible) somewhere in `seen`, or the field it was planted in is named (a refusal that says
/// which field holds a control character, without repeating it).
pub fn assert_shown_or_named(what: &str, pointer: &str, seen: &str) {
    let field = pointer
        .trim_end_matches(" (key)")
        .rsplit('/')
        .find(|s| s.parse::<usize>().is_err());
    let named = field.is_some_and(|f| !f.is_empty() && seen.contains(f));
    assert!(
        seen.contains("forged") || named,
        "{what}: neither shown nor named\n{seen}"
    );
}

/// Runs the binary in `dir` and scans what it printed.
pub fn run_inert(what: &str, dir: &Path, args: &[&str]) -> Ran {
    let github = args.windows(2).any(|w| w == ["--format", "github"]);
    let ran = run(dir, args);
    assert_ran_inert(&format!("{what} {args:?}"), &ran, github);
    ran
}

/// The runs of one planted input in one scratch folder: each scanned as it ends, what it
/// printed kept, so that the input's text can be looked for once every command has read it.
pub struct Reading<'a> {
    what: String,
    dir: &'a Path,
    printed: String,
}

impl<'a> Reading<'a> {
    pub fn new(what: impl Into<String>, dir: &'a Path) -> Reading<'a> {
        let what = what.into();
        Reading {
            what,
            dir,
            printed: String::new(),
        }
    }

    /// Runs the binary with the arguments of `parts`, one after another; scans what it printed.
    pub fn run(&mut self, parts: &[&[&str]]) -> Ran {
        let ran = run_inert(&self.what, self.dir, &parts.concat());
        self.printed += &ran.stdout;
        self.printed += &ran.stderr;
        ran
    }

    /// Scans every file the runs wrote (all but those under `skip`); returns how many, and
    /// everything printed and written.
    pub fn finish(self, skip: &Path) -> (usize, String) {
        let (files, written) = assert_files_inert(&self.what, self.dir, &[skip.to_owned()]);
        (files, self.printed + &written)
    }
}

/// Every sibling of `tree` with one field planted, each named by its JSON pointer: each value
/// (a string with [`PLANT`] added, anything else replaced by it) and each key (renamed with it).
pub fn planted_siblings(tree: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    plant_below(
        tree,
        &mut Vec::new(),
        &mut |pointer, planted| out.push((pointer, planted)),
        tree,
    );
    out
}

/// The siblings with one field of each kind planted: a field of the first item of a list stands
/// for the same field of every other item.
pub fn one_of_each_kind(siblings: Vec<(String, Value)>) -> Vec<(String, Value)> {
    let mut kinds = std::collections::BTreeSet::new();
    siblings
        .into_iter()
        .filter(|(pointer, _)| {
            let kind: Vec<&str> = (pointer.split('/'))
                .map(|p| if p.parse::<usize>().is_ok() { "*" } else { p })
                .collect();
            kinds.insert(kind.join("/"))
        })
        .collect()
}

fn plant_below(
    here: &Value,
    path: &mut Vec<String>,
    emit: &mut dyn FnMut(String, Value),
    root: &Value,
) {
    match here {
        Value::Object(map) => {
            for (key, value) in map {
                let parent_at = pointer(path);
                path.push(key.clone());
                let at = pointer(path);
                let mut renamed = root.clone();
                let parent = renamed.pointer_mut(&parent_at).unwrap();
                let map = parent.as_object_mut().unwrap();
                let taken = map.remove(key).unwrap();
                map.insert(format!("{key}{PLANT}"), taken);
                emit(format!("{at} (key)"), renamed);
                plant_below(value, path, emit, root);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i.to_string());
                plant_below(item, path, emit, root);
                path.pop();
            }
        }
        leaf => {
            let at = pointer(path);
            let mut planted = root.clone();
            *planted.pointer_mut(&at).unwrap() = match leaf {
                Value::String(s) => Value::String(format!("{s}{PLANT}")),
                _ => Value::String(PLANT.to_owned()),
            };
            emit(at, planted);
        }
    }
}

/// The JSON pointer of `path` (RFC 6901).
fn pointer(path: &[String]) -> String {
    path.iter()
        .map(|p| format!("/{}", p.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// A YAML document as a JSON tree, and back: the YAML writer escapes what it must.
pub fn yaml_tree(text: &str) -> Value {
    serde_yaml::from_str(text).unwrap()
}

pub fn yaml_text(tree: &Value) -> String {
    serde_yaml::to_string(tree).unwrap()
}

#[test]
fn every_field_is_planted_and_the_scan_would_see_it() {
    let tree: Value = serde_json::json!({"a": "x", "b": [1, {"c": true}]});
    let pointers: Vec<String> = planted_siblings(&tree)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert_eq!(
        pointers,
        [
            "/a (key)",
            "/a",
            "/b (key)",
            "/b/0",
            "/b/1/c (key)",
            "/b/1/c"
        ]
    );
    for (pointer, sibling) in planted_siblings(&tree) {
        let text = serde_json::to_string(&sibling).unwrap();
        assert!(text.contains("\\u001b[31m"), "{pointer}: {text}");
    }
    // The scan fails on the plant as it is, and on each of its parts alone.
    for bad in [
        PLANT,
        "a\x1bb",
        "a\u{202e}",
        "x\n ::add-mask::y",
        "x ##[error]y",
        "\u{9b}",
    ] {
        // (Not through a panic: a caught panic's backtrace would load the test binary's debug
        // information, and every process started after it would count that memory as its own.)
        assert!(problem(bad, false).is_some(), "{bad:?} got past the scan");
    }
    assert_eq!(
        problem("a\n\\::error::x #\\#[error] ␛ <U+202E>", false),
        None
    );
    assert_eq!(
        problem("::error file=a,title=robotstxt-test::m", true),
        None
    );
    assert!(problem("::error file=a,title=robotstxt-test::m", false).is_some());
}
