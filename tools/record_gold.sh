#!/usr/bin/env bash
# Record every campaign level's author run, set its par times from it, and verify the replay.
#
#   bash tools/record_gold.sh            # every level in levels/campaign.txt
#   bash tools/record_gold.sh keg_row    # only the levels named
#
# A level's author run is the fastest route known through it: its input script
# `levels/gold/LEVEL.input` (a route that beats the bot's, kept as the keys held step by step;
# `cargo run --release --bin crate-room-routes -- search --write LEVEL` searches for one) if
# there is one, else the built-in bot. The run's time (the room's clock: from the first move
# or swing to the last break, plus 2 s per burn, less a second per coin) is the author time; the
# medals follow from it by one rule, for a frame-perfect author and a player at a keyboard:
# gold 1.25 times it, rounded up to a tenth of a second; silver 1.6 times and bronze 2.5 times,
# each rounded up to a whole second. With a script, the bot's time is printed too: if the bot
# has caught up, delete the script. A script that no longer clears its level (the simulation
# changed under it) stops the run with a message. The par line of the level file is rewritten
# (which changes the level's bytes, so the run is recorded after it), then the run is recorded
# to `levels/gold/LEVEL.replay` and checked with `crate-room replay --verify`. Rerun it after
# any change to a level or to the simulation that changes state hashes.
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
    if [ "$input" = bot ]; then
      echo "$level: the bot does not clear the room" >&2
    else
      echo "$level: $script no longer clears the room (did the simulation change?): record a" \
        "new route, or delete it to set the par times from the bot" >&2
    fi
    exit 1
  fi
  par=$(python3 - "$time" <<'PY'
import sys
steps = int(sys.argv[1])  # the author time, 60 steps a second
def tenths(x):
    t = -(-x // 6)  # 6 steps a tenth of a second, rounded up
    return ("%d" % (t // 10)) if t % 10 == 0 else ("%d.%d" % (t // 10, t % 10))
gold = tenths(-(-steps * 125 // 100))  # 1.25 times the author time
silver = -(-steps * 16 // 600)  # 1.6 times, rounded up to a second
bronze = -(-steps * 25 // 600)  # 2.5 times
author = "%.2f" % (steps / 60)  # to the hundredth: reads back as the same step
print("par: (author: %s, gold: %s, silver: %d, bronze: %d)," % (author, gold, silver, bronze))
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
  if [ "$input" != bot ]; then
    "$game" sim --level "$file" --input bot --frames 100000 --json | python3 -c \
      'import json,sys; r=json.load(sys.stdin); t=r["room_time"]; print("%-16s bot    time %s" % (sys.argv[1], "%6.2f s" % (t / 60) if t is not None else "does not clear"))' "$level"
  fi
done
