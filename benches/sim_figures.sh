#!/usr/bin/env bash
# Headless figures for BENCHMARKS.md: generates levels of 1,000 / 10,000 / 100,000 crates
# (never committed), then runs `crate-room sim --json` on them and on the shipped levels, and
# prints one markdown row per run. Usage: bash benches/sim_figures.sh [FRAMES]
source "$(dirname "$0")/figures_setup.sh" "$@"
for n in 1000 10000 100000; do
  "$bin" gen-level --crates "$n" --seed 1 --out "$dir/gen_$n.ron"
done

row() { # level-file input extra-flags...
  local level=$1 input=$2; shift 2
  "$bin" sim --level "$level" --frames "$frames" --input "$input" --json "$@" | python3 -c '
import json, sys
r = json.load(sys.stdin)
draw = next((s["dirty_mean"] for s in r["systems"] if s["name"] == "draw_data"), 0)
cells = [r["level_name"], r["crates_total"], r["input"], "on" if r["dirty"] else "off",
         "%.1f" % r["load_ms"], "%.0f" % r["update_us_first"], "%.2f" % r["update_us_median"],
         "%.2f" % r["update_us_mean"], "%.1f" % r["update_us_p99"], "%.1f" % draw,
         r["crates_total"] - r["crates_left"], r["state_hash"]]
print("| " + " | ".join(str(c) for c in cells) + " |")'
}

echo "frames per run: $frames; machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| level | crates | input | dirty | load ms | first update us | update median us | update mean us | update p99 us | draw_data dirty/step | smashed | state_hash |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in 1000 10000 100000; do row "$dir/gen_$n.ron" idle; done
row "$dir/gen_10000.ron" idle --no-dirty
for n in 1000 10000 100000; do row "$dir/gen_$n.ron" bot; done
row "$dir/gen_10000.ron" bot --no-dirty
row levels/cratetopia.ron idle
row levels/cratetopia.ron idle --no-dirty
row levels/cratetopia.ron bot
row levels/cratetopia.ron bot --no-dirty
