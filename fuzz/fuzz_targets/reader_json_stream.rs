//! Any bytes through the json stream reader, within its memory budget: the checks live in
//! `robotstxt_fuzz::readers::json_stream`, the budget in `robotstxt_fuzz::readers::json_stream_budget`.
#![no_main]

#[path = "budget.rs"]
mod budget;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let limit = robotstxt_fuzz::readers::json_stream_budget(data.len());
    budget::within("json_stream", limit, || {
        robotstxt_fuzz::readers::json_stream(data)
    });
});
