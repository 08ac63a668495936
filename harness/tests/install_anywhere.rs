//! The installed tool, used as a parser author would: `cargo install --path harness` into a
//! scratch root, then run from an empty folder that is not a checkout, with a scratch cache
//! folder. The install reuses this workspace's target folder, so it only links what `cargo build
//! --release` already built.

mod common;

use std::process::{Command, Output};

use common::{checkout, files, target_dir};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn shown(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

#[test]
fn the_installed_binary_works_from_an_empty_folder() {
    let root = tempfile::tempdir().unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let install = Command::new(cargo)
        .args(["install", "--quiet", "--locked", "--offline", "--path"])
        .arg(checkout().join("harness"))
        .arg("--root")
        .arg(root.path())
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .unwrap();
    assert!(install.status.success(), "{}", shown(&install));
    let binary = root.path().join("bin/robotstxt-test");
    let installed = files(root.path());

    let empty = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(&binary)
            .args(args)
            .current_dir(empty.path())
            .env("XDG_CACHE_HOME", cache.path())
            .env("NO_COLOR", "1")
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .unwrap()
    };

    // The reference, from the corpus the binary carries: every scored check passes.
    let reference = run(&["run", "--adapter", "reference"]);
    assert_eq!(reference.status.code(), Some(0), "{}", shown(&reference));
    let stdout = text(&reference.stdout);
    // The counts come first; the non-passes follow, grouped by cause.
    let summary = stdout.lines().next().unwrap_or_default();
    assert!(summary.starts_with("reference "), "{summary}");
    assert!(summary.contains(" 0 failed, "), "{summary}");
    assert!(!summary.contains(" 0 passed"), "{summary}");
    let stderr = text(&reference.stderr);
    let embedded = format!(
        "corpus: embedded (robotstxt-test {}, suite commit ",
        env!("CARGO_PKG_VERSION")
    );
    assert!(stderr.contains(&embedded), "{stderr}");

    // The exported corpus is `cases/`, byte for byte.
    let export = run(&["cases", "export", "exported"]);
    assert_eq!(export.status.code(), Some(0), "{}", shown(&export));
    let cases = checkout().join("cases");
    let exported = empty.path().join("exported");
    assert_eq!(files(&exported), files(&cases));
    for file in files(&cases) {
        let same = std::fs::read(cases.join(&file)).unwrap()
            == std::fs::read(exported.join(&file)).unwrap();
        assert!(same, "{} differs", file.display());
    }

    // A parser of one's own, by command.
    let script = checkout().join("adapters/python-urllib/adapter.py");
    let command = format!("python3 {}", script.display());
    let own = run(&["run", "--adapter-cmd", &command]);
    assert!(own.status.code().unwrap() <= 1, "{}", shown(&own));
    let stdout = text(&own.stdout);
    // The counts come first; the non-passes follow, grouped by cause.
    let summary = stdout.lines().next().unwrap_or_default();
    assert!(summary.starts_with("python-urllib "), "{summary}");
    assert!(!summary.contains(" 0 passed"), "{summary}");

    // A report of a carried adapter: materialised into the cache folder, the report where asked.
    let report = run(&["report", "--adapter", "python-urllib", "--out", "OUT"]);
    assert_eq!(report.status.code(), Some(0), "{}", shown(&report));
    let stderr = text(&report.stderr);
    assert!(
        stderr.contains("adapters: embedded (robotstxt-test "),
        "{stderr}"
    );
    let out = empty.path().join("OUT");
    for name in [
        "README.md",
        "index.html",
        "results.json",
        "python-urllib.md",
    ] {
        assert!(out.join(name).is_file(), "{name} in {}", out.display());
    }
    let results = std::fs::read_to_string(out.join("results.json")).unwrap();
    assert!(results.contains("\"python-urllib\""), "{results}");
    let in_cache = files(&cache.path().join("robotstxt-test"));
    let adapter_in_cache = in_cache
        .iter()
        .any(|f| f.starts_with("suite") && f.ends_with("adapters/python-urllib/adapter.py"));
    assert!(adapter_in_cache, "{in_cache:?}");

    // The crawlers it carries, listed and run without a checkout or `--crawlers DIR`.
    let listed = run(&["crawlers"]);
    assert_eq!(listed.status.code(), Some(0), "{}", shown(&listed));
    let stdout = text(&listed.stdout);
    for name in ["wget", "scrapy", "colly", "python-urllib"] {
        assert!(
            stdout.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} not listed:\n{stdout}"
        );
    }
    let stderr = text(&listed.stderr);
    let from = stderr
        .lines()
        .find_map(|l| l.strip_prefix("crawlers: "))
        .unwrap_or_else(|| panic!("where the crawlers come from is not said:\n{stderr}"));
    assert!(
        from.starts_with(&cache.path().display().to_string()),
        "{from}"
    );
    assert!(from.ends_with("/crawlers"), "{from}");
    let crawled = run(&["crawl", "--crawler", "python-urllib"]);
    let stdout = text(&crawled.stdout);
    assert!(crawled.status.code().unwrap() <= 1, "{}", shown(&crawled));
    // The carried access cases, every one with data: the control fetched.
    let counts = stdout.lines().next().unwrap_or_default();
    let cases = counts
        .strip_prefix("python-urllib (norobots-1994): ")
        .and_then(|rest| rest.split(" cases, ").next())
        .unwrap_or_else(|| panic!("{counts}"));
    assert!(cases.parse::<usize>().unwrap() >= 25, "{counts}");
    assert!(counts.contains(&format!(" {cases} with data;")), "{counts}");

    // Nothing else was written: not in the current folder, not next to the binary. The report
    // folder's lock stays beside it, empty: a lock taken on the folder itself would go with the
    // folder the report swaps in, and one removed after use could be taken twice.
    let mut here: Vec<String> = std::fs::read_dir(empty.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    here.sort();
    assert_eq!(here, [".OUT.lock", "OUT", "exported"]);
    assert_eq!(files(root.path()), installed);
}
