#!/usr/bin/env bash
# The same game on every machine, shown on this one: builds the headless core
# (`crate-room-core`, no window layer) for WebAssembly (`wasm32-wasip1`), runs it under
# Node.js, and compares with the native build:
#   - every gold replay in `levels/gold/` verifies in WebAssembly (`replay --verify`);
#   - the bot's run on every campaign level gives the same `state_hash` in both;
#   - the simulation's trigonometry gives the same bits in both (`crate-room-core trig-hash`:
#     the direction of every angle it can throw debris at). A few runs draw only a few angles,
#     on which glibc's and musl's sinf may well agree; over all 2^24 they differ on about one in
#     eighty, so a simulation calling the platform's `f32::sin` fails here.
# Exits 1 on any difference. Needs Node.js (`node`), Debian's `rustc-web`, `rust-web-src` and
# `wasi-libc`, and rustup's `rust-lld` (to link); `.ci/run` installs the packages.
#
# With rustup's own wasm target instead: `rustup target add wasm32-wasip1` and
# `cargo build --release -p game --no-default-features --bin crate-room-core --target wasm32-wasip1`.
set -euo pipefail
cd "$(dirname "$0")/.."

target_dir=target/cross
lld=$(ls ~/.rustup/toolchains/*/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld 2>/dev/null | head -1)
if [ -z "$lld" ]; then
  echo "error: no rust-lld in ~/.rustup/toolchains/*/lib/rustlib/x86_64-unknown-linux-gnu/bin" >&2
  exit 1
fi
sysroot=/usr/lib/wasm32-wasi
# Debian's WASI C library lacks `realpath` and `fchmod`: left as imports (the final link
# only, so the dependencies' build stays cached), which tools/wasi-run.mjs makes fail.
RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
  RUSTFLAGS="-C linker=$lld -C link-self-contained=no -L $sysroot -C link-arg=$sysroot/crt1-command.o" \
  cargo rustc --release --quiet -p game --no-default-features --bin crate-room-core \
  -Zbuild-std=std,panic_abort --target wasm32-wasip1 --target-dir "$target_dir" \
  -- -C link-arg=--allow-undefined
wasm=$target_dir/wasm32-wasip1/release/crate-room-core.wasm
cargo build --release --quiet -p game --bin crate-room --bin crate-room-core
native=target/release/crate-room

in_wasm() { node --no-warnings tools/wasi-run.mjs "$wasm" "$@"; }
state_hash() { sed -n 's/^  "state_hash": "\([0-9a-f]*\)",$/\1/p'; }

failed=0
for replay in levels/gold/*.replay; do
  if out=$(in_wasm replay "$replay" --verify 2>&1); then
    echo "wasm: $out"
  else
    echo "wasm: FAILED: $out"
    failed=1
  fi
done
for level in $(grep -v '^#' levels/campaign.txt); do
  # Up to the gold run's clear (the bot's), and ten seconds more.
  steps=$(sed -n 's/^steps \([0-9]*\)$/\1/p' "levels/gold/${level%.ron}.replay")
  args=(sim --level "levels/$level" --input bot --frames "$((steps + 600))" --json)
  a=$("$native" "${args[@]}" | state_hash)
  b=$(in_wasm "${args[@]}" | state_hash)
  if [ -n "$a" ] && [ "$a" = "$b" ]; then
    echo "bot on levels/$level: state_hash $a native, $b wasm: equal"
  else
    echo "bot on levels/$level: state_hash ${a:-none} native, ${b:-none} wasm: DIFFERENT"
    failed=1
  fi
done
a=$(target/release/crate-room-core trig-hash)
b=$(in_wasm trig-hash)
if [ "$a" = "$b" ]; then
  echo "trig-hash: $a native, $b wasm: equal"
else
  echo "trig-hash: $a native, $b wasm: DIFFERENT (the simulation's sin or cos is the platform's?)"
  failed=1
fi
exit $failed
