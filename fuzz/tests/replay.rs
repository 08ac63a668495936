//! Replays every saved input under `regressions/<target>/` through the target's checks, on
//! stable Rust, without libFuzzer.

use std::path::Path;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("regressions")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no saved inputs in {}", dir.display());
    files
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

#[test]
fn reference_robustness_inputs() {
    for (name, data) in inputs("reference_robustness") {
        println!("{name}");
        robotstxt_fuzz::reference_robustness(&data);
    }
}

#[test]
fn differential_rust_inputs() {
    for (name, data) in inputs("differential_rust") {
        let outcome = robotstxt_fuzz::differential_rust(&data);
        println!(
            "{name}: {} finding(s), {} refusal(s)",
            outcome.findings.len(),
            outcome.refused.len()
        );
        for (parser, message) in &outcome.refused {
            println!("  {parser} refused: {message}");
        }
    }
}

/// The readers' saved inputs, through their checks (the memory budgets are asserted by the
/// targets, which count what is allocated).
#[test]
fn reader_inputs() {
    let dir = tempfile::tempdir().unwrap();
    for (name, data) in inputs("reader_case_file") {
        println!("{name}");
        robotstxt_fuzz::readers::case_file(&data);
    }
    for (name, data) in inputs("reader_expectation_file") {
        println!("{name}");
        robotstxt_fuzz::readers::expectation_file(&data);
    }
    for (name, data) in inputs("reader_json_stream") {
        println!("{name}");
        robotstxt_fuzz::readers::json_stream(&data);
    }
    for (name, data) in inputs("reader_tar") {
        println!("{name}");
        robotstxt_fuzz::readers::tar(&data);
    }
    for (name, data) in inputs("reader_census_plan") {
        println!("{name}");
        robotstxt_fuzz::readers::census_plan(&data, dir.path());
    }
    for (name, data) in inputs("reader_survey_json") {
        println!("{name}");
        robotstxt_fuzz::readers::survey_json(&data, dir.path());
    }
    for (name, data) in inputs("reader_results_file") {
        println!("{name}");
        robotstxt_fuzz::readers::results_file(&data, dir.path());
    }
    for (name, data) in inputs("reader_warc") {
        println!("{name}");
        robotstxt_fuzz::readers::warc(&data, dir.path());
    }
}
