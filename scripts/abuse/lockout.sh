#!/usr/bin/env bash
# Issue "Trust", item 1: lock-out as a weapon. For 22 days strangers send 2,000 wrong-password mails
# (each ten `limit chat BOARD bob gN` lines, as the attack was found) in bursts every four hours, from
# two fixed addresses and many rotating ones, while alice and bob play real games: bob moves every six hours
# from his registered address with the right password, alice answers three hours later, `pbem cron` runs every six hours
# (it would forfeit bob if his moves were refused). Prints bob's moves taken and refused, the argon2
# runs spent on the strangers, the most of them in any hour for bob's account and for one sender,
# and bob's rating and games at the end.
#
#   PBEM_BIN=target/release/pbem scripts/abuse/lockout.sh      (scripts/abuse.sh sets PBEM_BIN)
#   MAILS=2000 DAYS=22 to change the size; KEEP=1 keeps the work folder.
set -euo pipefail

BIN=${PBEM_BIN:?set PBEM_BIN to the pbem binary (scripts/abuse.sh does)}
MAILS=${MAILS:-2000}
DAYS=${DAYS:-22}
WORK=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$WORK"' EXIT
unset PBEM_CONFIG
export PBEM_SEED=7 PBEM_NOW=1795000000
START=$PBEM_NOW
END=$((START + DAYS * 86400))

pbem() { "$BIN" --db "$WORK/pbem.sqlite" --outbox "$WORK/outbox" "$@"; }

# msg FROM SUBJECT [BODY]: a plain-text message on stdout, with a Message-ID of its own (it runs in
# a pipeline's subshell, so the id comes from the clock, not from a counter).
msg() {
    printf 'From: %s\r\nTo: pbem@localhost\r\nSubject: %s\r\nMessage-ID: <lockout-%s-%s@client.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%b\r\n' \
        "$1" "$2" "${EPOCHREALTIME/./}" "$RANDOM" "${3:-}"
}
deliver() { msg "$@" | pbem ingest >/dev/null 2>&1; }

for u in alice bob; do deliver "$u@example.org" "signup $u pw-$u"; done
BOARD=101
GAMES=1
deliver alice@example.org "limit challenge alice bob"
"$BIN" engine limit new --seed 7 >"$WORK/game.json"

# play WHO: WHO's move on the current board, from the registered address, with the right password.
# Sets RESULT to "taken", "refused" or "skipped" (not WHO's turn). Not run in a subshell: it may start
# the next game (BOARD, GAMES).
play() {
    local who=$1 mv num before after
    mv=$("$BIN" engine limit moves <"$WORK/game.json" | head -n 1)
    if [[ -z $mv ]]; then # over: a new game
        BOARD=$((BOARD + 1))
        GAMES=$((GAMES + 1))
        deliver alice@example.org "limit challenge alice bob"
        "$BIN" engine limit new --seed 7 >"$WORK/game.json"
        mv=$("$BIN" engine limit moves <"$WORK/game.json" | head -n 1)
    fi
    case $("$BIN" engine limit status <"$WORK/game.json") in
        "to-move red") [[ $who == alice ]] || { RESULT=skipped; return; } ;;
        "to-move blue") [[ $who == bob ]] || { RESULT=skipped; return; } ;;
    esac
    before=$(pbem limit show "$BOARD" | sed -n 's/^Move \([0-9]*\)$/\1/p')
    deliver "$who@example.org" "limit move $BOARD $who pw-$who $mv#$before"
    after=$(pbem limit show "$BOARD" | sed -n 's/^Move \([0-9]*\)$/\1/p')
    if [[ $after != "$before" ]]; then
        "$BIN" engine limit play "$mv" <"$WORK/game.json" >"$WORK/next.json"
        mv "$WORK/next.json" "$WORK/game.json"
        RESULT=taken
    else
        RESULT=refused
    fi
}

: >"$WORK/strangers" # time sender argon2-runs, one line a stranger's mail
taken=0
refused=0
sent=0
rotating=0
t=$START
BURST_EVERY=$((4 * 3600))
PER_BURST=$(((MAILS * BURST_EVERY + (END - START) - 1) / (END - START)))
next_burst=$((START + 1800))
next_move=$((START + 9 * 3600))
next_cron=$((START + 6 * 3600))
while ((t < END)); do
    # The next event: a burst, bob's move (alice answers 3 h later), or cron.
    t=$next_burst
    ((next_move < t)) && t=$next_move
    ((next_cron < t)) && t=$next_cron
    ((t >= END)) && break
    export PBEM_NOW=$t
    if ((t == next_burst)); then
        for ((k = 0; k < PER_BURST && sent < MAILS; k++)); do
            case $((sent % 3)) in
                0) from=mallory@evil.example ;;
                1) from=trudy@evil.example ;;
                *) rotating=$((rotating + 1)); from="r$rotating@rotating$((rotating % 7)).example" ;;
            esac
            body=""
            for g in 0 1 2 3 4 5 6 7 8 9; do body+="limit chat $BOARD bob g$sent-$g\n"; done
            export PBEM_NOW=$((t + k * 60))
            runs=$(msg "$from" multiple "$body" | PBEM_REPORT_RSS=1 pbem ingest 2>&1 >/dev/null |
                sed -n 's/^pbem: peak RSS .* argon2 hashes \([0-9]*\).*$/\1/p')
            echo "$PBEM_NOW $from ${runs:-0}" >>"$WORK/strangers"
            sent=$((sent + 1))
        done
        next_burst=$((next_burst + BURST_EVERY))
        rm -f "$WORK"/outbox/*.eml
    elif ((t == next_move)); then
        play bob
        case $RESULT in
            taken) taken=$((taken + 1)) ;;
            refused) refused=$((refused + 1)) ;;
        esac
        PBEM_NOW=$((t + 3 * 3600)) play alice
        next_move=$((next_move + 6 * 3600))
    else
        pbem cron >>"$WORK/cron.log" 2>&1
        next_cron=$((next_cron + 6 * 3600))
    fi
done

# The most argon2 runs in any hour (any window of 3600 s) in lines "time sender runs" on stdin.
busiest() {
    sort -n | awk '{ t[NR] = $1; n[NR] = $3 } END {
        best = 0; sum = 0; j = 1
        for (i = 1; i <= NR; i++) {
            sum += n[i]
            while (t[j] <= t[i] - 3600) { sum -= n[j]; j++ }
            if (sum > best) best = sum
        }
        print best
    }'
}
hashes=$(awk '{ s += $3 } END { print s + 0 }' "$WORK/strangers")
guesses=$((sent * 10))
account_hour=$(busiest <"$WORK/strangers")
mallory_hour=$(grep ' mallory@' "$WORK/strangers" | busiest)
trudy_hour=$(grep ' trudy@' "$WORK/strangers" | busiest)
rotating_hour=$(grep ' r[0-9]*@' "$WORK/strangers" | awk '{ print $1, "r", $3 }' | busiest)
forfeits=$(grep -o '[0-9]* forfeits' "$WORK/cron.log" | awk '{ s += $1 } END { print s + 0 }')

echo "lockout: $sent wrong-password mails ($guesses guesses at bob's password) in $DAYS days, bursts of $PER_BURST every 4 h"
echo "  from 2 fixed addresses and $rotating rotating ones; bob moved every 6 h from his address"
echo "  bob's moves taken:           $taken"
echo "  bob's moves refused:         $refused"
echo "  argon2 runs on strangers:    $hashes (of $guesses guesses; the rest refused unchecked)"
echo "  most argon2 runs in an hour: $account_hour for bob's account (allowance 20);"
echo "                               $mallory_hour from mallory, $trudy_hour from trudy (allowance 10 each), $rotating_hour from all rotating"
echo "  games played:                $GAMES (board 101..$BOARD); forfeits by cron: $forfeits"
echo "  bob's rating and games:"
pbem limit ratings | sed 's/^/    /'
pbem limit games bob all | sed 's/^/    /'
if ((refused > 0 || account_hour > 20 || mallory_hour > 10 || trudy_hour > 10)); then
    echo "lockout: FAILED: a move of bob's was refused or an allowance was exceeded" >&2
    exit 1
fi
