#!/usr/bin/env bash
# Where a move mail's time goes: `perf record` over RUNS `pbem ingest` processes, each a legal move
# in a different running game of DB (a database in this checkout's format, such as the one
# scripts/scale.sh keeps with KEEP=1), then the samples grouped by what they were doing.
#
#   scripts/profile-move.sh DB [RUNS]      (default 40; needs perf, from Debian's linux-perf)
#
# The database is copied first: DB itself is not changed. Every user's password must be `secret`
# (examples/scale_db.rs makes them so).
set -euo pipefail

DB=${1:?usage: scripts/profile-move.sh DB [RUNS]}
RUNS=${2:-40}
if ! [[ $RUNS =~ ^[1-9][0-9]*$ ]]; then
    echo "profile-move.sh: RUNS must be a whole number above 0, like 40; it is '$RUNS'" >&2
    exit 64
fi
command -v perf >/dev/null || {
    echo "profile-move.sh: perf is missing: apt-get install -y linux-perf" >&2
    exit 69
}
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin pbem
BIN=$(realpath "${CARGO_TARGET_DIR:-target}/release/pbem")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp "$DB" "$WORK/p.sqlite"
export PBEM_NOW=1795000000
unset PBEM_CONFIG PBEM_SEED

python3 - "$WORK/p.sqlite" "$WORK" "$RUNS" "$BIN" <<'EOF'
import sqlite3, subprocess, sys
db, out, runs, binary = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
c = sqlite3.connect(db)
rows = c.execute("SELECT g.id, g.board, st.state FROM games g "
                 "JOIN game_states st ON st.game_id = g.id "
                 "WHERE g.finished = 0 ORDER BY g.updated_at LIMIT ?", (runs,)).fetchall()
for n, (gid, board, state) in enumerate(rows):
    status = subprocess.run([binary, "engine", "limit", "status"], input=state.encode(),
                            capture_output=True, check=True).stdout.decode().split()
    seat = ["red", "blue", "green"].index(status[1])
    (userid,) = c.execute("SELECT u.userid FROM seats s JOIN users u ON u.id = s.user_id "
                          "WHERE s.game_id = ? AND s.seat = ?", (gid, seat)).fetchone()
    moves = subprocess.run([binary, "engine", "limit", "moves"], input=state.encode(),
                           capture_output=True, check=True).stdout.decode().split()
    with open(f"{out}/move{n}.eml", "w") as f:
        f.write(f"From: {userid}@example.org\r\nTo: pbem@localhost\r\nSubject: move\r\n"
                f"Message-ID: <profile-{n}@example.org>\r\n\r\n"
                f"limit move {board} {userid} secret {moves[0]}\r\n")
EOF

perf record -q -F 20000 -g -o "$WORK/perf.data" -- bash -c \
    "for f in '$WORK'/move*.eml; do '$BIN' --db '$WORK/p.sqlite' --outbox '$WORK/out' ingest < \"\$f\" || exit 1; done" \
    2>/dev/null
perf report -i "$WORK/perf.data" --no-children --sort comm,dso,sym --stdio 2>/dev/null |
    python3 -c '
import re, sys
groups = {}
kernel = []
total = 0.0
for line in sys.stdin:
    m = re.match(r"\s+([\d.]+)%\s+(\S+)\s+(\S+)\s+\[(.)\]\s+(.*)", line)
    if not m:
        continue
    pct, comm, dso, kind, sym = float(m[1]), m[2], m[3], m[4], m[5]
    if comm != "pbem":
        group = "other processes (the shell loop)"
    elif re.search(r"argon2|blake2|Blake2|compress|fill_block", sym):
        group = "argon2 (the password check)"
    elif kind == "k":
        group = "kernel: page faults, exec, file I/O and fsync"
    elif dso.startswith("ld-") or "ld-linux" in dso:
        group = "dynamic loader (process start)"
    elif re.search(r"sqlite3|Sqlite|rusqlite|btree|pager|Pager|walIndex|vdbe|Vdbe", sym):
        group = "SQLite"
    elif re.search(r"serde_json|serde::", sym):
        group = "JSON (game state)"
    elif "layout" in sym:
        group = "the random layout"
    elif re.search(r"games::limit", sym):
        group = "the rules engine (replay, legal moves, render)"
    elif re.search(r"malloc|free|memcpy|memmove|memset|realloc|_int_", sym):
        group = "allocation and copying"
    else:
        group = "other (mail parse and write, command, summary)"
    groups[group] = groups.get(group, 0.0) + pct
    if kind == "k" and comm == "pbem":
        kernel.append((pct, sym))
    total += pct
print("Share of the perf samples, by what they were doing:")
for g, p in sorted(groups.items(), key=lambda x: -x[1]):
    print(f"  {p:5.1f}%  {g}")
print("The kernel part, its largest symbols:")
for p, sym in sorted(kernel, reverse=True)[:6]:
    print(f"  {p:5.1f}%  {sym}")
' 
echo "($RUNS move mails, each a separate pbem ingest process; perf at 20 kHz)"
