#!/usr/bin/env bash
# Re-record every campaign level's gold replay (`levels/gold/LEVEL.replay`): the bot's run on
# the level with seed 1, up to the step it clears the room. Run it after a change that moves
# `state_hash` (a rule, the random generator, a level's bytes), then `cargo test --release
# --test gold_replays` checks each replay still clears its level within the gold par time.
#
#   tools/record-gold.sh            # every level of levels/campaign.txt
#   tools/record-gold.sh vault      # only levels/vault.ron
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --quiet --bin crate-room
game=target/release/crate-room

if [ $# -gt 0 ]; then
  levels=("$@")
else
  mapfile -t levels < <(grep -v '^#' levels/campaign.txt | grep -v '^$' | sed 's/\.ron$//')
fi

for name in "${levels[@]}"; do
  level="levels/$name.ron"
  cleared=$("$game" sim --level "$level" --input bot --frames 1000000 --json |
    sed -n 's/^  "cleared_at": \([0-9]*\),$/\1/p')
  if [ -z "$cleared" ]; then
    echo "error: the bot does not clear $level within 1,000,000 steps" >&2
    exit 1
  fi
  "$game" sim --level "$level" --input bot --frames "$cleared" --record "levels/gold/$name.replay" >/dev/null
  echo "levels/gold/$name.replay: cleared at step $cleared"
done
