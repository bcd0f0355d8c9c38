#!/usr/bin/env bash
# Issue 22, item 1: robot games held the database's write lock while the robots thought. A stranger
# mails 20 lines `limit challenge robot1 robot3`, and alice, a player, mails `limit challenge robot3
# alice` (robot3 moves first) at the same moment. Meanwhile bob and carol send mails (`limit show
# 101`), one after another, each a real `pbem ingest` with the default 5 s busy timeout, for WINDOW
# seconds (default 60). Prints how many of their mails were answered and how many deferred (exit
# 75), their time (median, max), what became of the two robot mails (a mail still running at the
# end of the window is killed: its transaction rolls back), the stranger's answer and the robots'
# ratings.
set -euo pipefail
source "$(dirname "$0")/lib.bash"
WINDOW=${WINDOW:-60}

for u in alice bob carol; do deliver "$u@example.org" "signup $u pw-$u"; done
deliver bob@example.org "limit challenge --password=pw-bob bob carol"
rm -rf "$WORK/outbox"

lines=$(for _ in $(seq 20); do printf 'limit challenge robot1 robot3\\n'; done)
# robotmail NAME FROM SUBJECT [BODY]: starts `pbem ingest` on it in the background (pid in PIDS).
declare -A PIDS START RESULT
robotmail() {
    local name=$1; shift
    msg "$@" >"$WORK/$name.eml"
    START[$name]=$EPOCHREALTIME
    "$BIN" --db "$WORK/pbem.sqlite" --outbox "$WORK/outbox" ingest <"$WORK/$name.eml" >/dev/null 2>&1 &
    PIDS[$name]=$!
}
# reap: records the exit and time of the robot mails that ended.
reap() {
    local name rc
    for name in "${!PIDS[@]}"; do
        [[ -n ${RESULT[$name]:-} ]] && continue
        kill -0 "${PIDS[$name]}" 2>/dev/null && continue
        rc=0; wait "${PIDS[$name]}" || rc=$?
        RESULT[$name]="exit $rc after $(python3 -c "print(f'{$EPOCHREALTIME - ${START[$name]}:.1f}')") s"
    done
}
t0=$EPOCHREALTIME
robotmail stranger mallory@evil.example "robots" "$lines"
robotmail alice alice@example.org "limit challenge robot3 alice"
sleep 0.2
: >"$WORK/others"
end=$(( ${t0%.*} + WINDOW ))
while (( ${EPOCHREALTIME%.*} < end )); do
    for u in bob carol; do
        s=$EPOCHREALTIME; rc=0
        msg "$u@example.org" "limit show 101" | pbem ingest >/dev/null 2>&1 || rc=$?
        echo "$rc $s $EPOCHREALTIME" >>"$WORK/others"
    done
    reap
done
reap
for name in stranger alice; do
    if [[ -z ${RESULT[$name]:-} ]]; then
        kill "${PIDS[$name]}" 2>/dev/null || true
        wait "${PIDS[$name]}" 2>/dev/null || true
        RESULT[$name]="still running after the ${WINDOW} s window: killed (its transaction rolls back)"
    fi
done

python3 - "$WORK" "$t0" <<'PY'
import pathlib, statistics, sys
work, t0 = pathlib.Path(sys.argv[1]), float(sys.argv[2])
rows = [l.split() for l in (work / "others").read_text().split("\n") if l]
codes = [r[0] for r in rows]
secs = [float(r[2]) - float(r[1]) for r in rows]
print(f"other players' mails sent:        {len(rows)} (bob and carol, one after another)")
print(f"  answered (exit 0):              {codes.count('0')}")
print(f"  deferred (exit 75):             {codes.count('75')}")
print(f"  other exits:                    {len(codes) - codes.count('0') - codes.count('75')}")
print(f"  time a mail took, median / max: {statistics.median(secs):.2f} s / {max(secs):.2f} s")
PY
echo "stranger's 20-line robot mail:    ${RESULT[stranger]}"
echo "alice's mail against robot3:      ${RESULT[alice]}"
echo "games made:                       $(sql "SELECT count(*) FROM games") (1 is bob's)"
echo "stranger's answer:                $(mails | awk -F'\t' '$1 ~ /mallory/ {print substr($3, 1, 90)}' | head -1)"
ratings=$(pbem limit ratings | grep -Eo 'robot[0-9] +[0-9]+' | tr -s ' ' | paste -sd, - || true)
echo "robots' ratings after:            ${ratings:-no robot rated}"
