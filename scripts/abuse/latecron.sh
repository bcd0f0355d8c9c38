#!/usr/bin/env bash
# Issue "Trust", item 11: late cron. A game where alice never moves; cron does not run until day 30
# (past the 21-day forfeit time), then at day 31.9 and day 32. Prints what each run did.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

for u in alice bob; do deliver "$u@example.org" "signup $u pw-$u"; done
deliver alice@example.org "limit challenge alice bob"
for d in 30 31.9 32; do
    at=$(python3 -c "print(int($START + $d * $DAY))")
    echo "day $d: $(PBEM_NOW=$at pbem cron)"
done
