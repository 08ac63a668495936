//! Any bytes through the WARC reader (written to a scratch file, as it reads files), within its
//! memory budget: the checks live in `robotstxt_fuzz::readers::warc`, the budget in
//! `robotstxt_fuzz::readers::warc_budget`.
#![no_main]

#[path = "budget.rs"]
mod budget;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let limit = robotstxt_fuzz::readers::warc_budget(data.len());
    budget::within("warc", limit, || {
        robotstxt_fuzz::readers::warc(data, dir.path())
    });
});
