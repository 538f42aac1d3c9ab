#!/usr/bin/env bash
# The npm channel, offline: the packages for this platform assembled from the binary `npm run build` made
# (scripts/release/npm-packages.ts), packed with `npm pack`, installed from the tarballs alone into an empty
# prefix (--offline: no registry), then run with a PATH holding the prefix and the three tools the launcher uses
# (sh, readlink, uname): no Node, Bun or Deno. Usage: .ci/npm-install.sh [dist/session-bridge]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary=$(realpath "${1:-$root/dist/session-bridge}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64) platform=darwin-arm64 ;;
  *) echo "no release target for $(uname -s) $(uname -m)"; exit 1 ;;
esac
mkdir "$work/binaries" "$work/tarballs" "$work/prefix" "$work/tools" "$work/home"
ln -s "$binary" "$work/binaries/session-bridge-$platform"
npx bun "$root/scripts/release/npm-packages.ts" --binaries "$work/binaries" --out "$work/packages" >/dev/null
for package in session-bridge "session-bridge-$platform"; do
  (cd "$work/packages/$package" && npm pack --silent --pack-destination "$work/tarballs" >/dev/null)
done
ls -l "$work/tarballs" | awk 'NR > 1 { printf "%s: %.1f MB\n", $9, $5 / 1048576 }'
npm install --global --prefix "$work/prefix" --cache "$work/cache" --offline --no-audit --no-fund \
  --loglevel=error "$work"/tarballs/*.tgz
for tool in sh readlink uname; do ln -s "$(command -v "$tool")" "$work/tools/$tool"; done
run() { env -i HOME="$work/home" PATH="$work/prefix/bin:$work/tools" "$@"; }
for runtime in node bun deno; do
  if run sh -c "command -v $runtime" >/dev/null; then echo "$runtime is on the test PATH"; exit 1; fi
done
version=$(run session-bridge --version)
want="session-bridge $(node -p 'require(process.argv[1]).version' "$root/package.json")"
[ "$version" = "$want" ] || { echo "got '$version', want '$want'"; exit 1; }
# The exit code and stderr are the binary's own (exec, not a child): bad usage is 2.
set +e
run session-bridge handoff x --to nowhere 2>"$work/err"; code=$?
set -e
[ "$code" -eq 2 ] || { echo "bad usage through the launcher gave exit $code, want 2"; exit 1; }
grep -q 'unknown harness' "$work/err"
echo "npm install from the tarballs ok: $version, with no Node, Bun or Deno on PATH"
