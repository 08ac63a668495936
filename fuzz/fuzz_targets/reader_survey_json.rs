//! Any bytes through the survey json reader (written to a scratch file, as it reads files), within
//! its memory budget: the checks live in `robotstxt_fuzz::readers::survey_json`, the budget in
//! `robotstxt_fuzz::readers::survey_json_budget`.
#![no_main]

#[path = "budget.rs"]
mod budget;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let limit = robotstxt_fuzz::readers::survey_json_budget(data.len());
    budget::within("survey_json", limit, || {
        robotstxt_fuzz::readers::survey_json(data, dir.path())
    });
});
