#!/usr/bin/env bash
# Issue 22, item 5a: does the answer tell a known userid from an unknown one? A stranger sends a move
# with a wrong password for bob (registered) and for nosuch (not registered). Prints the userid as
# each answer shows it, and whether the two answers are the same once the userid is taken out.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

for u in alice bob; do deliver "$u@example.org" "signup $u pw-$u"; done
deliver alice@example.org "limit challenge --password=pw-alice alice bob"
rm -rf "$WORK/outbox"
deliver eve@evil.example "limit move 101 bob nope 1-2,3"
known=$(mails | awk -F'\t' '{print $3}')
rm -rf "$WORK/outbox"
deliver eve@evil.example "limit move 101 nosuch nope 1-2,3"
unknown=$(mails | awk -F'\t' '{print $3}')
shown() { grep -Eo "The userid '[^']*'" <<<"$1" | head -1; }
echo "wrong password for bob shows:   $(shown "$known")"
echo "unknown userid nosuch shows:    $(shown "$unknown")"
# The userid as written stands twice: in the explanation and in the quoted command.
a=$(sed -e "s/'bob'/'USER'/g; s/> limit move 101 bob />  limit move 101 USER /" <<<"$known")
b=$(sed -e "s/'nosuch'/'USER'/g; s/> limit move 101 nosuch />  limit move 101 USER /" <<<"$unknown")
if [[ $a == "$b" ]]; then
    echo "answers apart from the userid:  identical"
else
    echo "answers apart from the userid:  DIFFERENT"
fi
