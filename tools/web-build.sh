#!/usr/bin/env bash
# Build the game for the browser into web/dist/: index.html, crate-room.wasm and macroquad's JS
# loader (copied from the macroquad crate this workspace builds with). Any static file server
# can host the folder: `python3 -m http.server -d web/dist 8000`, then http://127.0.0.1:8000/.
#
# The wasm target comes from one of:
#   - rustup: `rustup target add wasm32-unknown-unknown` (used when it is installed), or
#   - Debian's `rustc-web` + `rust-web-src` (Rust with the std sources): std is built from
#     source (`-Zbuild-std`) and linked with rustup's `rust-lld`.
# CRATE_ROOM_WEB_RUSTC overrides which rustc builds it.
set -euo pipefail
cd "$(dirname "$0")/.."

target=wasm32-unknown-unknown
target_dir=target/web
out=web/dist
args=(rustc --release --locked --target "$target" --target-dir "$target_dir" -p game --bin crate-room)
# The JS functions the game imports (macroquad's, its plugins') are undefined until the page
# provides them; only the final link is told so.
link=(-- -C link-arg=--allow-undefined -C strip=debuginfo)

if [ -n "${CRATE_ROOM_WEB_RUSTC:-}" ]; then
  web_rustc=$CRATE_ROOM_WEB_RUSTC
elif rustup target list --installed 2>/dev/null | grep -qx "$target"; then
  web_rustc=
elif [ -d /usr/lib/rustlib/src/rust/library ] && [ -x /usr/bin/rustc ]; then
  web_rustc=/usr/bin/rustc
else
  echo "web-build: no Rust for $target: run \`rustup target add $target\`, or on Debian" \
    "\`apt-get install -y rustc-web rust-web-src\`" >&2
  exit 1
fi

# The game draws only from seeded generators; should a dependency still link `getrandom`, it
# builds without an OS source (and fails if anything asks it for one).
getrandom='--cfg getrandom_backend="unsupported"'

if [ -n "$web_rustc" ]; then
  lld=$(ls "$(rustc --print sysroot)"/lib/rustlib/*/bin/rust-lld 2>/dev/null | head -1 || true)
  if [ -z "$lld" ]; then
    lld=$(command -v rust-lld || command -v lld || true)
  fi
  if [ -z "$lld" ]; then
    echo "web-build: no rust-lld to link the wasm (rustup's toolchain has one; or apt-get install -y lld)" >&2
    exit 1
  fi
  RUSTC=$web_rustc RUSTC_BOOTSTRAP=1 RUSTFLAGS="-C linker=$lld $getrandom ${RUSTFLAGS:-}" \
    cargo "${args[@]}" -Zbuild-std=std,panic_abort "${link[@]}"
else
  RUSTFLAGS="$getrandom ${RUSTFLAGS:-}" cargo "${args[@]}" "${link[@]}"
fi

# The JS side of the crates the game uses, from each crate's own folder: macroquad's loader and
# plugins, and sapp-jsutils's object table (which web/storage.js uses).
crate_dir() {
  cargo metadata --format-version 1 --locked --filter-platform "$target" \
    | python3 -c 'import json, sys, os
meta = json.load(sys.stdin)
print(next(os.path.dirname(p["manifest_path"]) for p in meta["packages"] if p["name"] == sys.argv[1]))' "$1"
}
macroquad_dir=$(crate_dir macroquad)
jsutils_dir=$(crate_dir sapp-jsutils)

rm -rf "$out"
mkdir -p "$out"
cp "$target_dir/$target/release/crate-room.wasm" "$out/"
cp "$macroquad_dir/js/mq_js_bundle.js" "$out/"
cp "$jsutils_dir/js/sapp_jsutils.js" "$out/"
cp web/index.html web/storage.js web/download.js "$out/"
wasm_bytes=$(stat -c %s "$out/crate-room.wasm")
gz_bytes=$(gzip -9 -c "$out/crate-room.wasm" | wc -c)
echo "web-build: $out/ ready (crate-room.wasm: $wasm_bytes bytes, $gz_bytes gzipped)"
