#!/usr/bin/env bash
# A snapshot release for CI: goreleaser check on .goreleaser.yaml, then
# the release pipeline (hooks, build, archives with LICENSE, README,
# CHANGELOG, notices and man pages, checksums) for one target, linux/amd64,
# into dist/. goreleaser's release has no --single-target, so the
# snapshot runs on a copy of the configuration cut to that target; the
# full matrix is built by a tagged release. Run from the repository's
# root with the goreleaser binary:
#
#   tools/release/snapshot.sh /path/to/goreleaser
set -euo pipefail
goreleaser=${1:?usage: snapshot.sh GORELEASER}
"$goreleaser" check
one=$(mktemp --suffix=.yaml)
trap 'rm -f "$one"' EXIT
sed -e 's/^    goos: \[.*\]$/    goos: [linux]/' -e 's/^    goarch: \[.*\]$/    goarch: [amd64]/' .goreleaser.yaml >"$one"
grep -q '^    goos: \[linux\]$' "$one" || { echo "snapshot: could not cut .goreleaser.yaml to one target" >&2; exit 1; }
"$goreleaser" release --snapshot --clean --config "$one"
archive=$(ls dist/ohwatch_*_linux_amd64.tar.gz)
listing=$(tar -tzf "$archive")
for want in ohwatch LICENSE README.md CHANGELOG.md THIRD_PARTY_NOTICES.md man/ohwatch.1 man/ohwatch-fleet.1; do
	grep -qx "$want" <<<"$listing" || { echo "snapshot: $archive lacks $want" >&2; exit 1; }
done
grep -q "$(basename "$archive")" dist/checksums.txt || { echo "snapshot: no checksum for $archive" >&2; exit 1; }
tar -xzOf "$archive" ohwatch >dist/ohwatch-snapshot && chmod +x dist/ohwatch-snapshot
dist/ohwatch-snapshot --version
echo "snapshot: $archive ($(du -h "$archive" | cut -f1)), checked"
