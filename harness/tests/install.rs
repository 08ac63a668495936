//! Installing adapters outside a checkout: into the cache folder, once, under a lock that makes a
//! second process wait instead of failing, and with a clear error for every bad place.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{files, run_binary, Output, FAKE_ADAPTER};
use robotstxt_runtime::cache::InstallLock;

/// A folder outside any checkout with an adapters folder holding `venv-fake`: the fake adapter,
/// run by the python of a venv its one setup step makes (the cheapest real install).
struct Place {
    dir: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let dir = tempfile::tempdir().unwrap();
        let adapter = dir.path().join("adapters/venv-fake");
        std::fs::create_dir_all(&adapter).unwrap();
        std::fs::write(adapter.join("adapter.py"), FAKE_ADAPTER).unwrap();
        std::fs::write(
            adapter.join("adapter.yaml"),
            "name: venv-fake\nparser: fake\nlanguage: Python\nhomepage: https://example.org\n\
             profile: norobots-1994\npackage: { name: fake, version: '1.0', registry: pypi }\n\
             input: raw bytes\nagent: as-given\nrequires: [python3]\nsetup:\n  - python-venv: { packages: [] }\n\
             run: ['{cache}/venv/bin/python', '{dir}/adapter.py', 'venv-fake']\n",
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("work")).unwrap();
        Place { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn cache(&self) -> PathBuf {
        self.path("cache")
    }

    /// The binary, run from the empty `work/` folder with this place's adapters and cache.
    fn run(&self, args: &[&str]) -> Output {
        let mut all: Vec<&str> = args.to_vec();
        let adapters = self.path("adapters");
        let cache = self.cache();
        all.extend_from_slice(&[
            "--adapters",
            adapters.to_str().unwrap(),
            "--cache-dir",
            cache.to_str().unwrap(),
        ]);
        run_binary(&self.path("work"), &all)
    }
}

#[test]
fn a_second_install_into_a_complete_cache_does_nothing_and_says_so() {
    let place = Place::new();
    let first = place.run(&["adapters", "install", "venv-fake"]);
    assert_eq!(first.code, 0, "{first:?}");
    assert!(first.stdout.contains("ok      venv-fake\n"), "{first:?}");
    // Not a terminal: no bar is drawn, and the install's start and end are still said, timed.
    assert!(
        first
            .stderr
            .contains("venv-fake: installing (1 setup step)")
            && first.stderr.contains("venv-fake: installed in "),
        "{first:?}"
    );
    let venv = place.cache().join("adapters/venv-fake/venv/bin/python");
    assert!(venv.exists(), "{first:?}");
    let before = files(&place.cache());

    let second = place.run(&["adapters", "install", "venv-fake"]);
    assert_eq!(second.code, 0, "{second:?}");
    assert!(
        second.stdout.contains("venv-fake: already installed in")
            && second.stdout.contains("nothing to do"),
        "{second:?}"
    );
    assert_eq!(files(&place.cache()), before);
    assert!(
        files(&place.path("work")).is_empty(),
        "nothing written in the current folder"
    );
}

#[test]
fn an_interrupted_install_is_finished_and_nothing_else_is_lost() {
    let place = Place::new();
    assert_eq!(place.run(&["adapters", "install", "venv-fake"]).code, 0);
    // An install cut short: its marker left behind, and the step's own marker gone.
    let cache = place.cache().join("adapters/venv-fake");
    std::fs::write(cache.join(".installing"), b"").unwrap();
    std::fs::remove_file(cache.join("venv/.robotstxt-test-installed")).unwrap();
    let kept = cache.join("venv/kept-by-the-user");
    std::fs::write(&kept, b"mine").unwrap();

    let listed = place.run(&["adapters"]);
    assert!(
        listed.stdout.contains("available (installs on first use)"),
        "{listed:?}"
    );
    let run = place.run(&["run", "--adapter", "venv-fake"]);
    assert!(run.code <= 1, "{run:?}");
    assert!(
        run.stderr
            .contains("was left half-written by an interrupted install; running its steps again"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("venv-fake 1.0 (norobots-1994)"),
        "{run:?}"
    );
    assert!(!cache.join(".installing").exists());
    assert_eq!(std::fs::read(&kept).unwrap(), b"mine");
}

#[test]
fn a_run_waits_for_an_install_of_the_same_adapter_in_another_process() {
    let place = Place::new();
    // This test holds the adapter's install lock, as `adapters install` would while it works.
    let lock_path = place.cache().join("adapters/venv-fake.lock");
    let lock = InstallLock::acquire(&lock_path, &mut |_| panic!("nobody else holds it")).unwrap();

    let adapters = place.path("adapters");
    let cache = place.cache();
    let mut child = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .args(["run", "--adapter", "venv-fake", "--adapters"])
        .arg(&adapters)
        .arg("--cache-dir")
        .arg(&cache)
        .current_dir(place.path("work"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("waiting for another robotstxt-test") {
        let mut line = String::new();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "{said}");
        said.push_str(&line);
    }
    assert!(said.contains(&lock_path.display().to_string()), "{said}");
    assert!(
        !cache.join("adapters/venv-fake/venv").exists(),
        "it waits before installing"
    );
    drop(lock);

    let output = child.wait_with_output().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.code().unwrap() <= 1, "{stdout}{said}{rest}");
    assert!(!rest.contains("install failed"), "{rest}");
    assert!(stdout.contains("venv-fake 1.0 (norobots-1994)"), "{stdout}");
}

#[test]
fn bad_places_are_one_line_errors_naming_the_path() {
    let place = Place::new();
    let one_line = |out: &Output, path: &Path| {
        assert_eq!(out.code, 2, "{out:?}");
        let error: Vec<&str> = out
            .stderr
            .lines()
            .filter(|l| l.starts_with("error"))
            .collect();
        assert_eq!(error.len(), 1, "{out:?}");
        assert!(error[0].contains(&path.display().to_string()), "{out:?}");
    };

    // A cache folder that is a file.
    let file = place.path("not-a-folder");
    std::fs::write(&file, b"x").unwrap();
    let adapters = place.path("adapters");
    let out = run_binary(
        &place.path("work"),
        &[
            "run",
            "--adapter",
            "venv-fake",
            "--adapters",
            adapters.to_str().unwrap(),
            "--cache-dir",
            file.to_str().unwrap(),
        ],
    );
    one_line(&out, &file);
    assert_eq!(std::fs::read(&file).unwrap(), b"x");

    // An adapters folder without manifests.
    let empty = place.path("work");
    let out = run_binary(
        &place.path("work"),
        &["adapters", "--adapters", empty.to_str().unwrap()],
    );
    one_line(&out, &empty);

    // The embedded suite's copy in the cache, changed by something else: kept, and named.
    let cache = place.cache();
    let ok = run_binary(
        &place.path("work"),
        &["adapters", "--cache-dir", cache.to_str().unwrap()],
    );
    assert_eq!(ok.code, 0, "{ok:?}");
    let suite = std::fs::read_dir(cache.join("suite"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.join(".complete").is_file())
        .expect("the suite was written into the cache");
    std::fs::remove_file(suite.join(".complete")).unwrap();
    let before = files(&cache);
    let out = run_binary(
        &place.path("work"),
        &[
            "run",
            "--adapter",
            "python-urllib",
            "--cache-dir",
            cache.to_str().unwrap(),
        ],
    );
    one_line(&out, &suite);
    assert_eq!(files(&cache), before, "nothing in the cache is lost");
}
