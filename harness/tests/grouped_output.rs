//! `run`'s default text groups the non-passes by cause: python-urllib's fit in a screen or two (a
//! dozen causes, the largest with one check shown in full), every group names the `--group` that
//! shows all of its checks (and `--group` does), and `--verbose` still shows each in full.

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
            // `and 29 more cases (--verbose, or --group ID)` ends a list cut short.
            None if listing && line.trim_start().starts_with("and ") => continue,
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
    assert!(lines <= 150, "{lines} lines:\n{}", grouped.stdout);
    assert!(grouped.stdout.lines().next().unwrap().contains(" passed, "));
    assert!(named(&grouped.stdout).is_subset(&not_passed));
    // Every group says how to see all of its checks; asked so, it lists every one of them.
    let groups: BTreeSet<String> = (grouped.stdout.split("--group ").skip(1))
        .map(|rest| rest.split([' ', ')']).next().unwrap().to_owned())
        .collect();
    let first = groups.iter().next().expect("a group cut short").clone();
    let one = run_binary(
        &common::checkout(),
        &[
            "run",
            "--adapter",
            "python-urllib",
            "--group",
            &first,
            "--verbose",
        ],
    );
    let in_group: BTreeSet<String> = (one.stdout.lines())
        .filter_map(|l| l.split_once(" — ").map(|(id, _)| id.to_owned()))
        .filter(|id| !id.starts_with(' '))
        .collect();
    let heading = (grouped.stdout.lines())
        .position(|l| l.contains(&format!("--group {first}")))
        .and_then(|at| {
            grouped
                .stdout
                .lines()
                .take(at)
                .filter(|l| l.starts_with("== "))
                .last()
        })
        .unwrap()
        .to_owned();
    let count: usize = heading
        .rsplit_once(": ")
        .unwrap()
        .1
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(in_group.len(), count, "{heading}: {}", one.stdout);
    assert!(in_group.is_subset(&not_passed));
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
