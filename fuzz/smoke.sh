#!/usr/bin/env bash
# CI's smoke run of the fuzz targets, on stable: build them the plain-cargo way (fuzz/README.md),
# run each for a fixed, seeded number of inputs, then replay the saved inputs with cargo test.
set -euo pipefail
cd "$(dirname "$0")"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
target=x86_64-unknown-linux-gnu
cargo build --release --locked --target "$target" --bins
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
bin="target/$target/release"
# New inputs go to the first folder (a scratch one); the saved inputs seed the run.
mkdir -p "$corpus/rr" "$corpus/dr"
"$bin/reference_robustness" -runs=20000 -seed=1 -max_len=4096 "$corpus/rr" regressions/reference_robustness
"$bin/differential_rust" -runs=1000 -seed=1 -max_len=4096 "$corpus/dr" regressions/differential_rust
# Each reader of outside files, within its memory budget (the target aborts past it): a short
# run here; for longer by hand, `-max_total_time=600` (fuzz/README.md).
for reader in case_file expectation_file json_stream tar census_plan survey_json results_file warc; do
    mkdir -p "$corpus/$reader"
    "$bin/reader_$reader" -runs=3000 -seed=1 -max_len=8192 "$corpus/$reader" "regressions/reader_$reader"
done
unset RUSTFLAGS
cargo test --locked --release
