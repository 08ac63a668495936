//! An adapter that cannot start costs one line and exit 3, with or without an expectation file,
//! in every format; a crash at start shows the adapter's stderr.

mod common;

use common::run_binary;

#[test]
fn a_command_that_does_not_exist_is_one_line_and_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("expectations.yaml");
    std::fs::write(&file, "adapter: python-robotspy\nexpectations: []\n").unwrap();
    let file = file.to_str().unwrap();
    for extra in [&[][..], &["--expectations", file][..]] {
        let mut args = vec!["run", "--adapter-cmd", "/nonexistent/x"];
        args.extend_from_slice(extra);
        let out = run_binary(&common::checkout(), &args);
        assert_eq!(out.code, 3, "{args:?}: {out:?}");
        let lines = out.stdout.lines().count() + out.stderr.lines().count();
        assert!(lines <= 5, "{args:?}: {lines} lines: {out:?}");
        assert!(
            out.stdout.contains(
                "/nonexistent/x: unavailable: cannot start `/nonexistent/x`: No such file or directory"
            ),
            "{out:?}"
        );
        assert!(
            out.stdout.contains("try: robotstxt-test adapters check"),
            "{out:?}"
        );

        args.extend_from_slice(&["--format", "junit"]);
        let out = run_binary(&common::checkout(), &args);
        assert_eq!(out.code, 3, "{args:?}: {out:?}");
        assert!(out.stdout.contains("errors=\"1\""), "{}", out.stdout);
        assert!(
            out.stdout.contains("<error type=\"unavailable\""),
            "{}",
            out.stdout
        );
        assert!(!out.stdout.contains("<skipped"), "{}", out.stdout);
    }
}

#[test]
fn an_adapter_that_crashes_at_start_shows_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("broken_typo.py");
    std::fs::write(&script, "import sys\nprint(undefined_name)\n").unwrap();
    let file = dir.path().join("expectations.yaml");
    std::fs::write(&file, "adapter: python-robotspy\nexpectations: []\n").unwrap();
    let cmd = format!("python3 {}", script.display());
    let args = [
        "run",
        "--adapter-cmd",
        &cmd,
        "--expectations",
        file.to_str().unwrap(),
    ];
    let out = run_binary(&common::checkout(), &args);
    assert_eq!(out.code, 3, "{out:?}");
    assert!(
        out.stdout.contains("unavailable: it crashed at start"),
        "{out:?}"
    );
    assert!(
        out.stdout
            .contains("NameError: name 'undefined_name' is not defined"),
        "{out:?}"
    );
    assert!(!out.stderr.contains("the file is for"), "{out:?}");
}
