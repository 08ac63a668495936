//! The crawler door: what a crawler sends the loopback site (a User-agent and request targets
//! holding the plant's bytes) and its stderr, and every field of a crawler's manifest, read by
//! `crawl` in every format, its pages, `crawlers` and `report`.

use std::fs;
use std::path::Path;

use super::adapters::Scratch;
use super::{assert_shown_or_named, planted_siblings, yaml_text, yaml_tree, Reading, PLANT};

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
    let mut reading = Reading::new("crawler", dir);
    let crawl = [
        "crawl",
        "--crawler-cmd",
        &cmd,
        "--profile",
        "rfc9309",
        "--case",
        CASE,
    ];
    for format in ["human", "json", "junit", "markdown", "github"] {
        let options = ["--request-timeout", "1", "--format", format, "--verbose"];
        reading.run(&[&crawl, &options, &["--pages", "out/pages"]]);
    }
    let (files, seen) = reading.finish(&scratch.inputs());
    assert!(files >= 2, "the pages were written");
    assert!(seen.contains("forged"), "the requests are shown");
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
        let folder = scratch.inputs().join("crawlers/wget");
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("crawler.yaml"), yaml_text(&planted)).unwrap();
        let what = format!("crawler manifest {pointer}");
        let mut reading = Reading::new(&what, scratch.path());
        let crawlers = ["--crawlers", "in/crawlers", "--cache-dir", "out/cache"];
        reading.run(&[&["crawlers"], &crawlers]);
        for format in ["human", "github", "json"] {
            let crawl = [
                "crawl",
                "--crawler",
                "all",
                "--case",
                CASE,
                "--format",
                format,
            ];
            reading.run(&[&crawl, &crawlers]);
        }
        assert_shown_or_named(&what, &pointer, &reading.finish(&scratch.inputs()).1);
    }
}
