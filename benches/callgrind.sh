#!/usr/bin/env bash
# Deterministic figures for BENCHMARKS.md: instructions per simulation step, counted by
# valgrind's callgrind instead of timed, so two versions of the code can be compared on a noisy
# machine. A tool for people: it needs valgrind, and no test or CI job runs it.
#
# Usage: bash benches/callgrind.sh [STEPS]     (STEPS measured per run, default 1000)
#
# Method. Levels of 1,000 and 100,000 crates are generated (`crate-room gen-level --seed 1`,
# never committed). Each row runs `crate-room sim` under callgrind twice, for WARM steps and for
# WARM + STEPS steps, with collection off at start and toggled on only inside
# `game::headless::sim::Sim::step` (`--collect-atstart=no --toggle-collect=...`, callees included): so
# loading the level, the headless harness's own bookkeeping and the final state hash are never
# counted. The two runs are the same deterministic simulation, so the difference of their
# instruction totals (Ir) is exactly the cost of steps WARM+1 .. WARM+STEPS; divided by STEPS it
# is the mean instructions per step. The first WARM steps (the first sees every entity as new)
# are left out that way, and reported on their own. The counts repeat from run to run on one
# binary and machine to within a few hundred instructions over a whole run: the first step
# hashes big columns on two threads (100,000 crates), and starting and joining them costs a
# varying handful of instructions. Each row's second run is run twice; the script stops if the
# two differ by STEPS instructions or more (one per measured step).
#
# The binary is built with cargo's bench profile, like `cargo bench`: optimised and without the
# overflow checks and debug assertions the release profile keeps for `ecs` and `game`, so the
# counts measure the code itself. That profile writes to target/release too, so the next
# `cargo run --release` rebuilds those two crates (and this script after it).
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-1000}
warm=60
if ! [[ $steps =~ ^[1-9][0-9]*$ ]]; then
  echo "callgrind.sh: STEPS must be a positive whole number, not '$steps'" >&2
  exit 2
fi
if ! command -v valgrind >/dev/null; then
  echo "callgrind.sh: valgrind is not installed (e.g. apt-get install valgrind)" >&2
  exit 1
fi
cargo build --profile bench -q -p game --bin crate-room
bin=${CARGO_TARGET_DIR:-target}/release/crate-room # the bench profile's output too
step_fn='game::headless::sim::Sim::step'
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in 1000 100000; do
  "$bin" gen-level --crates "$n" --seed 1 --out "$dir/gen_$n.ron"
done

# Instructions executed inside Sim::step during a run of FRAMES steps.
# Usage: ir LEVEL INPUT FRAMES [SIM FLAGS...]
ir() {
  local level=$1 input=$2 frames=$3; shift 3
  local out="$dir/callgrind.out" log="$dir/valgrind.log"
  if ! valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
    --toggle-collect="$step_fn" \
    "$bin" sim --level "$level" --input "$input" --frames "$frames" "$@" >/dev/null 2>"$log"; then
    cat "$log" >&2
    echo "callgrind.sh: the run above failed" >&2
    exit 1
  fi
  local total
  total=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out")
  if [[ -z $total || $total == 0 ]]; then
    echo "callgrind.sh: nothing collected inside $step_fn (renamed, or inlined into its caller?)" >&2
    exit 1
  fi
  echo "$total"
}

row() { # crates input extra-sim-flags...
  local crates=$1 input=$2; shift 2
  local level="$dir/gen_$crates.ron"
  local first last again
  first=$(ir "$level" "$input" "$warm" "$@")
  last=$(ir "$level" "$input" $((warm + steps)) "$@")
  again=$(ir "$level" "$input" $((warm + steps)) "$@")
  local spread=$((last > again ? last - again : again - last))
  if ((spread >= steps)); then
    echo "callgrind.sh: $crates crates, $input: two identical runs counted $last and $again" >&2
    exit 1
  fi
  local dirty=on
  [[ " $* " == *" --no-dirty "* ]] && dirty=off
  python3 -c '
import sys
crates, inp, dirty, first, last, steps, warm = sys.argv[1:]
first, last, steps = int(first), int(last), int(steps)
per_step = (last - first) / steps
print(f"| {int(crates):,} | {inp} | {dirty} | {per_step:,.0f} | {steps:,} | {first:,} |")
' "$crates" "$input" "$dirty" "$first" "$last" "$steps" "$warm"
}

echo "valgrind: $(valgrind --version); $(git rev-parse --short HEAD 2>/dev/null || echo 'no git'); steps $((warm + 1)) to $((warm + steps)) measured"
echo
echo "| crates | input | dirty | instructions per step | steps measured | instructions in steps 1 to $warm |"
echo "|---:|---|---|---:|---:|---:|"
for input in idle bot; do
  for n in 1000 100000; do row "$n" "$input"; done
  row 1000 "$input" --no-dirty
done
