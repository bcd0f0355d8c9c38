#!/usr/bin/env bash
# Issue 22, item 5d: a message hidden in another. One LMTP transaction whose body holds a bare-LF
# `.` line followed by a second envelope and message (a stranger's signup). Prints the replies the
# listener gave and the accounts made: a second 250 and the account "hidden" mean it was smuggled.
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
import sys
sys.path.insert(0, sys.argv[2])
from lmtp_client import Lmtp
c = Lmtp(sys.argv[1])
raw = (b"From: alice@example.org\r\nSubject: signup alice pw-alice\r\nMessage-ID: <one@x.example>\r\n\r\n"
       b"hello\n.\nMAIL FROM:<mallory@evil.example>\r\nRCPT TO:<pbem@localhost>\r\nDATA\r\n"
       b"From: mallory@evil.example\r\nSubject: signup hidden pw-hidden\r\nMessage-ID: <two@evil.example>\r\n\r\n\r\n")
replies = [c.send("alice@example.org", "pbem@localhost", raw)]
c.s.settimeout(2)
try:
    while True:
        r = c.reply()
        if not r:
            break
        replies.append(r)
except OSError:
    pass
print("replies after the one DATA:", " | ".join(replies))
PY
sleep 1
echo "accounts made (robots aside): $(sql "SELECT group_concat(userid, ' ') FROM users WHERE userid NOT LIKE 'robot%'")"
