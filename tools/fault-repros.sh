#!/usr/bin/env bash
# Re-runs the reproductions of the player's-data faults (best times, progress, settings, saved
# replays, the campaign list, temporary files, raw bytes in messages, a large hot reload; every
# output onto the game's own files, V onto a FIFO, non-UTF-8 level names, `--deep` and compare
# mode on big rooms, the title over big levels, a BOM and lone CRs, messages that say what to
# do, par times, a room without crates and `--press` that cannot happen) against
# the play build, and prints one line per case: the case, what happened (exit codes, the stderr
# line that matters escaped, the file contents that matter) and whether that is the intended
# behaviour (`ok`) or not (`FAULT`). Ends with the suite's clock and size checks (grep).
#
# Each case has a fresh data folder (`CRATE_ROOM_DATA_DIR`) under one temporary folder, removed
# at the end; every process started has a deadline (`timeout`). Windowed runs share one Xvfb of
# their own. The full-disk case mounts a 16 KiB tmpfs (needs root; without it the case says so).
# The last case runs `benches/reload_figures.sh` (a 6.7M-crate level, a minute or two);
# `REPROS_SKIP_RELOAD=1` leaves it out. `REPROS_ONLY=WORD` runs only the cases of the game's own
# files and what came with them (their names hold WORD, `own` for all), and `REPROS_BIN=PATH`
# runs another build (an older one, to see a case fail).
#
# Usage: cargo build --release && bash tools/fault-repros.sh
# Exit status: 0 if every case is `ok`, 1 if any is a `FAULT`, 2 if it could not run.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
bin=${REPROS_BIN:-$repo/target/release/crate-room}
[ -x "$bin" ] || { echo "no $bin: run cargo build --release first" >&2; exit 2; }
for tool in Xvfb python3 timeout; do
  command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 2; }
done

work=$(mktemp -d /tmp/crate-room-repros.XXXXXX)
xvfb=
mounted=
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null && wait "$xvfb" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# One virtual display for every windowed run; Xvfb writes its number once it serves.
Xvfb -displayfd 9 -noreset -nolisten tcp -screen 0 1280x720x24 9>"$work/display" 2>"$work/xvfb.err" &
xvfb=$!
timeout 30 bash -c "until [ -s '$work/display' ]; do sleep 0.1; done" || {
  echo "Xvfb did not start: $(cat "$work/xvfb.err")" >&2
  exit 2
}
export DISPLAY=":$(head -n 1 "$work/display")"
unset XAUTHORITY WAYLAND_DISPLAY

faults=0
# report CASE WHAT VERDICT: one line of the table.
report() {
  [ "$3" = ok ] || faults=$((faults + 1))
  printf '%-34s | %s | %s\n' "$1" "$2" "$3"
}
# verdict CONDITION...: `ok` if the command succeeds, else `FAULT`.
verdict() { if "$@"; then echo ok; else echo FAULT; fi; }
# show: standard input as one line, control characters and non-ASCII escaped (`\n`, `\x1b`),
# cut at 240 characters.
show() {
  python3 -c 'import sys
t = sys.stdin.buffer.read().decode("utf-8", "replace").strip()
e = "".join(c if c.isascii() and c.isprintable() else c.encode("unicode_escape").decode() for c in t)
print(e if len(e) <= 240 else e[:240] + "...", end="")'
}
# file_of PATH: a file's contents on one line, or <none>.
file_of() { if [ -e "$1" ]; then show <"$1"; else printf '<none>'; fi; }
# first_line PATTERN FILE: the first line of FILE matching PATTERN (grep -E), escaped.
first_line() { grep -a -m 1 -E "$1" "$2" | show; }
# raw_esc FILE: whether FILE holds a raw ESC byte.
raw_esc() { grep -q -a $'\x1b' "$1"; }
# json KEY_EXPRESSION OUT: a value from the last JSON line a scripted run printed.
json() {
  grep -a '^{' "$2" | tail -n 1 | python3 -c "import json, sys
r = json.load(sys.stdin)
print(json.dumps($1))" 2>/dev/null || printf '<no report>'
}
# case_dir NAME: a fresh folder for a case, with `data/` as its data folder.
case_dir() { mkdir -p "$work/$1/data" && echo "$work/$1"; }
# game DIR [ARGS]: a scripted windowed run at 640x360 from the repository, data in DIR/data (or
# $DATA), stdout and stderr in DIR/out and DIR/err; prints its exit status.
game() {
  local dir=$1
  shift
  CRATE_ROOM_DATA_DIR=${DATA:-$dir/data} timeout 300 "$bin" --width 640 --height 360 --mute "$@" \
    >"$dir/out" 2>"$dir/err" </dev/null
  echo $?
}
# A level the bot clears in 80 steps.
tiny='(name: "Tiny", map: ["#####", "#@.c#", "#####"])'
frames_tiny=120
# The bot's clear of each level (steps, --no-hit-stop), and a few frames for the cleared screen.
frames_first_swing=450

# --- The game's own files as outputs ------------------------------------------------------
# A copy of the install (assets/, levels/ with campaign.txt, a data folder with each data file)
# to run in: every output onto one of them is refused with exit 1, and the file is unchanged.
install_copy() {
  local root=$1
  mkdir -p "$root/levels" "$root/data"
  cp -r "$repo/assets" "$root/assets"
  cp "$repo"/levels/{campaign.txt,first_swing.ron,crate_room.ron,vault.ron} "$root/levels/"
  printf '"vault.ron" = 713\n' >"$root/data/best_times.txt"
  printf '"vault.ron"\n' >"$root/data/progress.txt"
  printf 'sound = off\n' >"$root/data/settings.txt"
}
own_targets="assets/atlas.png assets/atlas.ron levels/campaign.txt levels/vault.ron data/best_times.txt data/progress.txt data/settings.txt"
# in_root ROOT ARGS: a run of ROOT's install with ROOT/data as data folder; prints its exit status.
in_root() {
  local root=$1
  shift
  (cd "$root" && CRATE_ROOM_DATA_DIR=$root/data timeout 120 "$bin" "$@" >"$root/out" 2>"$root/err" </dev/null)
  echo $?
}
# own_files_case WHAT ARGS...: ARGS with `@` for the target (a link named `*.png` / `*.puffin`
# to it where the flag wants that name), onto each of the game's files.
own_files_case() {
  local what=$1
  shift
  local exits= msg= n=0 changed= c
  for t in $own_targets; do
    # A fresh copy for each: a file replaced by one run would fail the next for that reason.
    c=$(case_dir "own-$what-$n")
    install_copy "$c"
    (cd "$c" && sha1sum "$t" >"$c/sums")
    ln -s "$c/$t" "$c/link$n.png"
    ln -s "$c/$t" "$c/link$n.puffin"
    local args=()
    for a in "$@"; do
      case $a in @) args+=("$t") ;; @png) args+=("link$n.png") ;; @puffin) args+=("link$n.puffin") ;; *) args+=("$a") ;; esac
    done
    exits+="$(in_root "$c" "${args[@]}")"
    [ -z "$msg" ] && msg=$(grep -a -v -m 1 '^ALSA' "$c/err" | show)
    (cd "$c" && sha1sum -c --quiet "$c/sums" >/dev/null 2>&1) || changed+="$t "
    n=$((n + 1))
  done
  report "own files: $what" \
    "exits $exits (atlas.png atlas.ron campaign.txt vault.ron best_times progress settings); changed: ${changed:-none}; first stderr: $msg" \
    "$(verdict test "$exits" = 1111111 -a -z "$changed")"
}
want() { [ -z "${REPROS_ONLY:-}" ] || [ "$REPROS_ONLY" = own ] || [ "${1/$REPROS_ONLY/}" != "$1" ]; }
want gen-level && own_files_case gen-level gen-level --crates 3 --out @
want sim-record && own_files_case sim-record sim --level levels/first_swing.ron --frames 10 --record @
window_run=(--width 640 --height 360 --mute --level levels/crate_room.ron --frames 3)
want window-record && own_files_case window-record "${window_run[@]}" --record @
want screenshot && own_files_case screenshot "${window_run[@]}" --screenshot @png
want save-profile && own_files_case save-profile "${window_run[@]}" --save-profile @puffin
if want screenshot-atlas; then
  c=$(case_dir own-screenshot-atlas)
  install_copy "$c"
  before=$(sha1sum <"$c/assets/atlas.png")
  e=$(in_root "$c" "${window_run[@]}" --screenshot assets/atlas.png)
  after=$(sha1sum <"$c/assets/atlas.png")
  report "own files: --screenshot atlas.png" \
    "exit $e; atlas.png $([ "$before" = "$after" ] && echo unchanged || echo REPLACED); stderr: $(grep -a -v -m 1 '^ALSA' "$c/err" | show)" \
    "$(verdict test "$e" = 1 -a "$before" = "$after")"
fi
if want gen-level-force; then
  c=$(case_dir own-gen-force)
  install_copy "$c"
  plain=$(in_root "$c" gen-level --crates 3 --out levels/vault.ron)
  new=$(in_root "$c" gen-level --crates 3 --out levels/new.ron)
  forced=$(in_root "$c" gen-level --crates 3 --force --out levels/vault.ron)
  same=$(cmp -s "$c/levels/vault.ron" "$c/levels/new.ron" && echo yes || echo no)
  report "own files: gen-level --force" \
    "onto a level: exit $plain; a new level in levels/: exit $new; with --force: exit $forced, replaced: $same" \
    "$(verdict test "$plain$new$forced$same" = 100yes)"
fi
if want save-profile-early; then
  c=$(case_dir own-profile-early)
  e=$(game "$c" --frames 3 --save-profile /nonexistent/dir/p.puffin)
  msg=$(first_line 'profile' "$c/err")
  report "own files: --save-profile checked first" \
    "exit $e; stderr: $msg; the run's JSON report printed: $(grep -c '^{' "$c/out")" \
    "$(verdict test "$e" = 1 -a "${msg#error: --save-profile: }" != "$msg")"
fi
if want v-fifo; then
  c=$(case_dir own-v-fifo)
  mkdir -p "$c/data/replays"
  mkfifo "$c/data/replays/first_swing-416.replay"
  started=$(date +%s)
  CRATE_ROOM_DATA_DIR=$c/data timeout 60 "$bin" --width 640 --height 360 --mute \
    --level levels/first_swing.ron --input bot --no-hit-stop --frames $frames_first_swing \
    --press V@$((frames_first_swing - 5)) >"$c/out" 2>"$c/err" </dev/null
  v=$?
  took=$(($(date +%s) - started))
  saved=$(cd "$c/data/replays" && ls | tr '\n' ' ')
  report "own files: V with a FIFO at the name" \
    "exit $v after ${took}s (timeout 60 s gives 124); replays/: $saved" \
    "$(verdict test "$v" = 0 -a "${saved/first_swing-416-2.replay/}" != "$saved")"
fi
if want non-utf8; then
  c=$(case_dir own-non-utf8)
  printf '%s\n' "$tiny" >"$c/"$'\xfe'.ron
  printf '%s\n' "$tiny" >"$c/"$'\xff'.ron
  a=$(game "$c" --level "$c/"$'\xfe'.ron --input bot --no-hit-stop --frames $frames_tiny)
  msg=$(first_line 'best time not saved' "$c/err")
  b=$(game "$c" --level "$c/"$'\xff'.ron --input bot --no-hit-stop --frames $frames_tiny)
  best=$(file_of "$c/data/best_times.txt")
  report "own files: non-UTF-8 level names" \
    "exits $a,$b; stderr: $msg; best_times.txt: $best" \
    "$(verdict test "$a$b" = 00 -a -n "$msg" -a "${best/\\ufffd/}" = "$best")"
fi
# --- Bounded work --------------------------------------------------------------------------
if want deep-budget; then
  c=$(case_dir deep-budget)
  "$bin" gen-level --crates 100000 --seed 1 --out "$c/big.ron" 2>"$c/err"
  timeout 120 "$bin" sim --level "$c/big.ron" --frames 6000 --record "$c/big.replay" >/dev/null 2>>"$c/err"
  # The last checkpoint's hash with its lowest bit flipped.
  python3 - "$c/big.replay" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index("end") - 1
step, h = lines[i].split()
lines[i] = "%s %016x" % (step, int(h, 16) ^ 1)
open(sys.argv[1], "w").write("\n".join(lines))
PY
  started=$(date +%s)
  timeout 60 "$bin" replay "$c/big.replay" --verify --deep >"$c/out" 2>"$c/err"
  d=$?
  took=$(($(date +%s) - started))
  report "bounded: --deep on 100k crates x 6000" \
    "exit $d after ${took}s (timeout 60 s gives 124); stderr: $(grep -a -m 1 'deep' "$c/err" | show)" \
    "$(verdict test "$d" = 1 -a -n "$(grep -a 'deep:' "$c/err")")"
fi
if want compare-big; then
  c=$(case_dir compare-big)
  "$bin" gen-level --crates 990000 --seed 1 --out "$c/big.ron" 2>"$c/err"
  e=$(game "$c" --level "$c/big.ron" --input idle --frames 30 --press F8@5)
  report "bounded: F8 on 990k crates" \
    "exit $e; frame max $(json 'r.get("frame_us_max")' "$c/out") us; compare: $(json 'r.get("compare")' "$c/out"); banner/stderr: $(first_line 'compare' "$c/err")" \
    "$(verdict test "$e" = 0 -a "$(json 'r.get("frame_us_max", 1e9) <= 100000' "$c/out")" = true)"
fi
if want title-big; then
  c=$(case_dir title-big)
  mkdir -p "$c/levels"
  ln -s "$repo/assets" "$c/assets"
  cp "$repo"/levels/*.ron "$repo/levels/campaign.txt" "$c/levels/"
  "$bin" gen-level --crates 7700000 --seed 1 --out "$c/big16.ron" 2>"$c/err"
  for i in $(seq -w 1 30); do ln "$c/big16.ron" "$c/levels/sandbox_$i.ron"; done
  started=$(date +%s%N)
  e=$(cd "$c" && game "$c" --frames 1)
  ms=$((($(date +%s%N) - started) / 1000000))
  report "bounded: title, thirty 16 MB levels" \
    "exit $e; start to the end of frame 1: ${ms} ms; rows: $(json 'len(r["title"])' "$c/out"); a big row: $(json '[x["file"] for x in r["title"] if x["file"] == "sandbox_01.ron"]' "$c/out")" \
    "$(verdict test "$e" = 0 -a "$ms" -lt 5000)"
fi

# --- Text as editors write it --------------------------------------------------------------
if want bom-cr; then
  c=$(case_dir bom-cr)
  printf '\xef\xbb\xbf"first_swing.ron" = 300\n' >"$c/data/best_times.txt"
  printf '\xef\xbb\xbf"first_swing.ron"\n' >"$c/data/progress.txt"
  printf '\xef\xbb\xbfsound = off\r' >"$c/data/settings.txt"
  printf '20 up\r20 right\r' >"$c/walk.txt"
  e=$(game "$c" --level levels/first_swing.ron --input "script:$c/walk.txt" --frames 50)
  msg=$(grep -a -m 1 -E 'best_times|progress|settings|walk' "$c/err" | show)
  report "BOM and lone CR in data and script" \
    "exit $e; first stderr line about them: ${msg:-none}; sound on: $(json 'r["settings"]["sound"]' "$c/out")" \
    "$(verdict test "$e" = 0 -a -z "$msg" -a "$(json 'r["settings"]["sound"]' "$c/out")" = false)"
fi

# --- Messages that say what to do ----------------------------------------------------------
if want say-what; then
  c=$(case_dir say-what)
  mkdir "$c/data/best_times.txt"
  e1=$(game "$c" --level levels/first_swing.ron --input bot --no-hit-stop --frames $frames_first_swing)
  m1=$(first_line 'best' "$c/err")
  ln -s "$c/nowhere" "$c/link-data"
  e2=$(DATA=$c/link-data game "$c" --level levels/first_swing.ron --input bot --no-hit-stop --frames $frames_first_swing)
  m2=$(first_line 'not saved' "$c/err")
  printf '(name: "Gold", map: ["#####", "#@.c#", "#####"], par: (gold: 1e308, silver: 2, bronze: 3))\n' >"$c/gold.ron"
  "$bin" check "$c/gold.ron" >"$c/out" 2>&1
  m3=$(head -n 1 "$c/out" | show)
  grep -q -E '[0-9]{20}' "$c/out" && digits=yes || digits=no
  cp "$repo/levels/first_swing.ron" "$c/"$'\u202e'"x.ron"
  timeout 60 "$bin" sim --level "$c/"$'\u202e'"x.ron" --frames 10 --record "$c/"$'\u202e'"r.replay" >/dev/null 2>&1
  timeout 60 "$bin" replay "$c/"$'\u202e'"r.replay" --verify >"$c/out" 2>&1
  grep -q $'\u202e' "$c/out" && raw=yes || raw=no
  timeout 60 "$bin" sim --level levels/first_swing.ron --frames 3 --input "script:$c/"$'\xff'".txt" >"$c/out" 2>&1
  m5=$(head -c 300 "$c/out" | show)
  report "messages say what to do" \
    "best_times.txt a folder: exit $e1, $m1 | data a dangling link: exit $e2, $m2 | gold 1e308 (a run of 20 digits: $digits): $m3 | U+202E raw in replay --verify: $raw | non-UTF-8 script: $m5" \
    "$(verdict test "${m1/move/}" != "$m1" -a "${m2/symbolic link/}" != "$m2" -a "$digits" = no -a "$raw" = no -a "${m5/input script/}" != "$m5")"
  c=$(case_dir atlas-fifo)
  mkdir -p "$c/assets" "$c/levels"
  cp "$repo/assets/atlas.png" "$c/assets/"
  mkfifo "$c/assets/atlas.ron"
  cp "$repo/levels/first_swing.ron" "$c/levels/"
  (cd "$c" && timeout 60 "$bin" sim --level levels/first_swing.ron --frames 3 >"$c/out" 2>&1)
  e=$?
  report "atlas.ron a FIFO" "exit $e; $(head -c 300 "$c/out" | show)" \
    "$(verdict test "$e" = 1 -a -n "$(grep -a 'named pipe' "$c/out")")"
fi

# --- check, gen-level and --press refuse what can never happen ------------------------------
if want never-happen; then
  c=$(case_dir never-happen)
  printf '(name: "P", map: ["#####", "#@.c#", "#####"], par: (gold: 1e-300, silver: 2e-300, bronze: 3e-300))\n' >"$c/tiny_par.ron"
  printf '(name: "P", map: ["#####", "#@.c#", "#####"], par: (gold: 5.000, silver: 5.001, bronze: 5.002))\n' >"$c/same_par.ron"
  "$bin" check "$c/tiny_par.ron" >/dev/null 2>&1; p1=$?
  "$bin" check "$c/same_par.ron" >/dev/null 2>&1; p2=$?
  "$bin" gen-level --crates 0 >"$c/zero.ron" 2>"$c/err"; g=$?
  "$bin" check "$c/zero.ron" >/dev/null 2>&1; z=$?
  e1=$(game "$c" --frames 5 --press F7@50)
  m1=$(first_line 'press' "$c/err")
  cp "$repo/levels/first_swing.ron" "$c/edit.ron"
  e2=$(game "$c" --edit "$c/edit.ron" --frames 10 --press F7@5)
  not_taken=$(json 'r.get("presses_not_taken")' "$c/out")
  report "never-happen: par, no crates, --press" \
    "check exits: par under a step $p1, par same step $p2; gen-level --crates 0 exit $g, check of its output $z; --press F7@50 --frames 5: exit $e1, $m1; F7 in the editor: exit $e2, reported: $not_taken" \
    "$(verdict test "$p1$p2" = 11 -a "$g$z" != 00 -a "$e1" = 1 -a "$e2" = 0 -a "${not_taken/F7@5/}" != "$not_taken")"
fi

if [ -n "${REPROS_ONLY:-}" ]; then
  echo "faults: $faults"
  [ "$faults" = 0 ]
  exit
fi

# --- A best time that overflows a sum ------------------------------------------------------
c=$(case_dir overflow)
printf '"iron_bands.ron" = 18446744073709551615\n"pocket_change.ron" = 1\n' >"$c/data/best_times.txt"
t1=$(game "$c" --frames 3)
msg=$(first_line 'best_times' "$c/err")
rows=$(json '[[r["file"], r["best"]] for r in r["title"][:3]]' "$c/out")
t2=$(game "$c" --level levels/first_swing.ron --input bot --no-hit-stop --frames $frames_first_swing)
t3=$(game "$c" --frames 3)
kept=$(file_of "$c/data/best_times.txt")
report "overflow: title, clear, title" \
  "exits $t1,$t2,$t3; stderr: $msg; title rows: $rows; best_times.txt now: $kept" \
  "$(verdict test "$t1$t2$t3" = 000 -a "${kept/18446744073709551615/}" = "$kept")"

# --- Four bot clears at once into one data folder -------------------------------------------
c=$(case_dir four-games)
pids=()
for lf in first_swing:450 pocket_change:1020 corridors:1720 iron_bands:1940; do
  mkdir -p "$c/${lf%%:*}"
  CRATE_ROOM_DATA_DIR=$c/data timeout 300 "$bin" --width 640 --height 360 --mute \
    --level "levels/${lf%%:*}.ron" --input bot --no-hit-stop --frames "${lf##*:}" \
    >"$c/${lf%%:*}/out" 2>"$c/${lf%%:*}/err" </dev/null &
  pids+=($!)
done
exits=
for p in "${pids[@]}"; do
  wait "$p"
  exits+="$?"
done
best=$(file_of "$c/data/best_times.txt")
progress=$(file_of "$c/data/progress.txt")
n_best=$(grep -c '^"' "$c/data/best_times.txt" 2>/dev/null)
n_progress=$(grep -c '^"' "$c/data/progress.txt" 2>/dev/null)
report "four bot clears at once" \
  "exits $exits; best times kept $n_best of 4: $best; progress kept $n_progress of 4: $progress" \
  "$(verdict test "$exits" = 0000 -a "$n_best" = 4 -a "$n_progress" = 4)"

# --- Game A (started earlier, holding 900) clears after game B saved a better time ----------
c=$(case_dir earlier-game)
mkdir -p "$c/a" "$c/b"
printf '"first_swing.ron" = 900\n' >"$c/data/best_times.txt"
CRATE_ROOM_ECHO_KEYS=1 CRATE_ROOM_DATA_DIR=$c/data timeout 300 "$bin" --width 640 --height 360 \
  --mute --level levels/iron_bands.ron --input bot --no-hit-stop --frames 1940 \
  >"$c/a/out" 2>"$c/a/err" </dev/null &
a=$!
# A has loaded the best times once it has drawn its first frame.
timeout 120 bash -c "until grep -q '^keys 1:' '$c/a/out'; do kill -0 $a 2>/dev/null || exit 1; sleep 0.1; done" ||
  kill "$a" 2>/dev/null
b_exit=$(DATA=$c/data game "$c/b" --level levels/first_swing.ron --input bot --no-hit-stop --frames $frames_first_swing)
if kill -0 "$a" 2>/dev/null; then overlap=yes; else overlap=no; fi
wait "$a"
a_exit=$?
best=$(file_of "$c/data/best_times.txt")
report "A (900 loaded) saves after B's best" \
  "exits A $a_exit, B $b_exit; A still running when B ended: $overlap; best_times.txt: $best" \
  "$(verdict test "$a_exit$b_exit" = 00 -a "$overlap" = yes -a "${best/= 900/}" = "$best")"

# --- A setting changed in one game, another toggled in a second game started before ---------
# A (started first, playing a level) mutes the sound with M at its frame 900; B, started once A
# has loaded the settings, turns the shake off with K and ends well before that.
c=$(case_dir two-windows)
mkdir -p "$c/a" "$c/b"
CRATE_ROOM_ECHO_KEYS=1 CRATE_ROOM_DATA_DIR=$c/data timeout 300 "$bin" --width 640 --height 360 \
  --level levels/first_swing.ron --input idle --frames 1000 --press M@900 >"$c/a/out" 2>"$c/a/err" </dev/null &
a=$!
timeout 120 bash -c "until grep -q '^keys 1:' '$c/a/out'; do kill -0 $a 2>/dev/null || exit 1; sleep 0.1; done" ||
  kill "$a" 2>/dev/null
b_exit=$(DATA=$c/data game "$c/b" --level levels/first_swing.ron --input idle --frames 5 --press K@2)
after_b=$(file_of "$c/data/settings.txt")
wait "$a"
a_exit=$?
settings=$(file_of "$c/data/settings.txt")
# The case is the race only if B's save came before A's (A's mute not yet in the file).
case $after_b in *"sound = off"*) raced=no ;; *) raced=yes ;; esac
report "mute in A after shake off in B" \
  "exits A $a_exit, B $b_exit; B saved before A: $raced; settings.txt: $settings" \
  "$(verdict test "$a_exit$b_exit" = 00 -a "$raced" = yes \
    -a "${settings/sound = off/}" != "$settings" -a "${settings/shake = off/}" != "$settings")"

# --- A damaged best_times.txt on a full 16 KiB disk ---------------------------------------
c=$(case_dir full-disk)
printf '%s\n' "$tiny" >"$c/tiny.ron"
if mount -t tmpfs -o size=16k tmpfs "$c/data" 2>"$c/mount.err"; then
  mounted=$c/data
  damaged=$'"first_swing.ron" = 300\nthis line is damaged\n'
  printf '%s' "$damaged" >"$c/data/best_times.txt"
  dd if=/dev/zero of="$c/data/filler" bs=1k count=64 2>/dev/null
  t1=$(game "$c" --level "$c/tiny.ron" --input bot --no-hit-stop --frames $frames_tiny)
  msg=$(grep -a -E '^crate-room:.*not saved' "$c/err" | show)
  full=$(file_of "$c/data/best_times.txt")
  rm "$c/data/filler"
  t2=$(game "$c" --frames 3)
  msg2=$(first_line 'best_times' "$c/err")
  title_best=$(json '[r["best"] for r in r["title"] if r["file"] == "first_swing.ron"]' "$c/out")
  t3=$(game "$c" --level levels/first_swing.ron --input bot --no-hit-stop --frames $frames_first_swing)
  after=$(file_of "$c/data/best_times.txt")
  umount "$c/data" && mounted=
  report "damaged best times, full disk" \
    "exits $t1,$t2,$t3; save on the full disk: $msg; file then: $full; next start: $msg2, title best of first_swing $title_best; after a worse clear (416): $after" \
    "$(verdict test "$t1$t2$t3" = 000 -a "$title_best" = '[300]' -a "${after/first_swing.ron\" = 300/}" != "$after")"
else
  report "damaged best times, full disk" "cannot mount a tmpfs here: $(show <"$c/mount.err")" FAULT
fi

# --- --record and --screenshot onto the data files ------------------------------------------
c=$(case_dir record-onto-data)
line=
all_refused=true
for f in best_times.txt progress.txt settings.txt; do
  printf 'the player'"'"'s %s\n' "$f" >"$c/data/$f"
  cp "$c/data/$f" "$c/before"
  CRATE_ROOM_DATA_DIR=$c/data timeout 60 "$bin" sim --level levels/first_swing.ron --input bot \
    --frames 10 --record "$c/data/$f" >"$c/out" 2>"$c/err" </dev/null
  s=$?
  w=$(game "$c" --frames 3 --record "$c/data/$f")
  cmp -s "$c/before" "$c/data/$f" && same=unchanged || { same=REPLACED; all_refused=false; }
  [ "$s" != 0 ] && [ "$w" != 0 ] || all_refused=false
  line+="$f: sim exit $s, window exit $w, file $same; "
done
msg=$(first_line 'record|refus|data' "$c/err")
ln -s best_times.txt "$c/data/shot.png"
shot2=$(game "$c" --frames 3 --screenshot "$c/data/shot.png")
shot_msg=$(first_line 'screenshot|refus|data' "$c/err")
cmp -s "$c/before" "$c/data/settings.txt" || all_refused=false
cmp -s <(printf 'the player'"'"'s best_times.txt\n') "$c/data/best_times.txt" || all_refused=false
report "--record/--screenshot onto data" \
  "$line(last record stderr: $msg); --screenshot a .png link to best_times.txt exit $shot2: $shot_msg" \
  "$(verdict $all_refused)"

# --- V on the cleared screen with a different replay already under its name -----------------
c=$(case_dir replay-overwrite)
mkdir -p "$c/data/replays"
for n in 416 417 418; do printf 'another run\n' >"$c/data/replays/first_swing-$n.replay"; done
v=$(game "$c" --level levels/first_swing.ron --input bot --no-hit-stop --frames $frames_first_swing \
  --press V@$((frames_first_swing - 5)))
saved=$(cd "$c/data/replays" && ls | tr '\n' ' ')
others=$(cat "$c/data/replays"/first_swing-41[678].replay | sort -u | show)
new=$(ls "$c/data/replays"/first_swing-*-2.replay 2>/dev/null | head -n 1)
verify=none
[ -n "$new" ] && { timeout 120 "$bin" replay --verify "$new" >"$c/verify" 2>&1; verify=$?; }
report "V over an existing replay" \
  "exit $v; replays/ now: $saved; the old files hold: $others; replay --verify of the new one: exit $verify" \
  "$(verdict test "$v" = 0 -a "$others" = 'another run' -a "$verify" = 0)"

# --- Ten damaged copies of progress and settings ------------------------------------------
c=$(case_dir damaged-copies)
printf '%s\n' "$tiny" >"$c/tiny.ron"
exits=
for n in $(seq 1 12); do
  printf 'damage number %d\n' "$n" >"$c/data/progress.txt"
  printf 'damage number %d\n' "$n" >"$c/data/settings.txt"
  exits+=$(game "$c" --level "$c/tiny.ron" --input bot --no-hit-stop --frames $frames_tiny --press K@2)
done
kept() { cat "$c/data/$1".damaged*.txt 2>/dev/null | sed 's/damage number //' | sort -n | tr '\n' ' '; }
pk=$(kept progress)
sk=$(kept settings)
report "ten damaged copies (12 damages)" \
  "exits $exits; progress damaged copies hold: $pk; settings: $sk" \
  "$(verdict test "$exits" = 000000000000 -a "$pk" = '3 4 5 6 7 8 9 10 11 12 ' -a "$sk" = "$pk")"

# --- A campaign with a missing level, and one starting with a BOM --------------------------
campaign_root() {
  local root=$1
  mkdir -p "$root/levels" "$root/data"
  ln -s "$repo/assets" "$root/assets"
  cp "$repo"/levels/{first_swing,iron_bands,pocket_change,crate_room}.ron "$root/levels/"
}
c=$(case_dir campaign-missing)
campaign_root "$c"
printf 'first_swing.ron\niron_bands.ron\nghost.ron\npocket_change.ron\ncrate_room.ron\n' >"$c/levels/campaign.txt"
m=$(cd "$c" && game "$c" --frames 3)
rows=$(json '[[r["file"], r["open"], r["problem"]] for r in r["title"][:5]]' "$c/out")
why=$(json '[r["why"] for r in r["title"] if r["file"] == "pocket_change.ron"]' "$c/out")
msg=$(first_line 'ghost' "$c/err")
report "campaign: a listed level missing" \
  "exit $m; title rows [file, open, problem]: $rows; pocket_change: $why; stderr: $msg" \
  "$(verdict test "$m" = 0 -a -n "$msg" -a "${rows/\"ghost.ron\", false, \"missing\"/}" != "$rows")"
c=$(case_dir campaign-bom)
campaign_root "$c"
printf '\xef\xbb\xbffirst_swing.ron\niron_bands.ron\npocket_change.ron\ncrate_room.ron\n' >"$c/levels/campaign.txt"
m=$(cd "$c" && game "$c" --frames 3)
rows=$(json '[[r["file"], r["open"], r["problem"]] for r in r["title"][:4]]' "$c/out")
report "campaign: campaign.txt with a BOM" \
  "exit $m; title rows [file, open, problem]: $rows; stderr lines: $(grep -c . "$c/err")" \
  "$(verdict test "$m" = 0 -a "${rows:0:35}" = '[["first_swing.ron", true, null], [')"

# --- A level whose file name holds a newline or ESC ----------------------------------------
for odd in $'odd\nname' $'esc\x1b[2Jname'; do
  c=$(case_dir "odd-name-$RANDOM")
  printf '%s\n' "$tiny" >"$c/$odd.ron"
  o=$(game "$c" --level "$c/$odd.ron" --input bot --no-hit-stop --frames $frames_tiny)
  left=$(json 'r["crates_left"]' "$c/out")
  msg=$(first_line 'progress not saved' "$c/err")
  msg2=$(first_line 'best time not saved' "$c/err")
  raw_esc "$c/err" && raw=yes || raw=no
  report "level named $(printf '%s' "$odd" | show)" \
    "exit $o; crates left $left; stderr: $msg / $msg2; raw ESC on stderr: $raw; progress.txt: $(file_of "$c/data/progress.txt")" \
    "$(verdict test "$o" = 0 -a "$left" = 0 -a -n "$msg" -a -n "$msg2" -a "$raw" = no)"
done

# --- Duplicate keys in settings.txt ---------------------------------------------------------
c=$(case_dir duplicate-keys)
printf 'volume = 30\nvolume = 70\n' >"$c/data/settings.txt"
d=$(game "$c" --frames 3)
msg=$(first_line 'volume|twice' "$c/err")
vol=$(json 'r["settings"]["volume"]' "$c/out")
report "settings.txt with volume twice" "exit $d; stderr: $msg; volume used: $vol" \
  "$(verdict test "$d" = 0 -a -n "$msg" -a "$vol" = 30)"

# --- A best time of 0 ----------------------------------------------------------------------
c=$(case_dir zero-time)
printf '"first_swing.ron" = 0\n' >"$c/data/best_times.txt"
z=$(game "$c" --frames 3)
msg=$(first_line 'best_times' "$c/err")
best=$(json '[r["best"] for r in r["title"] if r["file"] == "first_swing.ron"]' "$c/out")
report "a best time of 0" "exit $z; stderr: $msg; title best of first_swing: $best" \
  "$(verdict test "$z" = 0 -a -n "$msg" -a "$best" = '[null]')"

# --- best_times.txt as a symlink to a file outside the data folder -------------------------
c=$(case_dir symlink)
mkdir -p "$c/elsewhere"
printf '"iron_bands.ron" = 2000\n' >"$c/elsewhere/my_best_times.txt"
ln -s "$c/elsewhere/my_best_times.txt" "$c/data/best_times.txt"
l=$(game "$c" --level levels/first_swing.ron --input bot --no-hit-stop --frames $frames_first_swing)
[ -L "$c/data/best_times.txt" ] && link=yes || link=no
target=$(file_of "$c/elsewhere/my_best_times.txt")
# Intended (README, "Best times"): written through, the link kept.
report "best_times.txt a link outside" \
  "exit $l; still a link: $link; the file it names: $target" \
  "$(verdict test "$l" = 0 -a "$link" = yes -a "${target/first_swing.ron/}" != "$target" \
    -a "${target/iron_bands.ron\" = 2000/}" != "$target")"

# --- A stale temporary file of a killed game -----------------------------------------------
c=$(case_dir stale-tmp)
true &
dead=$!
wait "$dead"
printf 'half a save' >"$c/data/.best_times.txt.$dead.tmp"
printf 'a save under way' >"$c/data/.best_times.txt.$$.tmp"
s=$(game "$c" --frames 3)
[ -e "$c/data/.best_times.txt.$dead.tmp" ] && stale=kept || stale=removed
[ -e "$c/data/.best_times.txt.$$.tmp" ] && live=kept || live=removed
report "stale .best_times.txt.PID.tmp" \
  "exit $s; a dead game's (pid $dead): $stale; a live process's (pid $$): $live" \
  "$(verdict test "$s" = 0 -a "$stale" = removed -a "$live" = kept)"

# --- Raw bytes in messages, and in the data folder's path -----------------------------------
c=$(case_dir raw-bytes)
printf '"a.ron" = \x1b[2J\n' >"$c/data/best_times.txt"
printf '"a.ron" \x1b[2J\n' >"$c/data/progress.txt"
r=$(game "$c" --frames 3)
raw_esc "$c/err" && raw=yes || raw=no
report "ESC in best times and progress" \
  "exit $r; raw ESC on stderr: $raw; stderr: $(grep -a -E 'best_times|progress' "$c/err" | show)" \
  "$(verdict test "$r" = 0 -a "$raw" = no -a "$(grep -c -E 'best_times|progress' "$c/err")" -ge 2)"
c=$(case_dir raw-path)
esc_data=$c/$'esc\x1b[2Jdir'
mkdir -p "$esc_data"
printf 'garbage\n' >"$esc_data/best_times.txt"
r=$(DATA=$esc_data game "$c" --frames 3)
raw_esc "$c/err" && raw=yes || raw=no
report "ESC in the data folder's path" \
  "exit $r; raw ESC on stderr: $raw; stderr: $(first_line 'best_times' "$c/err")" \
  "$(verdict test "$r" = 0 -a "$raw" = no -a -n "$(first_line 'best_times' "$c/err")")"

# --- Hot reload of a 31 MiB level ----------------------------------------------------------
if [ "${REPROS_SKIP_RELOAD:-}" = 1 ]; then
  report "hot reload of 6.7M crates" "left out (REPROS_SKIP_RELOAD=1)" ok
else
  c=$(case_dir reload)
  timeout 900 bash benches/reload_figures.sh >"$c/out" 2>"$c/err"
  h=$?
  max=$(sed -n 's/.*max \([0-9,]*\);.*/\1/p' "$c/out" | tr -d ,)
  report "hot reload of 6.7M crates" \
    "exit $h; $(show <"$c/out"); $(uptime | sed 's/.*load/load/')" \
    "$(verdict test "$h" = 0 -a -n "$max" -a "${max:-99999999}" -lt 50000)"
fi

# --- The default suite: no clock bounds, no fixed sleeps, no ten-million-crate builds --------
# A wall-clock read is fine as a deadline (a wait that fails after a minute or a named LIMIT /
# DEADLINE) and a sleep as the pause of a polling loop; what is counted is the rest, in tests
# not marked `#[ignore]` (those run in .ci/run's heavy step).
for f in level_watch window_campaign level_limits cli level_generate; do
  what=$(python3 - "$repo/game/tests/$f.rs" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
ignored, bad = False, []
for n, line in enumerate(lines):
    if line.startswith("#[test]") or line.startswith("mod "):
        ignored = False
    if line.startswith("#[ignore"):
        ignored = True
    if ignored:
        continue
    before = "\n".join(lines[max(0, n - 25):n])
    after = "\n".join(lines[n:n + 3])
    if "sleep(" in line and not re.search(r"\b(loop|while)\b", before):
        bad.append("fixed sleep at %d" % (n + 1))
    if "elapsed()" in line and not re.search(r"DEADLINE|LIMIT|from_secs\((60|[1-9]\d{2,})\)|remaining", line + after):
        bad.append("clock bound at %d" % (n + 1))
    if re.search(r"\b(10_000_000|[1-9]_000_000)\b", line) and "repeat(" not in line:
        bad.append("millions at %d" % (n + 1))
tests = sum(1 for l in lines if l.startswith("#[test]"))
heavy = sum(1 for l in lines if l.startswith("#[ignore"))
print("%d tests, %d #[ignore]d for .ci/run; outside them: %s" % (tests, heavy, ", ".join(bad) or "nothing"))
PY
)
  report "suite: $f.rs" "$what" "$(verdict test "${what%nothing}" != "$what")"
done

echo "faults: $faults"
[ "$faults" = 0 ]
