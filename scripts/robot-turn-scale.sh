#!/usr/bin/env bash
# Issue 35, item 1: the cost of one mail as the number of games grows, for the robots a mail looks
# for. Every committed mail asks for a robot left to move (`robots_to_move`); before migration 0044
# that walked every running game. For each binary and each size it makes a database with the
# binary itself, fills it with SQL (GAMES games between 200 players, three quarters running, one
# running game in 20 against robot1 with robot1 to move, none of them stale so no robot thinks), and
# counts with callgrind the instructions of `pbem ingest` of one `help` mail (a stranger's, answered
# and committed). Prints one line per binary and size: instructions, median of RUNS (3).
#
#   scripts/robot-turn-scale.sh OLD_BIN NEW_BIN [SIZES...]     (default sizes: 100 10000)
set -euo pipefail
OLD=${1:?usage: robot-turn-scale.sh OLD_BIN NEW_BIN [SIZES...]}
NEW=${2:?usage: robot-turn-scale.sh OLD_BIN NEW_BIN [SIZES...]}
shift 2
SIZES=("${@:-100 10000}")
[[ $# -gt 0 ]] || SIZES=(100 10000)
RUNS=${RUNS:-3}
NOW=1795000000
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
unset PBEM_CONFIG
export PBEM_NOW=$NOW PBEM_SEED=7

fill() {
    python3 - "$1" "$2" "$NOW" <<'PY'
import sqlite3, sys
db, games, now = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
c = sqlite3.connect(db)
robot = c.execute("SELECT id FROM users WHERE userid = 'robot1'").fetchone()[0]
users = []
for i in range(200):
    c.execute("INSERT INTO users (userid, userid_key, password_hash, created_at) VALUES (?, ?, 'x', ?)",
              (f"p{i}", f"p{i}", now - 400 * 86400))
    users.append(c.execute("SELECT last_insert_rowid()").fetchone()[0])
for g in range(games):
    finished = g % 4 == 3
    against_robot = not finished and g % 20 == 0
    to_move = None if finished else (1 if against_robot else g % 2)
    updated = now - 60 if against_robot else now - (g % 300) * 86400
    c.execute("INSERT INTO games (game_type, board, finished, created_at, updated_at, to_move, status)"
              " VALUES ('limit', ?, ?, ?, ?, ?, '')", (101 + g, finished, updated - 86400, updated, to_move))
    gid = c.execute("SELECT last_insert_rowid()").fetchone()[0]
    c.execute("INSERT INTO game_states (game_id, state) VALUES (?, '{}')", (gid,))
    a = users[g % 200]
    b = robot if against_robot else users[(g * 7 + 1) % 200]
    c.execute("INSERT INTO seats (game_id, seat, user_id) VALUES (?, 0, ?)", (gid, a))
    c.execute("INSERT INTO seats (game_id, seat, user_id) VALUES (?, 1, ?)", (gid, b))
c.commit()
c.execute("ANALYZE")
c.commit()
PY
}

for size in "${SIZES[@]}"; do
    for which in old new; do
        bin=$OLD; [[ $which == new ]] && bin=$NEW
        dir="$WORK/$which-$size"
        mkdir -p "$dir"
        "$bin" --db "$dir/db.sqlite" --outbox "$dir/out" outbox list >/dev/null 2>&1
        fill "$dir/db.sqlite" "$size"
        counts=()
        for run in $(seq "$RUNS"); do
            printf 'From: s%s@example.net\r\nTo: pbem@localhost\r\nSubject: help\r\nMessage-ID: <scale-%s-%s-%s@example.net>\r\n\r\n\r\n' \
                "$run" "$which" "$size" "$run" >"$dir/mail.eml"
            n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                "$bin" --db "$dir/db.sqlite" --outbox "$dir/out" ingest <"$dir/mail.eml" 2>&1 >/dev/null |
                sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
            counts+=("$n")
        done
        median=$(printf '%s\n' "${counts[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
        printf '%-4s %6s games: %s instructions (runs: %s)\n' "$which" "$size" "$median" "${counts[*]}"
    done
done
