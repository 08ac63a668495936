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
            assert_inert(&what, &ran.stdout);
            assert_inert(&what, &ran.stderr);
            assert!(!ran.stdout.contains("\r\u{1b}"), "{what}");
            // What `adapters check` quotes of the adapter is there, made visible.
            if args[0] == "adapters" {
                let all = format!("{}{}", ran.stdout, ran.stderr);
                let visible = ["␛", "<U+202E>", "\\u{1b}", "\\u001b"];
                assert!(visible.iter().any(|v| all.contains(v)), "{what}: {all}");
            }
        }
    }
}
