#!/usr/bin/env bash
# The peak memory of a robot's first move: for each game and board, `pbem engine GAME new --seed 1
# OPTIONS`, then `pbem engine GAME best --player PLAYER --seed 0` under `/usr/bin/time -v`; prints the
# peak resident set (MB, "Maximum resident set size") and the wall seconds of that one process, then
# the largest peak. The robot plays by its playouts alone (no time cap), so the load changes no figure
# but the seconds.
#
#   scripts/robot-memory.sh PBEM [PLAYER] [GAME[:OPTION,...]...]
#       (default robot3 and every game with a robot at its largest board)
#   scripts/robot-memory.sh target/release/pbem robot3 chameleon:-size=19 hex:-size=19
#
# Exit 0 when every peak is at most LIMIT_MB (default 160), 1 when one is above, 64 on bad arguments.
set -euo pipefail
BIN=${1:-}
if [[ -z $BIN || ! -x $BIN ]]; then
    echo "robot-memory.sh: the first argument is a pbem binary, like target/release/pbem" >&2
    exit 64
fi
shift
PLAYER=${1:-robot3}
shift || true
LIMIT_MB=${LIMIT_MB:-160}
GAMES=("$@")
if [[ ${#GAMES[@]} -eq 0 ]]; then
    GAMES=(chameleon:-size=19 hex:-size=19 unlur:-size=13 go:-size=25 y:-size=19 ataxx:-size=10
        hexxagon:-size=9 paradux:-size=7 cups:-size=10 limit:-size=16)
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "robot-memory.sh: needs /usr/bin/time (GNU time: apt-get install time)" >&2
    exit 64
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
most=0
for spec in "${GAMES[@]}"; do
    game=${spec%%:*}
    opts=()
    [[ $spec == *:* ]] && IFS=',' read -ra opts <<<"${spec#*:}"
    "$BIN" engine "$game" new --seed 1 "${opts[@]}" >"$tmp/game.json"
    nice -n 19 /usr/bin/time -v "$BIN" engine "$game" best --player "$PLAYER" --seed 0 \
        <"$tmp/game.json" >"$tmp/move" 2>"$tmp/time"
    kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$tmp/time")
    mb=$((kb / 1024))
    ((mb > most)) && most=$mb
    mark=ok
    if ((mb > LIMIT_MB)); then
        mark=ABOVE
        status=1
    fi
    echo "$spec $PLAYER move $(cat "$tmp/move") peak ${mb} MB wall $wall $mark"
done
echo "largest peak ${most} MB (limit ${LIMIT_MB} MB)"
exit $status
