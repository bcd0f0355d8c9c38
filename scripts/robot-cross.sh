#!/usr/bin/env bash
# Two pbem builds' robots against each other (`pbem engine match` plays one build against itself):
# each move is asked of its player's build with `pbem engine GAME best --player P`, a fresh process a
# move (so no tree is reused between moves), and played with A's build. Game k has seed SEED+k; A is
# the first player in even games, the second in odd ones. Prints one line a game and A's score with
# its 95% Wilson interval; records go to OUT (default target/robot-cross), one line a game, and a
# later run continues where they stop.
#
#   scripts/robot-cross.sh A_PBEM A_PLAYER B_PBEM B_PLAYER GAMES [GAME [OPTION...]]
#   scripts/robot-cross.sh new/pbem robot2 old/pbem robot2 10 ataxx
#
# Two players only. Runs under `nice -n 10`; the robots play without a time cap.
set -euo pipefail

if [[ $# -lt 5 ]] || ! [[ $5 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/robot-cross.sh A_PBEM A_PLAYER B_PBEM B_PLAYER GAMES [GAME [OPTION...]]" >&2
    echo "  (GAMES a whole number above 0, like 10)" >&2
    exit 64
fi
A_BIN=$1 A_PLAYER=$2 B_BIN=$3 B_PLAYER=$4 GAMES=$5
shift 5
GAME=${1:-ataxx}
shift || true
OPTIONS=("$@")
for b in "$A_BIN" "$B_BIN"; do
    if [[ ! -x $b ]]; then
        echo "robot-cross.sh: '$b' is not an executable pbem binary" >&2
        exit 64
    fi
done
SEED=${SEED:-1000}
OUT=${OUT:-target/robot-cross}
mkdir -p "$OUT"
file="$OUT/$GAME-$A_PLAYER-$(sha256sum "$A_BIN" | cut -c1-8)-vs-$B_PLAYER-$(sha256sum "$B_BIN" | cut -c1-8).games"
touch "$file"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

have=$(grep -c '^game ' "$file" || true)
for ((k = have; k < GAMES; k++)); do
    seed=$((SEED + k))
    nice -n 10 "$A_BIN" engine "$GAME" new "${OPTIONS[@]}" --players 2 --seed "$seed" >"$work/g.json"
    names=()
    ply=0
    while :; do
        read -r what who <<<"$(nice -n 10 "$A_BIN" engine "$GAME" status <"$work/g.json")"
        [[ $what == to-move ]] || break
        # The first two players to move name the seats (passes are the engine's own, never asked).
        if [[ ${#names[@]} -lt 2 && ! " ${names[*]:-} " == *" $who "* ]]; then
            names+=("$who")
        fi
        seat=0
        [[ $who == "${names[0]}" ]] || seat=1
        if (((seat + k) % 2 == 0)); then
            bin=$A_BIN player=$A_PLAYER
        else
            bin=$B_BIN player=$B_PLAYER
        fi
        mv=$(nice -n 10 "$bin" engine "$GAME" best --player "$player" --seed $((seed * 1000 + ply)) <"$work/g.json")
        nice -n 10 "$A_BIN" engine "$GAME" play "$mv" <"$work/g.json" >"$work/next.json"
        mv "$work/next.json" "$work/g.json"
        ply=$((ply + 1))
    done
    a_name=${names[$((k % 2))]}
    case $what in
    winner) if [[ $who == "$a_name" ]]; then r=win; else r=loss; fi ;;
    draw) r=draw ;;
    *)
        echo "robot-cross.sh: game $k ended with an unknown status '$what $who'" >&2
        exit 1
        ;;
    esac
    line="game $k seed $seed a-plays $a_name result $r plies $ply"
    echo "$line" >>"$file"
    echo "$line" >&2
done

awk '/^game / { n++; if ($8 == "win") w++; else if ($8 == "loss") l++; else d++ }
END {
    if (n == 0) { print "no games"; exit }
    p = (w + d / 2) / n; z = 1.96; den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den; h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    printf "games %d wins %d losses %d draws %d score %.3f interval %.3f %.3f (95%%, Wilson)\n",
        n, w, l, d, p, c - h, c + h
}' "$file"
