#!/usr/bin/env bash
# Record every campaign level's gold run, set its par times from it, and verify the replay.
#
#   bash tools/record_gold.sh            # every level in levels/campaign.txt
#   bash tools/record_gold.sh keg_row    # only the levels named
#
# A level's gold run is its input script `levels/gold/LEVEL.input` (a hand-made route) if there
# is one, else the built-in bot. The run's time (the room's clock: from the first move or swing
# to the clear, less a second per coin), rounded up to half a second, is gold;
# silver is 1.35 times gold and bronze twice gold, each rounded up to a whole second. The par
# line of the level file is rewritten (which changes the level's bytes, so the run is recorded
# after it), then the run is recorded to `levels/gold/LEVEL.replay` and checked with
# `crate-room replay --verify`. Rerun it after any change to a level or to the simulation that
# changes state hashes.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --quiet --bin crate-room
game=target/release/crate-room

if [ $# -gt 0 ]; then
  levels=("$@")
else
  mapfile -t levels < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' levels/campaign.txt | grep -v '^$')
fi

for level in "${levels[@]}"; do
  level=${level%.ron}
  file=levels/$level.ron
  script=levels/gold/$level.input
  if [ -f "$script" ]; then input=script:$script; else input=bot; fi
  # The step the room is cleared on (the replay's length) and the room's time (the clock:
  # from the first move or swing, less a second per coin), which the par times count.
  read -r cleared time < <("$game" sim --level "$file" --input "$input" --frames 100000 --json |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["cleared_at"] or "-", r["room_time"] or "-")')
  if [ "$cleared" = - ]; then
    echo "$level: the $input run does not clear the room" >&2
    exit 1
  fi
  par=$(python3 - "$time" <<'PY'
import math, sys
steps = int(sys.argv[1])
gold = math.ceil(steps / 60 * 2) / 2
fmt = lambda s: ("%d" % s) if s == int(s) else ("%.1f" % s)
print("par: (gold: %s, silver: %d, bronze: %d)," % (fmt(gold), math.ceil(gold * 1.35), math.ceil(gold * 2)))
PY
)
  if ! grep -q '^    par: (.*),$' "$file"; then
    echo "$file: no \`    par: (...),\` line to rewrite" >&2
    exit 1
  fi
  sed -i "s/^    par: (.*),\$/    $par/" "$file"
  "$game" sim --level "$file" --input "$input" --frames "$cleared" --record "levels/gold/$level.replay" >/dev/null
  "$game" replay "levels/gold/$level.replay" --verify >/dev/null
  printf '%-16s %-6s clear at step %6s, time %6.2f s  %s\n' "$level" "${input%%:*}" "$cleared" \
    "$(python3 -c "print($time/60)")" "$par"
done
