#!/usr/bin/env bash
# Search playouts per second of Go's robot (its playout policy, crates/games/src/games/go/playout.rs, with the
# tree around it): `pbem engine go best --playouts N` on an empty board, CPU seconds (user) of each
# run by /usr/bin/time, the median of RUNS runs with seeds 1..RUNS. CPU time rather than wall time,
# so that a busy machine changes the figure less (it still does: caches are shared).
#
#   scripts/go-playout-speed.sh [RUNS] [PLAYOUTS] [SIZE]     (default 5 5000 9)
#   BIN=/path/to/old/pbem scripts/go-playout-speed.sh        (another binary, e.g. main's, for "before")
set -euo pipefail
RUNS=${1:-5}
PLAYOUTS=${2:-5000}
SIZE=${3:-9}
for v in "$RUNS" "$PLAYOUTS" "$SIZE"; do
    if ! [[ $v =~ ^[1-9][0-9]*$ ]]; then
        echo "go-playout-speed.sh: RUNS, PLAYOUTS and SIZE are whole numbers above 0, like 5 5000 9; got '$v'" >&2
        exit 64
    fi
done
cd "$(dirname "$0")/.."
if [[ -z ${BIN:-} ]]; then
    cargo build --release --quiet --bin pbem
    BIN=$(realpath "${CARGO_TARGET_DIR:-target}/release/pbem")
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
board=$(mktemp)
trap 'rm -f "$board"' EXIT
"$BIN" engine go new -size="$SIZE" -komi=7 >"$board"
times=()
for seed in $(seq 1 "$RUNS"); do
    t=$( { /usr/bin/time -f '%U' "$BIN" engine go best --playouts "$PLAYOUTS" --seed "$seed" <"$board" >/dev/null; } 2>&1 | tail -1)
    times+=("$t")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
echo "go ${SIZE}x${SIZE}: $PLAYOUTS playouts a search, CPU seconds ${times[*]}; median $median s," \
    "$(awk -v p="$PLAYOUTS" -v t="$median" 'BEGIN {printf "%.0f", p / t}') playouts a second"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
