//! Gathers the case corpus the crate carries into `$OUT_DIR/suite/cases`, where `include_dir!`
//! embeds it, and records the suite's commit.
//!
//! In a checkout (a build from a path or a git URL) the files come from the workspace's `../cases`.
//! A crate packaged for crates.io has no workspace around it; it carries the same files under
//! `embedded/cases`, a symbolic link into the workspace that `cargo package` follows.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("suite");
    if out.exists() {
        std::fs::remove_dir_all(&out).expect("the previous corpus copy can be removed");
    }
    let workspace = manifest_dir
        .parent()
        .expect("the package has a parent folder");
    let in_checkout = manifest_dir.file_name().is_some_and(|n| n == "suite")
        && ["cases", "adapters", "Cargo.toml"]
            .iter()
            .all(|name| workspace.join(name).exists());
    if in_checkout {
        copy_tree(&workspace.join("cases"), &out.join("cases"));
        // The adapters are watched too: they are part of the suite the binary carries, and
        // whether they differ from the commit is said here with the corpus (`MODIFIED`).
        for name in ["cases", "adapters"] {
            println!("cargo:rerun-if-changed={}", workspace.join(name).display());
        }
    } else {
        let embedded = manifest_dir.join("embedded");
        copy_tree(&embedded.join("cases"), &out.join("cases"));
        println!("cargo:rerun-if-changed={}", embedded.display());
    }
    let (commit, modified) = suite_commit(&manifest_dir, in_checkout);
    println!("cargo:rustc-env=ROBOTSTXT_TEST_SUITE_COMMIT={commit}");
    println!("cargo:rustc-env=ROBOTSTXT_TEST_SUITE_MODIFIED={modified}");
}

/// Copies a folder, following symbolic links.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for path in read_dir(from) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            copy_tree(&path, &to.join(&name));
        } else {
            std::fs::copy(&path, to.join(&name))
                .unwrap_or_else(|e| panic!("{} -> {}: {e}", path.display(), to.display()));
        }
    }
}

fn read_dir(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable folder entry").path())
        .collect();
    paths.sort();
    paths
}

/// The commit the suite was built from, and whether its files (the corpus and the adapters)
/// differed from it: from git in a checkout, else from the `.cargo_vcs_info.json` that `cargo
/// package` writes, else `unknown`.
fn suite_commit(manifest_dir: &Path, in_checkout: bool) -> (String, bool) {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(manifest_dir)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    if in_checkout {
        if let Some(commit) = git(&["rev-parse", "HEAD"]).filter(|c| !c.is_empty()) {
            // A new commit or a branch switch changes the answer. Only files that exist are
            // watched: cargo reruns the script every time for one that does not.
            let branch = git(&["symbolic-ref", "-q", "HEAD"]);
            let watched = ["HEAD", "packed-refs"].into_iter().chain(branch.as_deref());
            for what in watched {
                if let Some(path) = git(&["rev-parse", "--git-path", what]) {
                    let path = manifest_dir.join(path);
                    if path.exists() {
                        println!("cargo:rerun-if-changed={}", path.display());
                    }
                }
            }
            let modified = git(&["status", "--porcelain", "--", "../cases", "../adapters"])
                .is_some_and(|s| !s.is_empty());
            return (commit, modified);
        }
    }
    let vcs_info = std::fs::read_to_string(manifest_dir.join(".cargo_vcs_info.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|info| info["git"]["sha1"].as_str().map(str::to_owned));
    (vcs_info.unwrap_or_else(|| "unknown".to_owned()), false)
}
