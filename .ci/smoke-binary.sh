#!/usr/bin/env bash
# The compiled binary, run as a user would on a machine with no Node, Bun or Deno: empty folder, empty PATH.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin="$repo/dist/session-bridge"
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

# A conversion restarts the binary once in place (execve: the same pid), JavaScriptCore's top JIT tier off
# and its heap's growth capped (lib/runtime.ts restartForLongWork). Its output is held in a pipe no one reads
# yet, so it waits there, restarted, while its environment is looked at; then the output is read and must be
# the whole conversion.
source="$work/3f1c6d2e-0000-4000-8000-00000000000a.jsonl"
"$repo/node_modules/.bin/bun" -e "await (await import('$repo/bench/session.ts')).generateClaudeSession('$source', 2)"
mkfifo out.fifo
# Not through run(): a function sent to the background is a subshell, and $! would be the subshell's pid.
env -i HOME="$work" TMPDIR="$work" PATH=/nonexistent "$bin" convert "$source" --to codex > out.fifo 2> convert.err &
pid=$!
exec 3< out.fifo
restarted=no
for _ in $(seq 100); do
  environ=$(tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null || true)
  if grep -qx 'BUN_JSC_useFTLJIT=0' <<< "$environ" && grep -qx 'BUN_JSC_heapGrowthMaxIncrease=1' <<< "$environ"; then
    restarted=yes
    break
  fi
  sleep 0.05
done
cat <&3 > out.jsonl
exec 3<&-
wait "$pid" || { echo "convert failed:"; cat convert.err; exit 1; }
[ "$restarted" = yes ] || { echo "convert did not restart with BUN_JSC_useFTLJIT=0 BUN_JSC_heapGrowthMaxIncrease=1"; exit 1; }
grep -q '"type":"session_meta"' out.jsonl || { echo "no rollout written"; exit 1; }
rm -f out.fifo out.jsonl convert.err "$source"

# OpenAI's tokenizer is in the binary (a dynamic import, loaded only when a fit needs it): a long session
# fitted for Codex's GPT-5 is counted with it.
long="$work/5e551011-0000-4000-8000-00000000000b.jsonl"
"$repo/node_modules/.bin/bun" -e "
  const { writeLongSession } = await import('$repo/lib/certify-kit/long-session.ts');
  await writeLongSession({ bytes: 3_000_000, sessionId: '5e551011-0000-4000-8000-00000000000b', cwd: '$work' }, '$long');"
run convert "$long" --to codex -o fitted.jsonl 2> fit.err
grep -q "counted with the model's own tokenizer" fit.err || { echo "no tokenizer count in the fit:"; cat fit.err; exit 1; }
rm -f fitted.jsonl fit.err "$long"
# A long handoff into Hermes writes its rows on a worker thread, a build entry point of its own
# (lib/harnesses/hermes/commit-thread.ts, package.json `build`): a binary built without it would fall back to one
# thread unnoticed, so SESSION_BRIDGE_DEBUG=1 has it say which way it went.
long="$work/7a0b1c2d-0000-4000-8000-00000000000c.jsonl"
"$repo/node_modules/.bin/bun" -e "await (await import('$repo/bench/session.ts')).generateClaudeSession('$long', 10)"
mkdir -p "$work/hermes" "$work/project"
cp "$repo/fixtures/hermes/0.19.0/text-turns.state.db" "$work/hermes/state.db"
env -i HOME="$work" TMPDIR="$work" PATH=/nonexistent SESSION_BRIDGE_DEBUG=1 "$bin" handoff "$long" --to hermes \
  --hermes-home "$work/hermes" --cwd "$work/project" > hermes.out 2> hermes.err ||
  { echo "handoff into Hermes failed:"; cat hermes.err; exit 1; }
grep -q 'writing on a second thread (lib/harnesses/hermes/commit-thread.ts)' hermes.err || { echo "the Hermes handoff wrote on one thread:"; cat hermes.err; exit 1; }
# Copilot CLI's index is written on a worker thread of its own (lib/harnesses/copilot-cli/index-thread.ts).
"$repo/node_modules/.bin/bun" -e "(await import('$repo/tests/helpers/harnesses/copilot-cli.ts')).makeCopilotHome('$work/copilot')"
env -i HOME="$work" TMPDIR="$work" PATH=/nonexistent SESSION_BRIDGE_DEBUG=1 "$bin" handoff "$long" --to copilot-cli \
  --copilot-home "$work/copilot" --cwd "$work/project" > copilot.out 2> copilot.err ||
  { echo "handoff into Copilot CLI failed:"; cat copilot.err; exit 1; }
grep -q 'writing on a second thread (lib/harnesses/copilot-cli/index-thread.ts)' copilot.err ||
  { echo "the Copilot CLI handoff indexed on one thread:"; cat copilot.err; exit 1; }
rm -rf hermes.out hermes.err copilot.out copilot.err "$long" "$work/hermes" "$work/copilot" "$work/project" \
  "$work/.session-bridge"
echo "binary smoke test ok ($(du -h "$bin" | cut -f1))"
