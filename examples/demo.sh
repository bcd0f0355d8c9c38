#!/usr/bin/env bash
# The demo: runs pbem on its built-in defaults over the example mails in examples/mail/ (two signups, a
# challenge, three moves written the three ways players write them) and shows the board mail that came out.
# Everything happens in a fresh temporary folder; nothing outside it is touched.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --quiet
pbem="$PWD/target/release/pbem"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A fixed clock and layout seed make the example moves legal and the output the same on every machine.
export PBEM_NOW=1795000000 PBEM_SEED=7
for mail in examples/mail/*.eml; do
    echo "== pbem ingest $mail"
    "$pbem" --db "$work/pbem.sqlite" --outbox "$work/outbox" ingest "$mail"
done

echo
echo "== $(ls "$work/outbox" | wc -l) mails went out; the last board mail to bob:"
last=$(grep -l "^To: .*bob@example.org" "$work"/outbox/*.eml | xargs ls -t | head -n 1)
# Un-fold the quoted-printable soft line breaks so the board reads as the player sees it.
python3 - "$last" <<'PY' 2>/dev/null || cat "$last"
import email, sys
from email import policy
msg = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
for h in ("From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "Auto-Submitted", "X-Loop"):
    if msg[h]:
        print(f"{h}: {msg[h]}")
print()
print(msg.get_body(("plain",)).get_content())
PY
echo
echo "== pbem limit show 101 (as the admin):"
"$pbem" --db "$work/pbem.sqlite" --outbox "$work/outbox" limit show 101 | head -n 12
