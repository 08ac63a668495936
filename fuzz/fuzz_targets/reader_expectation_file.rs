//! Any bytes through the expectation file reader, within its memory budget: the checks live in
//! `robotstxt_fuzz::readers::expectation_file`, the budget in `robotstxt_fuzz::readers::expectation_file_budget`.
#![no_main]

#[path = "budget.rs"]
mod budget;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let limit = robotstxt_fuzz::readers::expectation_file_budget(data.len());
    budget::within("expectation_file", limit, || {
        robotstxt_fuzz::readers::expectation_file(data)
    });
});
