#!/usr/bin/env bash
# `cargo check` of the whole game (window layer included) for the platforms players use:
# Windows, macOS (Intel and Apple silicon) and the browser (wasm32-unknown-unknown). Fails on
# the first target that does not compile.
#
# This machine's rustup has no other targets' standard library, so the check builds it from
# source: Debian's `rustc-web` (a Rust compiler that accepts `-Zbuild-std` with
# RUSTC_BOOTSTRAP) and `rust-web-src` (the library's sources); `.ci/run` installs both. With
# rustup instead: `rustup target add T` then `cargo check -p game --target T` for each target.
#
#   tools/cross-check.sh                         # all four
#   tools/cross-check.sh wasm32-unknown-unknown  # only the targets named
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=(x86_64-pc-windows-msvc x86_64-apple-darwin aarch64-apple-darwin wasm32-unknown-unknown)
fi
rustc=/usr/bin/rustc
if ! "$rustc" --version | grep -q 'built from a source tarball'; then
  echo "error: $rustc is not Debian's rustc-web; apt-get install -y rustc-web rust-web-src" >&2
  exit 1
fi
for target in "${targets[@]}"; do
  start=$SECONDS
  # Its own target folder, so the native build's cache stays valid.
  RUSTC=$rustc RUSTC_BOOTSTRAP=1 cargo check --quiet -p game --all-features --bins --lib \
    -Zbuild-std=std,panic_abort --target "$target" --target-dir target/cross
  echo "cargo check --target $target: ok ($((SECONDS - start)) s)"
done
