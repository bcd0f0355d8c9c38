#!/bin/sh
# Peak resident memory of `pbem lmtp` under the 5,000-mail mix (issue 35, item 3): RUNS runs of
# scripts/lmtp-bench.py --mails 1000 --rss-mails 4000 (300 games, 2 workers, default argon2 cost,
# pictures on unless EXTRA=--no-pictures; run N uses seed N) for each binary named, then the median
# peak RSS of each binary. The peak is VmHWM after the last mail. PARALLEL=1 starts every run at
# once (memory does not depend on speed; the times printed then mean nothing).
#
#   scripts/lmtp-rss.sh [RUNS] [BINARY...]     (default: 3 runs of target/release/pbem)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-3}
[ $# -gt 0 ] && shift
[ $# -eq 0 ] && set -- target/release/pbem
out=$(mktemp -d)
one() { # binary, run, log
    python3 scripts/lmtp-bench.py --pbem "$1" --samples 10 --mails 1000 --rss-mails 4000 \
        --seed "$2" ${EXTRA:-} >"$3" 2>&1
}
for bin in "$@"; do
    name=$(echo "$bin" | tr / _)
    i=0
    while [ "$i" -lt "$runs" ]; do
        i=$((i + 1))
        if [ "${PARALLEL:-0}" = 1 ]; then
            one "$bin" "$i" "$out/$name.$i" &
        else
            one "$bin" "$i" "$out/$name.$i"
        fi
    done
done
wait
for bin in "$@"; do
    name=$(echo "$bin" | tr / _)
    for log in "$out/$name".*; do
        grep -q "replies {'250': 4000, '451': 0, '554': 0}" "$log" || {
            echo "$log: not every mail was taken:"; cat "$log"; exit 1; }
        peak=$(sed -n 's/^memory run: .*peak RSS \([0-9.]*\) MiB$/\1/p' "$log")
        echo "$bin ${log##*.}: peak RSS $peak MiB"
        echo "$peak" >>"$out/$name.peaks"
    done
    median=$(sort -n "$out/$name.peaks" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
    echo "$bin: median peak RSS $median MiB over $runs runs ${EXTRA:-}"
done
rm -rf "$out"
