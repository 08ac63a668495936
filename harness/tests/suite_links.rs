//! The crates.io package carries the adapters through `harness/suite/`, whose links `cargo
//! package` follows. A folder holding its own `Cargo.toml` is left out of a package, so every Cargo
//! adapter is linked entry by entry under `harness/suite/cargo-adapters/<name>/`, its manifest as
//! `Cargo.toml.in`. An adapter added without its links would be missing from the published crate.

use std::path::Path;

#[test]
fn every_cargo_adapter_is_linked_entry_by_entry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let adapters = root.join("adapters");
    let linked = root.join("harness/suite/cargo-adapters");
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
            let same = std::fs::canonicalize(&link).ok()
                == std::fs::canonicalize(adapter.join(&entry)).ok();
            if !same {
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
