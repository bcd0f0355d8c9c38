#!/usr/bin/env bash
# Random games per second of the connection games at their default size, as `pbem engine GAME playout`
# reports them (release build): the median of RUNS runs of GAMES games each, one line a game.
#
#   scripts/connection-playouts.sh [RUNS] [GAMES] [GAME...]
#       (default 5 runs of 100000 games of each of hex chameleon y unlur)
set -euo pipefail

RUNS=${1:-5}
GAMES=${2:-100000}
shift $(( $# > 2 ? 2 : $# ))
LIST=("$@")
[[ ${#LIST[@]} -gt 0 ]] || LIST=(hex chameleon y unlur)
for v in "$RUNS" "$GAMES"; do
    if ! [[ $v =~ ^[1-9][0-9]*$ ]]; then
        echo "connection-playouts.sh: RUNS and GAMES are whole numbers above 0, like 5 100000; got '$v'" >&2
        exit 64
    fi
done
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin pbem
BIN=$(realpath "${CARGO_TARGET_DIR:-target}/release/pbem")

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for game in "${LIST[@]}"; do
    rates=()
    for run in $(seq 1 "$RUNS"); do
        rate=$("$BIN" engine "$game" playout --games "$GAMES" --seed "$run" | awk '/^games per second/ {print $4}')
        rates+=("$rate")
    done
    median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "$game: median $median games/s over $RUNS runs of $GAMES games (runs: ${rates[*]})"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
