#!/usr/bin/env bash
# What bob's mailbox gets when he plays several games of Limit by mail (issue 25, section 2): the
# mails and bytes of a board mail per move (the default), against `set bob ... digest on` and/or
# `mail text`. Every round alice moves in every game, then bob answers in every game; with the
# digest on he waits for the next day's digest (one `pbem cron` a day) and answers from it. Real
# binary, real SQLite file, the file transport; sizes do not depend on the build.
#   scripts/digest-mail-bytes.sh [GAMES] [ROUNDS]      (default 5 games, 4 rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-5}
rounds=${2:-4}
cargo build --locked --quiet
bin="${CARGO_TARGET_DIR:-target}/debug/pbem"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The line to send for board $3 from the newest mail to $2 about it (its board mail, or a digest);
# empty when that mail has none.
newest_line() {
    local f
    for f in $(ls "$1"/out/*.eml | sort -r); do
        grep -q "^To: $2@" "$f" || continue
        # `Limit Board 101: your move`, `Limit Board 101` (subject plain), or a digest.
        grep -q -E -e "^Subject: .*Board $3(:|$|\r)" -e "^Subject: .*Your move" "$f" || continue
        grep -h "^    limit move $3 $2 <password> " "$f" | head -1 | sed 's/^ *//' || true
        return 0
    done
}

run() { # name settings...
    local dir="$work/$1"; shift
    mkdir -p "$dir"
    local now=1795000000 n=0
    pb() { PBEM_NOW=$now PBEM_SEED=7 "$bin" --db "$dir/db.sqlite" --outbox "$dir/out" "$@"; }
    mail() { # from subject
        n=$((n + 1))
        printf 'From: %s\r\nTo: pbem@localhost\r\nSubject: %s\r\nMessage-ID: <m%d@x>\r\n\r\n\r\n' \
            "$1" "$2" "$n" | pb ingest
    }
    mail alice@example.org "signup alice pw-alice"
    mail bob@example.org "signup bob pw-bob"
    for s in "$@"; do mail bob@example.org "set bob pw-bob $s"; done
    rm -rf "$dir/out"
    for _ in $(seq "$games"); do mail alice@example.org "limit challenge alice bob"; done
    local played=0 line who b
    for _ in $(seq "$rounds"); do
        for who in alice bob; do
            for b in $(seq 101 $((100 + games))); do
                line=$(newest_line "$dir" "$who" "$b")
                if [ -z "$line" ]; then
                    # Nothing yet (the digest is on): the next day's digest brings the lines.
                    now=$(( (now / 86400 + 1) * 86400 + 900 ))
                    pb cron > /dev/null
                    line=$(newest_line "$dir" "$who" "$b")
                fi
                [ -n "$line" ] || { echo "no line for $who on board $b" >&2; exit 1; }
                now=$((now + 60))
                mail "$who@example.org" "${line/<password>/pw-$who}"
                played=$((played + 1))
            done
        done
    done
    now=$(( (now / 86400 + 1) * 86400 + 900 ))
    pb cron > /dev/null
    local files count bytes
    files=$(grep -l "^To: bob@" "$dir"/out/*.eml)
    count=$(echo "$files" | wc -l)
    bytes=$(echo "$files" | xargs cat | wc -c)
    printf '%-22s %3d moves in %d games, %d days: bob got %3d mails, %8d bytes\n' \
        "${*:-default}" "$played" "$games" $(( (now - 1795000000) / 86400 + 1 )) "$count" "$bytes"
}

run default
run digest "digest on"
run text "mail text"
run both "digest on" "mail text"
