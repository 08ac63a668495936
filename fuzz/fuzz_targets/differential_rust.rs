//! The generator's documents against the reference and the Rust parser crates, in process. The
//! checks live in `robotstxt_fuzz::differential_rust`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    robotstxt_fuzz::differential_rust(data);
});
