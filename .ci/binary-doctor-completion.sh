#!/usr/bin/env bash
# The compiled binary's completion and doctor, as a user meets them: the bash completion it prints is loaded
# into a real bash and completes a command and a session id from a temp home; doctor exits 0 on a fresh
# machine and 1 on a Hermes home whose state.db is corrupt, printing the fix. Usage: .ci/binary-doctor-completion.sh [binary]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary=$(realpath "${1:-$root/dist/session-bridge}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/home"
ln -s "$binary" "$work/bin/session-bridge"
run() { env -i HOME="$work/home" TMPDIR="$work" PATH="$work/bin:/usr/bin:/bin" "$@"; }

# A Claude session to complete: a captured fixture placed in the temp Claude home.
fixture=$(ls "$root"/fixtures/claude-code/*/plain-text.jsonl 2>/dev/null | head -1 || true)
[ -n "$fixture" ] || fixture=$(ls "$root"/fixtures/claude-code/*.jsonl | head -1)
id=$(head -c 65536 "$fixture" | grep -o '"sessionId":"[^"]*"' | head -1 | cut -d'"' -f4)
mkdir -p "$work/home/.claude/projects/-tmp-project"
cp "$fixture" "$work/home/.claude/projects/-tmp-project/$id.jsonl"

got=$(run bash -c 'source <(session-bridge completion bash)
  COMP_WORDS=(session-bridge han); COMP_CWORD=1; _session_bridge; echo "${COMPREPLY[*]}"
  COMP_WORDS=(session-bridge inspect "${1:0:8}"); COMP_CWORD=2; _session_bridge; echo "${COMPREPLY[*]}"' bash "$id")
[ "$got" = "handoff
$id" ] || { echo "bash completion gave: $got"; exit 1; }

run session-bridge doctor > "$work/healthy.txt" || { echo "doctor on a healthy home failed:"; cat "$work/healthy.txt"; exit 1; }
mkdir -p "$work/home/.hermes"
printf 'SQLite format 3\0%4080s' garbage > "$work/home/.hermes/state.db"
set +e
run session-bridge doctor > "$work/broken.txt"; code=$?
set -e
[ "$code" -eq 1 ] || { echo "doctor on a corrupt state.db exited $code, want 1"; cat "$work/broken.txt"; exit 1; }
grep -q 'problem store .*state.db cannot be read' "$work/broken.txt"
grep -q 'fix: with Hermes Agent closed, check it' "$work/broken.txt"
echo "binary completion (bash) and doctor ok"
