#!/usr/bin/env bash
# Windowed figures for BENCHMARKS.md: generates dense levels of 2,000 / 100,000 / 1,000,000
# crates and block-layout levels of 2,000 / 100,000 (never committed), plays each in a real
# 1280x720 window under Xvfb (Mesa's software OpenGL), vsync off, bot and idle input, in the
# scripted mode (`--frames N --screenshot`), and prints one markdown row per run from its JSON
# report, then the render ratio of the largest level to the smallest.
# Usage: bash benches/window_figures.sh [FRAMES]
source "$(dirname "$0")/figures_setup.sh" "$@"
for n in 2000 100000 1000000; do
  "$bin" gen-level --dense --crates "$n" --seed 1 --out "$dir/dense_$n.ron"
done
for n in 2000 100000; do
  "$bin" gen-level --crates "$n" --seed 1 --out "$dir/blocks_$n.ron"
done

row() { # layout crates input
  local layout=$1 n=$2 input=$3
  if ! xvfb-run -a -s "-screen 0 1280x720x24" "$bin" --level "$dir/${layout}_$n.ron" \
      --input "$input" --vsync off --width 1280 --height 720 --mute \
      --frames "$frames" --screenshot "$dir/shot.png" >"$dir/out.json" 2>"$dir/err.txt"; then
    cat "$dir/err.txt" >&2
    exit 1
  fi
  tail -n 1 "$dir/out.json" | LAYOUT=$layout INPUT=$input python3 -c '
import json, os, sys
r = json.load(sys.stdin)
cells = [os.environ["LAYOUT"], "{:,}".format(r["crates_total"]), os.environ["INPUT"],
         r["timed_frames"], "%.0f" % r["frame_us_median"], "%.0f" % r["frame_us_p99"],
         "%.1f" % r["update_us_median"], "%.1f" % r["update_us_p99"], "{:,.0f}".format(r["update_us_max"]),
         "%.0f" % r["render_us_median"], "%.0f" % r["render_us_p99"],
         r["world_quads"], r["world_draw_calls"], r["crates_total"] - r["crates_left"]]
print("| " + " | ".join(str(c) for c in cells) + " |")' | tee -a "$dir/rows.md"
}

echo "frames per run: $frames (the first is left out); machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| layout | crates | input | frames timed | frame median us | frame p99 us | update median us | update p99 us | update max us | render median us | render p99 us | world quads | world draw calls | smashed |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for input in idle bot; do
  for n in 2000 100000 1000000; do row dense "$n" "$input"; done
  for n in 2000 100000; do row blocks "$n" "$input"; done
done
echo
python3 - "$dir/rows.md" <<'PY'
import sys
rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in open(sys.argv[1])]
med = {(r[0], r[1], r[2]): float(r[9]) for r in rows}
for input in ("idle", "bot"):
    big, small = med[("dense", "1,000,000", input)], med[("dense", "2,000", input)]
    print(f"render median, dense 1,000,000 / 2,000 crates, {input}: {big:.0f} / {small:.0f} us = {big / small:.2f}")
PY
