#!/usr/bin/env bash
# Speed at scale (issue 12), measured side by side in one run: the binary before the issue (BASE, by
# default commit 2e01acd) and this checkout's, on the same big database.
#
#   scripts/scale.sh [RUNS]      (default 20; medians of RUNS runs, in ms)
#
# Environment: BASE (git ref of the older code), BASE_BIN (an already built older binary: skips
# building BASE), USERS (2000), GAMES (10000), KEEP=1 keeps the work folder (printed at the end),
# LMTP=1 also times `pbem lmtp` of this checkout (scripts/lmtp-bench.py).
#
# What it does:
#  1. builds the database with examples/scale_db.rs: USERS users, GAMES games played with random legal
#     moves by the real engine (about a quarter to the end), a year of board mails in the outbox,
#     ratings and results; schema 10 (made by the older binary) so both binaries read it.
#  2. copies it for this checkout's binary, which migrates the copy on first open, then compacts it
#     (`pbem compact`, as the README asks of an older database; each timed once).
#  3. times, for each binary on its own copy, as processes the way an admin or an MTA runs them:
#     `limit history`, `limit standings`, `limit games alice` at the shell; `limit show 101` and a
#     move mail through `pbem ingest` (each move a different running game, password checked with the
#     default argon2 cost); `pbem cron` once with its nags and forfeits due, then with nothing due.
#  4. database sizes: the built file (no pruning), and a file made by this checkout's binary and
#     filled in time order with a daily prune of the sent mail older than 7 days (as `pbem cron`
#     does it, with its incremental vacuum): the size a year of play leaves with pruning.
set -euo pipefail

RUNS=${1:-20}
if ! [[ $RUNS =~ ^[1-9][0-9]*$ ]]; then
    echo "scale.sh: RUNS must be a whole number above 0, like 20; it is '$RUNS'" >&2
    exit 64
fi
USERS=${USERS:-2000}
GAMES=${GAMES:-10000}
BASE=${BASE:-2e01acd}
NOW=1795000000
cd "$(dirname "$0")/.."
ROOT=$PWD

echo "== building this checkout (release)" >&2
cargo build --release --quiet --features tools --bin pbem --example scale_db
TARGET=${CARGO_TARGET_DIR:-target}
NEW=$(realpath "$TARGET/release/pbem")
BUILDER=$(realpath "$TARGET/release/examples/scale_db")

WORK=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$WORK"' EXIT

if [[ -n ${BASE_BIN:-} ]]; then
    OLD=$(realpath "$BASE_BIN")
else
    echo "== building $BASE (release), the code before issue 12" >&2
    git worktree add --detach --quiet "$WORK/base" "$BASE"
    (cd "$WORK/base" && CARGO_TARGET_DIR="$WORK/base-target" cargo build --release --quiet --bin pbem)
    OLD="$WORK/base-target/release/pbem"
    git worktree remove --force "$WORK/base"
fi

export PBEM_NOW=$NOW
unset PBEM_CONFIG PBEM_SEED
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }

echo "== building the database: $USERS users, $GAMES games" >&2
"$OLD" --db "$WORK/old.sqlite" --outbox "$WORK/out-old" outbox list >/dev/null
"$BUILDER" "$WORK/old.sqlite" --users "$USERS" --games "$GAMES" --now "$NOW" | tee "$WORK/built.txt" >&2
cp "$WORK/old.sqlite" "$WORK/new.sqlite"
t0=$EPOCHREALTIME
"$NEW" --db "$WORK/new.sqlite" --outbox "$WORK/out-new" outbox list >/dev/null
MIGRATE=$(ms "$t0" "$EPOCHREALTIME")
# What the README asks of an admin with an older database, once: compact it.
t0=$EPOCHREALTIME
"$NEW" --db "$WORK/new.sqlite" compact >"$WORK/compact.txt"
COMPACT="$(ms "$t0" "$EPOCHREALTIME") ms, $(cat "$WORK/compact.txt")"

# Move mails: for RUNS running games, the player to move plays the first legal move. The same mails
# go to both binaries, each on its own copy.
mkdir -p "$WORK/mail"
python3 - "$WORK/old.sqlite" "$WORK/mail" "$RUNS" "$NEW" <<'EOF'
import sqlite3, subprocess, sys
db, out, runs, binary = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
c = sqlite3.connect(db)
rows = c.execute("SELECT id, board, state FROM games WHERE finished = 0 ORDER BY board").fetchall()
made = 0  # mails 0..runs: 0 is the untimed first run
for gid, board, state in rows:
    if made > runs:
        break
    status = subprocess.run([binary, "engine", "limit", "status"], input=state.encode(),
                            capture_output=True, check=True).stdout.decode().split()
    if status[0] != "to-move":
        continue
    seat = ["red", "blue", "green"].index(status[1])
    (userid,) = c.execute("SELECT u.userid FROM seats s JOIN users u ON u.id = s.user_id "
                          "WHERE s.game_id = ? AND s.seat = ?", (gid, seat)).fetchone()
    moves = subprocess.run([binary, "engine", "limit", "moves"], input=state.encode(),
                           capture_output=True, check=True).stdout.decode().split()
    with open(f"{out}/move{made}.eml", "w") as f:
        f.write(f"From: {userid}@example.org\r\nTo: pbem@localhost\r\nSubject: move\r\n"
                f"Message-ID: <scale-move-{made}@example.org>\r\n\r\n"
                f"limit move {board} {userid} secret {moves[0]}\r\n")
    made += 1
for i in range(0, runs + 1):
    with open(f"{out}/show{i}.eml", "w") as f:
        f.write(f"From: viewer{i}@example.net\r\nTo: pbem@localhost\r\nSubject: show\r\n"
                f"Message-ID: <scale-show-{i}@example.net>\r\n\r\nlimit show 101\r\n")
EOF

# timed BIN DB ARGS...: one run, its wall time in ms; fails loudly on a failing run.
timed() {
    local bin=$1 db=$2 t0 t1
    shift 2
    t0=$EPOCHREALTIME
    if ! "$bin" --db "$db" --outbox "$WORK/out" "$@" >"$WORK/stdout" 2>"$WORK/stderr" <"${STDIN:-/dev/null}"; then
        echo "scale.sh: $bin $* failed:" >&2
        cat "$WORK/stderr" >&2
        exit 1
    fi
    t1=$EPOCHREALTIME
    ms "$t0" "$t1"
}

# pair NAME COMMAND...: RUNS runs of the command on each binary, alternating old and new so that the
# machine's other load falls on both alike, after one untimed run each; medians into R[old.NAME] and
# R[new.NAME]. In the command, @ stands for the run's number (1..RUNS), for the mail files.
declare -A R
pair() {
    local name=$1 i side bin args
    shift
    : >"$WORK/old.$name" && : >"$WORK/new.$name"
    for ((i = 0; i <= RUNS; i++)); do
        for side in old new; do
            if [[ $side == old ]]; then bin=$OLD; else bin=$NEW; fi
            args=("${@//@/$i}")
            if [[ ${args[0]} == ingest ]]; then
                STDIN="${args[1]}" timed "$bin" "$WORK/$side.sqlite" ingest >"$WORK/t"
            else
                timed "$bin" "$WORK/$side.sqlite" "${args[@]}" >"$WORK/t"
            fi
            ((i == 0)) || cat "$WORK/t" >>"$WORK/$side.$name"
            [[ $name != history ]] || wc -c <"$WORK/stdout" >"$WORK/$side.history.bytes"
        done
    done
    R[old.$name]=$(median <"$WORK/old.$name")
    R[new.$name]=$(median <"$WORK/new.$name")
}

echo "== timing both binaries, alternating" >&2
pair history limit history
pair standings limit standings
pair games limit games alice
pair show ingest "$WORK/mail/show@.eml"
pair move ingest "$WORK/mail/move@.eml"
for side in old new; do
    if [[ $side == old ]]; then BIN=$OLD; else BIN=$NEW; fi
    R[$side.size]=$(mb "$WORK/$side.sqlite")
    cp "$WORK/$side.sqlite" "$WORK/$side-cron.sqlite"
    R[$side.cron1]=$(timed "$BIN" "$WORK/$side-cron.sqlite" cron)
    R[$side.cron1.line]=$(cat "$WORK/stdout")
    R[$side.sizecron]=$(mb "$WORK/$side-cron.sqlite")
done
: >"$WORK/old.cron2" && : >"$WORK/new.cron2"
CRON_RUNS=$RUNS
((CRON_RUNS <= 5)) || CRON_RUNS=5
for ((i = 1; i <= CRON_RUNS; i++)); do
    for side in old new; do
        if [[ $side == old ]]; then BIN=$OLD; else BIN=$NEW; fi
        timed "$BIN" "$WORK/$side-cron.sqlite" cron >>"$WORK/$side.cron2"
        R[$side.cron2.line]=$(cat "$WORK/stdout")
    done
done
R[old.cron2]=$(median <"$WORK/old.cron2")
R[new.cron2]=$(median <"$WORK/new.cron2")
rm -f "$WORK"/*-cron.sqlite*

echo "== a year of play with daily pruning (this checkout's file format)" >&2
"$NEW" --db "$WORK/pruned.sqlite" --outbox "$WORK/out-pruned" outbox list >/dev/null
"$BUILDER" "$WORK/pruned.sqlite" --users "$USERS" --games "$GAMES" --now "$NOW" --keep-days 7 >&2
PRUNED=$(mb "$WORK/pruned.sqlite")

cat <<EOF

Database: $(cat "$WORK/built.txt")
Runs: $RUNS per figure, old and new alternating (cron with nothing due: $CRON_RUNS); medians in ms, as
processes.
Migration of the built file to this checkout's schema (once): $MIGRATE ms
then \`pbem compact\` (once, as the README asks of an older database): $COMPACT

| path | $BASE | this checkout |
| --- | ---: | ---: |
| \`limit history\` (shell) | ${R[old.history]} ($(cat "$WORK/old.history.bytes") bytes) | ${R[new.history]} ($(cat "$WORK/new.history.bytes") bytes) |
| \`limit standings\` (shell) | ${R[old.standings]} | ${R[new.standings]} |
| \`limit games alice\` (shell) | ${R[old.games]} | ${R[new.games]} |
| \`limit show 101\` by \`pbem ingest\` | ${R[old.show]} | ${R[new.show]} |
| move mail by \`pbem ingest\` | ${R[old.move]} | ${R[new.move]} |
| \`pbem cron\`, first run (nags due) | ${R[old.cron1]} | ${R[new.cron1]} |
| \`pbem cron\`, nothing due | ${R[old.cron2]} | ${R[new.cron2]} |
| database file as built (a year of mail; new: migrated and compacted) | ${R[old.size]} | ${R[new.size]} |
| database file after one \`pbem cron\` | ${R[old.sizecron]} | ${R[new.sizecron]} |
| database file, a year with daily pruning | - | $PRUNED |

cron, first run:  old: ${R[old.cron1.line]}
                  new: ${R[new.cron1.line]}
cron, again:      old: ${R[old.cron2.line]}
                  new: ${R[new.cron2.line]}
EOF

if [[ -n ${LMTP:-} ]]; then
    echo "== pbem lmtp (this checkout)" >&2
    python3 "$ROOT/scripts/lmtp-bench.py" --pbem "$NEW" --samples "$RUNS" --mails 1000 --rss-mails 10000
fi
[[ -z ${KEEP:-} ]] || echo "work folder kept: $WORK" >&2
