//! The `go-build` and `maven` setup steps: read from a manifest, built into the adapter's cache
//! and nowhere else, and run again only when the files they are built from change.

use std::path::Path;
use std::process::Command;

use robotstxt_runtime::adapter::install::{find_program, install};
use robotstxt_runtime::adapter::manifest::SetupStep;
use robotstxt_runtime::adapter::{availability, Adapter, Availability};

fn write(folder: &Path, name: &str, text: &str) {
    std::fs::write(folder.join(name), text).unwrap();
}

fn manifest(name: &str, requires: &str, step: &str, run: &str) -> String {
    format!(
        "name: {name}\nparser: p\nlanguage: L\nhomepage: https://example.org\nprofile: other\n\
         package: {{ name: p, version: \"1\", registry: go }}\ninput: bytes\nagent: as-given\n\
         requires: {requires}\nsetup:\n  - {step}\nrun: {run}\n"
    )
}

/// Loads the adapter in `folder`, with its cache inside `root` whatever the environment says.
fn load(folder: &Path, root: &Path) -> Adapter {
    let mut adapter = Adapter::load(folder, root).unwrap();
    adapter.cache = root.join("cache").join(adapter.name());
    adapter
}

fn files_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

fn program(message: &str) -> String {
    format!("package main\n\nimport \"fmt\"\n\nfunc main() {{ fmt.Println(\"{message}\") }}\n")
}

#[test]
fn go_build_builds_into_the_cache_once_and_again_after_a_change() {
    if find_program("go").is_none() {
        eprintln!("note: `go` is not on PATH; the go-build step is not exercised here");
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("go-hello");
    std::fs::create_dir(&folder).unwrap();
    let yaml = manifest(
        "go-hello",
        "[go]",
        "go-build: { output: hello }",
        "[\"{cache}/hello\"]",
    );
    write(&folder, "adapter.yaml", &yaml);
    write(&folder, "go.mod", "module example.org/hello\n\ngo 1.19\n");
    write(&folder, "adapter.go", &program("first"));
    let adapter = load(&folder, root.path());
    assert_eq!(
        adapter.manifest.setup,
        [SetupStep::GoBuild {
            output: "hello".to_owned()
        }]
    );
    assert_eq!(availability(&adapter), Availability::NeedsSetup);

    let install_logging = |adapter: &Adapter| {
        let mut steps = Vec::new();
        install(adapter, false, &mut |line| steps.push(line.to_owned())).unwrap();
        steps
    };
    let says = |adapter: &Adapter| {
        let out = Command::new(&adapter.argv()[0]).output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    // A line as the install starts, one per step, and one as it ends, with the time it took.
    let lines = install_logging(&adapter);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "go-hello: installing (1 setup step)");
    assert!(lines[1].starts_with("go-hello:   go build"), "{lines:?}");
    assert!(
        lines[2].starts_with("go-hello: installed in ") && lines[2].ends_with(" s"),
        "{lines:?}"
    );
    assert_eq!(availability(&adapter), Availability::Ready);
    assert_eq!(says(&adapter), "first\n");
    assert_eq!(
        files_in(&folder),
        ["adapter.go", "adapter.yaml", "go.mod"],
        "the build writes nothing in the adapter's folder"
    );
    assert!(adapter.cache.join("go/pkg/mod").is_dir() || adapter.cache.join("go/cache").is_dir());

    assert!(
        install_logging(&adapter).is_empty(),
        "done steps are not run again"
    );

    write(&folder, "notes.txt", "not a source");
    assert_eq!(availability(&adapter), Availability::Ready);
    write(&folder, "adapter.go", &program("second"));
    assert_eq!(availability(&adapter), Availability::NeedsSetup);
    assert_eq!(install_logging(&adapter).len(), 3);
    assert_eq!(says(&adapter), "second\n");
}

#[test]
fn maven_step_waits_for_its_sources_and_a_missing_program_says_how_to_install_it() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("java-hello");
    std::fs::create_dir(&folder).unwrap();
    let run = "[java, -cp, \"{cache}/maven/classes:{cache}/maven/lib/*\", Adapter]";
    write(
        &folder,
        "adapter.yaml",
        &manifest("java-hello", "[]", "maven: { source: Adapter.java }", run),
    );
    let adapter = load(&folder, root.path());
    assert_eq!(
        adapter.manifest.setup,
        [SetupStep::Maven {
            source: "Adapter.java".to_owned()
        }]
    );
    assert_eq!(availability(&adapter), Availability::NeedsSetup);
    let cache = adapter.cache.to_string_lossy().into_owned();
    assert_eq!(
        adapter.argv()[2],
        format!("{cache}/maven/classes:{cache}/maven/lib/*")
    );

    let missing = manifest(
        "java-hello",
        "[no-such-program-mvn]",
        "maven: { source: Adapter.java }",
        run,
    )
    .replace("setup:", "install_hint: apt-get install maven\nsetup:");
    write(&folder, "adapter.yaml", &missing);
    let Availability::Unavailable(why) = availability(&load(&folder, root.path())) else {
        panic!("a missing program makes the adapter unavailable");
    };
    assert!(
        why.contains("no-such-program-mvn") && why.contains("apt-get install maven"),
        "{why}"
    );
}

#[test]
fn a_build_step_with_an_unknown_field_is_refused_with_its_place() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("go-bad");
    std::fs::create_dir(&folder).unwrap();
    let yaml = manifest("go-bad", "[go]", "go-build: { package: x }", "[x]");
    write(&folder, "adapter.yaml", &yaml);
    let error = Adapter::load(&folder, root.path()).unwrap_err().to_string();
    assert!(
        error.contains("adapter.yaml:11:") && error.contains("unknown field `package`"),
        "{error}"
    );
}
