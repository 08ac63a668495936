#!/usr/bin/env bash
# Builds the real-world corpus that `survey` and the bench read: the robots.txt files of the public
# egonkm/Robots.txt collection (github.com/egonkm/Robots.txt, one file per host under robots/),
# de-duplicated by content. Of several hosts serving the same bytes (SHA-256), the first in byte
# order of its name is kept. Bodies are copied byte for byte.
#
#   scripts/realworld-corpus.sh [OUT.tar.xz] [COMMIT]
#
# OUT defaults to target/realworld-robots.tar.xz, which unpacks to realworld/files/<host>.
# COMMIT pins the collection's commit (default: its newest); the published survey's 13,390 files
# came from one snapshot, and the collection grows, so a newer one gives other counts.
# Needs git, sha256sum, tar and xz; writes nothing outside OUT and a temporary folder.
set -euo pipefail
out=${1:-target/realworld-robots.tar.xz}
commit=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

git clone --quiet https://github.com/egonkm/Robots.txt "$work/collection"
if [ -n "$commit" ]; then
    git -C "$work/collection" checkout --quiet "$commit"
fi

mkdir -p "$work/realworld/files"
cd "$work/collection/robots"
# One checksum per file, names in byte order; keep the first name of each checksum. Names are
# host names (no newline or backslash), so sha256sum's output is one plain line per file.
LC_ALL=C find . -maxdepth 1 -type f -printf '%f\0' | LC_ALL=C sort -z |
    xargs -0 sha256sum -- |
    awk '!seen[$1]++ { sub(/^[0-9a-f]+  /, ""); print }' |
    while IFS= read -r host; do
        cp -- "$host" "$work/realworld/files/$host"
    done
cd - >/dev/null

kept=$(find "$work/realworld/files" -type f | wc -l)
mkdir -p "$(dirname "$out")"
tar -C "$work" -cJf "$out.partial" realworld
mv "$out.partial" "$out"
echo "wrote $out: $kept distinct robots.txt bodies"
