//! The crates.io packages carry the suite through `embedded/` folders, whose links `cargo package`
//! follows: `robotstxt-suite` the corpus (`suite/embedded/cases`), `robotstxt-runtime` the
//! adapters, the crawlers, the workspace manifest and the lock file (`runtime/embedded/`). A folder holding its
//! own `Cargo.toml` is left out of a package, so every Cargo package under `adapters/` (each Rust
//! adapter, and the protocol crate) is linked entry by entry under
//! `runtime/embedded/cargo-adapters/<name>/`, its manifest as `Cargo.toml.in`. An adapter added
//! without its links would be missing from the published crate.

use std::path::Path;

fn same(link: &Path, target: &Path) -> bool {
    std::fs::canonicalize(link).ok() == std::fs::canonicalize(target).ok()
}

#[test]
fn the_corpus_adapters_and_workspace_files_are_linked() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (link, target) in [
        ("suite/embedded/cases", "cases"),
        ("runtime/embedded/adapters", "adapters"),
        ("runtime/embedded/crawlers", "crawlers"),
        ("runtime/embedded/workspace.toml", "Cargo.toml"),
        ("runtime/embedded/Cargo.lock", "Cargo.lock"),
    ] {
        assert!(
            same(&root.join(link), &root.join(target)),
            "{link} does not link {target}"
        );
    }
}

#[test]
fn every_cargo_adapter_is_linked_entry_by_entry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let adapters = root.join("adapters");
    let linked = root.join("runtime/embedded/cargo-adapters");
    let mut missing = Vec::new();
    let mut cargo_adapters = 0;
    for adapter in std::fs::read_dir(&adapters).unwrap() {
        let adapter = adapter.unwrap().path();
        if !adapter.join("Cargo.toml").is_file() {
            continue;
        }
        cargo_adapters += 1;
        let name = adapter.file_name().unwrap().to_owned();
        for entry in std::fs::read_dir(&adapter).unwrap() {
            let entry = entry.unwrap().file_name();
            let shown = if entry == "Cargo.toml" {
                "Cargo.toml.in".into()
            } else {
                entry.clone()
            };
            let link = linked.join(&name).join(&shown);
            if !same(&link, &adapter.join(&entry)) {
                missing.push(link.display().to_string());
            }
        }
    }
    assert!(
        cargo_adapters >= 4,
        "found only {cargo_adapters} Cargo adapters"
    );
    assert!(missing.is_empty(), "not linked: {missing:#?}");
}
