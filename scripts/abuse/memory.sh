#!/usr/bin/env bash
# Issue "Trust", item 5: memory from tiny mails. Peak resident memory (VmHWM, which the binary prints
# with PBEM_REPORT_RSS=1) and argon2 runs of:
#   1. one ~700-byte mail of 20 `change password bob WRONG NEW` lines;
#   2. 16 such mails ingested at once (sum and max over the 16 processes);
#   3. 400 MB on stdin;
#   4. `pbem maildir` over 1,000 mails with 480 different passwords (480 signups, then 520 commands
#      with those passwords from the players' own addresses: 1,000 argon2 runs in one process).
# The goal of each: at most 64 MB (the sum of 2. is 16 processes).
#
#   PBEM_BIN=target/release/pbem scripts/abuse/memory.sh      (scripts/abuse.sh sets PBEM_BIN)
set -euo pipefail

BIN=${PBEM_BIN:?set PBEM_BIN to the pbem binary (scripts/abuse.sh does)}
WORK=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$WORK"' EXIT
unset PBEM_CONFIG
export PBEM_SEED=7 PBEM_NOW=1795000000 PBEM_REPORT_RSS=1
GOAL_KB=$((64 * 1024))

pbem() { "$BIN" --db "$WORK/pbem.sqlite" --outbox "$WORK/outbox" "$@"; }

# msg FROM SUBJECT BODY ID: a plain-text message on stdout.
msg() {
    printf 'From: %s\r\nTo: pbem@localhost\r\nSubject: %s\r\nMessage-ID: <memory-%s@client.example>\r\nContent-Type: text/plain\r\n\r\n%b' \
        "$1" "$2" "$4" "$3"
}
# The two figures of a process's report, "KB RUNS", from its stderr on stdin.
figures() { sed -n 's/^pbem: peak RSS \([0-9]*\) kB, argon2 hashes \([0-9]*\).*$/\1 \2/p'; }

failed=0
check() { # check WHAT KB
    if (($2 > GOAL_KB)); then
        echo "memory: FAILED: $1 peaked at $2 kB, over $GOAL_KB kB" >&2
        failed=1
    fi
}

pbem signup bob pw-bob bob@example.org >/dev/null 2>&1
body=""
for k in $(seq 1 20); do body+="change password bob WRONG$k NEW$k\n"; done
msg stranger@evil.example multiple "$body" one >"$WORK/tiny.eml"
read -r kb runs < <(pbem ingest <"$WORK/tiny.eml" 2>&1 >/dev/null | figures)
echo "memory: 1. a $(wc -c <"$WORK/tiny.eml")-byte mail of 20 change-password lines: peak RSS $kb kB, $runs argon2 runs"
check "the tiny mail" "$kb"

for i in $(seq 1 16); do
    msg "s$i@evil.example" multiple "$body" "par-$i" >"$WORK/par-$i.eml"
done
for i in $(seq 1 16); do
    pbem ingest <"$WORK/par-$i.eml" 2>"$WORK/par-$i.err" >/dev/null &
done
wait
cat "$WORK"/par-*.err | figures >"$WORK/par.fig"
sum=$(awk '{ s += $1 } END { print s }' "$WORK/par.fig")
max=$(awk '$1 > m { m = $1 } END { print m }' "$WORK/par.fig")
runs=$(awk '{ s += $2 } END { print s }' "$WORK/par.fig")
echo "memory: 2. 16 of them at once: peak RSS $sum kB together, at most $max kB each, $runs argon2 runs"
check "one of 16 at once" "$max"

t0=$EPOCHREALTIME
read -r kb runs < <({
    msg bob@example.org "limit show 101" "" big
    yes "All work and no play makes Jack a dull boy." | head -c 400000000
} | pbem ingest 2>&1 >/dev/null | figures)
t1=$EPOCHREALTIME
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
refused=$(grep -l "Your mail is larger than 256 KiB" "$WORK"/outbox/*.eml | wc -l)
echo "memory: 3. 400 MB on stdin: peak RSS $kb kB, $runs argon2 runs, $secs s; refused with an answer: $refused mail"
check "400 MB on stdin" "$kb"
((refused == 1)) || { echo "memory: FAILED: the 400 MB mail got no refusal" >&2; failed=1; }

mkdir -p "$WORK/Maildir/new"
for k in $(seq 1 1000); do
    p=$(((k - 1) % 480 + 1))
    if ((k <= 480)); then
        subject="signup p$p pw-$p-secret"
    else
        subject="vacation p$p pw-$p-secret off"
    fi
    msg "p$p@players.example" "$subject" "" "maildir-$k" >"$WORK/Maildir/new/$(printf '%05d' "$k").eml"
done
t0=$EPOCHREALTIME
read -r kb runs < <(pbem maildir "$WORK/Maildir" 2>&1 >/dev/null | figures)
t1=$EPOCHREALTIME
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
echo "memory: 4. pbem maildir over 1,000 mails with 480 different passwords: peak RSS $kb kB, $runs argon2 runs, $secs s"
check "maildir" "$kb"
((runs == 1000)) || { echo "memory: FAILED: $runs argon2 runs, not 1,000: the run did not check every password" >&2; failed=1; }
echo "memory: goal: each at most $GOAL_KB kB (64 MB)"
exit $failed
