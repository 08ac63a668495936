//! Every way a case file can be wrong gives an error naming the file, the line and the field.

use std::path::PathBuf;

use robotstxt_suite::cases::{load_corpus, Reported};

/// Loads `yaml` as `bad.yaml` in a fresh corpus folder and returns the one error, as displayed.
fn error_of(yaml: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.yaml"), yaml).unwrap();
    let errors = load_corpus(&[dir.path().to_owned()]).expect_err("the file should be refused");
    assert_eq!(errors.len(), 1, "{errors:?}");
    let shown = errors[0].to_string();
    let file = dir.path().join("bad.yaml");
    shown
        .strip_prefix(&format!("{}:", file.display()))
        .unwrap_or_else(|| panic!("error does not name the file: {shown}"))
        .to_owned()
}

const GOOD_CHECK: &str = "      - { agent: FooBot, path: /a, expect: allowed }\n";

fn case(fields: &str) -> String {
    format!("cases:\n  - name: one\n    spec: Format\n{fields}")
}

#[test]
fn unknown_field() {
    let e = error_of(&case(&format!(
        "    robots: \"\"\n    colour: blue\n    checks:\n{GOOD_CHECK}"
    )));
    assert!(
        e.starts_with("5:5: cases[0]: unknown field `colour`"),
        "{e}"
    );
}

#[test]
fn missing_spec() {
    let e = error_of(&format!(
        "cases:\n  - name: one\n    robots: \"\"\n    checks:\n{GOOD_CHECK}"
    ));
    assert!(e.starts_with("2:5: cases[0]: missing field `spec`"), "{e}");
}

#[test]
fn duplicate_name_points_at_the_second() {
    let one =
        format!("  - name: same\n    spec: Format\n    robots: \"\"\n    checks:\n{GOOD_CHECK}");
    let e = error_of(&format!("cases:\n{one}{one}"));
    assert!(
        e.starts_with("7: cases[1].name: duplicate name `same`"),
        "{e}"
    );
}

#[test]
fn duplicate_id_across_folders() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let text = case(&format!("    robots: \"\"\n    checks:\n{GOOD_CHECK}"));
    std::fs::write(a.path().join("topic.yaml"), &text).unwrap();
    std::fs::write(b.path().join("topic.yaml"), &text).unwrap();
    let errors = load_corpus(&[a.path().to_owned(), b.path().to_owned()]).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].file, b.path().join("topic.yaml"));
    assert_eq!(errors[0].line, Some(2));
    assert!(
        errors[0].message.contains("duplicate case id `topic/one`"),
        "{}",
        errors[0]
    );
}

#[test]
fn one_file_as_a_root_names_cases_after_its_stem() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("topic.yaml");
    let text = case(&format!("    robots: \"\"\n    checks:\n{GOOD_CHECK}"));
    std::fs::write(&file, text).unwrap();
    let cases = load_corpus(&[file]).unwrap();
    let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["topic/one"]);
    let missing = load_corpus(&[dir.path().join("absent.yaml")]).unwrap_err();
    assert!(missing[0].message.contains("cannot read"), "{}", missing[0]);
}

#[test]
fn robots_both_or_neither() {
    let both = error_of(&case(&format!(
        "    robots: \"\"\n    robots_base64: \"\"\n    checks:\n{GOOD_CHECK}"
    )));
    assert!(
        both.starts_with("2:5: cases[0]: case `one`: `robots` and `robots_base64`"),
        "{both}"
    );
    let neither = error_of(&case(&format!("    checks:\n{GOOD_CHECK}")));
    assert!(
        neither.starts_with("2:5: cases[0]: case `one`: missing field `robots`"),
        "{neither}"
    );
}

#[test]
fn bad_base64() {
    let e = error_of(&case(&format!(
        "    robots_base64: \"%%\"\n    checks:\n{GOOD_CHECK}"
    )));
    assert!(
        e.starts_with("4:20: cases[0].robots_base64: robots_base64 is not valid base64"),
        "{e}"
    );
}

#[test]
fn unknown_profile() {
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: A, path: /a, expect: { rfc1234: allowed } }\n",
    ));
    assert!(e.starts_with("6:"), "{e}");
    assert!(
        e.contains("cases[0].checks[0].expect: unknown profile `rfc1234`"),
        "{e}"
    );
}

#[test]
fn bad_expect_values() {
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: A, path: /a, expect: maybe }\n",
    ));
    assert!(
        e.contains("cases[0].checks[0].expect: expect: `maybe` is not"),
        "{e}"
    );
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: A, path: /a, expect: unspecified }\n",
    ));
    assert!(e.contains("`unspecified` needs a profile"), "{e}");
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: A, path: /a, expect: { norobots-1994: yes } }\n",
    ));
    assert!(
        e.contains("is not `allowed`, `disallowed` or `unspecified`"),
        "{e}"
    );
}

#[test]
fn path_without_leading_slash() {
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: A, path: a/b, expect: allowed }\n",
    ));
    assert!(
        e.starts_with("6:27: cases[0].checks[0].path: path \"a/b\" must start with `/`"),
        "{e}"
    );
}

#[test]
fn empty_checks_bad_name_empty_agent() {
    let e = error_of(&case("    robots: \"\"\n    checks: []\n"));
    assert!(
        e.contains("cases[0].checks: checks must hold at least one check"),
        "{e}"
    );
    let e = error_of(&format!(
        "cases:\n  - name: Not_Kebab\n    spec: x\n    robots: \"\"\n    checks:\n{GOOD_CHECK}"
    ));
    assert!(
        e.starts_with("2:11: cases[0].name: name `Not_Kebab` is not kebab-case"),
        "{e}"
    );
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: \"\", path: /a, expect: allowed }\n",
    ));
    assert!(
        e.contains("cases[0].checks[0].agent: agent must not be empty"),
        "{e}"
    );
}

#[test]
fn exact_bytes_survive() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = "cases:\n  - name: bytes\n    spec: Format\n    robots: \"\\ufeffA:\\r\\r\\n\\t\\0\\x0c\"\n    checks:\n      - { agent: A, path: /a, expect: allowed }\n  - name: raw\n    spec: Format\n    robots_base64: \"/w0K\"\n    checks:\n      - { agent: A, path: /a, expect: allowed }\n";
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/topic.yaml"), yaml).unwrap();
    let cases = load_corpus(&[PathBuf::from(dir.path())]).unwrap();
    assert_eq!(cases[0].id, "sub/topic/bytes");
    assert_eq!(cases[0].robots, b"\xEF\xBB\xBFA:\r\r\n\t\0\x0c");
    assert_eq!(cases[1].robots, b"\xFF\r\n");
}

#[test]
fn reported_must_be_an_http_url() {
    for bad in [
        "google/robotstxt#64",
        "ftp://example.com/x",
        "https://",
        "mailto:a@b.c",
        "https://example.com/a b>",
    ] {
        let e = error_of(&case(&format!(
            "    reported: \"{bad}\"\n    robots: \"\"\n    checks:\n{GOOD_CHECK}"
        )));
        assert!(
            e.starts_with("4:15: cases[0].reported: reported ") && e.contains(bad),
            "{bad}: {e}"
        );
    }
}

const MARKED: &str = "      - { agent: FooBot, path: /b, expect: allowed, reported: disallowed }\n";

#[test]
fn reported_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let url = "https://github.com/google/robotstxt/issues/64";
    std::fs::write(
        dir.path().join("good.yaml"),
        case(&format!(
            "    reported: {url}\n    robots: \"\"\n    checks:\n{GOOD_CHECK}{MARKED}"
        )),
    )
    .unwrap();
    let cases = load_corpus(&[dir.path().to_owned()]).unwrap();
    assert_eq!(cases[0].reported.as_deref(), Some(url));
    let marked: Vec<_> = cases[0].checks.iter().map(|c| c.reported).collect();
    assert_eq!(
        marked,
        [
            None,
            Some(Reported::Answer(robotstxt_reference::Verdict::Disallowed))
        ]
    );
}

#[test]
fn a_reported_case_marks_its_reported_checks_and_only_a_reported_case_may() {
    let url = "https://github.com/google/robotstxt/issues/64";
    let e = error_of(&case(&format!(
        "    reported: {url}\n    robots: \"\"\n    checks:\n{GOOD_CHECK}"
    )));
    assert!(
        e.starts_with("2:5: cases[0]: case `one`: a `reported` case marks the checks"),
        "{e}"
    );
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: FooBot, path: /a, expect: allowed, reported: fault }\n",
    ));
    assert!(e.contains("gives no `reported` thread"), "{e}");
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: FooBot, path: /a, expect: allowed, reported: true }\n",
    ));
    assert!(e.starts_with("6:") && e.contains("reported"), "{e}");
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: FooBot, path: /a, expect: allowed, reported: yes }\n",
    ));
    assert!(
        e.starts_with("6:7: cases[0].checks:") && e.contains("reported `yes`: write what"),
        "{e}"
    );
}

#[test]
fn an_unknown_reading_is_named_at_its_own_place() {
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: FooBot, path: /a, expect: allowed, reading: percent-as-written }\n",
    ));
    assert!(
        e.starts_with(
            "6:62: cases[0].checks[0].reading: reading `percent-as-written` is not one of"
        ),
        "{e}"
    );
    let e = error_of(&case(
        "    reading: [empty-rule-matches-nothing, nope]\n    robots: \"\"\n    checks:\n{GOOD_CHECK}",
    ));
    assert!(
        e.starts_with("4:43: cases[0].reading[1]: reading `nope`"),
        "{e}"
    );
}

#[test]
fn a_reading_must_belong_to_a_profile_that_scores_the_check() {
    let e = error_of(&case(
        "    robots: \"\"\n    checks:\n      - { agent: FooBot, path: /a, expect: { norobots-1994: allowed, rfc9309: unspecified }, reading: whole-token-match }\n",
    ));
    assert!(
        e.starts_with("6:7: cases[0].checks: check (agent `FooBot`, path `/a`)")
            && e.contains(
                "reading `whole-token-match` belongs to rfc9309, which does not score this check"
            ),
        "{e}"
    );
    let e = error_of(&case(
        "    reading: whole-token-match\n    robots: \"\"\n    checks:\n      - { agent: FooBot, path: /a, expect: { norobots-1994: allowed } }\n",
    ));
    assert!(e.contains("no check is scored under it"), "{e}");
}

#[test]
fn a_spec_may_give_each_profile_its_clause() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("good.yaml"),
        format!(
            "cases:\n  - name: one\n    spec:\n      norobots-1994: 'Format: \"a\"'\n      rfc9309: 'RFC 9309 2.2: \"b\"'\n    robots: \"\"\n    checks:\n{GOOD_CHECK}"
        ),
    )
    .unwrap();
    let cases = load_corpus(&[dir.path().to_owned()]).unwrap();
    assert_eq!(
        cases[0].spec_for(robotstxt_reference::Profile::Rfc9309),
        Some("RFC 9309 2.2: \"b\"")
    );
    let e = error_of(&format!(
        "cases:\n  - name: one\n    spec:\n      rfc: x\n    robots: \"\"\n    checks:\n{GOOD_CHECK}"
    ));
    assert!(
        e.starts_with("4:") && e.contains("unknown profile `rfc`"),
        "{e}"
    );
}
