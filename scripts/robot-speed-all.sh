#!/usr/bin/env bash
# The robot's playouts per second for every hosted game, two builds side by side: for each round and
# game, `scripts/robot-speed.sh PLAYOUTS GAME` with the BEFORE binary, then with the AFTER one (so both
# see the same load), ROUNDS rounds; prints each run's median and a table of the median of the rounds'
# medians per game and build.
#
#   BEFORE=/path/pbem-main AFTER=/path/pbem-new scripts/robot-speed-all.sh [PLAYOUTS] [ROUNDS] [GAME...]
#   (default 2000 playouts, 3 rounds, every hosted game at its default options)
set -euo pipefail
N=${1:-2000}
ROUNDS=${2:-3}
shift 2 || shift $# || true
for v in N ROUNDS; do
    if ! [[ ${!v} =~ ^[1-9][0-9]*$ ]]; then
        echo "robot-speed-all.sh: ${v} must be a whole number above 0, like 3; it is '${!v}'" >&2
        exit 64
    fi
done
if [[ -z ${BEFORE:-} || -z ${AFTER:-} || ! -x ${BEFORE:-} || ! -x ${AFTER:-} ]]; then
    echo "robot-speed-all.sh: set BEFORE and AFTER to two pbem binaries, like" >&2
    echo "  BEFORE=/tmp/pbem-main AFTER=target/release/pbem scripts/robot-speed-all.sh 2000 3" >&2
    exit 64
fi
GAMES=("$@")
if [[ ${#GAMES[@]} -eq 0 ]]; then
    GAMES=(limit hex chameleon y unlur go ataxx hexxagon paradux cups)
fi
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for round in $(seq "$ROUNDS"); do
    for game in "${GAMES[@]}"; do
        for build in before after; do
            bin=$BEFORE
            [[ $build == after ]] && bin=$AFTER
            rate=$(BIN=$bin scripts/robot-speed.sh "$N" "$game" | awk '/^median/ { print $2 }')
            echo "round $round $game $build $rate (load $(cut -d' ' -f1 /proc/loadavg))" >&2
            echo "$game $build $rate" >>"$out"
        done
    done
done
echo "| game | before playouts/s | after playouts/s | after / before |"
echo "| --- | ---: | ---: | ---: |"
for game in "${GAMES[@]}"; do
    med() { awk -v g="$game" -v b="$1" '$1 == g && $2 == b { print $3 }' "$out" | sort -g |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    b=$(med before)
    a=$(med after)
    printf "| %s | %s | %s | %.1f |\n" "$game" "$b" "$a" "$(echo "$a / $b" | bc -l)"
done
