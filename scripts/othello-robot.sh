#!/usr/bin/env bash
# Othello's robots against a random player and against each other, as docs/robot.md reports them:
# `pbem engine othello match A B --games N --seed 1` (colours swapped game by game) on the release
# binary, for robot1 and robot2 against random and robot2 against robot1; prints each match's wins,
# losses, draws, score with its 95% interval, and the median time per move.
#
#   scripts/othello-robot.sh [N]     (default 100 games a match; builds the release binary)
set -euo pipefail
N=${1:-100}
if ! [[ $N =~ ^[1-9][0-9]*$ ]]; then
    echo "othello-robot.sh: N is a whole number above 0, like 100; got '$N'" >&2
    exit 64
fi
cd "$(dirname "$0")/.."
cargo build --release --locked --bin pbem >&2
BIN=target/release/pbem
for pair in "robot1 random" "robot2 random" "robot2 robot1"; do
    set -- $pair
    echo "== $1 against $2, $N games"
    "$BIN" engine othello match "$1" "$2" --games "$N" --seed 1 |
        grep -E '^(wins|losses|draws|score|interval|a ms|b ms)'
done
