#!/usr/bin/env bash
# Issue 34, items 1 and 4: one reply floods a player; a player who proved who they are is silenced.
# mallory signs up, challenges alice (an unsolicited game), and replies to his own board mail (to its
# signed Reply-To) with 998 `chat` lines and one line of text; then $REPLIES more such replies the
# same day; the next day alice declines the game and mallory replies once more. Prints the mails to
# alice each time, the time and the database growth. Then alice makes 8 mistakes with her right
# password and 8 replies to her own signed address that are no move: how many were answered.
set -euo pipefail
source "$(dirname "$0")/lib.bash"
REPLIES=${REPLIES:-40}

# reply FROM TO-ADDRESS SUBJECT BODY: a reply to a signed address (the body as given, no quote).
reply() {
    msg "$1" "$3" "$4" | sed "s/^To: pbem@localhost\r\$/To: pbem <$2>\r/" | pbem ingest >/dev/null 2>&1
}
count() { mails | awk -F'\t' -v to="$1" '$1 ~ to' | wc -l; }
# reply_to TO SUBJECT-START: the Reply-To address of the mail to TO whose Subject starts so.
reply_to() {
    python3 - "$WORK/outbox" "$1" "$2" <<'PY'
import email, email.policy, pathlib, sys
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.eml")):
    m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
    if sys.argv[2] in str(m["To"]) and str(m["Subject"]).startswith(sys.argv[3]):
        print(m["Reply-To"].addresses[0].addr_spec)
        break
PY
}
size() { stat -c %s "$WORK/pbem.sqlite"; }

deliver alice@example.org "signup alice pw-alice"
deliver mallory@evil.example "signup mallory pw-mallory"
rm -rf "$WORK/outbox"
deliver mallory@evil.example "limit challenge --password=pw-mallory mallory alice"
token=$(reply_to mallory@evil.example "Limit Board 101")
rm -rf "$WORK/outbox"
attack="$(printf 'chat\\n%.0s' $(seq 998))Nice game you have there."
printf '%b' "$attack" > "$WORK/attack.txt"
echo "the attack mail's body: $(wc -c < "$WORK/attack.txt") bytes, $(wc -l < "$WORK/attack.txt") lines"

before=$(size)
t0=$EPOCHREALTIME
reply mallory@evil.example "$token" "Re: Limit Board 101" "$attack"
t1=$EPOCHREALTIME
echo "one reply: $(count alice@example.org) mails to alice, $(mails | wc -l) in all," \
    "$(python3 -c "print(round($t1 - $t0, 2))") s to ingest, database +$(( ($(size) - before) / 1024 )) KiB"
rm -rf "$WORK/outbox"
total=0
for i in $(seq 1 "$REPLIES"); do
    PBEM_NOW=$((START + i * 60)) reply mallory@evil.example "$token" "Re: Limit Board 101" "$attack"
    total=$((total + $(count alice@example.org)))
    rm -rf "$WORK/outbox"
done
echo "$REPLIES more the same day: $total mails to alice (database $(( $(size) / 1024 )) KiB)"

export PBEM_NOW=$((START + DAY + 3600))
deliver alice@example.org "limit move 101 alice pw-alice reject"
rm -rf "$WORK/outbox"
reply mallory@evil.example "$token" "Re: Limit Board 101" "$attack"
echo "after alice declined, the next day: $(count alice@example.org) mails to alice;" \
    "mallory is told: $(mails | awk -F'\t' '$1 ~ /mallory/ {print $3}' | head -1 | cut -c1-160)"
rm -rf "$WORK/outbox"

# Item 4: alice's mistakes, each with her password or to her signed reply address.
deliver alice@example.org "limit challenge alice mallory"
atoken=$(reply_to alice@example.org "Limit Board 102")
rm -rf "$WORK/outbox"
for i in $(seq 1 8); do
    PBEM_NOW=$((PBEM_NOW + 60)) deliver alice@example.org "limit move 102 alice pw-alice 99-$i,1"
done
echo "8 mistakes with the right password: $(count alice@example.org) answered"
rm -rf "$WORK/outbox"
for i in $(seq 1 8); do
    PBEM_NOW=$((PBEM_NOW + 60)) reply alice@example.org "$atoken" "Re: Limit Board 102" "zz$i"
done
echo "8 replies to her signed address that are no move: $(count alice@example.org) answered"
