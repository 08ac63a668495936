//! Gathers the adapters and crawlers the binary carries (every adapter folder, every crawler
//! folder, the workspace's manifest and lock file) into `$OUT_DIR/suite`, where `include_dir!`
//! embeds it. The case corpus is
//! `robotstxt-suite`'s, which embeds it and records the suite's commit.
//!
//! In a checkout (a build from a path or a git URL) the files come from the workspace:
//! `../adapters`, `../crawlers`, `../Cargo.toml`, `../Cargo.lock`. A crate packaged for crates.io has no
//! workspace around it; it carries the same files under `embedded/`, where they are symbolic
//! links into the workspace that `cargo package` follows. `cargo package` leaves out folders
//! holding a `Cargo.toml` (they are packages of their own), so the adapters that are Cargo
//! packages (and the protocol crate beside them) are linked file by file under
//! `embedded/cargo-adapters/<name>/`, their manifest as `Cargo.toml.in`; they are put back
//! together here.

use std::path::{Path, PathBuf};

/// Folders an adapter's tools leave behind, never part of the suite.
const SKIPPED: [&str; 4] = ["__pycache__", "node_modules", "target", ".venv"];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("suite");
    if out.exists() {
        std::fs::remove_dir_all(&out).expect("the previous suite copy can be removed");
    }
    let workspace = manifest_dir
        .parent()
        .expect("the package has a parent folder");
    let in_checkout = manifest_dir.file_name().is_some_and(|n| n == "runtime")
        && ["cases", "adapters", "Cargo.toml", "Cargo.lock"]
            .iter()
            .all(|name| workspace.join(name).exists());
    if in_checkout {
        copy_tree(&workspace.join("adapters"), &out.join("adapters"));
        copy_tree(&workspace.join("crawlers"), &out.join("crawlers"));
        copy_file(&workspace.join("Cargo.toml"), &out.join("workspace.toml"));
        copy_file(&workspace.join("Cargo.lock"), &out.join("Cargo.lock"));
        for name in ["adapters", "crawlers", "Cargo.toml", "Cargo.lock"] {
            println!("cargo:rerun-if-changed={}", workspace.join(name).display());
        }
        warn_about_unlinked_cargo_adapters(&workspace.join("adapters"), &manifest_dir);
    } else {
        let embedded = manifest_dir.join("embedded");
        copy_tree(&embedded.join("adapters"), &out.join("adapters"));
        copy_tree(&embedded.join("crawlers"), &out.join("crawlers"));
        for entry in read_dir(&embedded.join("cargo-adapters")) {
            copy_tree(
                &entry,
                &out.join("adapters").join(entry.file_name().unwrap()),
            );
        }
        copy_file(
            &embedded.join("workspace.toml"),
            &out.join("workspace.toml"),
        );
        copy_file(&embedded.join("Cargo.lock"), &out.join("Cargo.lock"));
        println!("cargo:rerun-if-changed={}", embedded.display());
    }
}

/// Copies a folder, following symbolic links; `Cargo.toml.in` becomes `Cargo.toml`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for path in read_dir(from) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIPPED.contains(&name.as_str()) {
                copy_tree(&path, &to.join(&name));
            }
        } else if name != "Cargo.toml.in" {
            copy_file(&path, &to.join(&name));
        } else {
            copy_file(&path, &to.join("Cargo.toml"));
        }
    }
}

fn copy_file(from: &Path, to: &Path) {
    std::fs::copy(from, to)
        .unwrap_or_else(|e| panic!("{} -> {}: {e}", from.display(), to.display()));
}

fn read_dir(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable folder entry").path())
        .collect();
    paths.sort();
    paths
}

/// A Cargo package among the adapters that `embedded/cargo-adapters/` does not link would be missing
/// from the crates.io package: say so while it is still easy to fix.
fn warn_about_unlinked_cargo_adapters(adapters: &Path, manifest_dir: &Path) {
    for dir in read_dir(adapters) {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let linked = manifest_dir.join("embedded/cargo-adapters").join(&name);
        if dir.join("Cargo.toml").is_file() && !linked.join("Cargo.toml.in").exists() {
            println!(
                "cargo:warning=adapters/{name} is a Cargo package but runtime/embedded/cargo-adapters/{name} \
                 does not link it: the crates.io package would leave it out"
            );
        }
    }
}
