#!/usr/bin/env bash
# Random Paradux games per second at the default size (side 4, lines of 4), as docs/performance.md
# reports it: `pbem engine paradux playout --games N` on the release binary, RUNS times, the median
# of the games/s it prints; then the instructions one random game costs under callgrind: the
# instruction count of `--games M` less that of `--games 0` (process start, option parsing), over M.
#
#   scripts/paradux-speed.sh [N [M [RUNS]]]     (defaults 20000, 2000, 3; builds the release binary)
#
# Extra options for the game may follow in PARADUX_OPTIONS, e.g. PARADUX_OPTIONS="-size=7".
set -euo pipefail

N=${1:-20000}
M=${2:-2000}
RUNS=${3:-3}
for v in "$N" "$M" "$RUNS"; do
    if ! [[ $v =~ ^[1-9][0-9]*$ ]]; then
        echo "paradux-speed.sh: N, M and RUNS are whole numbers above 0, like 20000 2000 3; got '$v'" >&2
        exit 64
    fi
done
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin pbem
BIN=$(realpath "${CARGO_TARGET_DIR:-target}/release/pbem")
# shellcheck disable=SC2086 # the options are words
OPTS=(${PARADUX_OPTIONS:-})

rates=()
for _ in $(seq "$RUNS"); do
    rate=$("$BIN" engine paradux playout --games "$N" "${OPTS[@]}" | awk '/^games per second/ {print $4}')
    rates+=("$rate")
done
median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
length=$("$BIN" engine paradux playout --games "$N" "${OPTS[@]}" | awk '/^mean length/ {print $3}')
echo "paradux ${OPTS[*]:-(default options)}: $N random games, runs ${rates[*]} games/s, median $median games/s; mean length $length moves"

if command -v valgrind >/dev/null; then
    ir() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" engine paradux playout \
            --games "$1" "${OPTS[@]}" 2>&1 >/dev/null | awk '/I *refs:/ {gsub(",", "", $4); print $4}'
    }
    base=$(ir 0)
    total=$(ir "$M")
    echo "callgrind: $(( (total - base) / M )) instructions a random game ($M games: $total, start alone: $base)"
else
    echo "callgrind: valgrind is not installed; no instruction count" >&2
fi
