#!/usr/bin/env bash
# The compiled binary, run as a user would on a machine with no Node, Bun or Deno: empty folder, empty PATH.
set -euo pipefail
bin="$(cd "$(dirname "$0")/.." && pwd)/dist/session-bridge"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
run() { env -i HOME="$work" TMPDIR="$work" PATH=/nonexistent "$bin" "$@"; }

run --version | grep -q '^session-bridge '
run demo > demo.out 2> demo.err
grep -q 'resume with:' demo.out
grep -q 'claude --resume' demo.out
grep -q 'lossless' demo.err
set +e
run handoff x --to nowhere 2> err.txt; code=$?
set -e
[ "$code" -eq 2 ] || { echo "unknown harness gave exit $code, want 2"; exit 1; }
[ "$(wc -l < err.txt)" -eq 1 ] || { echo "want one stderr line:"; cat err.txt; exit 1; }
[ -z "$(ls -A "$work" | grep -v -e demo.out -e demo.err -e err.txt)" ] || { echo "demo left files behind:"; ls -A "$work"; exit 1; }
echo "binary smoke test ok ($(du -h "$bin" | cut -f1))"
