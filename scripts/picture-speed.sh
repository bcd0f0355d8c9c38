#!/usr/bin/env bash
# The time to draw a board mail's picture (`picture::png_of`: the game paints its board at 2x onto a
# pixmap, written as a paletted PNG), for a board of GAME (default limit) and SIZE from move 4 on,
# each draw the next position of a game (`examples/board_png.rs`):
#   * wall clock and the drawing thread's CPU time: the medians of RUNS draws in one process (the
#     first draw, with the font load, left out), repeated REPEATS times; prints each and the
#     median of the medians (on a shared machine the CPU time is the figure: the wall clock
#     counts the other processes' turns);
#   * instructions (callgrind, stable on a shared machine): one process drawing 1 + 1 times and one
#     drawing 1 + 11 times; the difference / 10 is one warm draw's instruction count.
#
#   scripts/picture-speed.sh [SIZE] [RUNS] [REPEATS] [GAME]        (default 8 20 5 limit)
set -euo pipefail
SIZE=${1:-8}
RUNS=${2:-20}
REPEATS=${3:-5}
GAME=${4:-limit}
for v in "$SIZE" "$RUNS" "$REPEATS"; do
    if ! [[ $v =~ ^[1-9][0-9]*$ ]]; then
        echo "picture-speed.sh: SIZE, RUNS and REPEATS are whole numbers above 0; got '$v'" >&2
        exit 64
    fi
done
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
cargo build --release --quiet --features tools --example board_png
BIN=$TARGET/release/examples/board_png
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in "$GAME"; do
    echo "== $GAME size $SIZE"
    medians=()
    cpus=()
    for r in $(seq "$REPEATS"); do
        line=$("$BIN" "$tmp/board.png" "$SIZE" 4 "$RUNS" "$GAME")
        echo "$line"
        medians+=("$(echo "$line" | sed -n 's/.*render median \([0-9.]*\) ms.*/\1/p')")
        cpus+=("$(echo "$line" | sed -n 's/.*CPU median \([0-9.]*\) ms.*/\1/p')")
    done
    middle() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
    printf '%s: median of the %s medians: wall %s ms, CPU %s ms\n' "$mode" "$REPEATS" \
        "$(printf '%s\n' "${medians[@]}" | middle)" "$(printf '%s\n' "${cpus[@]}" | middle)"
    if command -v valgrind >/dev/null; then
        count() {
            valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" "$BIN" "$tmp/cg.png" "$SIZE" 4 "$1" \
                "$GAME" >/dev/null 2>"$tmp/log.$1"
            sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log.$1"
        }
        one=$(count 1)
        eleven=$(count 11)
        echo "$mode: callgrind: $one instructions for 1+1 draws, $eleven for 1+11: $(( (eleven - one) / 10 )) a draw"
    else
        echo "valgrind is missing: no instruction count (apt-get install -y valgrind)"
    fi
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
