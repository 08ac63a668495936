//! Any bytes through the census plan reader (written to a scratch file, as it reads files), within
//! its memory budget: the checks live in `robotstxt_fuzz::readers::census_plan`, the budget in
//! `robotstxt_fuzz::readers::census_plan_budget`.
#![no_main]

#[path = "budget.rs"]
mod budget;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let limit = robotstxt_fuzz::readers::census_plan_budget(data.len());
    budget::within("census_plan", limit, || {
        robotstxt_fuzz::readers::census_plan(data, dir.path())
    });
});
