#!/usr/bin/env bash
# Random games per second of any hosted games, as `pbem engine GAME playout` reports them (release build):
# the median of RUNS runs of GAMES games each, one line a game. A game is its name and, after a colon,
# its challenge options (`go:-size=9`), so a board other than the default can be measured.
#
#   scripts/playouts.sh [RUNS] [GAMES] [GAME[:OPTIONS]...]
#       (default 5 runs of 20000 games of go:-size=9 ataxx hexxagon cups paradux)
set -euo pipefail

RUNS=${1:-5}
GAMES=${2:-20000}
shift $(( $# > 2 ? 2 : $# ))
LIST=("$@")
[[ ${#LIST[@]} -gt 0 ]] || LIST=(go:-size=9 ataxx hexxagon cups paradux)
for v in "$RUNS" "$GAMES"; do
    if ! [[ $v =~ ^[1-9][0-9]*$ ]]; then
        echo "playouts.sh: RUNS and GAMES are whole numbers above 0, like 5 20000; got '$v'" >&2
        exit 64
    fi
done
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin pbem
BIN=$(realpath "${CARGO_TARGET_DIR:-target}/release/pbem")

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for entry in "${LIST[@]}"; do
    game=${entry%%:*}
    opts=()
    [[ $entry == *:* ]] && read -r -a opts <<< "${entry#*:}"
    rates=()
    for run in $(seq 1 "$RUNS"); do
        rate=$("$BIN" engine "$game" playout --games "$GAMES" --seed "$run" "${opts[@]}" |
            awk '/^games per second/ {print $4}')
        rates+=("$rate")
    done
    median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "$entry: median $median games/s over $RUNS runs of $GAMES games (runs: ${rates[*]})"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
