#!/usr/bin/env bash
# The instruction-count gate (issue 35, item 4), run by .ci/run: counts the instructions (valgrind's
# callgrind, independent of the machine's load) of a fixed set of runs of the release binary, and
# fails when any count rises more than 10 % over perf/baseline.txt.
#
#   scripts/perf-gate.sh            compare with perf/baseline.txt (exit 1 on a rise over 10 %)
#   scripts/perf-gate.sh --update   write the counts into perf/baseline.txt (say why in the commit)
#   scripts/perf-gate.sh --print    print the mail runs' counts only (scripts/mail-cost-scale.sh runs
#                                   it at several GAMES to show a mail's cost flat in the games)
#
# The set, each on its own fresh copy of one database of 1,000 Limit games (200 players, a year of
# mail) that examples/scale_db.rs builds from a fixed seed at a fixed clock:
#   move-password   a move mail with the player's password, through `pbem ingest` (argon2 included)
#   move-reply      the opponent's answer written bare in reply to the board mail's Reply-To
#   show            `limit show 101` mailed by a stranger
#   challenge       `limit challenge` from the challenger's registered address
#   cron            `pbem cron` with nothing due (after a first run that sent the nags)
# and `pbem engine GAME playout --games 100 --seed 1` for every hosted game (the rules engines'
# speed, as the robots use them).
#
# Environment: PBEM_BIN, SCALE_DB (already built binaries: skip the build), LIMIT (the allowed rise,
# default 10 percent), KEEP=1 keeps the work folder; with --print only, GAMES and USERS (default 1000
# and 200: the gate's database; the baseline holds for these alone).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BASELINE=$ROOT/perf/baseline.txt
LIMIT=${LIMIT:-10}
UPDATE=
PRINT=
GAMES=${GAMES:-1000}
USERS=${USERS:-200}
case ${1:-} in
'') ;;
--update) UPDATE=1 ;;
--print) PRINT=1 ;;
*)
    echo "perf-gate.sh: unknown argument '$1': run it bare, --update to write the baseline, or --print" >&2
    exit 64
    ;;
esac
command -v valgrind >/dev/null || {
    echo "perf-gate.sh: needs valgrind (apt-get install -y valgrind)" >&2
    exit 69
}
command -v python3 >/dev/null || {
    echo "perf-gate.sh: needs python3 (its sqlite3 module reads the database)" >&2
    exit 69
}

TARGET=${CARGO_TARGET_DIR:-target}
if [[ -z ${PBEM_BIN:-} || -z ${SCALE_DB:-} ]]; then
    echo "== building the release binary and examples/scale_db" >&2
    cargo build --release --locked --quiet --features tools --bin pbem --example scale_db
fi
BIN=$(realpath "${PBEM_BIN:-$TARGET/release/pbem}")
BUILDER=$(realpath "${SCALE_DB:-$TARGET/release/examples/scale_db}")

WORK=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] && echo "perf-gate.sh: kept $WORK" >&2 || rm -rf "$WORK"' EXIT
export PBEM_NOW=1795000000 PBEM_SEED=1
unset PBEM_CONFIG

if [[ -z $PRINT && ($GAMES != 1000 || $USERS != 200) ]]; then
    echo "perf-gate.sh: GAMES and USERS go with --print only (the baseline is of 1,000 games)" >&2
    exit 64
fi
echo "== building the database: $USERS players, $GAMES games" >&2
"$BIN" --db "$WORK/base.sqlite" --outbox "$WORK/out" outbox list >/dev/null
"$BUILDER" "$WORK/base.sqlite" --users "$USERS" --games "$GAMES" --seed 1 --now "$PBEM_NOW" >/dev/null

# The first running game with a player to move: its board, that player and the move they play, the
# other player and the move the other answers with.
python3 - "$WORK/base.sqlite" "$BIN" >"$WORK/game.txt" <<'EOF'
import sqlite3, subprocess, sys
db, binary = sys.argv[1], sys.argv[2]
c = sqlite3.connect(db)
def engine(args, state):
    return subprocess.run([binary, "engine", "limit"] + args, input=state, capture_output=True,
                          check=True).stdout
for gid, board, state in c.execute(
        "SELECT g.id, g.board, s.state FROM games g JOIN game_states s ON s.game_id = g.id "
        "WHERE g.finished = 0 ORDER BY g.board"):
    state = state.encode() if isinstance(state, str) else state
    status = engine(["status"], state).decode().split()
    if status[0] != "to-move" or len(status) != 2:
        continue
    seats = dict(c.execute("SELECT s.seat, u.userid FROM seats s JOIN users u ON u.id = s.user_id "
                           "WHERE s.game_id = ?", (gid,)).fetchall())
    if len(seats) != 2:
        continue
    seat = ["red", "blue"].index(status[1])
    move = engine(["moves"], state).decode().split()[0]
    after = engine(["play", move], state)
    if engine(["status"], after).decode().split()[0] != "to-move":
        continue
    answer = engine(["moves"], after).decode().split()[0]
    print(board, seats[seat], move, seats[1 - seat], answer)
    break
EOF
read -r BOARD MOVER MOVE OTHER ANSWER <"$WORK/game.txt"

mail() { # FROM SUBJECT BODY [HEADERS]: an .eml on stdout
    printf 'From: %s\r\nTo: pbem@localhost\r\nSubject: %s\r\nMessage-ID: <gate-%s@example.org>\r\n%s\r\n%s\r\n' \
        "$1" "$2" "$RANDOM$RANDOM" "${4:-}" "$3"
}

# count NAME DB ARGS... (stdin: the run's input): the instructions of one run into $WORK/counts.
count() {
    local name=$1 db=$2
    shift 2
    if ! valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" \
        "$BIN" --db "$db" --outbox "$WORK/out-$name" "$@" >"$WORK/stdout" 2>"$WORK/vg.log"; then
        echo "perf-gate.sh: the run '$name' failed:" >&2
        tail -20 "$WORK/vg.log" >&2
        exit 1
    fi
    echo "$name $(awk '/^summary:/ { print $2 }' "$WORK/cg.out")" >>"$WORK/counts"
}
fresh() { cp "$WORK/base.sqlite" "$WORK/$1.sqlite" && echo "$WORK/$1.sqlite"; }
: >"$WORK/counts"

echo "== counting (callgrind)" >&2
mail "$MOVER@example.org" "move" "limit move $BOARD $MOVER secret $MOVE" >"$WORK/move.eml"
db=$(fresh move-password)
count move-password "$db" ingest <"$WORK/move.eml"

# The answer by reply: the board mail that move sent to the other player gives the Reply-To.
db=$(fresh move-reply)
"$BIN" --db "$db" --outbox "$WORK/out-first" ingest <"$WORK/move.eml" >/dev/null
reply_to=$(grep -l "^To: .*$OTHER@example.org" "$WORK"/out-first/*.eml | head -1 | xargs grep -m1 '^Reply-To:' |
    sed -e 's/^Reply-To: *//' -e 's/.*<//' -e 's/>.*//' | tr -d '\r')
[[ $reply_to == pbem+* ]] || {
    echo "perf-gate.sh: the board mail to $OTHER has no signed Reply-To ('$reply_to')" >&2
    exit 1
}
printf 'From: %s@example.org\r\nTo: %s\r\nSubject: Re: Limit Board %s\r\nMessage-ID: <gate-reply@example.org>\r\n\r\n%s\r\n\r\n> the board\r\n' \
    "$OTHER" "$reply_to" "$BOARD" "$ANSWER" >"$WORK/reply.eml"
count move-reply "$db" ingest <"$WORK/reply.eml"

mail "viewer@example.net" "show" "limit show 101" >"$WORK/show.eml"
count show "$(fresh show)" ingest <"$WORK/show.eml"

mail "$MOVER@example.org" "challenge" "limit challenge $MOVER $OTHER" >"$WORK/challenge.eml"
count challenge "$(fresh challenge)" ingest <"$WORK/challenge.eml"

db=$(fresh cron)
"$BIN" --db "$db" --outbox "$WORK/out-cron1" cron >/dev/null
count cron "$db" cron </dev/null

if [[ -n $PRINT ]]; then
    # Two more for the scale table: a player's list of their games, and the counts of `list limit`.
    mail "$MOVER@example.org" "games" "limit games $MOVER" >"$WORK/games.eml"
    count games "$(fresh games)" ingest <"$WORK/games.eml"
    mail "viewer@example.net" "list" "list limit" >"$WORK/list.eml"
    count list-limit "$(fresh list)" ingest <"$WORK/list.eml"
    cat "$WORK/counts"
    exit 0
fi

games=$("$BIN" list | awk '/rules by/ { print $1 }')
[[ -n $games ]] || {
    echo "perf-gate.sh: \`pbem list\` named no game: its output changed? (the playouts are part of the gate)" >&2
    exit 1
}
for game in $games; do
    count "playout-$game" "$WORK/engine.sqlite" engine "$game" playout --games 100 --seed 1 </dev/null
done

if [[ -n $UPDATE ]]; then
    {
        echo "# Instructions (callgrind Ir) of scripts/perf-gate.sh's runs; written by --update."
        echo "# A change to this file says why in its commit."
        cat "$WORK/counts"
    } >"$BASELINE"
    cat "$WORK/counts"
    echo "perf-gate.sh: wrote $BASELINE" >&2
    exit 0
fi

[[ -f $BASELINE ]] || {
    echo "perf-gate.sh: no $BASELINE: write one with --update" >&2
    exit 1
}
printf '%-24s %14s %14s %8s\n' run baseline now change
if awk -v limit="$LIMIT" '
    NR == FNR { if ($0 !~ /^#/ && NF == 2) base[$1] = $2; next }
    {
        name = $1; now = $2
        # A run the baseline lacks is not checked at all: fail, so that a baseline written without
        # a run (perf/baseline.txt lost its playout lines once that way) cannot pass unnoticed.
        if (!(name in base)) { printf "%-24s %14s %14d   NEW: not in the baseline (--update)\n", name, "-", now; failed = 1; next }
        change = (now - base[name]) * 100 / base[name]
        if (change > limit) failed = 1
        printf "%-24s %14d %14d %+7.1f%%  %s\n", name, base[name], now, change, (change > limit ? "ROSE" : "ok")
        seen[name] = 1
    }
    END {
        for (name in base) if (!(name in seen)) { printf "%-24s missing from this run\n", name; failed = 1 }
        exit failed
    }' "$BASELINE" "$WORK/counts"; then
    echo "perf-gate.sh: every count within $LIMIT % of the baseline" >&2
else
    echo "perf-gate.sh: a count rose more than $LIMIT % over perf/baseline.txt (or a run is missing from either)" >&2
    exit 1
fi
