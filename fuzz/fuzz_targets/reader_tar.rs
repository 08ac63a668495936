//! Any bytes through the tar reader, within its memory budget: the checks live in
//! `robotstxt_fuzz::readers::tar`, the budget in `robotstxt_fuzz::readers::tar_budget`.
#![no_main]

#[path = "budget.rs"]
mod budget;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let limit = robotstxt_fuzz::readers::tar_budget(data.len());
    budget::within("tar", limit, || robotstxt_fuzz::readers::tar(data));
});
