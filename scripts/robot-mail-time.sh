#!/usr/bin/env bash
# How long a move mail takes when robot3 answers it in the same transaction (the robot accounts think
# at most 2 s, ROBOT_THINKING_MILLIS in src/server/play.rs): alice plays the first legal move of each
# position against robot3 by `pbem ingest`, MOVES times; prints each mail's wall time and the median
# and the maximum, in ms. A new game starts when one ends.
#
#   scripts/robot-mail-time.sh [MOVES]     (default 30)
set -euo pipefail
MOVES=${1:-30}
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin pbem
BIN=$(realpath "${CARGO_TARGET_DIR:-target}/release/pbem")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export PBEM_NOW=1795000000 PBEM_SEED=7
unset PBEM_CONFIG
pbem() { "$BIN" --db "$WORK/db.sqlite" --outbox "$WORK/out" "$@"; }
n=0
mail() { n=$((n + 1)); printf 'From: alice@example.org\r\nSubject: %s\r\nMessage-ID: <r%s@x>\r\n\r\n' "$1" "$n" >"$WORK/m.eml"; }
mail "signup alice pw-alice" && pbem ingest <"$WORK/m.eml" 2>/dev/null
board=101
mail "limit challenge alice robot3" && pbem ingest <"$WORK/m.eml" 2>/dev/null
: >"$WORK/times"
for ((i = 0; i < MOVES; i++)); do
    state=$(sqlite3 "$WORK/db.sqlite" "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id WHERE g.board = $board")
    mv=$(printf '%s' "$state" | "$BIN" engine limit moves | head -n 1)
    if [[ -z $mv ]]; then
        board=$((board + 1))
        mail "limit challenge alice robot3" && pbem ingest <"$WORK/m.eml" 2>/dev/null
        continue
    fi
    mail "limit move $board alice pw-alice $mv"
    t0=$EPOCHREALTIME
    pbem ingest <"$WORK/m.eml" 2>/dev/null
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }' | tee -a "$WORK/times"
done
sort -g "$WORK/times" | awk '{ v[NR] = $1 } END { printf "moves %d, median %.1f ms, max %.1f ms\n", NR, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[NR] }'
