#!/usr/bin/env bash
# Random games per second of the connection games' engines, as `pbem engine GAME playout` counts them
# (whole random games from the start at the default size, one process a run): the median of RUNS runs
# of GAMES games each, per game. Builds the release binary first.
#
#   scripts/connection-playouts.sh [RUNS] [GAMES] [GAME...]   (default 5 runs, 20000 games, y unlur)
set -euo pipefail

RUNS=${1:-5}
GAMES=${2:-20000}
shift $(( $# > 2 ? 2 : $# ))
LIST=("$@")
[[ ${#LIST[@]} -gt 0 ]] || LIST=(y unlur)
for n in "$RUNS" "$GAMES"; do
    if ! [[ $n =~ ^[1-9][0-9]*$ ]]; then
        echo "connection-playouts.sh: RUNS and GAMES are whole numbers above 0, like 5 20000; got '$n'" >&2
        exit 64
    fi
done
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin pbem
TARGET=${CARGO_TARGET_DIR:-target}
BIN=$(realpath "$TARGET/release/pbem")

for game in "${LIST[@]}"; do
    rates=()
    for ((i = 0; i < RUNS; i++)); do
        rate=$("$BIN" engine "$game" playout --games "$GAMES" --seed "$i" | awk '/^games per second/ {print $4}')
        rates+=("$rate")
    done
    median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
    echo "$game: median $median games/s of $RUNS runs of $GAMES games (runs: ${rates[*]})"
done
