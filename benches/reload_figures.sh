#!/usr/bin/env bash
# Hot reload's worst frame, for BENCHMARKS.md: a scripted 1280x720 run under Xvfb plays a
# 100-crate level (idle input, `--frames FRAMES`, default 3000); once its first frame is drawn,
# a level of CRATES crates (default 6,700,000: `gen-level --crates N --seed 1`, 14 MB) is
# renamed over it, and the game swaps it in by hot reload. Prints the run's frame and update
# times, and how many steps the swapped-in level ran (its `--record`ed run), which shows the
# swap came before the last frame (whose wait for a reload in flight is not timed).
# Usage: bash benches/reload_figures.sh [FRAMES] [CRATES]
source "$(dirname "$0")/figures_setup.sh" "${1:-3000}"
crates=${2:-6700000}
"$bin" gen-level --crates 100 --seed 1 --out "$dir/level.ron"
"$bin" gen-level --crates "$crates" --seed 1 --out "$dir/big.ron.tmp"
mkdir "$dir/data"
# The game says `keys 1:` after its first frame: the level is read and watched by then.
CRATE_ROOM_ECHO_KEYS=1 CRATE_ROOM_DATA_DIR="$dir/data" xvfb-run -a -s "-screen 0 1280x720x24" \
  "$bin" --level "$dir/level.ron" --input idle --width 1280 --height 720 --mute \
  --frames "$frames" --record "$dir/run.replay" >"$dir/out.txt" 2>"$dir/err.txt" &
game=$!
until grep -q '^keys 1:' "$dir/out.txt"; do
  if ! kill -0 "$game" 2>/dev/null; then
    cat "$dir/err.txt" >&2
    exit 1
  fi
  sleep 0.05
done
mv "$dir/big.ron.tmp" "$dir/level.ron"
if ! wait "$game"; then
  cat "$dir/err.txt" >&2
  exit 1
fi
grep '^{' "$dir/out.txt" | tail -n 1 | STEPS=$(sed -n 's/^steps //p' "$dir/run.replay") python3 -c '
import json, os, sys
r = json.load(sys.stdin)
print("level: %s, reloads %d, frames %d; steps of the swapped-in level: %s"
      % (r["level"], r["reloads"], r["frames"], os.environ["STEPS"]))
print("frame_us median %.0f, p99 %.0f, max %s; update_us max %s; render_us max %s"
      % (r["frame_us_median"], r["frame_us_p99"], "{:,.0f}".format(r["frame_us_max"]),
         "{:,.0f}".format(r["update_us_max"]), "{:,.0f}".format(r["render_us_max"])))'
