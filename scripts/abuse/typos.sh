#!/usr/bin/env bash
# Issue "Trust", item 3: passwords echoed after typos. The real user mails the typos of the issue (and
# a few more); afterwards every mail the server wrote and a dump of the database are searched for the
# passwords as words. Prints the typo forms sent, the mails written and the hits (goal 0).
set -euo pipefail
source "$(dirname "$0")/lib.bash"

PW='Tr0ub4dor&3'
deliver alice@example.org "signup alice $PW"
deliver bob@example.org "signup bob pw-bob"
deliver alice@example.org "limit challenge --password=$PW alice bob"
M=$("$BIN" engine limit new --seed 7 | "$BIN" engine limit moves | head -n 1)
typos=(
    "limit move alice $PW $M" "limit move 101 $PW $M" "move 101 alice $PW $M" "limit show 101 alice $PW"
    "limit queue alice $PW $M" "signup Dan Smith Sup3rSecret dan@d.example" "limit mvoe 101 alice $PW $M"
    "limit move 101 alice $M $PW" "limit move 101 $PW alice $M" "limit resign alice $PW"
    "limit chat 101 $PW" "change password alice $PW" "change pasword alice $PW NewPass2x" "signoff $PW"
    "vacation $PW 2026-12-01 2026-12-05" "limit subscribe alice $PW" "limit move 101 alice $PW acept"
    "limit history 101 alice $PW" "limit games alice $PW" "limit preview 101 alice $PW $M"
    "limit challenge --pasword=$PW alice bob" "Limit Move 101 Alice $PW $M" "limit move 10l alice $PW $M"
)
i=0
for t in "${typos[@]}"; do
    i=$((i + 1))
    PBEM_NOW=$((START + i * 150)) deliver alice@example.org "$t" "Sent from my phone"
done
# Control characters in the Subject (RFC 2047, every byte escaped) that become spaces.
subject=$(printf 'limit move 101 al\001ice %s %s' "$PW" "$M" | od -An -tx1 | tr -s ' \n' ' ' | sed 's/ $//; s/ /=/g')
PBEM_NOW=$((START + 100 * 150)) deliver alice@example.org "=?utf-8?q?${subject}?="
i=$((i + 1))
hits=0
for pw in "$PW" Sup3rSecret NewPass2x; do
    n=$(mails | grep -cwF -- "$pw" || true)
    d=$(sqlite3 "$WORK/pbem.sqlite" .dump 2>/dev/null | grep -cwF -- "$pw" || true)
    hits=$((hits + n + d))
done
echo "typo forms mailed by the real user: $i"
echo "mails the server wrote:             $(mails | wc -l)"
echo "passwords found as a word in mails and the database dump: $hits"
