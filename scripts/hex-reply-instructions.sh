#!/usr/bin/env bash
# The instructions (valgrind's callgrind, independent of the machine's load) of one fresh
# `pbem ingest` of a Hex 11 move sent bare in reply to the board mail's signed Reply-To, pictures
# on (the default): issue 35 item 2's figure (163 M at 8096aec; goal 40 M), and issue 36 section 4's
# (pictures painted, not parsed back). For each binary given: a fresh database, alice and bob
# signed up, `hex challenge alice bob` (11x11, alice to move), then alice's reply `f6` counted.
# The same run with pictures off (`[mail] pictures = false`) says what the picture costs; the size
# of the board mail to bob says what it weighs.
#
#   scripts/hex-reply-instructions.sh BIN [BIN...]      (default: target/release/pbem)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || {
    echo "hex-reply-instructions.sh: needs valgrind (apt-get install -y valgrind)" >&2
    exit 69
}
BINS=("$@")
[[ ${#BINS[@]} -gt 0 ]] || BINS=("${CARGO_TARGET_DIR:-target}/release/pbem")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export PBEM_NOW=1795000000 PBEM_SEED=1
unset PBEM_CONFIG

mail() { # FROM SUBJECT: an .eml on stdout
    printf 'From: %s\r\nTo: pbem@localhost\r\nSubject: %s\r\nMessage-ID: <hex-%s@example.org>\r\n\r\n\r\n' \
        "$1" "$2" "$RANDOM$RANDOM"
}

# run BIN PICTURES: prints the instruction count of alice's reply move.
run() {
    local bin=$1 pictures=$2 dir
    dir=$(mktemp -d -p "$WORK")
    printf '[mail]\npictures = %s\n' "$pictures" >"$dir/pbem.toml"
    p() { "$bin" --config "$dir/pbem.toml" --db "$dir/db.sqlite" --outbox "$dir/out" "$@"; }
    for who in alice bob; do
        mail "$who@example.org" "signup $who pw-$who" | p ingest >/dev/null
    done
    rm -rf "$dir/out"
    mail "alice@example.org" "hex challenge alice bob" | p ingest >/dev/null
    local to_alice reply_to subject
    to_alice=$(grep -l '^To: alice@example.org' "$dir"/out/*.eml | head -1)
    reply_to=$(grep -m1 '^Reply-To:' "$to_alice" | sed -e 's/^Reply-To: *//' -e 's/.*<//' -e 's/>.*//' | tr -d '\r')
    subject=$(grep -m1 '^Subject:' "$to_alice" | sed -e 's/^Subject: *//' | tr -d '\r')
    [[ $reply_to == pbem+* ]] || {
        echo "hex-reply-instructions.sh: alice's board mail has no signed Reply-To ('$reply_to')" >&2
        exit 1
    }
    printf 'From: alice@example.org\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <hex-reply@example.org>\r\n\r\nf6\r\n\r\n> the board\r\n' \
        "$reply_to" "$subject" >"$dir/reply.eml"
    rm -rf "$dir/out"
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" \
        "$bin" --config "$dir/pbem.toml" --db "$dir/db.sqlite" --outbox "$dir/out" ingest \
        <"$dir/reply.eml" >/dev/null 2>"$dir/vg.log"
    local mails
    mails=$(grep -l 'alice played f6' "$dir"/out/*.eml | wc -l)
    [[ $mails -ge 1 ]] || {
        echo "hex-reply-instructions.sh: the reply was not played:" >&2
        cat "$dir"/out/*.eml >&2
        exit 1
    }
    local bytes
    bytes=$(grep -l '^To: bob@example.org' "$dir"/out/*.eml | head -1 | xargs wc -c | awk '{ print $1 }')
    echo "$(awk '/^summary:/ { print $2 }' "$dir/cg.out") $bytes"
}

for bin in "${BINS[@]}"; do
    read -r on on_bytes < <(run "$bin" true)
    read -r off off_bytes < <(run "$bin" false)
    printf '%s: pictures on %s instructions (board mail to bob %s bytes), off %s (%s bytes): the picture %s\n' \
        "$bin" "$on" "$on_bytes" "$off" "$off_bytes" $((on - off))
done
