#!/usr/bin/env bash
# Writes stored documents of Hex, Chameleon, Y and Unlur with a given pbem binary (issue 36 section 1:
# the games moved onto matchplay::Match must still load what an older pbem stored). For each game:
#   GAME-mid.json       a game under way (the server's document, moves by mail commands at the shell)
#   GAME-resigned.json  a game one player resigned
#   GAME-forfeit.json   a game one player lost on time (`pbem cron` a month later)
#   GAME-finished.json  a game played to its end by the robot (`pbem engine GAME best`, then `play`)
# and hex-no-swap.json, a game of Hex played with -no_swap.
#
#   scripts/match-fixtures.sh PBEM OUTDIR      (the fixtures in the tree: /work/base/pbem-8096aec)
set -euo pipefail
# shellcheck source=scripts/fixtures-common.sh
source "$(dirname "$0")/fixtures-common.sh" "$@"
state() {
    python3 -c "import sqlite3,sys; print(sqlite3.connect('db.sqlite').execute(
        'select state from game_states join games on games.id = game_id'
        ' where game_type = ? and board = ?', (sys.argv[1], int(sys.argv[2]))).fetchone()[0])" "$game" "$1"
}
pbem signup alice secret1 alice@example.org
pbem signup bob secret2 bob@example.org

board=100
# One game by the server: GAME OPTIONS MOVES... (alice and bob in turn); prints its board number.
server_game() {
    local game=$1 opts=$2
    shift 2
    board=$((board + 1))
    # shellcheck disable=SC2086
    pbem "$game" challenge --password=secret1 $opts alice bob
    pbem "$game" accept bob secret2 alice
    local who=0
    for m in "$@"; do
        if [[ $who == 0 ]]; then pbem "$game" move $board alice secret1 "$m"; else pbem "$game" move $board bob secret2 "$m"; fi
        who=$((1 - who))
    done
}

declare -A OPTS=([hex]="-size=5" [chameleon]="-size=5" [y]="-size=5" [unlur]="-size=4")
declare -A MOVES=([hex]="c3 swap b2 d4" [chameleon]="b:c3 w:b2 w:d4" [y]="c3 swap b2" [unlur]="d4 pass b5 c3")
for game in hex chameleon y unlur; do
    # A new day for each game's challenges (a player's unsolicited challenges a day are counted).
    NOW=$((NOW + 100 * 86400))
    # Each game numbers its boards from 101.
    board=100
    # shellcheck disable=SC2086
    server_game "$game" "${OPTS[$game]}" ${MOVES[$game]}
    state $board >"$OUT/$game-mid.json"
    # shellcheck disable=SC2086
    server_game "$game" "${OPTS[$game]}" ${MOVES[$game]}
    pbem "$game" resign $board bob secret2
    state $board >"$OUT/$game-resigned.json"
    # shellcheck disable=SC2086
    server_game "$game" "${OPTS[$game]}" ${MOVES[$game]}
    forfeit_board=$board
    # The first run nags, the second forfeits.
    NOW=$((NOW + 40 * 86400)) pbem cron
    NOW=$((NOW + 80 * 86400)) pbem cron
    state $forfeit_board >"$OUT/$game-forfeit.json"
    # shellcheck disable=SC2086
    doc=$("$BIN" engine "$game" new ${OPTS[$game]})
    while [[ $(echo "$doc" | "$BIN" engine "$game" status) == to-move* ]]; do
        mv=$(echo "$doc" | "$BIN" engine "$game" best --playouts 200 --seed 1)
        doc=$(echo "$doc" | "$BIN" engine "$game" play "$mv")
    done
    echo "$doc" >"$OUT/$game-finished.json"
done
# Hex without the swap wrote "swap": false.
"$BIN" engine hex new -size=4 -no_swap | "$BIN" engine hex play a1 b2 c3 >"$OUT/hex-no-swap.json"
ls "$OUT"
