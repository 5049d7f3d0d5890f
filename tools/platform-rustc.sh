#!/usr/bin/env bash
# Can Debian's `rustc-web` (/usr/bin/rustc, with `rust-web-src`) build this workspace for other
# targets? Exits 0 if it can. Otherwise prints one line saying why not, for a caller to print as
# its skip reason, and exits 1. Debian's package is 1.85 on some machines and newer on others;
# the workspace needs the `rust-version` in the root Cargo.toml.
#
#   if why=$(bash tools/platform-rustc.sh); then bash tools/wasm-check.sh; else echo "wasm check skipped: $why"; fi
set -uo pipefail
cd "$(dirname "$0")/.."

rustc=${CRATE_ROOM_PLATFORM_RUSTC:-/usr/bin/rustc}
needs=$(sed -n 's/^rust-version = "\([0-9.]*\)"$/\1/p' Cargo.toml | head -1)
if [ ! -x "$rustc" ]; then
  echo "$rustc is missing (apt-get install -y rustc-web rust-web-src); the workspace needs Rust $needs"
  exit 1
fi
if [ ! -d /usr/lib/rustlib/src/rust/library ]; then
  echo "the standard library's sources are missing (apt-get install -y rust-web-src)"
  exit 1
fi
have=$("$rustc" --version 2>/dev/null | sed -n 's/^rustc \([0-9]*\.[0-9]*\).*/\1/p')
if [ -z "$have" ]; then
  echo "$rustc --version says nothing readable; the workspace needs Rust $needs"
  exit 1
fi
# Compare major.minor as numbers: 1.85 < 1.95 < 1.100.
older=$(printf '%s\n%s\n' "$have" "$needs" | sort -t. -k1,1n -k2,2n | head -1)
if [ "$older" != "$needs" ]; then
  echo "Debian's rustc-web is $have; the workspace needs $needs"
  exit 1
fi
exit 0
