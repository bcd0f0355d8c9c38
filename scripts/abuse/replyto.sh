#!/usr/bin/env bash
# Issue 22, item 5c: answers to a stranger's Reply-To. Two mails an hour for two days from
# mallory, each of 15 lines of nonsense, with `Reply-To: victim@example.net`. Prints the answers the
# victim got each day; then a player's own four mistakes, answered as before.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

body=$(printf 'limit frobnicate 101\\n%.0s' $(seq 15))
count() { mails | awk -F'\t' -v to="$1" '$1 ~ to' | wc -l; }
for day in 1 2; do
    for h in $(seq 0 47); do
        PBEM_NOW=$((START + (day - 1) * DAY + h * 1800)) deliver mallory@evil.example mult "$body" "Reply-To: victim@example.net"
    done
    echo "day $day: 48 mails of 15 bad lines under the victim's Reply-To: $(count victim@example.net) answers to the victim"
    rm -rf "$WORK/outbox"
done
export PBEM_NOW=$((START + 2 * DAY))
deliver alice@example.org "signup alice pw-alice"
rm -rf "$WORK/outbox"
deliver alice@example.org mult "$(printf 'limit frobnicate 101\\n%.0s' $(seq 4))"
echo "a player's one mail of 4 mistakes: $(count alice@example.org) answers"
