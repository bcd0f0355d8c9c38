#!/usr/bin/env bash
# Issue 22, item 3: LMTP connection slots. `pbem lmtp` with its defaults (max_connections 32); 32
# clients connect, say LHLO and then only NOOP now and then (every 5 s here; 299 s in the report, the
# same to the server). The MTA then tries to deliver one mail a second for 60 s. Prints how long the
# MTA was kept out, and how many of the idle clients still hold a slot after 60 s.
set -euo pipefail
source "$(dirname "$0")/lib.bash"
HERE=$(cd "$(dirname "$0")" && pwd)

# The binary itself in the background (not the pbem function: its subshell would take the signal).
"$BIN" --db "$WORK/pbem.sqlite" --outbox "$WORK/outbox" lmtp --listen inet:127.0.0.1:0 2>"$WORK/lmtp.log" &
LMTP=$!
trap 'kill $LMTP 2>/dev/null; wait $LMTP 2>/dev/null; [[ -n ${KEEP:-} ]] || rm -rf "$WORK"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$WORK/lmtp.log" 2>/dev/null && break; sleep 0.1; done
ADDR=$(grep -o 'listening on [^ ]*' "$WORK/lmtp.log" | cut -d' ' -f3)

python3 - "$ADDR" "$HERE" <<'PY'
import sys, threading, time
sys.path.insert(0, sys.argv[2])
from lmtp_client import Lmtp, message

addr = sys.argv[1]
idle, stop = [], threading.Event()
for _ in range(32):
    idle.append(Lmtp(addr))
open_ = [True] * len(idle)

def noop(i):
    c = idle[i]
    while not stop.is_set():
        try:
            r = c.cmd("NOOP")
        except OSError:
            r = ""
        if not r.startswith("250"):
            open_[i] = False
            return
        stop.wait(5)

threads = [threading.Thread(target=noop, args=(i,), daemon=True) for i in range(len(idle))]
for t in threads:
    t.start()
time.sleep(1.5)
start, refused, delivered_at = time.time(), 0, None
while time.time() - start < 60:
    try:
        mta = Lmtp(addr)
        if mta.greeting.startswith("220"):
            r = mta.send("alice@example.org", "pbem@localhost", message("alice@example.org", "signup alice pw-alice"))
            if r.startswith("250"):
                delivered_at = time.time() - start
                break
        refused += 1
    except OSError:
        refused += 1
    time.sleep(1)
time.sleep(max(0, 60 - (time.time() - start)))
stop.set()
if delivered_at is None:
    print(f"the MTA was kept out for 60 s: {refused} connections refused (421), no mail delivered")
else:
    print(f"the MTA delivered after {delivered_at:.1f} s ({refused} connections refused before)")
print(f"idle NOOP clients still holding a slot after 60 s: {sum(open_)} of {len(idle)}")
PY
