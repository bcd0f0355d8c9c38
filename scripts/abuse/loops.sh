#!/usr/bin/env bash
# Issue "Trust", items 6 and 7: the mail loop guard and Message-IDs taken first. Mails with each
# automatic or list header, and from mail systems, carrying a signup; an autoresponder that echoes the
# "no command" answer (argon2 runs it causes); a stranger who sends first under alice's next Message-ID.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

for u in alice bob; do deliver "$u@example.org" "signup $u pw-$u"; done
deliver alice@example.org "limit challenge alice bob"
rm -rf "$WORK/outbox"
n=0
for h in "Precedence: auto_reply" "X-Auto-Response-Suppress: All" "List-Id: <g.lists.example>" \
    "List-Unsubscribe: <mailto:x@lists.example>" "Mailing-List: contact g@lists.example" \
    "X-Mailing-List: g@lists.example"; do
    n=$((n + 1))
    deliver "x$n@example.org" "signup quiet$n pw$n" "" "$h"
done
for from in mailer@example.org MAILER-DAEMON@example.org postmaster@example.org; do
    n=$((n + 1))
    deliver "$from" "signup quiet$n pw$n"
done
echo "automatic, list and mail-system mails: $n, answered: $(mails | wc -l), accounts made: $(sql "SELECT count(*) FROM users WHERE userid LIKE 'quiet%'")"
deliver alice@example.org "Hello" "What now?"
answer=$(mails | cut -f3)
example=$(grep -o 'limit move [0-9]* alice <password> 3-7,4' <<<"$answer" || true)
runs=$(msg alice@example.org "Re: limit error" "$answer" | PBEM_REPORT_RSS=1 pbem ingest 2>&1 >/dev/null | grep -o 'argon2 hashes [0-9]*' || true)
echo "no-command answer shows: $example; its echo cost: $runs"
M=$("$BIN" engine limit new --seed 7 | "$BIN" engine limit moves | head -n 1)
id="next-move@mail.example.org"
printf 'From: mallory@evil.example\r\nSubject: limit show 101\r\nMessage-ID: <%s>\r\n\r\n\r\n' "$id" | pbem ingest >/dev/null 2>&1
printf 'From: alice@example.org\r\nSubject: limit move 101 alice pw-alice %s\r\nMessage-ID: <%s>\r\n\r\n\r\n' "$M" "$id" | pbem ingest >/dev/null 2>&1
echo "alice's move under a Message-ID a stranger used first: $(pbem limit show 101 | grep -q '^Move 2$' && echo played || echo DROPPED)"
