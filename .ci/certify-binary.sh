#!/usr/bin/env bash
# `session-bridge certify` as a user runs it: the compiled binary, with every registered harness's pinned
# binary (installed by the matrix step, reused from the cache) named explicitly by its --<x>-bin flag instead of
# found on PATH. The harnesses and their flags come from the registry (a new harness needs no edit here).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t flags < <(npx bun -e '
  const { builtinRegistry } = await import("./lib/harnesses/registry.ts");
  for (const h of builtinRegistry.harnesses) {
    if (h.integrations.certify) console.log(`${h.integrations.certify.binFlag} ${h.name}`);
  }')
args=()
for entry in "${flags[@]}"; do
  read -r flag harness <<<"$entry"
  args+=("--$flag" "$(npx bun acceptance/install-harness.ts "$harness")")
done
dist/session-bridge certify --structure-only "${args[@]}"
