#!/usr/bin/env bash
# Issue 22, item 2: password recovery blocked by strangers. alice asks for a reset code from her
# registered address; within the hour 20 strangers (one mail each, from 20 addresses) send wrong
# codes for alice; then alice sends the right code from her registered address. Prints what the
# strangers were told, whether alice's right code set her password, and the wrong codes recorded.
set -euo pipefail
source "$(dirname "$0")/lib.bash"

deliver alice@example.org "signup alice pw-alice"
rm -rf "$WORK/outbox"
deliver alice@example.org "password reset alice"
code=$(mails | grep -Eo 'password set alice [A-Z2-9]{10}' | head -1 | awk '{print $4}')
rm -rf "$WORK/outbox"
for k in $(seq 1 20); do
    PBEM_NOW=$((START + k * 60)) deliver "stranger$k@evil.example" "password set alice WRONG$((10000 + k)) stolen-pw"
done
refused=$(mails | grep -c 'That code does not set a password of alice' || true)
rm -rf "$WORK/outbox"
PBEM_NOW=$((START + 1800)) deliver alice@example.org "password set alice $code fresh-pw"
if mails | grep -q 'The password of alice has been set' &&
    pbem change password alice fresh-pw pw-alice >/dev/null 2>&1; then
    owner="set (the new password works)"
else
    owner="REFUSED: $(mails | awk -F'\t' '{print substr($3, 1, 80)}' | head -1)"
fi
echo "wrong codes from 20 strangers in 20 minutes: $refused refused"
echo "alice's right code, 30 minutes in:           $owner"
echo "wrong codes recorded (not alice's address):  $(sql "SELECT count(*) FROM password_failures WHERE registered = 0")"
