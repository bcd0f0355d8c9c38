#!/usr/bin/env bash
# Issue 22, item 6: a listener killed with mail committed but not sent. `pbem lmtp` sends through an
# SMTP relay that takes connections and never answers (its workers hang in the sending); 7 signups
# are delivered and answered 250; `kill -9`; the listener is started again with a working relay (a
# small SMTP server, scripts/abuse/smtp_sink.py). Prints the replies that arrived within 10 s of the
# restart without anyone running `pbem outbox flush`, and what a flush then still sends.
set -euo pipefail
source "$(dirname "$0")/lib.bash"
HERE=$(cd "$(dirname "$0")" && pwd)
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; [[ -n ${KEEP:-} ]] || rm -rf "$WORK"' EXIT

sink() { # sink NAME [--stuck]: starts an SMTP server, sets PORT
    python3 "$HERE/smtp_sink.py" "$WORK/$1.port" "$WORK/$1.log" "${@:2}" &
    PIDS+=($!)
    for _ in $(seq 100); do [[ -f $WORK/$1.port ]] && break; sleep 0.1; done
    PORT=$(cat "$WORK/$1.port")
}
config() { printf '[mail]\ntransport = "smtp"\n[mail.smtp]\nhost = "127.0.0.1"\nport = %s\ntimeout_secs = 300\n[lmtp]\nworkers = 8\n' "$1" >"$WORK/pbem.toml"; }
listen() { # listen LOG: starts pbem lmtp with $WORK/pbem.toml, sets LMTP and ADDR
    "$BIN" --db "$WORK/pbem.sqlite" --config "$WORK/pbem.toml" lmtp --listen inet:127.0.0.1:0 2>"$WORK/$1" &
    LMTP=$!
    PIDS+=($LMTP)
    for _ in $(seq 100); do grep -q "listening on" "$WORK/$1" 2>/dev/null && break; sleep 0.1; done
    ADDR=$(grep -o 'listening on [^ ]*' "$WORK/$1" | cut -d' ' -f3)
}

sink stuck --stuck
config "$PORT"
listen first.log
python3 - "$ADDR" "$HERE" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from lmtp_client import Lmtp, message
c = Lmtp(sys.argv[1])
answers = [c.send(f"p{i}@example.org", "pbem@localhost", message(f"p{i}@example.org", f"signup p{i} pw-p{i}")) for i in range(7)]
print("7 signups delivered:", sum(a.startswith("250") for a in answers), "answered 250")
PY
echo "unsent in the outbox when killed: $(sql "SELECT count(*) FROM outbox WHERE sent_at IS NULL")"
kill -9 "$LMTP"; wait "$LMTP" 2>/dev/null || true
sink good
config "$PORT"
listen second.log
sleep 10
delivered() { if [[ -f $WORK/good.log ]]; then wc -l <"$WORK/good.log"; else echo 0; fi; }
echo "replies delivered within 10 s of the restart: $(delivered)"
kill "$LMTP"; wait "$LMTP" 2>/dev/null || true
echo "then pbem outbox flush: $("$BIN" --db "$WORK/pbem.sqlite" --config "$WORK/pbem.toml" outbox flush)"
echo "replies delivered in all: $(delivered), to distinct addresses: $(sort -u "$WORK/good.log" 2>/dev/null | wc -l)"
