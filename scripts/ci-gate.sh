#!/usr/bin/env bash
# The regression gate of a parser's own repository, as the composite action in action.yml runs it
# (and as any other CI can): install robotstxt-test at a pinned version (the wheel from PyPI,
# which carries the binary: nothing is compiled), run the corpus against
# the parser's adapter and its expectation file once, write JUnit, and put the summary and the diff
# against the expectations into the job summary. Exit status: the gate's (0 as expected, 1 a regression,
# 2 bad input, 3 the adapter could not run, 4 an unstable answer).
#
# Inputs, from the environment:
#   RTT_ADAPTER_CMD     the adapter's command line (required)
#   RTT_EXPECTATIONS    its expectation file (default: expectations.yaml)
#   RTT_VERSION         the robotstxt-test release to install (default: the action's own)
#   RTT_JUNIT           where to write JUnit XML (default: robotstxt-test-junit.xml)
#   RTT_FORMAT          what to print: github (annotations, under GitHub Actions) or markdown
#   RTT_INSTALL_ROOT    where to install it (default: $RUNNER_TEMP or $TMPDIR, /robotstxt-test):
#                       a venv, with the binary in its bin/
#   RTT_PACKAGE         what pip installs there (default: robotstxt-test==$RTT_VERSION from PyPI),
#                       such as a wheel file built by scripts/build-packages.sh
#   RTT_SOURCE          a checkout of robotstxt-test to compile and install with cargo instead
#   GITHUB_STEP_SUMMARY where the summary goes, when set (GitHub Actions sets it)
set -euo pipefail

version="${RTT_VERSION:-0.1.0}"
adapter_cmd="${RTT_ADAPTER_CMD:?set RTT_ADAPTER_CMD to the command line of the adapter}"
expectations="${RTT_EXPECTATIONS:-expectations.yaml}"
junit="${RTT_JUNIT:-robotstxt-test-junit.xml}"
root="${RTT_INSTALL_ROOT:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/robotstxt-test}"
format="${RTT_FORMAT:-$([ -n "${GITHUB_ACTIONS:-}" ] && echo github || echo markdown)}"

if [ ! -f "$expectations" ]; then
    echo "robotstxt-test: $expectations: no expectation file; write one with" \
         "robotstxt-test run --adapter-cmd '$adapter_cmd' --update-expectations $expectations" >&2
    exit 2
fi

# Installed once per version: a later job with the same root finds it.
bin="$root/bin/robotstxt-test"
if ! "$bin" --version 2>/dev/null | grep -q "^robotstxt-test $version "; then
    if [ -n "${RTT_SOURCE:-}" ]; then
        cargo install --quiet --locked --root "$root" --path "$RTT_SOURCE/harness"
    else
        # The wheel carries the binary for the runner's platform: no Rust toolchain needed.
        python3 -m venv "$root"
        "$root/bin/pip" install --quiet --disable-pip-version-check \
            "${RTT_PACKAGE:-robotstxt-test==$version}"
    fi
fi
"$bin" --version

run=("$bin" run --adapter-cmd "$adapter_cmd" --expectations "$expectations")

# Prints its standard input, which holds outside text (an adapter's error text and stderr, names,
# versions), with the runner's commands turned off under GitHub Actions: between
# `::stop-commands::TOKEN` and `::TOKEN::` the runner obeys no `::` command, and the token is
# fresh and random, so the text cannot hold the line that ends it.
outside() {
    if [ "${GITHUB_ACTIONS:-}" != "true" ]; then
        cat
        return
    fi
    local token
    token="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
    echo "::stop-commands::$token"
    cat
    echo "::$token::"
}
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# The gate, run once: its exit status, its JUnit, its summary and what is printed all come from
# the same answers (a slow check cannot pass in one and fail in another).
status=0
"${run[@]}" --format json --also-write "junit=$junit" --also-write "markdown=$out/summary.md" \
    --also-write "$format=$out/printed.txt" >"$out/run.json" || status=$?
if [ "$status" -eq 2 ] || [ "$status" -eq 3 ]; then
    # Bad input, or an adapter that would not run: say why, in its own words.
    { cat "$out/summary.md" 2>/dev/null || true; } | outside
    exit "$status"
fi
cat "$out/printed.txt"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    # The regressions by group and every check (annotations beyond GitHub's ten are here).
    cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"
fi

# What changed against what the expectation file accepts: regressions as "broken", entries
# that could go as "fixed". Into the job summary, and on stdout.
"$bin" diff "$expectations" "$out/run.json" --format markdown >"$out/diff.md" || true
outside <"$out/diff.md"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$out/diff.md" >>"$GITHUB_STEP_SUMMARY"
fi
exit "$status"
