#!/usr/bin/env bash
# `session-bridge certify` as a user runs it: the compiled binary, with the pinned harnesses (installed by the
# matrix step, reused from the cache) named explicitly instead of found on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
bin() { npx bun acceptance/install-harness.ts "$1"; }
dist/session-bridge certify --structure-only \
  --claude-bin "$(bin claude-code)" --codex-bin "$(bin codex)" --hermes-bin "$(bin hermes)"
