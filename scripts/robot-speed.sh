#!/usr/bin/env bash
# The robot's playouts per second for a game: the release binary's `pbem engine GAME best --playouts N`
# from the first position of five seeded games, timed whole (process start included, a few ms); prints
# each run and the median. The search counts only iterations that played a game out.
#
#   scripts/robot-speed.sh [PLAYOUTS] [GAME [OPTION...]]      (default 5000 limit)
set -euo pipefail
N=${1:-5000}
if ! [[ $N =~ ^[1-9][0-9]*$ ]]; then
    echo "robot-speed.sh: PLAYOUTS must be a whole number above 0, like 5000; it is '$N'" >&2
    exit 64
fi
shift || true
GAME=${1:-limit}
shift || true
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
# BIN: a pbem binary already built (e.g. a copy, while cargo is busy); else the release build.
if [[ -z ${BIN:-} ]]; then
    cargo build --release --quiet --bin pbem
    BIN=$TARGET/release/pbem
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
rates=()
for seed in 1 2 3 4 5; do
    "$BIN" engine "$GAME" new --seed "$seed" "$@" >"$tmp"
    start=$(date +%s.%N)
    mv=$("$BIN" engine "$GAME" best --playouts "$N" --seed 1 <"$tmp")
    end=$(date +%s.%N)
    rate=$(echo "$N / ($end - $start)" | bc -l)
    printf 'seed %s: %s playouts in %.2f s (%.0f/s), move %s\n' "$seed" "$N" "$(echo "$end - $start" | bc -l)" "$rate" "$mv"
    rates+=("$rate")
done
printf '%s\n' "${rates[@]}" | sort -g | awk '{ v[NR] = $1 } END { printf "median %.0f playouts/s\n", v[3] }'
