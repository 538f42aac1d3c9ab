#!/bin/sh
# Installs the session-bridge binary for this machine from a GitHub release:
#
#   curl -fsSL https://raw.githubusercontent.com/session-bridge/session-bridge/main/install.sh | sh
#
# It downloads the binary for this OS and CPU and the release's SHA256SUMS, refuses a binary whose checksum
# differs, and moves it into place in one step (nothing half-written). Settings (environment):
#   SESSION_BRIDGE_VERSION      a release such as 0.2.0 (default: the latest)
#   SESSION_BRIDGE_INSTALL_DIR  where the binary goes (default: ~/.local/bin)
#   SESSION_BRIDGE_RELEASES     the releases URL (default: https://github.com/session-bridge/session-bridge/releases)
set -eu

releases=${SESSION_BRIDGE_RELEASES:-https://github.com/session-bridge/session-bridge/releases}
install_dir=${SESSION_BRIDGE_INSTALL_DIR:-$HOME/.local/bin}
version=${SESSION_BRIDGE_VERSION:-latest}

fail() {
  echo "install.sh: $*" >&2
  exit 1
}

# The same platform names as scripts/release/launcher.sh, written out again on purpose: this script is fetched
# alone (curl | sh), so it cannot source a shared file, and here an unknown platform is an error, not a guess.
case $(uname -s) in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) fail "no session-bridge release for $(uname -s) (Linux and macOS only)" ;;
esac
case $(uname -m) in
  x86_64 | amd64) cpu=x64 ;;
  arm64 | aarch64) cpu=arm64 ;;
  *) fail "no session-bridge release for $(uname -m) (x64 and arm64 only)" ;;
esac
# A shell under Rosetta 2 says x86_64 on Apple silicon: the native binary is the better one.
if [ "$os-$cpu" = darwin-x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
  cpu=arm64
fi
asset=session-bridge-$os-$cpu

case $version in
  latest) base=$releases/latest/download ;;
  v*) base=$releases/download/$version ;;
  *) base=$releases/download/v$version ;;
esac

if command -v curl >/dev/null 2>&1; then
  download() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  download() { wget -q -O "$2" "$1"; }
else
  fail "needs curl or wget to download"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  fail "needs sha256sum or shasum to verify the download"
fi

mkdir -p "$install_dir"
# The download lands beside its destination, so the final move is a rename on one file system.
tmp=$(mktemp "$install_dir/.session-bridge.XXXXXX")
sums=$(mktemp "${TMPDIR:-/tmp}/session-bridge-sums.XXXXXX")
trap 'rm -f "$tmp" "$sums"' EXIT
trap 'exit 130' INT TERM

echo "downloading $asset ($version) from $base" >&2
download "$base/SHA256SUMS" "$sums" || fail "could not download $base/SHA256SUMS"
want=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1; exit }' "$sums")
[ -n "$want" ] || fail "$base/SHA256SUMS lists no $asset"
download "$base/$asset" "$tmp" || fail "could not download $base/$asset"
got=$(sha256 "$tmp")
[ "$got" = "$want" ] || fail "checksum mismatch for $asset: got $got, SHA256SUMS says $want; nothing installed"

chmod 755 "$tmp"
mv -f "$tmp" "$install_dir/session-bridge"
echo "installed $("$install_dir/session-bridge" --version) in $install_dir/session-bridge" >&2
case ":$PATH:" in
  *":$install_dir:"*) ;;
  *) echo "$install_dir is not on your PATH: add  export PATH=\"$install_dir:\$PATH\"  to your shell's profile" >&2 ;;
esac
