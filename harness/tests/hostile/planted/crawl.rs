//! The crawler door: what a crawler sends the loopback site (a User-agent and request targets
//! holding the plant's bytes) and its stderr, and every field of a crawler's manifest, read by
//! `crawl` in every format, its pages, `crawlers` and `report`.

use std::fs;
use std::path::Path;

use super::adapters::Scratch;
use super::{
    assert_files_inert, assert_shown_or_named, planted_siblings, run_inert, yaml_text, yaml_tree,
    PLANT,
};

/// One access case of the carried corpus: two authorities, a few checks.
const CASE: &str = "access/authorities/robots-txt-per-authority";

#[test]
fn what_a_crawler_sends_and_says() {
    let scratch = Scratch::new();
    let dir = scratch.path();
    fs::write(scratch.inputs().join("plant"), PLANT).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/adapters/planted_crawler.py");
    let cmd = format!(
        "python3 {} {{url}} {{agent}} {}",
        script.display(),
        scratch.inputs().join("plant").display()
    );
    let mut seen = String::new();
    for format in ["human", "json", "junit", "markdown", "github"] {
        let args = [
            "crawl",
            "--crawler-cmd",
            &cmd,
            "--profile",
            "rfc9309",
            "--case",
            CASE,
        ];
        let args = [
            &args[..],
            &["--request-timeout", "1", "--format", format, "--verbose"],
        ]
        .concat();
        let ran = run_inert(
            "crawler",
            dir,
            &[&args[..], &["--pages", "out/pages"]].concat(),
        );
        seen += &(ran.stdout + &ran.stderr);
    }
    let (files, written) = assert_files_inert("crawler", dir, &[scratch.inputs()]);
    assert!(files >= 2, "the pages were written");
    assert!(
        (seen + &written).contains("forged"),
        "the requests are shown"
    );
}

fn manifest() -> String {
    let carried = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crawlers/wget/crawler.yaml");
    fs::read_to_string(carried).unwrap()
}

#[test]
fn every_field_of_a_crawlers_manifest() {
    let tree = yaml_tree(&manifest());
    for (pointer, planted) in planted_siblings(&tree) {
        let scratch = Scratch::new();
        let dir = scratch.path();
        let folder = scratch.inputs().join("crawlers/wget");
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("crawler.yaml"), yaml_text(&planted)).unwrap();
        let what = format!("crawler manifest {pointer}");
        let mut seen = String::new();
        let crawlers = ["--crawlers", "in/crawlers", "--cache-dir", "out/cache"];
        for args in [
            &["crawlers"][..],
            &[
                "crawl",
                "--crawler",
                "all",
                "--case",
                CASE,
                "--format",
                "human",
            ][..],
            &[
                "crawl",
                "--crawler",
                "all",
                "--case",
                CASE,
                "--format",
                "github",
            ][..],
            &[
                "crawl",
                "--crawler",
                "all",
                "--case",
                CASE,
                "--format",
                "json",
            ][..],
        ] {
            let ran = run_inert(&what, dir, &[args, &crawlers[..]].concat());
            seen += &(ran.stdout + &ran.stderr);
        }
        let (_, written) = assert_files_inert(&what, dir, &[scratch.inputs()]);
        assert_shown_or_named(&what, &pointer, &(seen + &written));
    }
}
