//! Every engine that wraps another passes every `Engine` method on. The trait gives some methods
//! a default body (`set_patience`, `fresh_start`, ...), so a wrapper that forgets one still
//! compiles, and silently answers for the engine it wraps: the patience of the gate's second
//! asking, or the adapter's restart, would never reach the adapter. This test reads the trait's
//! methods from `suite/src/engine.rs` and each wrapper's `impl Engine` block from the source, so
//! a method added to the trait fails here until every wrapper forwards it.

mod common;

use std::path::{Path, PathBuf};

/// The names of the methods declared in `pub trait Engine`.
fn trait_methods(source: &str) -> Vec<String> {
    let start = source.find("pub trait Engine").expect("the trait");
    methods_in(block_at(&source[start..]))
}

/// The text of the first `{ ... }` block in `text`, braces balanced.
fn block_at(text: &str) -> &str {
    let open = text.find('{').expect("a block");
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &text[open..=open + i];
                }
            }
            _ => {}
        }
    }
    panic!("an unbalanced block");
}

/// The names of the functions a block defines at its own level (`fn name(`), not those inside
/// their bodies.
fn methods_in(block: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut rest = block;
    while let Some(c) = rest.chars().next() {
        if depth == 1 && rest.starts_with("fn ") {
            let name: String = rest[3..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            names.push(name);
        }
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    names
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn every_wrapping_engine_forwards_every_method() {
    let root = common::checkout();
    let engine = std::fs::read_to_string(root.join("suite/src/engine.rs")).unwrap();
    let wanted = trait_methods(&engine);
    assert!(
        wanted.contains(&"set_patience".to_owned()) && wanted.contains(&"check".to_owned()),
        "{wanted:?}"
    );
    let mut wrappers = Vec::new();
    for crate_dir in ["suite/src", "runtime/src", "harness/src"] {
        for file in rust_files(&root.join(crate_dir)) {
            let source = std::fs::read_to_string(&file).unwrap();
            let mut rest = source.as_str();
            while let Some(at) = rest.find("impl Engine for ") {
                let name: String = rest[at + 16..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let block = block_at(&rest[at..]);
                // A wrapper holds another engine and asks it.
                if block.contains("self.inner.") {
                    let defined = methods_in(block);
                    let missing: Vec<&String> =
                        wanted.iter().filter(|m| !defined.contains(m)).collect();
                    assert!(
                        missing.is_empty(),
                        "{}: `{name}` wraps an engine but does not forward {missing:?}",
                        file.display()
                    );
                    wrappers.push(name);
                }
                // On past the block (a subslice of `rest`).
                let end = block.as_ptr() as usize - rest.as_ptr() as usize + block.len();
                rest = &rest[end..];
            }
        }
    }
    wrappers.sort();
    // The two known wrappers were found, so the search itself works.
    assert_eq!(wrappers, ["Handing", "Recorder"], "{wrappers:?}");
}
