//! `robotstxt-test compare`: one body across parsers, on bodies where parsers are known to
//! disagree (CR-only line endings, Allow precedence), with every exit code.

mod common;

use std::path::Path;

use common::{run_binary, Scratch};
use serde_json::Value;

/// CR-only line endings, and an Allow line that only RFC 9309 reads.
const CR_AND_ALLOW: &[u8] = b"User-agent: *\rDisallow: /private\rAllow: /private/ok\r";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn compare(dir: &Path, body: &[u8], args: &[&str]) -> common::Output {
    std::fs::write(dir.join("robots.txt"), body).unwrap();
    let adapters = root().join("adapters");
    let adapters = adapters.to_str().unwrap();
    let mut all = vec![
        "compare",
        "--robots",
        "robots.txt",
        "--adapters-dir",
        adapters,
    ];
    all.extend_from_slice(args);
    run_binary(dir, &all)
}

fn column<'a>(document: &'a Value, name: &str) -> &'a Value {
    document["adapters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap_or_else(|| panic!("no column {name}: {document}"))
}

/// The Rust adapters: they build with the workspace, so every machine that runs the tests has them.
const RUST_ADAPTERS: [&str; 8] = [
    "--adapter",
    "reference",
    "--adapter",
    "rust-robotparser",
    "--adapter",
    "rust-robotstxt",
    "--adapter",
    "rust-texting-robots",
];

#[test]
fn parsers_that_split_lines_differently_are_marked_with_the_clause() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = RUST_ADAPTERS.to_vec();
    args.extend([
        "--path",
        "/private/x",
        "--url",
        "https://www.example.org/private/ok#top",
    ]);
    args.extend(["--format", "json"]);
    let out = compare(dir.path(), CR_AND_ALLOW, &args);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let document: Value = serde_json::from_str(&out.stdout).unwrap();
    let paths: Vec<&str> = document["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        ["/private/x", "/private/ok"],
        "the URL's path, fragment dropped"
    );
    let reference = &document["queries"][1]["reference"];
    assert_eq!(reference["norobots-1994"]["verdict"], "disallowed");
    assert_eq!(reference["rfc9309"]["verdict"], "allowed");
    assert!(reference["rfc9309"]["explanation"]
        .as_str()
        .unwrap()
        .contains("Allow `/private/ok` (line 3)"));
    // robotparser reads no lone CR as a line end: the whole file is one User-agent line.
    let robotparser = column(&document, "rust-robotparser");
    assert_eq!(robotparser["judged_under"], "norobots-1994");
    let cell = &robotparser["cells"][0];
    assert_eq!(
        (&cell["answer"], &cell["mark"]),
        (&"allowed".into(), &"differs".into())
    );
    let clause = cell["clause"].as_str().unwrap();
    assert!(clause.contains("Disallow `/private` (line 2)"), "{clause}");
    // robotstxt claims RFC 9309: its `allowed` for the Allow line agrees under that profile.
    let robotstxt = column(&document, "rust-robotstxt");
    assert_eq!(robotstxt["judged_under"], "rfc9309");
    assert_eq!(robotstxt["cells"][1]["answer"], "allowed");
    assert_eq!(robotstxt["cells"][1]["mark"], "agrees");
    let reference_adapter = column(&document, "reference");
    assert!(reference_adapter["cells"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["mark"] == "agrees"));
    assert_eq!(document["file"][0], "CR-only line endings");
}

#[test]
fn the_human_table_marks_cells_and_explains_under_both_profiles() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = RUST_ADAPTERS.to_vec();
    args.extend([
        "--path",
        "/private/ok",
        "--agent",
        "FooBot",
        "--agent",
        "BarBot/1.0",
    ]);
    let out = compare(dir.path(), CR_AND_ALLOW, &args);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "   1  FooBot /private/ok", "{}", out.stdout);
    assert_eq!(lines[1], "   2  BarBot/1.0 /private/ok", "{}", out.stdout);
    // The reference once per profile: the carried `reference` adapter answers as the rfc9309 row.
    let reference_rows = lines.iter().filter(|l| l.starts_with("reference")).count();
    assert_eq!(reference_rows, 2, "{}", out.stdout);
    let robotparser = lines
        .iter()
        .find(|l| l.starts_with("rust-robotparser"))
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(robotparser.contains("A ✗"), "{robotparser}");
    // Adapters answering alike share a row, their names under it.
    assert!(
        out.stdout.contains("2 adapters ")
            && out
                .stdout
                .contains("    rust-robotstxt, rust-texting-robots"),
        "{}",
        out.stdout
    );
    for needed in [
        "The reference's explanation:",
        "disallowed: norobots-1994: robot name `foobot`",
        "allowed: rfc9309: robot name `foobot`",
        "The file has: CR-only line endings",
        // The clause the difference's cause comes from: where lines end, not the Disallow rule.
        // (The line wraps at 120 columns after it.)
        "rust-robotparser (norobots-1994), FooBot /private/ok: allowed; settled by Format \
         (norobots-1994): Disallow `/private`",
    ] {
        assert!(
            out.stdout.contains(needed),
            "no {needed:?} in\n{}",
            out.stdout
        );
    }
    let markdown = compare(
        dir.path(),
        CR_AND_ALLOW,
        &[&args[..], &["--format", "markdown"]].concat(),
    );
    assert!(
        markdown.stdout.starts_with("1. `FooBot /private/ok`"),
        "{}",
        markdown.stdout
    );
    assert!(
        markdown.stdout.contains("| reference rfc9309 | A | A |"),
        "{}",
        markdown.stdout
    );
    assert!(markdown.stdout.contains("**Where adapters differ**"));
}

#[test]
fn an_open_point_is_marked_and_not_scored() {
    let scratch = Scratch::new("cases: []\n");
    let fake = scratch.fake_cmd("");
    // A byte-order mark before the record: whether the record names the robot is left open.
    let body = b"\xEF\xBB\xBFUser-agent: FooBot\nDisallow: /a\n";
    let args = [
        "--adapter-cmd",
        fake.as_str(),
        "--path",
        "/a",
        "--format",
        "json",
    ];
    let out = compare(scratch.dir.path(), body, &args);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let document: Value = serde_json::from_str(&out.stdout).unwrap();
    let cell = &document["adapters"][0]["cells"][0];
    assert_eq!(cell["answer"], "allowed");
    assert_eq!(cell["mark"], "open");
    assert_eq!(cell["differs"], true);
    assert_eq!(cell["open_points"][0], "byte-order-mark");
    let human = compare(scratch.dir.path(), body, &args[..4]);
    assert!(human.stdout.contains("A ~"), "{}", human.stdout);
    assert!(human.stdout.contains("on open point byte-order-mark"));
}

#[test]
fn exit_codes_agree_input_and_broken() {
    let scratch = Scratch::new("cases: []\n");
    let dir = scratch.dir.path();
    let fake = scratch.fake_cmd("");
    let plain = b"User-agent: *\nDisallow: /private\n";
    let agree = compare(dir, plain, &["--adapter-cmd", &fake, "--path", "/x"]);
    assert_eq!(agree.code, 0, "{}{}", agree.stdout, agree.stderr);
    let differ = compare(dir, plain, &["--adapter-cmd", &fake, "--path", "/private"]);
    assert_eq!(differ.code, 1, "{}", differ.stdout);
    for bad in [
        vec!["--adapter-cmd", &fake, "--url", "/not/a/full/url"],
        vec!["--adapter-cmd", &fake, "--path", "no-slash"],
        vec!["--adapter-cmd", &fake],
        vec!["--adapter", "no-such-adapter", "--path", "/x"],
    ] {
        let out = compare(dir, plain, &bad);
        assert_eq!(out.code, 2, "{bad:?}: {}{}", out.stdout, out.stderr);
    }
    let missing = run_binary(dir, &["compare", "--robots", "nope.txt", "--path", "/x"]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("nope.txt"), "{}", missing.stderr);
    let dead = compare(
        dir,
        plain,
        &[
            "--adapter-cmd",
            "python3 -c 'raise SystemExit(1)'",
            "--path",
            "/x",
        ],
    );
    assert_eq!(dead.code, 3, "{}{}", dead.stdout, dead.stderr);
    assert!(dead.stdout.contains("unavailable"), "{}", dead.stdout);
}

#[test]
fn many_queries_and_adapters_fit_120_columns() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = RUST_ADAPTERS.to_vec();
    let paths: Vec<String> = (0..40).map(|i| format!("/private/{i}")).collect();
    for path in &paths {
        args.extend(["--path", path.as_str()]);
    }
    let long_agent = format!("Bot{}", "x".repeat(300));
    args.extend(["--agent", "FooBot", "--agent", long_agent.as_str()]);
    let out = compare(dir.path(), CR_AND_ALLOW, &args);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let table = out.stdout.split("\nA allowed").next().unwrap();
    for line in table.lines() {
        assert!(
            line.chars().count() <= 120,
            "{} wide: {line}",
            line.chars().count()
        );
    }
    assert!(
        table.contains("characters]…"),
        "a long agent is cut in the middle: {table}"
    );
    assert!(
        table.lines().any(|l| l.trim_start().starts_with("80")),
        "{table}"
    );
}

#[test]
fn without_adapter_compare_asks_the_installed_ones_and_installs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    std::fs::write(
        dir.path().join("robots.txt"),
        "User-agent: *\nDisallow: /a\n",
    )
    .unwrap();
    let cache_arg = cache.to_string_lossy().into_owned();
    let out = run_binary(
        dir.path(),
        &[
            "compare",
            "--robots",
            "robots.txt",
            "--path",
            "/a",
            "--cache-dir",
            &cache_arg,
        ],
    );
    assert_eq!(out.code, 0, "{out:?}");
    // Outside a checkout, on a fresh cache, the ready ones are the reference (served by the
    // binary) and the adapters of system packages, which need no install.
    assert!(
        out.stderr.contains("installed adapter")
            && out
                .stderr
                .contains("more can be installed (or name one with --adapter NAME,")
            && out.stderr.contains("\n  robotstxt-test adapters install "),
        "{out:?}"
    );
    assert!(
        !cache.join("adapters").exists() || common::names_in(&cache.join("adapters")).is_empty(),
        "nothing installed"
    );
}
