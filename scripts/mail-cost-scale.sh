#!/usr/bin/env bash
# Is a mail's cost flat in the number of games (issue 35, item 1)? Runs scripts/perf-gate.sh --print
# (callgrind instructions of a move by password, a move by reply, a stranger's `show`, a challenge,
# `pbem cron` with nothing due, a player's `games`, `list limit`) on databases of 100, 1,000 and
# 10,000 games (one player for five games, at least 20) and prints one table.
#
#   scripts/mail-cost-scale.sh [PBEM_BIN SCALE_DB]   (default: build the release binary and scale_db)
#   scripts/mail-cost-scale.sh /work/base/pbem-8096aec target/release/examples/scale_db
#
# The binary must know `--db`, `--outbox`, `ingest` and `cron` (every pbem since issue 13).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -ge 2 ]]; then
    export PBEM_BIN=$1 SCALE_DB=$2
fi
SIZES=${SIZES:-"100 1000 10000"}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for g in $SIZES; do
    u=$((g / 5 < 20 ? 20 : g / 5))
    echo "== $g games, $u players" >&2
    GAMES=$g USERS=$u nice scripts/perf-gate.sh --print 2>/dev/null | grep -E '^[a-z-]+ [0-9]+$' >"$OUT/$g"
    # Built once by the first run; the next ones reuse it.
    export PBEM_BIN=${PBEM_BIN:-target/release/pbem} SCALE_DB=${SCALE_DB:-target/release/examples/scale_db}
done
printf '%-16s' run
for g in $SIZES; do printf '%14s' "$g games"; done
echo
for run in $(awk '{ print $1 }' "$OUT/$(echo "$SIZES" | awk '{ print $1 }')"); do
    printf '%-16s' "$run"
    for g in $SIZES; do
        awk -v r="$run" '$1 == r { printf "%13.2fM", $2 / 1e6 }' "$OUT/$g"
    done
    echo
done
