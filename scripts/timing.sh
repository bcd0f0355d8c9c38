#!/usr/bin/env bash
# Wall time of one `pbem ingest` run per kind of mail, as an MTA pays it (process start, parse, SQLite
# transaction, argon2 where a password is checked, the replies written by the file transport): the
# median of RUNS runs each, in ms. Then the cost of argon2 alone (examples/argon2_timing.rs), so that
# the mail times can be read with and without it.
#
#   scripts/timing.sh [RUNS]        (default 30; builds the release binary first)
#
# Every move mail is legal: the script follows each game with `pbem engine limit` (same seed as the
# server's, PBEM_SEED) and starts a new game when one ends. Nothing is left behind (a temp folder).
set -euo pipefail

RUNS=${1:-30}
if ! [[ $RUNS =~ ^[1-9][0-9]*$ ]]; then
    echo "timing.sh: RUNS must be a whole number above 0, like 30; it is '$RUNS'" >&2
    exit 64
fi
cd "$(dirname "$0")/.."
cargo build --release --quiet --features tools --bin pbem --example argon2_timing
TARGET=${CARGO_TARGET_DIR:-target}
BIN=$(realpath "$TARGET/release/pbem")
ARGON=$(realpath "$TARGET/release/examples/argon2_timing")

WORK=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$WORK"' EXIT
export PBEM_NOW=1795000000 PBEM_SEED=7
unset PBEM_CONFIG
SEED=7

pbem() { "$BIN" --db "$WORK/pbem.sqlite" --outbox "$WORK/outbox" "$@"; }

# msg FILE FROM SUBJECT [BODY]: a plain-text message with a Message-ID of its own.
N=0
msg() {
    N=$((N + 1))
    printf 'From: %s\r\nTo: pbem@localhost\r\nSubject: %s\r\nDate: Wed, 18 Nov 2026 10:00:00 +0000\r\nMessage-ID: <timing-%s-%s@client.example>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n' \
        "$2" "$3" "$$" "$N" "${4:-}" >"$1"
}

# timed FILE: runs `pbem ingest < FILE`, fails unless it exits 0, prints the wall time in ms.
timed() {
    local t0 t1
    t0=$EPOCHREALTIME
    if ! pbem ingest <"$1" >/dev/null 2>"$WORK/stderr"; then
        echo "timing.sh: pbem ingest failed on $(head -c 300 "$1"):" >&2
        cat "$WORK/stderr" >&2
        exit 1
    fi
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

deliver() { # deliver FROM SUBJECT: untimed setup mail
    msg "$WORK/m.eml" "$1" "$2"
    pbem ingest <"$WORK/m.eml" >/dev/null 2>&1
}

for u in alice bob mallory; do deliver "$u@example.org" "signup $u pw-$u"; done
BOARD=101
deliver alice@example.org "limit challenge alice bob"
"$BIN" engine limit new --seed "$SEED" >"$WORK/game.json"

: >"$WORK/show.ms"; : >"$WORK/move.ms"; : >"$WORK/wrongpw.ms"; : >"$WORK/unknown.ms"; : >"$WORK/signup.ms"
GAMES=1
for ((i = 1; i <= RUNS; i++)); do
    msg "$WORK/show.eml" "spectator$i@example.net" "limit show $BOARD"
    timed "$WORK/show.eml" >>"$WORK/show.ms"

    "$BIN" engine limit moves <"$WORK/game.json" >"$WORK/moves"
    mv=$(head -n 1 "$WORK/moves")
    if [[ -z $mv ]]; then # the game is over: a new one
        BOARD=$((BOARD + 1))
        GAMES=$((GAMES + 1))
        deliver alice@example.org "limit challenge alice bob"
        "$BIN" engine limit new --seed "$SEED" >"$WORK/game.json"
        "$BIN" engine limit moves <"$WORK/game.json" >"$WORK/moves"
        mv=$(head -n 1 "$WORK/moves")
    fi
    case $("$BIN" engine limit status <"$WORK/game.json") in
        "to-move red") who=alice ;;
        "to-move blue") who=bob ;;
        *) echo "timing.sh: unexpected status: $("$BIN" engine limit status <"$WORK/game.json")" >&2; exit 1 ;;
    esac
    num=$(pbem limit show "$BOARD" | sed -n 's/^Move \([0-9]*\)$/\1/p')
    msg "$WORK/move.eml" "$who@example.org" "limit move $BOARD $who pw-$who $mv#$num"
    timed "$WORK/move.eml" >>"$WORK/move.ms"
    "$BIN" engine limit play "$mv" <"$WORK/game.json" >"$WORK/next.json"
    mv "$WORK/next.json" "$WORK/game.json"

    # A wrong password (argon2 verify against mallory's hash; past 10 an hour from one address the
    # throttle refuses unchecked) and an unknown userid (argon2 burned): both refused with an error mail.
    msg "$WORK/wrong.eml" mallory@example.org "limit move $BOARD mallory not-her-password $mv"
    timed "$WORK/wrong.eml" >>"$WORK/wrongpw.ms"
    msg "$WORK/unknown.eml" nobody@example.org "limit move $BOARD nobody$i some-password $mv"
    timed "$WORK/unknown.eml" >>"$WORK/unknown.ms"
    # A signup: one argon2 hash.
    msg "$WORK/signup.eml" "new$i@example.org" "signup new$i pw-new-$i"
    timed "$WORK/signup.eml" >>"$WORK/signup.ms"
done

# Every move must have been applied: no error mail about one of alice's or bob's moves.
errors=$( (grep -l '^Subject: Limit Board [0-9]* Error' "$WORK"/outbox/*.eml || true) | (xargs -r grep -l '^To: \(alice\|bob\)@' || true) | wc -l)
if [[ $errors -ne 0 ]]; then
    echo "timing.sh: $errors move mails were refused; the figures would be wrong" >&2
    exit 1
fi
# ... and each one mailed its board to alice (and to bob): one such mail per move.
boards=$( (grep -l '^To: alice@example.org' "$WORK"/outbox/*.eml || true) | (xargs -r grep -l '^Subject: Limit Board [0-9]*' || true) | (xargs -r grep -L '^Subject: Limit Board [0-9]* Error' || true) | wc -l)
if [[ $boards -ne $RUNS ]]; then
    echo "timing.sh: $boards board mails to alice for $RUNS moves" >&2
    exit 1
fi

echo "pbem ingest, release build, wall time per mail, median of $RUNS runs ($GAMES game(s), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '  %-44s %8s ms\n' \
    "show (no password)" "$(median <"$WORK/show.ms")" \
    "move (1 argon2 verify, 2 board mails)" "$(median <"$WORK/move.ms")" \
    "wrong password (1 argon2 verify, error mail)" "$(median <"$WORK/wrongpw.ms")" \
    "unknown userid (1 argon2 burned, error mail)" "$(median <"$WORK/unknown.ms")" \
    "signup (1 argon2 hash, 1 mail)" "$(median <"$WORK/signup.ms")"
"$ARGON" "$RUNS"
for ((i = 1; i <= RUNS; i++)); do "$ARGON" cold; done >"$WORK/cold.ms"
printf '  %-30s%8s ms  (first argon2 call of a fresh process, as in pbem ingest)\n' \
    "verify_password, cold" "$(median <"$WORK/cold.ms")"
