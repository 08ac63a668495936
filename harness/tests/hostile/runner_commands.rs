//! Outside text cannot start a command line for a CI runner: an adapter whose error text and
//! stderr are lines of `::error`, `::add-mask::`, `::stop-commands::` and `##[error]`, and one
//! named `p##[error]X`, put no such line into any output format, on stdout or stderr, with or
//! without an expectation file. The same text holds ESC, BEL and U+202E, which reach no output
//! raw.

use std::fs;

use crate::support::{drive, own_annotation, scratch, Ran};

/// The runner's commands: a line that begins, after blanks, with `::`; `##[` anywhere.
fn commands(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| {
            line.trim_start().starts_with("::") || line.contains("##[") || line.contains("##vso[")
        })
        .collect()
}

/// In JSON, outside text is inside strings, whose line feeds are escaped: no line can begin
/// with `::` (the text is kept exactly, `##[` included, as data).
fn json_commands(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| line.trim_start().starts_with("::"))
        .collect()
}

fn assert_no_command(what: &str, ran: &Ran, format: &str) {
    let github = format == "github";
    for (stream, text) in [("stdout", &ran.stdout), ("stderr", &ran.stderr)] {
        // The same text holds terminal escapes: none reaches any output raw either.
        assert!(
            !text.contains(['\x1b', '\x07', '\u{202e}']),
            "{what}, {stream}: a raw escape\n{text}"
        );
        let found = match (format, stream) {
            ("json", "stdout") => json_commands(text),
            _ => commands(text),
        };
        let forged: Vec<&str> = found
            .into_iter()
            .filter(|line| !(github && stream == "stdout" && own_annotation(line)))
            .collect();
        assert!(forged.is_empty(), "{what}, {stream}: {forged:#?}\n{text}");
    }
}

#[test]
fn no_format_passes_an_adapters_runner_commands() {
    for mode in ["runner-error", "runner-crash", "runner-name"] {
        // Three cases, the first two failing for every adapter (`expect: allowed` of a body that
        // disallows), so that every format shows blocks, not only a summary.
        let (dir, cmd) = scratch(3, "User-agent: *\nDisallow: /\n", mode);
        let name = match mode {
            "runner-name" => "'p##[error]X'".to_owned(),
            _ => format!("hostile-{mode}"),
        };
        let expectations = format!("adapter: {name}\nexpectations: []\n");
        fs::write(dir.path().join("none.yaml"), expectations).unwrap();
        let mut seen = 0;
        for format in ["human", "long", "markdown", "junit", "github", "json"] {
            for extra in [
                &[][..],
                &["--verbose"][..],
                &["--expectations", "none.yaml"][..],
            ] {
                let mut args = vec!["--format", format];
                args.extend_from_slice(extra);
                let ran = drive(dir.path(), "run", &cmd, &args);
                assert!(
                    matches!(ran.code, 0 | 1 | 3),
                    "{mode} {args:?}: {}",
                    ran.stderr
                );
                assert_no_command(&format!("{mode} {args:?}"), &ran, format);
                seen += ran.stdout.len();
            }
        }
        assert!(seen > 0);
        let ran = drive(dir.path(), "report", &cmd, &["--out", "reports"]);
        assert_eq!(ran.code, 0, "{mode}: {}", ran.stderr);
        assert_no_command(&format!("{mode} report"), &ran, "human");
        for page in fs::read_dir(dir.path().join("reports")).unwrap() {
            let page = page.unwrap().path();
            if page.extension().is_some_and(|e| e == "md" || e == "html") {
                let text = fs::read_to_string(&page).unwrap();
                assert!(
                    !text.contains(['\x1b', '\x07', '\u{202e}']),
                    "{}",
                    page.display()
                );
                let forged = commands(&text);
                assert!(forged.is_empty(), "{mode} {}: {forged:#?}", page.display());
            }
        }
    }
}

/// The hostile text does reach the output, shown: the test above would pass on a run that
/// dropped it.
#[test]
fn the_runner_commands_are_shown_not_dropped() {
    let (dir, cmd) = scratch(2, "x", "runner-error");
    let ran = drive(dir.path(), "run", &cmd, &["--verbose"]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stdout.contains("\\::add-mask::secret"),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("#\\#[error]legacy"), "{}", ran.stdout);
    let (dir, cmd) = scratch(2, "x", "runner-name");
    let ran = drive(dir.path(), "run", &cmd, &["--format", "github"]);
    assert!(ran.stdout.contains("p#\\#[error]X"), "{}", ran.stdout);
}
