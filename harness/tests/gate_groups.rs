//! A gate's regressions counted by group, through the binary: 76 regressions of two bugs read as
//! two counted groups on the first screen of the human and Markdown formats, as one `::error` per
//! group in `github` format, and `--also-write` renders every format from one run.

mod common;

use common::Scratch;

/// 64 checks where the `*` record applies and 12 where the robot's own record does, all
/// `disallowed`: the fake adapter answers `allowed` to every one.
fn corpus() -> String {
    let mut yaml = String::from("cases:\n");
    for i in 0..64 {
        yaml.push_str(&format!(
            "  - name: star{i}\n    spec: test\n    robots: \"User-agent: *\\nDisallow: /a{i}\\n\"\n    \
             checks:\n      - {{ agent: FooBot, path: /a{i}, expect: disallowed }}\n"
        ));
    }
    for i in 0..12 {
        yaml.push_str(&format!(
            "  - name: named{i}\n    spec: test\n    robots: \"User-agent: FooBot\\nDisallow: /b{i}\\n\\n\
             User-agent: *\\nDisallow: /c\\n\"\n    checks:\n      - {{ agent: FooBot, path: /b{i}, \
             expect: disallowed }}\n"
        ));
    }
    yaml
}

/// A scratch folder whose expectation file lists nothing (written while the corpus held one
/// passing case), then the corpus of 76 regressions.
fn gate() -> (Scratch, String) {
    let s = Scratch::new(
        "cases:\n  - name: open\n    spec: test\n    robots: \"User-agent: *\\n\"\n    checks:\n      \
         - { agent: FooBot, path: /a, expect: allowed }\n",
    );
    let cmd = s.fake_cmd("fake 1.0");
    let out = s.run(
        "run",
        &["--adapter-cmd", &cmd, "--update-expectations", "exp.yaml"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    s.corpus(&corpus());
    (s, cmd)
}

const STAR: &str = "64 regressions: ";
const NAMED: &str = "12 regressions: ";

/// Both groups, with their counts (as `star` and `named` say them), within the first `lines`
/// lines of `text`.
fn counted_within(text: &str, lines: usize, [star, named]: [&str; 2]) {
    let screen: Vec<&str> = text.lines().take(lines).collect();
    let screen = screen.join("\n");
    assert!(screen.contains(star), "{screen}");
    assert!(screen.contains(named), "{screen}");
}

#[test]
fn the_gate_counts_regressions_by_group_in_every_format() {
    let (s, cmd) = gate();
    let gated = ["--adapter-cmd", cmd.as_str(), "--expectations", "exp.yaml"];
    let human = s.run("run", &gated);
    assert_eq!(human.code, 1, "{human:?}");
    counted_within(&human.stdout, 24, [STAR, NAMED]);
    // And it ends with them.
    let tail: Vec<&str> = human.stdout.lines().rev().take(4).collect();
    assert!(tail.iter().any(|l| l.contains(STAR)), "{}", human.stdout);

    let markdown = s.run("run", &[&gated[..], &["--format", "markdown"]].concat());
    counted_within(&markdown.stdout, 24, ["| 64 |", "| 12 |"]);
    assert!(
        markdown.stdout.contains("| group | regressions | e.g. |"),
        "{}",
        markdown.stdout
    );

    let github = s.run("run", &[&gated[..], &["--format", "github"]].concat());
    let errors: Vec<&str> = (github.stdout.lines())
        .filter(|l| l.starts_with("::error"))
        .collect();
    assert_eq!(errors.len(), 2, "{}", github.stdout);
    assert!(errors[0].contains(STAR), "{}", github.stdout);
    assert!(errors[1].contains(NAMED), "{}", github.stdout);

    // One run, every format: the files say what the printed JSON says.
    let once = s.run(
        "run",
        &[
            &gated[..],
            &[
                "--format",
                "json",
                "--also-write",
                "junit=out.xml",
                "--also-write",
                "markdown=out.md",
            ],
        ]
        .concat(),
    );
    assert_eq!(once.code, 1, "{once:?}");
    let json: serde_json::Value = serde_json::from_str(&once.stdout).unwrap();
    let groups = json["gate"]["regression_groups"].as_array().unwrap();
    let counts: Vec<u64> = groups
        .iter()
        .map(|g| g["count"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [64, 12]);
    let junit = std::fs::read_to_string(s.path("out.xml")).unwrap();
    assert!(junit.contains("value=\"64\"/>"), "{junit}");
    assert!(junit.contains("value=\"12\"/>"), "{junit}");
    let summary = std::fs::read_to_string(s.path("out.md")).unwrap();
    assert!(summary.contains("| 64 |"), "{summary}");

    let bad = s.run("run", &[&gated[..], &["--also-write", "nope=x"]].concat());
    assert_eq!(bad.code, 2, "{bad:?}");
    assert!(bad.stderr.contains("unknown format"), "{bad:?}");
}

/// More groups than GitHub shows annotations for: ten `::error` lines, the last counting the
/// rest.
#[test]
fn github_never_gets_more_than_ten_errors() {
    let mut yaml = String::from("cases:\n");
    // Twelve adapters that cannot start: an `::error` each, were there no cap.
    for i in 0..12 {
        yaml.push_str(&format!(
            "  - name: star{i}\n    spec: test\n    robots: \"User-agent: *\\nDisallow: /a{i}\\n\"\n    \
             checks:\n      - {{ agent: FooBot, path: /a{i}, expect: disallowed }}\n"
        ));
    }
    let s = Scratch::new(&yaml);
    let mut args: Vec<String> = Vec::new();
    for i in 0..12 {
        args.push("--adapter-cmd".into());
        args.push(format!("/nonexistent/adapter-{i}"));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = s.run("run", &[&args[..], &["--format", "github"]].concat());
    let errors: Vec<&str> = (out.stdout.lines())
        .filter(|l| l.starts_with("::error"))
        .collect();
    assert_eq!(errors.len(), 10, "{}", out.stdout);
    assert!(errors[9].contains("3 more errors"), "{}", out.stdout);
}

/// The file a user commits names no folder of their machine: the adapter's path under the
/// current folder is written relative to it.
#[test]
fn the_expectation_header_carries_no_machine_path() {
    let (s, _) = gate();
    let file = std::fs::read_to_string(s.path("exp.yaml")).unwrap();
    let folder = s.dir.path().display().to_string();
    assert!(!file.contains(&folder), "{file}");
    assert!(
        file.contains("--adapter-cmd 'python3 fake.py fake 1.0'"),
        "{file}"
    );
}
