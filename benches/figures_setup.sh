# Sourced by sim_figures.sh and window_figures.sh: from the repository root, build the release
# game, and set `frames` (the first argument, default 600), `bin` (the game) and `dir` (a
# temporary folder for generated levels, removed on exit).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
frames=${1:-600}
cargo build --release -q -p game --bin crate-room
bin=${CARGO_TARGET_DIR:-target}/release/crate-room
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
