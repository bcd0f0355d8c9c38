#!/usr/bin/env bash
# Issue 22, item 4: slow clients against `pbem web`, before (tiny_http) and after (axum). For each
# binary, RUNS times (median printed):
#   1. 200 slow clients hold connections: 160 send half a request head, 40 ask for 200 size-16 board
#      pages each (6 MB) pipelined and never read; once the server has taken them all and is idle, the
#      time of a normal GET of the board page (median of 5; "none" when no answer came in 10 s);
#   2. 2,000 clients each send half a request head (20 at a time connecting): the most threads the
#      process had (/proc/PID/status Threads, sampled every 20 ms) and how many clients got in.
#
#   PBEM_BIN=target/release/pbem scripts/abuse/web.sh [RUNS]     (scripts/abuse.sh sets PBEM_BIN)
#
# BASE_BIN: the older binary to compare with (the "before" figures); BASE=REF (8286a73 is the code
# before item 4) builds that commit in release into a temporary folder for it. With neither, only the
# "after" figures are printed.
set -euo pipefail

BIN=${PBEM_BIN:?set PBEM_BIN to the pbem binary (scripts/abuse.sh does)}
RUNS=${1:-3}
if ! [[ $RUNS =~ ^[1-9][0-9]*$ ]]; then
    echo "web.sh: RUNS must be a whole number above 0, like 3; it is '$RUNS'" >&2
    exit 64
fi
WORK=$(mktemp -d)
WEB_PID=
cleanup() {
    [[ -n $WEB_PID ]] && kill "$WEB_PID" 2>/dev/null
    [[ -n ${KEEP:-} ]] || rm -rf "$WORK"
}
trap cleanup EXIT
unset PBEM_CONFIG
export PBEM_SEED=7 PBEM_NOW=1795000000

OLD=
if [[ -n ${BASE_BIN:-} ]]; then
    OLD=$(realpath "$BASE_BIN")
elif [[ -n ${BASE:-} ]]; then
    echo "web: building $BASE (release), the code before item 4" >&2
    git worktree add --detach --quiet "$WORK/base" "$BASE"
    (cd "$WORK/base" && CARGO_TARGET_DIR="$WORK/base-target" cargo build --release --quiet --bin pbem)
    OLD="$WORK/base-target/release/pbem"
    git worktree remove --force "$WORK/base"
fi

# One database for both binaries (the older one makes it, the newer one reads it as it is): bob and
# carol, board 101 of size 16 (a 31 KB page).
pbem() { "${OLD:-$BIN}" --db "$WORK/pbem.sqlite" --outbox "$WORK/outbox" "$@"; }
for n in bob carol; do
    printf 'From: %s@example.org\r\nTo: pbem@localhost\r\nSubject: signup %s pw-%s\r\nMessage-ID: <web-%s@client.example>\r\n\r\n\r\n' \
        "$n" "$n" "$n" "$n" | pbem ingest >/dev/null 2>&1
done
pbem limit challenge -size=16 bob carol >/dev/null

# attack BINARY: starts `pbem web` on a free port, prints "SECONDS THREADS CONNECTED" (SECONDS "none").
attack() {
    "$1" --db "$WORK/pbem.sqlite" web --listen 127.0.0.1:0 2>"$WORK/web.err" &
    WEB_PID=$!
    local addr= tries=0
    # The server's first stderr line says its port.
    while [[ -z $addr ]] && ((tries++ < 100)); do
        sleep 0.1
        addr=$(sed -n 's|^pbem web: listening on http://\(.*\)/$|\1|p' "$WORK/web.err")
    done
    [[ -n $addr ]] || { echo "web: pbem web did not start: $(cat "$WORK/web.err")" >&2; exit 1; }
    python3 - "$WEB_PID" "$addr" <<'PY'
import os, socket, statistics, sys, threading, time

pid, addr = int(sys.argv[1]), sys.argv[2]
host, port = addr.rsplit(":", 1)
port = int(port)

def sockets():
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            n += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            pass
    return n

def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])

def threads():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("Threads:"):
            return int(line.split()[1])

def timed_get():
    start = time.monotonic()
    try:
        s = socket.create_connection((host, port), timeout=10)
        s.sendall(b"GET /limit/101 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
        s.close()
    except OSError:
        return None
    took = time.monotonic() - start
    return took if data.startswith(b"HTTP/1.1 200") and took <= 10 else None

idle = sockets()
held = []
for _ in range(40):
    s = socket.create_connection((host, port))
    s.sendall(b"GET /limit/101 HTTP/1.1\r\nHost: x\r\n\r\n" * 200)
    held.append(s)
for _ in range(160):
    s = socket.create_connection((host, port))
    s.sendall(b"GET /limit/101 HTTP/1.1\r\nHost: x\r\n")
    held.append(s)
deadline = time.monotonic() + 20
while sockets() < idle + 200 and time.monotonic() < deadline:
    time.sleep(0.1)
last, deadline = cpu(), time.monotonic() + 8
while time.monotonic() < deadline:
    time.sleep(0.2)
    now = cpu()
    if now == last:
        break
    last = now
times = [timed_get() for _ in range(5)]
answered = [t for t in times if t is not None]
page = f"{statistics.median(answered):.4f}" if len(answered) >= 3 else "none"
for s in held:
    s.close()

# 2,000 half-sent requests, 20 connecting at a time; Threads sampled meanwhile.
flood, lock, done, most = [], threading.Lock(), threading.Event(), [threads()]
def flooder():
    for _ in range(100):
        try:
            s = socket.create_connection((host, port), timeout=3)
            s.sendall(b"GET /limit/101 HTTP/1.1\r\nHost: x\r\n")
        except OSError:
            continue
        with lock:
            flood.append(s)
def sampler():
    while not done.is_set():
        most[0] = max(most[0], threads())
        time.sleep(0.02)
sample = threading.Thread(target=sampler)
sample.start()
workers = [threading.Thread(target=flooder) for _ in range(20)]
for w in workers:
    w.start()
for w in workers:
    w.join()
time.sleep(0.5)
done.set()
sample.join()
print(page, most[0], len(flood))
for s in flood:
    s.close()
PY
    kill "$WEB_PID"
    wait "$WEB_PID" 2>/dev/null || true
    WEB_PID=
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print v[NR / 2] }'; }

# A few thousand sockets at once.
ulimit -n 8192 2>/dev/null || true
for which in before after; do
    if [[ $which == before ]]; then binary=$OLD; else binary=$BIN; fi
    if [[ -z $binary ]]; then
        echo "web: before: not measured (BASE_BIN=older-binary or BASE=8286a73 measures it)"
        continue
    fi
    : >"$WORK/$which"
    for _ in $(seq 1 "$RUNS"); do attack "$binary" >>"$WORK/$which"; done
    page=$(awk '{ print $1 }' "$WORK/$which" | sed 's/none/999/' | median | sed 's/^999$/none/')
    threads=$(awk '{ print $2 }' "$WORK/$which" | median)
    connected=$(awk '{ print $3 }' "$WORK/$which" | median)
    [[ $page == none ]] && page="no answer within 10 s" || page="$page s"
    echo "web: $which: a page beside 200 slow clients: $page (median of $RUNS runs of 5 GETs each)"
    echo "web: $which: 2,000 half-sent requests ($connected connected): at most $threads threads (median of $RUNS runs)"
done
