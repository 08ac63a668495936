//! One survey, whatever the engine: over a few hundred real robots.txt files, one process and two
//! shards merged (`survey merge`) write the same `survey.json`, byte for byte, causes and reduced
//! examples included; and every example shows the lines that decided, its label read again from
//! them. (The Spark job is held to the same in `census_spark.rs`.)
//!
//! The files are the first [`FILES`] of the real-world corpus, `$ROBOTSTXT_REALWORLD_CORPUS` or
//! `<target>/realworld-robots.tar.xz` (README: "The real-world corpus"), with `500apps.com`
//! when it holds it; without the corpus, the case corpus's bodies stand in, and the test says so
//! on stderr. The adapters are the reference and python-urllib, run by the binary.

mod common;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{checkout, target_dir};
use robotstxt_reference::lines::raw_lines;
use robotstxt_reference::{Profile, Robots};
use robotstxt_suite::cause::{of_decision, BodyMarks};
use robotstxt_survey::excerpt::shown_numbers;
use robotstxt_survey::Survey;

/// Files surveyed: enough for several causes per adapter in every shard, few enough for a test
/// of well under a minute.
const FILES: usize = 400;

const ADAPTERS: [&str; 4] = ["--adapter", "reference", "--adapter", "python-urllib"];

/// A file like `500apps.com`'s: urllib obeys the Allow line the 1994 reference does not read.
const ALLOW_FIRST: &str = "User-agent: *\nAllow: /\nDisallow: /includes/\nDisallow: /landing/\n\n\
                           Sitemap: https://allow-first.example/sitemap.xml\n";

/// Writes the corpus into `folder`: the first `files` real files (and `500apps.com`) when there
/// are any, else as many of the case corpus's bodies.
fn write_corpus(folder: &Path, files: usize) {
    std::fs::create_dir_all(folder).unwrap();
    let named = std::env::var_os("ROBOTSTXT_REALWORLD_CORPUS").map(PathBuf::from);
    let archive = named
        .into_iter()
        .chain([target_dir().join("realworld-robots.tar.xz")])
        .find(|p| p.is_file());
    let Some(archive) = archive else {
        eprintln!(
            "note: no real-world corpus (ROBOTSTXT_REALWORLD_CORPUS, {}): the case corpus's \
             bodies stand in",
            target_dir().join("realworld-robots.tar.xz").display()
        );
        let cases = robotstxt_suite::cases::load_corpus(&[checkout().join("cases")]).unwrap();
        for (i, case) in cases.iter().take(files).enumerate() {
            std::fs::write(folder.join(format!("case{i:04}.example")), &case.robots).unwrap();
        }
        return;
    };
    let file = std::fs::File::open(&archive).unwrap();
    let mut tar = tar::Archive::new(xz2::read::XzDecoder::new(file));
    let mut taken = 0;
    for entry in tar.entries().unwrap() {
        let mut entry = entry.unwrap();
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry.path().unwrap().into_owned();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if taken >= files && name != "500apps.com" {
            continue;
        }
        let mut body = Vec::new();
        entry.read_to_end(&mut body).unwrap();
        std::fs::write(folder.join(&name), body).unwrap();
        taken += 1;
    }
}

fn survey(corpus: &Path, out: &Path, more: &[&str]) {
    let binary = env!("CARGO_BIN_EXE_robotstxt-test");
    let ran = Command::new(binary)
        .current_dir(checkout())
        .args(["survey", "--corpus"])
        .arg(corpus)
        .args(ADAPTERS)
        .args(more)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "survey {more:?}: {}",
        String::from_utf8_lossy(&ran.stderr)
    );
}

fn read(path: &Path) -> Survey {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The lines `numbers` of `body`, each with its own line end: the file an excerpt shows.
fn excerpt_body(body: &[u8], numbers: &[u32]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in raw_lines(body).filter(|l| numbers.contains(&l.number)) {
        out.extend_from_slice(line.text);
        out.extend_from_slice(line.terminator);
    }
    out
}

fn profile(name: &str) -> Profile {
    Profile::ALL
        .iter()
        .copied()
        .find(|p| p.name() == name)
        .unwrap()
}

#[test]
fn one_process_and_merged_shards_write_the_same_survey() {
    let scratch = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let corpus = scratch.path().join("corpus");
    write_corpus(&corpus, FILES);
    let whole = scratch.path().join("whole");
    survey(&corpus, &whole, &[]);
    let mut parts = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = scratch.path().join(format!("shard{}", &shard[..1]));
        survey(&corpus, &out, &["--shard", shard]);
        parts.push(out.join("survey.json"));
    }
    let merged = scratch.path().join("merged");
    let ran = Command::new(env!("CARGO_BIN_EXE_robotstxt-test"))
        .args(["survey", "merge"])
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );

    let one = std::fs::read_to_string(whole.join("survey.json")).unwrap();
    let two = std::fs::read_to_string(merged.join("survey.json")).unwrap();
    // What makes the comparison worth having: urllib disagrees, in several causes, reduced.
    let s = read(&whole.join("survey.json"));
    let urllib = &s.adapters[1];
    assert_eq!(urllib.adapter, "python-urllib");
    assert!(urllib.causes.len() >= 2, "{:?}", urllib.causes);
    assert!(urllib.signatures.iter().all(|s| s.example.reduced.is_some()
        || s.example.bytes > robotstxt_survey::cause::MAX_REDUCED_BODY as u64));
    assert!(one == two, "one process and two merged shards differ");
    for name in ["survey.md", "survey.csv", "survey.html"] {
        assert_eq!(
            std::fs::read(whole.join(name)).unwrap(),
            std::fs::read(merged.join(name)).unwrap(),
            "{name}"
        );
    }

    // The publishing formats: a row per adapter and per cause; one page, nothing fetched.
    let csv = std::fs::read_to_string(whole.join("survey.csv")).unwrap();
    let rows: Vec<&str> = csv.split("\r\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(rows[0], robotstxt_survey::publish::CSV_HEADER);
    let causes: usize = s.adapters.iter().map(|a| a.causes.len() + 1).sum();
    assert_eq!(rows.len(), 1 + causes, "{csv}");
    assert!(rows[1].starts_with("reference,") || rows[1].starts_with("python-urllib,"));
    let page = std::fs::read_to_string(whole.join("survey.html")).unwrap();
    assert!(
        page.contains("<svg") && page.contains("python-urllib"),
        "{page}"
    );
    // Quoted robots.txt lines are escaped, so no tag below can come from them.
    for fetched in ["<script", "<link", "<img", "<iframe", "@import"] {
        assert!(!page.contains(fetched), "{fetched}");
    }

    // Every example's excerpt is a file of its own on which the reference gives its verdict, and
    // from which the example's label reads again: the label fits what is shown.
    for a in &s.adapters {
        let profile = profile(&a.compared_under);
        for signature in &a.signatures {
            let e = &signature.example;
            assert!(e.adapter_lines, "{}: {}", a.adapter, e.file);
            let body = std::fs::read(corpus.join(&e.file)).unwrap();
            let shown = excerpt_body(&body, &shown_numbers(&e.lines));
            let decision = Robots::parse(profile, &shown).decide(&e.agent, &e.path);
            let what = format!("{} on {} ({:?})", a.adapter, e.file, e.lines);
            assert_eq!(decision.verdict.as_str(), e.reference, "{what}");
            let cause = of_decision(&BodyMarks::of(&shown), &e.path, &decision);
            assert_eq!(cause, signature.cause, "{what}");
        }
        // A cause is named by its reduced case, which reads as that cause.
        for c in &a.causes {
            let first = a
                .signatures
                .iter()
                .find(|s| s.signature == c.signatures[0])
                .unwrap();
            if let Some(reduced) = &first.example.reduced {
                assert_eq!(c.cause, reduced.cause, "{}: {}", a.adapter, c.shape);
            }
        }
    }
}

/// The example of an Allow line that urllib obeys and the 1994 reference does not read shows
/// that line (`500apps.com` too, when the real-world corpus is there).
#[test]
fn an_example_shows_the_allow_line_the_adapter_obeyed() {
    let scratch = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let corpus = scratch.path().join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(corpus.join("allow-first.example"), ALLOW_FIRST).unwrap();
    write_corpus(&corpus, 0);
    for name in ["allow-first.example", "500apps.com"] {
        if !corpus.join(name).is_file() {
            eprintln!("note: no {name} in the real-world corpus");
            continue;
        }
        let one = scratch.path().join(name);
        std::fs::create_dir_all(&one).unwrap();
        std::fs::copy(corpus.join(name), one.join(name)).unwrap();
        let out = scratch.path().join(format!("out-{name}"));
        survey(&one, &out, &[]);
        let s = read(&out.join("survey.json"));
        let urllib = s
            .adapters
            .iter()
            .find(|a| a.adapter == "python-urllib")
            .unwrap();
        let example = urllib
            .signatures
            .iter()
            .map(|s| &s.example)
            .find(|e| e.reference == "disallowed" && e.adapter == "allowed")
            .unwrap_or_else(|| panic!("{name}: {:?}", urllib.signatures));
        assert!(
            example.lines.contains(&"    2 │ Allow: /".to_owned()),
            "{name}: {:?}",
            example.lines
        );
        assert!(example.lines[0].starts_with("    1 │ User-agent: *"));
        let md = std::fs::read_to_string(out.join("survey.md")).unwrap();
        assert!(md.contains("    2 │ Allow: /"), "{md}");
        assert!(
            md.contains("line left out") || md.contains("lines left out"),
            "{md}"
        );
        assert!(example.adapter_lines);
    }
}
