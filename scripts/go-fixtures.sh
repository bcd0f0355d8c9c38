#!/usr/bin/env bash
# Writes stored documents of Go with a given pbem binary, as scripts/stored-games.sh's fixtures (the
# document with the binary's own `status`, `moves` and `show` beside it), for the test that Go's
# documents written by 8096aec still load once Go is on matchplay::Match (issue 36 section 1):
#   go-area-*      the spec's rules (`pbem engine go new`): mid-game, resigned, lost on time, drawn,
#                  played to two passes; 9x9 and 19x19, with handicap and komi
#   go-agreement-* the server's game with the scoring step (a challenge; 8096aec's engine makes
#                  none): mid-game, resigned, lost on time (`pbem cron`), in the step with a
#                  marking, resumed and scored by both accepting; 9x9 and 19x19 with handicap
#                  and komi
#
#   scripts/go-fixtures.sh PBEM OUTDIR      (the fixtures in the tree: /work/base/pbem-8096aec)
set -euo pipefail
# shellcheck source=scripts/fixtures-common.sh
source "$(dirname "$0")/fixtures-common.sh" "$@"
engine() { "$BIN" engine go "$@"; }

# NAME DOC: the fixture, with what the binary says of the document.
fixture() {
    local name=$1 doc=$2
    local status legal show
    status=$(printf '%s' "$doc" | engine status)
    legal=$(printf '%s' "$doc" | engine moves)
    show=$(printf '%s' "$doc" | engine show)
    python3 -c '
import json, sys
doc, status, legal, show, by = sys.argv[1:6]
print(json.dumps({"written_by": by, "document": doc, "status": status,
                  "legal": legal.split(), "show": show}, indent=1))' \
        "$doc" "$status" "$legal" "$show" "${WRITTEN_BY:-$(basename "$BIN")}" >"$OUT/$name.json"
}

# DOC ENTRY: the document with a stored entry added (`resign 1`, `forfeit 0`, `draw`), as the
# server writes it.
entry() {
    printf '%s' "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
d["moves"].append(sys.argv[1])
print(json.dumps(d, indent=2))' "$2"
}

# The spec's rules, by the engine.
nine=$(engine new -size=9 -komi=5.5 | engine play e5 c3 g7 c7 g3 d4 f5 pass)
fixture go-area-mid-9 "$nine"
fixture go-area-resigned-9 "$(entry "$nine" "resign 1")"
fixture go-area-drawn-9 "$(entry "$nine" "draw")"
fixture go-area-finished-9 "$(printf '%s' "$nine" | engine play pass)"
big=$(engine new -size=19 -handicap=4 -komi=0.5 | engine play q10 c10 k3 k17 pass r14)
fixture go-area-forfeit-19 "$(entry "$big" "forfeit 0")"
fixture go-area-finished-19 "$(printf '%s' "$big" | engine play pass pass)"

# The server's game: a challenge (the scoring step after two passes is its default).
state() {
    python3 -c "import sqlite3,sys; print(sqlite3.connect('db.sqlite').execute(
        'select state from game_states join games on games.id = game_id'
        ' where game_type = ? and board = ?', ('go', int(sys.argv[1]))).fetchone()[0])" "$1"
}
pbem signup alice secret1 alice@example.org
pbem signup bob secret2 bob@example.org
board=100
# OPTIONS MOVES...: alice (Black) challenges bob; each move is `alice:d4` or `bob:d4`.
server_game() {
    local opts=$1
    shift
    board=$((board + 1))
    # shellcheck disable=SC2086
    pbem go challenge --password=secret1 $opts alice bob
    pbem go accept bob secret2 alice
    for m in "$@"; do
        case ${m%%:*} in
        alice) pbem go move $board alice secret1 "${m#*:}" ;;
        bob) pbem go move $board bob secret2 "${m#*:}" ;;
        esac
    done
}
NINE=(alice:e5 bob:c3 alice:g7 bob:c7 alice:d3 bob:d4 alice:f5)
server_game "-size=9 -komi=6" "${NINE[@]}"
fixture go-agreement-mid-9 "$(state $board)"
server_game "-size=9 -komi=6" "${NINE[@]}"
pbem go resign $board bob secret2
fixture go-agreement-resigned-9 "$(state $board)"
# The step: either player acts (alice out of turn first), through the server as the mail does.
server_game "-size=9 -komi=6" "${NINE[@]}" bob:pass alice:pass "alice:dead c3" bob:accept
fixture go-agreement-step-9 "$(state $board)"
for m in "alice:alive c3" "bob:dead e5" alice:resume bob:d2 alice:pass bob:pass alice:accept bob:accept; do
    case ${m%%:*} in
    alice) pbem go move $board alice secret1 "${m#*:}" ;;
    bob) pbem go move $board bob secret2 "${m#*:}" ;;
    esac
done
fixture go-agreement-scored-9 "$(state $board)"
BIG=(bob:q10 alice:d10 bob:k3 alice:k17 bob:pass alice:r14)
server_game "-size=19 -handicap=3 -komi=2.5" "${BIG[@]}"
fixture go-agreement-mid-19 "$(state $board)"
forfeit_board=$board
# The first run nags, the second forfeits.
NOW=$((NOW + 40 * 86400)) pbem cron
NOW=$((NOW + 80 * 86400)) pbem cron
fixture go-agreement-forfeit-19 "$(state $forfeit_board)"
# A new day for the next challenge.
NOW=$((NOW + 100 * 86400))
server_game "-size=19 -handicap=3 -komi=2.5" "${BIG[@]}" bob:pass alice:pass "alice:dead k3" bob:accept alice:accept
fixture go-agreement-scored-19 "$(state $board)"
ls "$OUT"
