//! The survey's doors: a corpus's file names (in a folder and in a tar archive) and bodies, a
//! census plan's every field, and every field of a `survey.json` given to `survey merge`.

use std::fs;
use std::path::Path;

use serde_json::{json, Value};

use super::adapters::Scratch;
use super::{
    assert_files_inert, assert_shown_or_named, one_of_each_kind, planted_siblings, run_inert, PLANT,
};

/// Surveys `corpus` with the disallowing adapter into `out/<name>`; scans what it wrote.
fn survey(scratch: &Scratch, what: &str, source: &[&str], name: &str) -> String {
    let cmd = scratch.disallowing_adapter();
    let out = format!("out/{name}");
    let args = [
        &["survey"][..],
        source,
        &["--adapter-cmd", &cmd, "--out", &out],
    ]
    .concat();
    let ran = run_inert(what, scratch.path(), &args);
    let (_, written) = assert_files_inert(what, scratch.path(), &[scratch.inputs()]);
    ran.stdout + &ran.stderr + &written
}

#[test]
fn a_corpus_of_files_named_and_written_with_escapes() {
    let scratch = Scratch::new();
    let corpus = scratch.inputs().join("corpus");
    // Only planted files, so that each is an example of what it disagrees on.
    fs::remove_dir_all(&corpus).unwrap();
    fs::create_dir(&corpus).unwrap();
    let name = PLANT.replace('/', "-");
    fs::write(
        corpus.join(format!("{name}.txt")),
        "User-agent: *\nAllow: /p\nDisallow: /\n",
    )
    .unwrap();
    fs::write(
        corpus.join("body.txt"),
        format!("User-agent: *\nAllow: /{PLANT}\nDisallow: /\n"),
    )
    .unwrap();
    fs::write(
        corpus.join("bytes.txt"),
        format!("User-agent: {PLANT}\nDisallow: /\n"),
    )
    .unwrap();
    let seen = survey(
        &scratch,
        "corpus folder",
        &["--corpus", "in/corpus"],
        "folder",
    );
    assert!(
        seen.contains("forged"),
        "the names and lines are shown\n{seen}"
    );
    // The same in a tar archive, with a member that is skipped (not a regular file) and one
    // whose name is long.
    let mut archive = tar::Builder::new(Vec::new());
    for (member, body) in [
        (
            format!("{name}.txt"),
            "User-agent: *\nAllow: /p\nDisallow: /\n".to_owned(),
        ),
        (
            format!("{}/{name}.txt", "d".repeat(150)),
            format!("User-agent: *\nAllow: /{PLANT}\n"),
        ),
    ] {
        let mut header = tar::Header::new_gnu();
        header.set_size(body.len() as u64);
        header.set_mode(0o644);
        archive
            .append_data(&mut header, &member, body.as_bytes())
            .unwrap();
    }
    let mut link = tar::Header::new_gnu();
    link.set_entry_type(tar::EntryType::Symlink);
    link.set_size(0);
    archive
        .append_link(&mut link, format!("{name}-link"), PLANT)
        .unwrap();
    fs::write(
        scratch.inputs().join("corpus.tar"),
        archive.into_inner().unwrap(),
    )
    .unwrap();
    let seen = survey(
        &scratch,
        "corpus archive",
        &["--corpus", "in/corpus.tar"],
        "archive",
    );
    assert!(seen.contains("forged"), "{seen}");
}

/// The census file of the census tests, and a plan of all its captures.
fn plan_lines(scratch: &Scratch) -> Vec<Value> {
    let warc = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/census/hard.warc.gz");
    fs::copy(&warc, scratch.inputs().join("hard.warc.gz")).unwrap();
    let ran = run_inert(
        "captures",
        scratch.path(),
        &["survey", "captures", "--warc", "in/hard.warc.gz"],
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let header = json!({"plan": "robotstxt-test census plan 1", "name": "census", "warc": "hard.warc.gz", "part": 1, "parts": 1});
    let mut lines = vec![header];
    for capture in ran.stdout.lines() {
        let capture: Value = serde_json::from_str(capture).unwrap();
        lines.push(json!({"offset": capture["offset"], "status": capture["status"]}));
    }
    lines
}

#[test]
fn every_field_of_a_census_plan() {
    let scratch = Scratch::new();
    let lines = plan_lines(&scratch);
    // The header and the first capture, each field in turn; the other captures as they are.
    let planted_lines = Value::Array(lines[..2].to_vec());
    for (pointer, planted) in planted_siblings(&planted_lines) {
        let what = format!("plan {pointer}");
        let mut text = String::new();
        for line in planted.as_array().unwrap().iter().chain(&lines[2..]) {
            text += &format!("{line}\n");
        }
        fs::write(scratch.inputs().join("plan.jsonl"), text).unwrap();
        let source = ["--warc", "in/hard.warc.gz", "--plan", "in/plan.jsonl"];
        let seen = survey(&scratch, &what, &source, "census");
        assert_shown_or_named(&what, &pointer, &seen);
    }
}

#[test]
fn every_field_of_a_survey_merged() {
    let scratch = Scratch::new();
    let corpus = scratch.inputs().join("corpus");
    fs::write(
        corpus.join("c.txt"),
        "User-agent: FooBot\nAllow: /a\nDisallow: /\n",
    )
    .unwrap();
    survey(&scratch, "base", &["--corpus", "in/corpus"], "base");
    let base: Value =
        serde_json::from_slice(&fs::read(scratch.path().join("out/base/survey.json")).unwrap())
            .unwrap();
    let siblings = one_of_each_kind(planted_siblings(&base));
    assert!(siblings.len() >= 40, "{}", siblings.len());
    for (pointer, planted) in siblings {
        let what = format!("survey.json {pointer}");
        fs::write(scratch.inputs().join("survey.json"), planted.to_string()).unwrap();
        for hosts in ["named", "hidden"] {
            let args = [
                "survey",
                "merge",
                "in/survey.json",
                "--out",
                "out/merged",
                "--hosts",
                hosts,
            ];
            let ran = run_inert(&what, scratch.path(), &args);
            let (_, written) = assert_files_inert(&what, scratch.path(), &[scratch.inputs()]);
            if ran.code != 0 {
                assert_shown_or_named(&what, &pointer, &(ran.stderr + &written));
            }
        }
    }
}
