#!/usr/bin/env bash
# Our Go robot against GNU Go (docs/robot.md, "Go against GNU Go"): 9x9, komi 7, sides alternating,
# GNU Go over GTP with --chinese-rules, our robot as the server plays it (robot3 within 2 s a move).
# Game k has seed SEED+k and our robot plays Black when the seed is even; our Tromp-Taylor count decides a
# game ended by two passes, GNU Go's final_score one cut off (examples/gnugo_match.rs says why). Prints
# wins, losses and draws with Wilson's 95% interval, the median ms and playouts per robot move.
#
#   scripts/gnugo-match.sh [GAMES] [GNUGO_LEVEL] [ROBOT_LEVEL] [MILLIS]   (default 100 1 3 2000)
#
# Environment:
#   MATCH_DIR    where the records go (default target/gnugo-match); one file per pairing, one line per
#                game as examples/gnugo_match.rs prints it
#   DEADLINE     a Unix time: start no new game after it (the records then hold what fitted)
#   TABLE_ONLY=1 print the result from the records there, play nothing
#   GNUGO        the GNU Go program (default gnugo on the path, else /usr/games/gnugo)
#
# Resumable: a later run continues where the records stop (game k is fixed by its seed, up to the
# time cap's cuts). The binary is copied, so a rebuild meanwhile changes nothing.
set -euo pipefail

GAMES=${1:-100}
GNUGO_LEVEL=${2:-1}
LEVEL=${3:-3}
MILLIS=${4:-2000}
for v in "$GAMES" "$GNUGO_LEVEL" "$LEVEL" "$MILLIS"; do
    if ! [[ $v =~ ^[0-9]+$ ]]; then
        echo "gnugo-match.sh: GAMES, GNUGO_LEVEL, ROBOT_LEVEL and MILLIS are whole numbers, like 100 1 3 2000; '$v' is not" >&2
        exit 64
    fi
done
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
DIR=${MATCH_DIR:-$TARGET/gnugo-match}
SEED=1000
mkdir -p "$DIR"
RECORDS="$DIR/robot${LEVEL}-${MILLIS}ms-vs-gnugo${GNUGO_LEVEL}.games"

played() { if [[ -f $RECORDS ]]; then grep -c '^game ' "$RECORDS" || true; else echo 0; fi; }

if [[ -z ${TABLE_ONLY:-} ]]; then
    if [[ -z ${GNUGO:-} ]] && ! command -v gnugo >/dev/null && [[ ! -x /usr/games/gnugo ]]; then
        echo "gnugo-match.sh: GNU Go is missing: apt-get install -y gnugo (or set GNUGO)" >&2
        exit 69
    fi
    nice cargo build --release --quiet --features tools --example gnugo_match
    BIN="$DIR/gnugo_match.robot${LEVEL}-vs-gnugo${GNUGO_LEVEL}"
    cp "$TARGET/release/examples/gnugo_match" "$BIN"
    while (( $(played) < GAMES )); do
        if [[ -n ${DEADLINE:-} ]] && (( $(date +%s) >= DEADLINE )); then
            echo "gnugo-match.sh: DEADLINE reached after $(played) games" >&2
            break
        fi
        k=$(played)
        nice "$BIN" 1 "$GNUGO_LEVEL" "$LEVEL" "$MILLIS" $((SEED + k)) 9 7 | grep '^game ' >>"$RECORDS"
    done
fi

# game SEED ours COLOUR score S ...: S is 1, 0.5 or 0 for our robot.
# The median over games of each game's mean thinking time per robot move.
MEDIAN_MS=$(grep -o 'ms-per-move [0-9]*' "$RECORDS" | awk '{print $2}' | sort -n |
    awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]; else print "-"}')
# The median over games of each game's median playouts per robot move (records from before this
# field say "-").
MEDIAN_PLAYOUTS=$({ grep -o 'playouts-per-move [0-9]*' "$RECORDS" || true; } | awk '{print $2}' | sort -n |
    awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]; else print "-"}')
awk -v ms="$MEDIAN_MS" -v po="$MEDIAN_PLAYOUTS" -v level="$LEVEL" -v millis="$MILLIS" -v g="$GNUGO_LEVEL" '
/^game / {
    n++; s += $6
    if ($6 == 1) w++; else if ($6 == 0) l++; else d++
}
END {
    if (n == 0) { print "no games recorded"; exit }
    p = s / n; z = 1.959964
    den = 1 + z * z / n; c = (p + z * z / (2 * n)) / den
    h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    lo = c - h; if (lo < 0) lo = 0; hi = c + h; if (hi > 1) hi = 1
    printf "robot%s (%s ms a move) vs GNU Go level %s, 9x9 komi 7: %d games, %d wins, %d losses, %d draws, score %.3f, Wilson 95%% interval %.3f to %.3f, median of the games'\'' mean ms per robot move %s, of their median playouts per robot move %s\n", level, millis, g, n, w, l, d, p, lo, hi, ms, po
}' "$RECORDS"
