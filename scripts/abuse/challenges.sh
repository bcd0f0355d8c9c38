#!/usr/bin/env bash
# Issue "Trust", item 2: games nobody asked for. A stranger mails `limit challenge alice bob` 141 times,
# one every 10 minutes; nobody ever acts; `pbem cron` runs at day 14 and day 23 (when the clock has
# forfeited every such game). Prints the new-game mails alice got, the answers the stranger got, the
# games made and rated, and both ratings before and after.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

for u in alice bob; do deliver "$u@example.org" "signup $u pw-$u"; done
rm -rf "$WORK/outbox"
for i in $(seq 1 141); do
    PBEM_NOW=$((START + i * 600)) deliver mallory@evil.example "limit challenge alice bob"
done
new_mails=$(mails | awk -F'\t' '$1 ~ /alice@example.org/ && $2 ~ /^New /' | wc -l)
to_stranger=$(mails | awk -F'\t' '$1 ~ /mallory@evil.example/' | wc -l)
games=$(sql "SELECT count(*) FROM games")
PBEM_NOW=$((START + 14 * DAY)) pbem cron >/dev/null
PBEM_NOW=$((START + 23 * DAY)) pbem cron >/dev/null
echo "challenge mails from the stranger:  141 (one every 10 minutes)"
echo "new-game mails to alice:            $new_mails (limits.unsolicited_challenges_per_day = 5)"
echo "answers to the stranger:            $to_stranger"
echo "games made / still running day 23:  $games / $(sql "SELECT count(*) FROM games WHERE finished = 0")"
echo "games rated:                        $(sql "SELECT count(DISTINCT game_id) FROM game_results")"
ratings=$(pbem limit ratings | grep -Eo '(alice|bob) +[0-9]+' | tr -s ' ' | paste -sd, - || true)
echo "ratings after (alice, bob):         ${ratings:-nobody rated: both stay at 1600}"
