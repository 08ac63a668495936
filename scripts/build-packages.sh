#!/usr/bin/env bash
# Builds robotstxt-test's packages for this machine's platform into target/packages/:
#   robotstxt_test-<version>-py3-none-manylinux_*.whl   the Python package (pip install), binary inside
#   npm/robotstxt-test-<version>.tgz                    the npm package: launcher, node --test runner
#   npm/robotstxt-test-<os>-<cpu>-<version>.tgz         the npm package holding the binary for this platform
# The wheel is built by maturin (packages/python/pyproject.toml) from harness/ with cargo's
# release profile, so a release build already made is mostly reused; maturin checks it against
# the manylinux policy, and auditwheel shows the tag it qualifies for. The npm platform package
# carries the very binary the wheel carries. Other platforms: .github/workflows/release-packages.yml.
#
# Needs python3, node and npm; maturin and auditwheel (pinned below, from PyPI) are installed
# into target/packages-tools/ on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
out="$root/target/packages"
tools="$root/target/packages-tools"
maturin_version=1.16.0
auditwheel_version=6.8.2

if ! "$tools/bin/maturin" --version 2>/dev/null | grep -qx "maturin $maturin_version" ||
   ! "$tools/bin/auditwheel" --version 2>/dev/null | grep -q "auditwheel $auditwheel_version "; then
    python3 -m venv "$tools"
    "$tools/bin/pip" install --quiet --disable-pip-version-check \
        "maturin==$maturin_version" "auditwheel==$auditwheel_version"
fi

rm -rf "$out"
mkdir -p "$out/npm"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

# --auditwheel check: fail, rather than vendor a shared library, when the binary needs one the
# manylinux policy does not allow (liblzma is built in: see pyproject.toml).
(cd packages/python && "$tools/bin/maturin" build --release --auditwheel check --out "$out")
wheel="$(ls "$out"/robotstxt_test-*.whl)"
"$tools/bin/auditwheel" show "$wheel" | tee "$stage/auditwheel.txt"
if ! tr '\n' ' ' <"$stage/auditwheel.txt" | grep -q 'consistent with the following platform tag: "manylinux_'; then
    echo "build-packages: $wheel is not a manylinux wheel" >&2
    exit 1
fi

# The binary, out of the wheel: the same bytes go into the npm platform package.
python3 -m zipfile -e "$wheel" "$stage/wheel"
binary="$(ls "$stage"/wheel/robotstxt_test-*.data/scripts/robotstxt-test)"
chmod +x "$binary"
version="$("$binary" --version | head -n 1 | awk '{print $2}')"

# The npm packages say the version in their package.json; they must say the binary's.
node -e '
const [file, version] = process.argv.slice(1);
const manifest = require(file);
const wrong = [["version", manifest.version], ...Object.entries(manifest.optionalDependencies)]
  .filter(([, v]) => v !== version);
if (wrong.length) {
  console.error(`build-packages: ${file} must name version ${version}: ${wrong.map(([k, v]) => `${k} ${v}`).join(", ")}`);
  process.exit(1);
}' "$root/packages/npm/robotstxt-test/package.json" "$version"

os="$(node -p process.platform)"
cpu="$(node -p process.arch)"
node packages/npm/platform/make-package.js "$stage/platform" "$binary" "$os" "$cpu" "$version"
cp -r packages/npm/robotstxt-test "$stage/main"
(cd "$stage" && npm pack --silent --pack-destination "$out/npm" ./platform ./main >/dev/null)
ls -l "$out" "$out/npm"
