#!/usr/bin/env bash
# The demo: runs pbem on its built-in defaults over the example mails in examples/mail/ (two signups, a
# challenge, three moves written the three ways players write them, each body printed as written, then
# bob's answer written as most players write it: just the move, in reply to his board mail), says
# what each mail did, and shows the last board mail and the board as the admin sees it. Its work (database and sent mails) is kept in a
# fresh folder whose name it prints at the end; nothing else is touched.
set -euo pipefail
cd "$(dirname "$0")/.."

# PBEM_BIN: an already built pbem (the tests use it); otherwise this builds target/release/pbem.
if [[ -n ${PBEM_BIN:-} ]]; then
    pbem=$PBEM_BIN
else
    echo "== building pbem (release; the first build takes a few minutes)"
    cargo build --release --bin pbem
    pbem="$PWD/target/release/pbem"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pbem-demo.XXXXXX")
mkdir -p "$work/outbox"
touch -d '2000-01-01' "$work/stamp"

# A fixed clock and layout seed make the example moves legal and the output the same on every machine.
export PBEM_NOW=1795000000 PBEM_SEED=7
run() { "$pbem" --db "$work/pbem.sqlite" --outbox "$work/outbox" "$@"; }
header() { sed -n "s/^$1: *//p" "$2" | head -n 1 | tr -d '\r'; }
mails_out() { find "$work/outbox" -name '*.eml' | wc -l; }

# feed MAIL: says what the mail holds, feeds it to `pbem ingest`, and lists the mails it caused.
feed() {
    local mail=$1 from subject before body
    from=$(header From "$mail")
    subject=$(header Subject "$mail")
    before=$(mails_out)
    echo
    echo "== $(basename "$mail"): from $from, Subject: $subject"
    # The body as the player wrote it: where the command sits in a reply, or several commands in one mail.
    body=$(sed '1,/^\r\{0,1\}$/d' "$mail" | tr -d '\r')
    if [[ -n $body ]]; then
        echo "   the body as written:"
        printf '%s\n' "$body" | sed 's/^/   | /'
    fi
    run ingest "$mail"
    echo "   handled; $(($(mails_out) - before)) mail(s) sent:"
    find "$work/outbox" -name '*.eml' -newer "$work/stamp" | sort | while read -r sent; do
        echo "     to $(header To "$sent"): $(header Subject "$sent")"
    done
    touch "$work/stamp"
}

for mail in examples/mail/*.eml; do
    feed "$mail"
done

# The way most players move: Reply on the board mail, just the move above the quote. Its Reply-To
# is signed for bob and this board (a secret of this database), so the mail is written here.
last=$(grep -l "^To: .*bob@example.org" "$work"/outbox/*.eml | xargs ls -t | head -n 1)
reply_to=$(header Reply-To "$last" | sed -e 's/.*<//' -e 's/>.*//')
printf 'From: Bob <bob@example.org>\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <07-bare-reply@example.org>\r\nIn-Reply-To: %s\r\n\r\n3-1,3\r\n\r\nOn Wed, 18 Nov 2026, pbem <pbem@localhost> wrote:\r\n> Summary of Limit Board 101\r\n' \
    "$reply_to" "$(header Subject "$last")" "$(header Message-ID "$last")" >"$work/07-bare-reply-bob.eml"
echo
echo "== bob hits Reply on his board mail (Reply-To: $reply_to) and writes just his move:"
feed "$work/07-bare-reply-bob.eml"

echo
echo "== $(mails_out) mails went out in all; the last board mail to bob, as he reads it:"
last=$(grep -l "^To: .*bob@example.org" "$work"/outbox/*.eml | xargs ls -t | head -n 1)
# Decode the transfer encoding so the board reads as the player sees it.
python3 - "$last" <<'PY' || cat "$last"
import email, sys
from email import policy
msg = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
for h in ("From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "Auto-Submitted", "X-Loop"):
    if msg[h]:
        print(f"{h}: {msg[h]}")
print()
print(msg.get_body(("plain",)).get_content())
PY
echo "== pbem limit show 101 (as the admin):"
run limit show 101
echo
echo "== the demo's database and sent mails are kept in $work"
echo "   (look at them with: $pbem --db $work/pbem.sqlite limit games alice all)"
