#!/usr/bin/env bash
# Writes stored Limit documents with a given pbem binary (issue 36 section 1: Limit on
# matchplay::Match must still load what an older pbem stored), each as a fixture in the shape of
# scripts/stored-games.sh (the document with the binary's own `status`, `moves` and `show`):
#   limit-mid.json        two players, a game under way (the server's document, moves by mail
#                         commands at the shell, each the first legal move)
#   limit-resigned.json   three players: blue resigned, red and green played on
#   limit-forfeit.json    two players, blue lost on time (`pbem cron` a month later)
#   limit-finished.json   three players, -size=3, played to its end by the robot
#   limit-classic.json    three players, -classic -size=3, played to its end at random
#                         (passes and eliminations: the engine's automatic entries)
#   limit-start-passes.json  -size=2, three players, seed 0: the layout leaves Red and Blue
#                         without a turn, the document starts with their passes
#
#   scripts/limit-fixtures.sh PBEM OUTDIR      (the fixtures in the tree: /work/base/pbem-8096aec)
set -euo pipefail
# shellcheck source=scripts/fixtures-common.sh
source "$(dirname "$0")/fixtures-common.sh" "$@"
state() {
    python3 -c "import sqlite3,sys; print(sqlite3.connect('db.sqlite').execute(
        'select state from game_states join games on games.id = game_id'
        ' where game_type = ? and board = ?', ('limit', int(sys.argv[1]))).fetchone()[0])" "$1"
}
# The fixture of a document: what the binary says of it beside it.
fixture() {
    local doc=$1
    local status legal show
    status=$(printf '%s' "$doc" | "$BIN" engine limit status)
    legal=$(printf '%s' "$doc" | "$BIN" engine limit moves)
    show=$(printf '%s' "$doc" | "$BIN" engine limit show)
    python3 -c '
import json, sys
doc, status, legal, show, by = sys.argv[1:6]
print(json.dumps({"written_by": by, "document": doc, "status": status,
                  "legal": legal.split(), "show": show}, indent=1))' \
        "$doc" "$status" "$legal" "$show" "$(basename "$BIN")"
}
declare -A PASS=([alice]=secret1 [bob]=secret2 [carol]=secret3)
pbem signup alice secret1 alice@example.org
pbem signup bob secret2 bob@example.org
pbem signup carol secret3 carol@example.org

board=100
# A game by the server: OPTIONS PLAYERS...; prints nothing, sets $board.
server_game() {
    local opts=$1
    shift
    board=$((board + 1))
    # shellcheck disable=SC2086
    pbem limit challenge --password=secret1 $opts "$@"
    for p in "${@:2}"; do pbem limit accept "$p" "${PASS[$p]}" alice; done
}
# Plays N moves on $board, each the first legal move that removes a tile (or the first), by the
# player to move (of PLAYERS...).
play_first() {
    local n=$1
    shift
    local names=("$@")
    for _ in $(seq "$n"); do
        local doc to mv
        doc=$(state $board)
        to=$(printf '%s' "$doc" | python3 -c 'import json,sys; print(json.load(sys.stdin)["to_move"] or "")')
        [[ -z $to ]] && return
        mv=$(printf '%s' "$doc" | "$BIN" engine limit moves | { grep , || true; } | head -1)
        [[ -z $mv ]] && mv=$(printf '%s' "$doc" | "$BIN" engine limit moves | head -1)
        local who
        who=$(printf '%s' "$doc" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print([s["side"] for s in d["sides"]].index(sys.argv[1]))' "$to")
        local p=${names[$who]}
        pbem limit move $board "$p" "${PASS[$p]}" "$mv"
    done
}

server_game "-size=4" alice bob
play_first 3 alice bob
fixture "$(state $board)" >"$OUT/limit-mid.json"

server_game "-size=4" alice bob carol
play_first 4 alice bob carol
pbem limit resign $board bob secret2
play_first 2 alice bob carol
fixture "$(state $board)" >"$OUT/limit-resigned.json"

server_game "-size=4" alice bob
play_first 1 alice bob
forfeit_board=$board
# The first run nags, the second forfeits.
NOW=$((NOW + 40 * 86400)) pbem cron
NOW=$((NOW + 80 * 86400)) pbem cron
fixture "$(state $forfeit_board)" >"$OUT/limit-forfeit.json"

doc=$("$BIN" engine limit new --seed 3 --players 3 -size=3)
while [[ $(echo "$doc" | "$BIN" engine limit status) == to-move* ]]; do
    mv=$(echo "$doc" | "$BIN" engine limit best --playouts 200 --seed 1)
    doc=$(echo "$doc" | "$BIN" engine limit play "$mv")
done
fixture "$doc" >"$OUT/limit-finished.json"

# The first classic game (by its walk's seed) whose document holds an automatic entry.
for x0 in $(seq 1 40); do
    doc=$("$BIN" engine limit new --seed 5 --players 3 -classic -size=3)
    x=$x0
    while [[ $(echo "$doc" | "$BIN" engine limit status) == to-move* ]]; do
        mapfile -t moves < <(printf '%s' "$doc" | "$BIN" engine limit moves)
        x=$(((x * 1103515245 + 12345) % 2147483648))
        doc=$(printf '%s' "$doc" | "$BIN" engine limit play "${moves[$((x % ${#moves[@]}))]}")
    done
    grep -q '"auto": true' <<<"$doc" && break
done
fixture "$doc" >"$OUT/limit-classic.json"

fixture "$("$BIN" engine limit new --seed 0 --players 3 -size=2)" >"$OUT/limit-start-passes.json"
ls "$OUT"
