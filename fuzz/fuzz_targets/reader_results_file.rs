//! Any bytes through the results-file reader (written to a scratch file, as it reads files),
//! within its memory budget: the checks live in `robotstxt_fuzz::readers::results_file`, the
//! budget in `robotstxt_fuzz::readers::results_file_budget`.
#![no_main]

#[path = "budget.rs"]
mod budget;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let limit = robotstxt_fuzz::readers::results_file_budget(data.len());
    budget::within("results_file", limit, || {
        robotstxt_fuzz::readers::results_file(data, dir.path())
    });
});
