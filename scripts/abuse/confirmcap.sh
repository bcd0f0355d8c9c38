#!/usr/bin/env bash
# Issue 22, item 5b: the hourly cap on confirmation mails. A stranger sends 20 signups, each naming
# another address to confirm; then, in the same hour, 5 players sign up from their own addresses,
# each naming a second address of theirs. Prints the confirmation mails the stranger caused and how
# many of the players' second addresses got theirs.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

for n in $(seq 1 20); do
    PBEM_NOW=$((START + n * 60)) deliver stranger@evil.example "signup u$n pw-u$n victim$n@elsewhere.example"
done
strangers=$(mails | awk -F'\t' '$2 ~ /^confirm / && $1 ~ /victim/' | wc -l)
rm -rf "$WORK/outbox"
for p in p1 p2 p3 p4 p5; do
    PBEM_NOW=$((START + 1800)) deliver "$p@home.example" "signup $p pw-$p $p@home.example $p@work.example"
done
players=$(mails | awk -F'\t' '$2 ~ /^confirm / && $1 ~ /@work.example/' | wc -l)
echo "confirmation mails caused by the stranger's 20 signups: $strangers"
echo "players' second addresses confirmed-by-mail, same hour:  $players of 5"
