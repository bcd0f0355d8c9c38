#!/usr/bin/env bash
# Issue "Trust", item 4: a relay for strangers. One 20 KB mail of 20 `signup spN pw v1@q.io ...` lines
# (about 100 addresses each), then 25 signups from 25 senders each naming one other address within the
# hour. Prints the addresses mailed and the confirmation mails sent.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

body=""
for n in $(seq 1 20); do
    line="signup sp$n pw$n"
    for k in $(seq 1 94); do line+=" v${n}x$k@q.io"; done
    body+="$line\n"
done
deliver spammer@evil.example "mult" "$body"
printf 'one mail of %s bytes, 20 signup lines, %s addresses named\n' "$(msg spammer@evil.example mult "$body" | wc -c)" $((20 * 94))
echo "addresses mailed (the sender included): $(mails | cut -f1 | tr ',' '\n' | sed 's/.*<//; s/>.*//; s/ //g' | sort -u | wc -l)"
echo "mails to the sender:                    $(mails | awk -F'\t' '$1 ~ /spammer@evil.example/' | wc -l)"
echo "account addresses registered:           $(sql "SELECT count(*) FROM addresses")"
rm -rf "$WORK/outbox"
for n in $(seq 1 25); do
    PBEM_NOW=$((START + 60 + n)) deliver "s$n@senders.example" "signup u$n pw$n s$n@senders.example other$n@q.io"
done
echo "25 more signups naming another address, same hour: $(mails | awk -F'\t' '$2 ~ /^confirm /' | wc -l) confirmation mails (plus the 1 above: the hour's cap, limits.unconfirmed_mails_per_hour = 20)"
