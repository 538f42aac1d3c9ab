#!/bin/sh
# session-bridge's npm launcher. The binary comes in the platform package npm installed for this machine (an
# optional dependency: session-bridge-<os>-<cpu>); this finds it and runs it in its place (exec), so stdin,
# signals and the exit code are the binary's own. A shell script rather than JavaScript because the binary
# needs no runtime, so its launcher must not need one either: npm links it onto PATH like any other bin.
# It needs sh, readlink and uname, nothing else.
set -e
self=$0
case $self in
  */*) ;;
  *) self=./$self ;;
esac
# npm links the bin (<prefix>/bin/session-bridge -> ../lib/node_modules/session-bridge/bin/session-bridge).
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in
    /*) self=$link ;;
    *) self=${self%/*}/$link ;;
  esac
done
package=$(cd "${self%/*}/.." && pwd -P)
# The same platform names as install.sh (which runs alone from curl | sh, so the two cannot share a file).
case $(uname -s) in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) os=$(uname -s) ;;
esac
case $(uname -m) in
  x86_64 | amd64) cpu=x64 ;;
  arm64 | aarch64) cpu=arm64 ;;
  *) cpu=$(uname -m) ;;
esac
# A Mac with Apple silicon runs the x64 binary too: npm picks the x64 package when Node runs under Rosetta.
platforms="$os-$cpu"
[ "$os-$cpu" = darwin-arm64 ] && platforms="$platforms darwin-x64"
for platform in $platforms; do
  # Under the package for a global install, beside it for a local one and for npx.
  for dir in "$package/node_modules" "$package/.."; do
    binary="$dir/session-bridge-$platform/bin/session-bridge"
    [ -x "$binary" ] && exec "$binary" "$@"
  done
done
echo "session-bridge: no binary for $os-$cpu: npm did not install the package session-bridge-$os-$cpu" \
  "(optional dependencies omitted, or no release for this platform); reinstall it, or use install.sh" >&2
exit 1
