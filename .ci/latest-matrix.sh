#!/usr/bin/env bash
# The live acceptance matrix on the newest harness versions the registries serve (npm's `latest`, PyPI's
# newest), with drift in their stores reported as notes (they are not certified yet). The pinned run stays
# authoritative: when the registries cannot be reached this says so in one line and succeeds; when the newest
# versions are the pins, the pinned run already covered them; otherwise only the routes a harness newer than its
# pin takes part in run (`--touching`).
set -uo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: .ci/latest-matrix.sh dist/session-bridge [K/N]}
# K/N: the share of the routes to run (acceptance/matrix.ts --share); all of them when not given.
share=${2:-}
if ! newest=$(npx bun acceptance/install-harness.ts --print-latest 2>/tmp/sb-latest-err.$$); then
  echo "::: newest versions: registries unreachable ($(tail -c 300 /tmp/sb-latest-err.$$ | tr '\n' ' ')); the pinned run is authoritative"
  rm -f /tmp/sb-latest-err.$$
  exit 0
fi
rm -f /tmp/sb-latest-err.$$
versions=$(echo "$newest" | awk 'NF == 2 { printf "%s%s=%s", sep, $1, $2; sep = "," }')
pinned=$(node -e 'const p = require("./acceptance/harness-versions.json"); console.log(Object.entries(p).map(([h, v]) => `${h}=${v}`).join(","))')
echo "::: newest versions: ${versions//,/, } (pinned: ${pinned//,/, })"
if [ "$versions" = "$pinned" ]; then
  echo "::: newest versions are the pins: the pinned run covers them"
  exit 0
fi
# Only the routes a newer version takes part in: the pinned run has certified every route among the others.
changed=$(echo "$newest" | node -e '
  const pins = require("./acceptance/harness-versions.json");
  const lines = require("fs").readFileSync(0, "utf8").trim().split("\n").map((l) => l.split(" "));
  console.log(lines.filter(([h, v]) => v && pins[h] !== v).map(([h]) => h).join(","));')
echo "::: newer than the pins: ${changed//,/, } (routes touching them only)"
exec npx bun acceptance/matrix.ts --binary "$binary" --versions "$versions" --touching "$changed" --allow-drift \
  ${share:+--share "$share"}
