//! Any bytes: the reference never panics, and its decisions survive rewritten line endings and an
//! inserted comment line. The checks live in `robotstxt_fuzz::reference_robustness`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| robotstxt_fuzz::reference_robustness(data));
