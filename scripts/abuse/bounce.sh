#!/usr/bin/env bash
# Issue 22, item 7: an address the relay refuses for good. pbem sends through a small SMTP server
# (scripts/abuse/smtp_sink.py) that answers RCPT TO for bob@example.org with 550 5.1.1. bob signs up;
# then `pbem outbox flush` runs 24 times (an hourly cron for a day) and alice starts 3 games with him.
# Prints how often bob's address was tried, the flushes' exit statuses, and what the admin sees.
set -euo pipefail
source "$(dirname "$0")/lib.bash"
HERE=$(cd "$(dirname "$0")" && pwd)

python3 "$HERE/smtp_sink.py" "$WORK/sink.port" "$WORK/sink.log" --refuse bob@example.org &
SINK=$!
trap 'kill $SINK 2>/dev/null; wait $SINK 2>/dev/null; [[ -n ${KEEP:-} ]] || rm -rf "$WORK"' EXIT
for _ in $(seq 100); do [[ -f $WORK/sink.port ]] && break; sleep 0.1; done
printf '[mail]\ntransport = "smtp"\n[mail.smtp]\nhost = "127.0.0.1"\nport = %s\n' "$(cat "$WORK/sink.port")" >"$WORK/pbem.toml"
p() { "$BIN" --db "$WORK/pbem.sqlite" --config "$WORK/pbem.toml" "$@"; }
send() { msg "$1" "$2" | p ingest >/dev/null 2>>"$WORK/ingest.log"; }

send alice@example.org "signup alice pw-alice"
send bob@example.org "signup bob pw-bob"
statuses=()
for h in $(seq 1 24); do
    set +e
    PBEM_NOW=$((START + h * 3600)) p outbox flush >/dev/null 2>&1
    statuses+=($?)
    set -e
done
for g in 1 2 3; do PBEM_NOW=$((START + DAY + g)) send alice@example.org "limit challenge alice bob"; done
echo "tries of bob's address (550 each): $(grep -c 'refused bob@example.org' "$WORK/sink.log")"
echo "exit statuses of the 24 hourly flushes: $(printf '%s\n' "${statuses[@]}" | sort | uniq -c | awk '{printf "%s x %s; ", $1, $2}')"
echo "mails delivered to alice: $(grep -c '^alice@example.org$' "$WORK/sink.log")"
echo "the log said: $(grep -m1 -o 'not sent (.*' "$WORK/ingest.log" | cut -c1-60)... / $(grep -m1 -o 'retries it' "$WORK/ingest.log" || echo 'no "retries it"')"
echo "pbem outbox list:"
p outbox list 2>/dev/null | sed "s/^/    /"
