//! `run`'s default text groups the non-passes by cause: python-urllib's fit in a few screens (a
//! dozen causes, one check shown in full for each), every one of them is reachable by id, and
//! `--verbose` still shows each in full.

mod common;

use std::collections::BTreeSet;

use common::run_binary;

/// Every `case#n` the text names: a block's first line (`case#n — outcome`) or an `also:` list
/// (`case#0,2`).
fn named(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut listing = false;
    for line in text.lines() {
        if let Some((id, _)) = line.split_once(" — ") {
            if !id.starts_with(' ') && id.contains('#') {
                ids.insert(id.to_owned());
            }
        }
        let items = match line.strip_prefix("  also: ") {
            Some(items) => {
                listing = true;
                items
            }
            None if listing && line.starts_with("        ") => line.trim(),
            None => {
                listing = false;
                continue;
            }
        };
        for item in items.split(", ").map(|i| i.trim_end_matches(',')) {
            let (case, checks) = item.split_once('#').expect("case#checks");
            for check in checks.split(',') {
                ids.insert(format!("{case}#{check}"));
            }
        }
    }
    ids
}

#[test]
fn python_urllib_fits_in_groups_and_verbose_shows_every_block() {
    let json = run_binary(
        &common::checkout(),
        &["run", "--adapter", "python-urllib", "--format", "json"],
    );
    if json.stderr.contains("unavailable") {
        eprintln!(
            "skipped: python-urllib is not available here: {}",
            json.stderr
        );
        return;
    }
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let not_passed: BTreeSet<String> = (doc["results"].as_array().unwrap().iter())
        .filter(|r| !["pass", "unspecified", "skipped"].contains(&r["outcome"].as_str().unwrap()))
        .map(|r| format!("{}#{}", r["case"].as_str().unwrap(), r["check"]))
        .collect();
    assert!(not_passed.len() > 50, "{}", not_passed.len());

    let grouped = run_binary(&common::checkout(), &["run", "--adapter", "python-urllib"]);
    assert_eq!(grouped.code, 1, "{}", grouped.stderr);
    let lines = grouped.stdout.lines().count();
    assert!(lines <= 250, "{lines} lines:\n{}", grouped.stdout);
    assert!(grouped.stdout.lines().next().unwrap().contains(" passed, "));
    assert_eq!(named(&grouped.stdout), not_passed);
    let total: usize = (grouped.stdout.lines())
        .filter_map(|l| l.strip_prefix("== "))
        .map(|h| {
            let n = h.rsplit_once(": ").unwrap().1.split(' ').next().unwrap();
            n.parse::<usize>().unwrap()
        })
        .sum();
    assert_eq!(total, not_passed.len(), "the groups' counts add up");

    let verbose = run_binary(
        &common::checkout(),
        &["run", "--adapter", "python-urllib", "--verbose"],
    );
    let long = run_binary(
        &common::checkout(),
        &["run", "--adapter", "python-urllib", "--format", "long"],
    );
    assert_eq!(verbose.stdout, long.stdout);
    let blocks: BTreeSet<String> = (verbose.stdout.lines())
        .filter_map(|l| l.split_once(" — ").map(|(id, _)| id.to_owned()))
        .filter(|id| !id.starts_with(' '))
        .collect();
    assert_eq!(blocks, not_passed, "a block for every non-pass");
}
