#!/usr/bin/env bash
# Mutation testing of the reference (`reference/src`), and `reports/mutants.md` from the results.
#
#   scripts/mutants.sh [PASS...]      PASS: verdict, explanation, open-points (default: all three)
#   scripts/mutants.sh --report       only render reports/mutants.md from the last runs
#
# Environment: MUTANTS_TIMEOUT (seconds a mutant's tests may take, default 30), MUTANTS_SHARD
# (`k/n`: test every n-th mutant of each pass, starting at the k-th, as a sample).
#
# Each pass mutates one part of the reference and runs only the tests meant to catch it, so the
# report says which tests caught what:
#
# - verdict: the code that decides allowed or disallowed (everything under reference/src but the
#   explanations, the analysis API and open_points), against the case corpus alone
#   (`cargo test -p robotstxt-suite --test corpus`): the corpus is what other parsers are held to,
#   so it has to pin down every verdict the reference gives on a point the texts settle.
# - explanation: the text `check` prints and the API analyses read (`decide`, `Display`,
#   `records`, `groups`, ...), against the reference's own tests (unit tests, and the snapshots of
#   `reference/tests/explanations.rs`).
# - open-points: `reference/src/open_points`, against the reference's unit tests and the fuzz
#   tests of the harness, which hold the oracle to the corpus.
#
# Results go to target/mutation/<pass>/mutants.out; `scripts/mutants_report.py` turns them into
# reports/mutants.md, reading reference/EQUIVALENT_MUTANTS.md for the mutants judged equivalent.
# A full run takes tens of minutes (one cargo-mutants run at a time, one job), so it is not part of
# `.ci/run`. Needs cargo-mutants (`cargo install cargo-mutants --locked`) and Python 3.
set -euo pipefail
cd "$(dirname "$0")/.."

# Functions that only explain a decision or serve analyses, never decide one: mutants of these
# are the explanation pass's, whatever file they are in. Matched against cargo-mutants' names.
explain_re='^reference/src/explain\.rs:'
explain_re+='|(replace|in) Robots<.a>::(decide|records|groups|disallows_outside)\b'
explain_re+='|(replace|in) lossy\b'
explain_re+='|Profile::group_words|<impl fmt::Display for (Profile|UnknownProfile)>'
explain_re+='|<impl FromStr for Profile>'
# Inside `best_rule`, the `tie` flag says only how the explanation words the choice (allow won a
# tie); the rule chosen, and so the verdict, is the same without it.
explain_re+='|match guard !b\.tie|delete ! in Robots<.a>::best_rule|delete field tie from struct Best'
open_points='reference/src/open_points/**'

run_pass() {
    local pass=$1
    local out=target/mutation/$pass
    mkdir -p "$out"
    # The tests are named with `-C` (added to both the build and the test command, so the test
    # binaries are built before the timed test phase) on top of cargo-mutants' own `--package
    # robotstxt-reference`; a harness test is named with `--package=robotstxt-test` there (not
    # `--test-package`, which the unmutated baseline run does not follow).
    # The test timeout is set here rather than from the baseline: the baseline's test phase also
    # builds the harness's test binaries from nothing, so a multiple of it would wait minutes on a
    # mutant that loops forever, while an honest mutant's tests take seconds.
    local args=(--output "$out" --jobs 1 --no-shuffle --timeout "${MUTANTS_TIMEOUT:-30}")
    case $pass in
        verdict)
            args+=(--exclude "$open_points" --exclude-re "$explain_re"
                -C --package=robotstxt-suite -C --test=corpus) ;;
        explanation)
            args+=(--exclude "$open_points" --re "$explain_re" -C --lib -C --test=explanations) ;;
        open-points)
            args+=(--re '^reference/src/open_points/'
                -C --package=robotstxt-test -C --lib -C --test=fuzz) ;;
        *) echo "unknown pass: $pass (verdict, explanation, open-points)" >&2; exit 2 ;;
    esac
    # MUTANTS_SHARD=k/n runs every n-th mutant only (round-robin over the files, so a sample of
    # the whole pass); the report says so.
    if [ -n "${MUTANTS_SHARD:-}" ]; then
        args+=(--shard "$MUTANTS_SHARD" --sharding round-robin)
        echo "$MUTANTS_SHARD" >"$out/shard"
    else
        rm -f "$out/shard"
    fi
    echo "== $pass: cargo mutants ${args[*]}" >&2
    # cargo-mutants exits with 2 when a mutant is missed and 3 when one timed out; the report
    # says which. Anything else (the unmutated tree failing its tests, a bad option) stops here.
    local status=0
    cargo mutants "${args[@]}" || status=$?
    case $status in
        0 | 2 | 3) ;;
        *) echo "cargo mutants failed ($status) in the $pass pass" >&2; exit "$status" ;;
    esac
}

passes=("$@")
if [ "${passes[*]:-}" = "--report" ]; then
    passes=()
elif [ ${#passes[@]} -eq 0 ]; then
    passes=(verdict explanation open-points)
fi
for pass in "${passes[@]}"; do
    run_pass "$pass"
done
python3 scripts/mutants_report.py target/mutation reference/EQUIVALENT_MUTANTS.md >reports/mutants.md
echo "wrote reports/mutants.md" >&2
