#!/usr/bin/env bash
# Issue 22, item 8: a naive autoresponder (no Auto-Submitted, no Precedence) at a player's address
# that writes to the server every 20 minutes for four days. Prints the error mails it got each day,
# then that a command carried out ends the quiet spell.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

for u in alice bob; do deliver "$u@example.org" "signup $u pw-$u"; done
rm -rf "$WORK/outbox"
for day in 1 2 3 4; do
    for r in $(seq 0 71); do
        PBEM_NOW=$((START + (day - 1) * DAY + r * 1200)) deliver bob@example.org "Re: your mail" "I am away until Monday and will answer when I am back."
    done
    echo "day $day: 72 autoreplies, $(mails | wc -l) error mails back"
    rm -rf "$WORK/outbox"
done
export PBEM_NOW=$((START + 4 * DAY))
deliver bob@example.org help
deliver bob@example.org "limit mvoe 101"
echo "bob back: help, then a typo: $(mails | wc -l) answers"
