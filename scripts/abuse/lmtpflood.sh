#!/usr/bin/env bash
# Issue 34, item 5: a client that keeps reopening LMTP connections. `pbem lmtp` with its defaults
# (max_connections 32, so max_connections_per_peer 24 where the binary has it); a flooder at 127.0.0.2
# opens 40 connections every 0.5 s (each held until its next round, so none is ever idle a second);
# the MTA at 127.0.0.1 delivers 27 mails, one every 0.5 s, each on a new connection. Prints how many
# of the 27 got 421 and how many connections the flooder held at most.
set -euo pipefail
source "$(dirname "$0")/lib.bash"
HERE=$(cd "$(dirname "$0")" && pwd)

"$BIN" --db "$WORK/pbem.sqlite" --outbox "$WORK/outbox" lmtp --listen inet:127.0.0.1:0 2>"$WORK/lmtp.log" &
LMTP=$!
trap 'kill $LMTP 2>/dev/null; wait $LMTP 2>/dev/null; [[ -n ${KEEP:-} ]] || rm -rf "$WORK"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$WORK/lmtp.log" 2>/dev/null && break; sleep 0.1; done
ADDR=$(grep -o 'listening on [^ ]*' "$WORK/lmtp.log" | cut -d' ' -f3)

python3 - "$ADDR" "$HERE" <<'PY'
import socket, sys, threading, time
sys.path.insert(0, sys.argv[2])
from lmtp_client import Lmtp, message

addr = sys.argv[1]
host, port = addr[5:].rsplit(":", 1)
stop = threading.Event()
most = [0]

def flood():
    held = []
    while not stop.is_set():
        for s in held:
            s.close()
        held = []
        for _ in range(40):
            s = socket.socket()
            s.settimeout(5)
            s.bind(("127.0.0.2", 0))
            try:
                s.connect((host, int(port)))
                if s.makefile("rb").readline().startswith(b"220"):
                    held.append(s)
                    continue
            except OSError:
                pass
            s.close()
        most[0] = max(most[0], len(held))
        stop.wait(0.5)

t = threading.Thread(target=flood, daemon=True)
t.start()
time.sleep(2)
refused = delivered = 0
for i in range(27):
    try:
        mta = Lmtp(addr)
        if mta.greeting.startswith("220"):
            r = mta.send(f"p{i}@example.org", "pbem@localhost", message(f"p{i}@example.org", "help"))
            delivered += r.startswith("250")
            mta.cmd("QUIT")
        else:
            refused += 1
    except OSError:
        refused += 1
    time.sleep(0.5)
stop.set()
t.join()
print(f"the MTA: {refused} of 27 deliveries refused (421), {delivered} delivered")
print(f"the flooder held at most {most[0]} of 32 connections at once")
PY
