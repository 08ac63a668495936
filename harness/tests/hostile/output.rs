//! Text from a robots.txt file or an adapter that would drive a terminal (ESC sequences) or
//! reorder a page (bidi overrides) is shown, never obeyed.

use std::fs;

use crate::support::{drive, run, scratch};

fn assert_inert(what: &str, text: &str) {
    assert!(!text.contains('\x1b'), "{what}: a raw ESC");
    assert!(!text.contains('\u{202e}'), "{what}: a raw U+202E");
    assert!(!text.contains('\x07'), "{what}: a raw BEL");
}

#[test]
fn check_shows_control_bytes_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("robots.txt"),
        "User-agent: bot\x1b[2J\u{202e}x\nDisallow: /\n",
    )
    .unwrap();
    // The agent is plain (`check` refuses controls in it, as `compare` does): the file is not.
    let agent = "bot";
    let args = [
        "check",
        "--robots",
        "robots.txt",
        "--agent",
        agent,
        "--path",
        "/",
        // Its explanation quotes the `User-agent` line of the group that names the robot.
        "--profile",
        "rfc9309",
    ];
    let ran = run(dir.path(), &args);
    assert_inert("check", &ran.stdout);
    assert!(
        ran.stdout.contains('␛') && ran.stdout.contains("<U+202E>"),
        "{}",
        ran.stdout
    );
}

#[test]
fn run_and_report_pages_show_an_adapters_escapes() {
    let (dir, cmd) = scratch(2, "x", "escapes");
    let ran = drive(dir.path(), "run", &cmd, &[]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_inert("run", &ran.stdout);
    assert!(ran.stdout.contains("bad ␛[2J"), "{}", ran.stdout);
    let ran = drive(dir.path(), "report", &cmd, &["--out", "reports"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    for page in ["README.md", "hostile-escapes.md", "index.html"] {
        let text = fs::read_to_string(dir.path().join("reports").join(page)).unwrap();
        assert_inert(page, &text);
    }
    // The data keeps the adapter's exact words (JSON escapes them).
    let data = fs::read_to_string(dir.path().join("reports/results.json")).unwrap();
    assert!(data.contains("\\u001b[2J"));
    let page = fs::read_to_string(dir.path().join("reports/hostile-escapes.md")).unwrap();
    assert!(page.contains("<U+202E>"), "{page}");
}

#[test]
fn the_page_marks_an_adapter_that_broke_part_way() {
    let (dir, cmd) = scratch(8, "x", "disagree-then-break");
    // The adapter breaks after its 60th answer: three answers here, then three crashes.
    fs::write(dir.path().join("count"), "57").unwrap();
    let ran = drive(dir.path(), "report", &cmd, &["--out", "reports"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(ran.stderr.contains("broke down part way"), "{}", ran.stderr);
    // The data the page draws from: the adapter answered some checks (it has data) and then
    // broke (it is unavailable, and says why). The page's script marks exactly that pair.
    let page = fs::read_to_string(dir.path().join("reports/index.html")).unwrap();
    let data = page_data(&page);
    let adapter = data["adapters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "hostile-disagree-then-break")
        .expect("the adapter is in the page's data");
    assert_eq!(adapter["has_data"], true, "{adapter}");
    let why = adapter["unavailable"].as_str().unwrap_or_default();
    assert!(why.starts_with("3 faults in a row"), "{adapter}");
    // And the summary page says it in words.
    let summary = fs::read_to_string(dir.path().join("reports/README.md")).unwrap();
    assert!(
        summary.contains("`hostile-disagree-then-break` broke down part way"),
        "{summary}"
    );
}

/// The JSON a report page carries in its `<script type="application/json">` block.
fn page_data(page: &str) -> serde_json::Value {
    let start = page
        .find("<script id=\"data\" type=\"application/json\"")
        .expect("a data block");
    let body = &page[start..];
    let body = &body[body.find('>').unwrap() + 1..];
    let body = &body[..body.find("</script>").unwrap()];
    serde_json::from_str(body).expect("the data block is JSON")
}

#[test]
fn check_refuses_agents_and_paths_that_would_forge_a_line() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("robots.txt"),
        "User-agent: *\nDisallow: /\n",
    )
    .unwrap();
    for (agent, path) in [
        ("", "/"),
        ("bot\nallowed: forged", "/"),
        ("bot\u{202e}x", "/"),
        ("bot", "/a\nallowed: forged"),
    ] {
        let args = [
            "check",
            "--robots",
            "robots.txt",
            "--agent",
            agent,
            "--path",
            path,
        ];
        let ran = run(dir.path(), &args);
        assert_eq!(ran.code, 2, "{agent:?} {path:?}: {}", ran.stdout);
        assert!(ran.stdout.is_empty(), "{}", ran.stdout);
        assert!(!ran.stderr.contains("\nallowed: forged"), "{}", ran.stderr);
    }
}

/// `robotstxt-test check ... | head -1`: a reader that has gone ends the run quietly, with the
/// status a shell gives a process killed by SIGPIPE, instead of a panic and a backtrace.
#[test]
fn a_closed_standard_output_ends_the_run_quietly() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("robots.txt"),
        "User-agent: *\nDisallow: /\n",
    )
    .unwrap();
    for args in [
        &[
            "check",
            "--robots",
            "robots.txt",
            "--agent",
            "a",
            "--path",
            "/",
        ][..],
        &["run", "--adapter", "reference"][..],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let ran = std::process::Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
            .args(args)
            .current_dir(dir.path())
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .stdout(writer)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&ran.stderr);
        assert_eq!(ran.status.code(), Some(141), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
}

/// An adapter's handshake, error texts and stderr reach no terminal raw: `compare` and
/// `adapters check` show them made visible (a handshake holding them is refused, quoted).
#[test]
fn compare_and_adapters_check_show_an_adapters_escapes() {
    for mode in ["escapes", "escape-hello", "stderr-escapes"] {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("robots.txt"),
            "User-agent: *\nDisallow: /a\n",
        )
        .unwrap();
        let cmd = crate::support::hostile_cmd(mode, dir.path());
        let compare = [
            "compare",
            "--robots",
            "robots.txt",
            "--path",
            "/a",
            "--adapter-cmd",
            &cmd,
        ];
        let check = ["adapters", "check", "--adapter-cmd", &cmd];
        for args in [&compare[..], &check[..]] {
            let ran = run(dir.path(), args);
            let what = format!("{mode}: {}", args[0]);
            // Ended as a run with a broken adapter ends: no panic, no usage error.
            assert!(matches!(ran.code, 0 | 1 | 3), "{what}: {}", ran.stderr);
            assert_inert(&what, &ran.stdout);
            assert_inert(&what, &ran.stderr);
            // What each quotes of the adapter is there, made visible (`compare` quotes the first
            // line of what went wrong, which for a crash is not the adapter's stderr).
            if args[0] == "adapters" || mode != "stderr-escapes" {
                let all = format!("{}{}", ran.stdout, ran.stderr);
                let visible = ["␛", "<U+202E>", "\\u{1b}", "\\u001b"];
                assert!(visible.iter().any(|v| all.contains(v)), "{what}: {all}");
            }
        }
    }
}

/// The other commands that drive adapters: `survey` (its terminal summary and `survey.md`), `fuzz`
/// and `report`'s summary on stderr show an adapter's handshake, errors and stderr made visible.
#[test]
fn survey_fuzz_and_report_show_an_adapters_escapes() {
    for mode in ["escapes", "escape-hello", "stderr-escapes"] {
        let (dir, cmd) = scratch(2, "x", mode);
        fs::create_dir(dir.path().join("corpus")).unwrap();
        fs::write(
            dir.path().join("corpus/robots.txt"),
            "User-agent: *\nDisallow: /a\n",
        )
        .unwrap();
        let survey = [
            "survey",
            "--corpus",
            "corpus",
            "--adapter-cmd",
            &cmd,
            "--out",
            "out",
        ];
        let fuzz = [
            "fuzz",
            "--cases",
            "cases.yaml",
            "--adapter-cmd",
            &cmd,
            "--docs",
            "5",
        ];
        let report = [
            "report",
            "--cases",
            "cases.yaml",
            "--adapter-cmd",
            &cmd,
            "--out",
            "reports",
        ];
        for args in [&survey[..], &fuzz[..], &report[..]] {
            let ran = run(dir.path(), args);
            let what = format!("{mode}: {}", args[0]);
            assert!(ran.code <= 3, "{what}: {}", ran.stderr);
            assert_inert(&what, &ran.stdout);
            assert_inert(&what, &ran.stderr);
        }
        let pages = [
            "out/survey.md",
            "out/survey.html",
            "out/survey.csv",
            "reports/README.md",
            "reports/index.html",
        ];
        for page in pages {
            let text = fs::read_to_string(dir.path().join(page)).unwrap();
            assert_inert(&format!("{mode}: {page}"), &text);
        }
        // The refused handshake is quoted in `survey.md`, made visible.
        if mode == "escape-hello" {
            let text = fs::read_to_string(dir.path().join("out/survey.md")).unwrap();
            assert!(text.contains("owned"), "{text}");
        }
    }
}

/// A bidi override in a robots.txt comment line and in a case's note reaches no output raw: the
/// terminal's failure block and JUnit show it as `<U+202E>`, and the Markdown and HTML pages hold
/// none raw either.
#[test]
fn bidi_controls_of_a_case_reach_no_output() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("cases.yaml"),
        "cases:\n  - name: bidi\n    spec: test\n    note: \"n\\u202Ey\\u009Bz\"\n    \
         robots: \"User-agent: *\\n# hi \\u202E there \\u2066x\\nDisallow: /a\\n\"\n    \
         checks:\n      - { agent: FooBot, path: /a, expect: allowed }\n",
    )
    .unwrap();
    let base = ["--cases", "cases.yaml", "--adapter", "reference"];
    let verbose = run(dir.path(), &[&["run"][..], &base, &["--verbose"]].concat());
    assert_eq!(verbose.code, 1, "{}", verbose.stderr);
    let junit = run(
        dir.path(),
        &[&["run"][..], &base, &["--format", "junit"]].concat(),
    );
    let report = run(
        dir.path(),
        &[&["report"][..], &base, &["--out", "r"]].concat(),
    );
    assert_eq!(report.code, 0, "{}", report.stderr);
    let mut outputs = vec![
        ("terminal".to_owned(), verbose.stdout),
        ("junit".to_owned(), junit.stdout),
    ];
    for page in ["README.md", "reference.md", "index.html"] {
        let text = fs::read_to_string(dir.path().join("r").join(page)).unwrap();
        outputs.push((page.to_owned(), text));
    }
    for (what, text) in &outputs {
        assert_inert(what, text);
        assert!(!text.contains('\u{2066}'), "{what}: a raw U+2066");
        assert!(!text.contains('\u{9b}'), "{what}: a raw C1 control");
    }
    // The comment line and the note are there, made visible, where the case is shown whole:
    // on the terminal, and in JUnit (where `<` is written `&lt;`).
    let junit_text = outputs[1].1.replace("&lt;", "<").replace("&gt;", ">");
    for (what, text) in [("terminal", &outputs[0].1), ("junit", &junit_text)] {
        assert!(
            text.contains("# hi <U+202E> there <U+2066>x"),
            "{what}: {text}"
        );
        assert!(text.contains("n<U+202E>y<U+009B>z"), "{what}: {text}");
    }
}

/// A case file whose name holds ESC and U+202E is refused, and the error shows its name made
/// visible; so does a survey naming an archive member it skips.
#[test]
fn file_and_member_names_are_shown_visibly() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases");
    fs::create_dir(&cases).unwrap();
    fs::write(
        cases.join("bad\x1b]0;owned\x07\u{202e}lmay.yaml"),
        crate::support::cases_yaml(1, "x"),
    )
    .unwrap();
    let ran = run(
        dir.path(),
        &["run", "--cases", "cases", "--adapter", "reference"],
    );
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert_inert("case file name", &ran.stderr);
    assert!(
        ran.stderr.contains("bad␛]0;owned␇<U+202E>lmay.yaml"),
        "{}",
        ran.stderr
    );
    // A line feed too: a case id holding one would forge a line wherever it is shown.
    let fed = dir.path().join("fed");
    fs::create_dir(&fed).unwrap();
    fs::write(
        fed.join("a\nok 1 forged.yaml"),
        crate::support::cases_yaml(1, "x"),
    )
    .unwrap();
    let ran = run(
        dir.path(),
        &["run", "--cases", "fed", "--adapter", "reference"],
    );
    assert_eq!(ran.code, 2, "{}", ran.stdout);
    assert!(ran.stderr.contains("a␊ok 1 forged.yaml"), "{}", ran.stderr);

    // An archive member too large to survey, under a name that would retitle the terminal.
    let archive = dir.path().join("corpus.tar");
    let mut tar = tar::Builder::new(fs::File::create(&archive).unwrap());
    let member = |name: &str, body: &[u8], tar: &mut tar::Builder<fs::File>| {
        let mut header = tar::Header::new_gnu();
        header.set_size(body.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, name, body).unwrap();
    };
    member("a/robots.txt", b"User-agent: *\nDisallow: /x\n", &mut tar);
    let big = vec![b'#'; 5 << 20];
    member(
        "b\x1b]0;owned\x07\u{202e}txt.exe\nx/robots.txt",
        &big,
        &mut tar,
    );
    tar.into_inner().unwrap().sync_all().unwrap();
    let cmd = crate::support::hostile_cmd("plain", dir.path());
    let args = [
        "survey",
        "--corpus",
        "corpus.tar",
        "--adapter-cmd",
        &cmd,
        "--out",
        "out",
    ];
    let ran = run(dir.path(), &args);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_inert("member name", &ran.stderr);
    assert_inert("member name", &ran.stdout);
    assert!(
        ran.stderr.contains("b␛]0;owned␇<U+202E>txt.exe␊x"),
        "{}",
        ran.stderr
    );
    let page = fs::read_to_string(dir.path().join("out/survey.md")).unwrap();
    assert_inert("survey.md", &page);
    assert!(
        page.contains("\\u{202E}txt.exe\\u{A}x/robots.txt"),
        "{page}"
    );
}
