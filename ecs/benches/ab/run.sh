#!/usr/bin/env bash
# A/B probe: this checkout's `ecs` against the `ecs` of an older commit, in one process.
# Usage: bash ecs/benches/ab/run.sh [BEFORE_REV]   (default: main, to compare a branch with it)
set -euo pipefail
cd "$(dirname "$0")/../../.."
rev=${1:-main}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/before" "$dir/probe/src"
git archive "$rev" ecs/src | tar x -C "$dir/before"
cat > "$dir/before/ecs/Cargo.toml" <<TOML
[package]
name = "ecs_before"
version = "0.1.0"
edition = "2024"
[lib]
path = "src/lib.rs"
TOML
cat > "$dir/probe/Cargo.toml" <<TOML
[package]
name = "ab-probe"
version = "0.1.0"
edition = "2024"
[workspace]
[dependencies]
ecs_before = { path = "$dir/before/ecs" }
ecs = { path = "$PWD/ecs" }
TOML
cp ecs/benches/ab/probe.rs "$dir/probe/src/main.rs"
CARGO_TARGET_DIR="$dir/target" cargo run --release -q --manifest-path "$dir/probe/Cargo.toml"
