#!/usr/bin/env bash
# The admin's path, for real (issue 22): installs Postfix, sets pbem up by the README's own blocks
# ("Installing on a server", read from README.md, with play@example.org made play@localhost), sends
# mail over SMTP to localhost:25 and checks that every reply reaches the players' mailboxes exactly
# once: first through `pbem ingest` (Postfix's pipe), then through `pbem lmtp`, which is killed with
# SIGKILL mid-traffic and started again as its systemd unit would (dist/systemd/pbem-lmtp.service: its
# ExecStartPre and ExecStart lines, as its User). Then the README's procmail recipe against a pbem that
# must defer (exit 75), the cron line of dist/cron.d/pbem, and `systemd-analyze verify` of the units.
#
#   scripts/postfix-e2e.sh           the run; root on Debian (apt-get) only, else it says "skipped"
#   scripts/postfix-e2e.sh --check   only checks that README.md still has the blocks the run uses
#
# It rewrites Postfix's configuration and /etc/pbem, /var/lib/pbem: it runs only where it installed
# Postfix itself (a CI machine), marked by /etc/postfix/pbem-e2e.marker. PBEM_BIN names the binary
# (default: a debug build, `cargo build --locked`). Test-only Postfix settings, not the README's: a
# log file and retries after 1 s instead of 5 minutes, so that the run takes under a minute.
set -euo pipefail
cd "$(dirname "$0")/.."

ADDRESS=play@localhost
PLAYERS=(e2e-p1 e2e-p2 e2e-p3 e2e-p4 e2e-p5 e2e-p6)
# Mails per player through LMTP (after the signup and one help through the pipe) and SIGKILLs of
# pbem lmtp among them; keep the mails under the 30 replies an hour an address gets.
LMTP_MAILS=${PBEM_E2E_MAILS:-8}
KILLS=${PBEM_E2E_KILLS:-3}
MARK=/etc/postfix/pbem-e2e.marker
BLOCKS=(install postfix-pipe postfix-lmtp services procmail)

# readme_block NAME: the lines of the fenced block that follows "<!-- e2e: NAME -->" in README.md.
readme_block() {
    awk -v name="$1" '
        $0 == "<!-- e2e: " name " -->" { found = 1; next }
        found == 1 && /^```/ { found = 2; next }
        found == 2 && /^```/ { exit }
        found == 2 { print }
    ' README.md
}

# The blocks as this run uses them: the README's address made this machine's.
local_block() { readme_block "$1" | sed 's/example\.org/localhost/g'; }

# check_readme: every block is there and is valid shell; the units and the cron file it names exist.
check_readme() {
    local b text bad=0
    for b in "${BLOCKS[@]}"; do
        text=$(readme_block "$b")
        if [ -z "$text" ]; then
            echo "README.md has no block \"<!-- e2e: $b -->\" followed by a fenced block" >&2
            bad=1
        elif [ "$b" != procmail ] && ! bash -n <<<"$text"; then
            echo "README.md block $b is not valid shell" >&2
            bad=1
        else
            echo "README block $b: $(wc -l <<<"$text") lines"
        fi
    done
    for f in $(readme_block services | grep -o 'dist/[^ ]*'); do
        [ -f "$f" ] || { echo "README block services names $f, which does not exist" >&2; bad=1; }
    done
    return $bad
}

if [ "${1:-}" = --check ]; then
    check_readme
    exit
fi

WORK=
LOG=/var/log/pbem-e2e-postfix.log
skip() {
    echo "postfix-e2e: skipped: $*"
    exit 0
}
say() { echo "postfix-e2e: $*"; }
fail() {
    say "FAILED: $*"
    [ -z "$WORK" ] || say "logs kept: $WORK (pbem), $LOG (Postfix)"
    exit 1
}
check_readme >/dev/null || fail "README.md lacks a block this run uses (scripts/postfix-e2e.sh --check)"
[ "$(id -u)" = 0 ] || skip "not root (it installs Postfix and adds users)"
command -v apt-get >/dev/null || skip "no apt-get (it is written for Debian)"
if command -v postfix >/dev/null && [ ! -e "$MARK" ]; then
    skip "Postfix is installed here, and not by this script, which rewrites its configuration; on a \
throwaway machine, touch $MARK to let it"
fi
need=()
command -v postfix >/dev/null || need+=(postfix)
command -v python3 >/dev/null || need+=(python3)
command -v procmail >/dev/null || need+=(procmail)
command -v setpriv >/dev/null || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
    echo "postfix-e2e: apt-get install ${need[*]}"
    echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
    echo "postfix postfix/mailname string $(hostname)" | debconf-set-selections
    if ! { timeout 300 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 300 \
        apt-get install -y -qq "${need[@]}"; } >/tmp/pbem-e2e-apt.log 2>&1; then
        skip "apt-get could not install ${need[*]} (see /tmp/pbem-e2e-apt.log)"
    fi
    [[ " ${need[*]} " == *" postfix "* ]] && touch "$MARK"
fi
if ! command -v systemd-analyze >/dev/null; then
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq systemd >/dev/null 2>&1 || true
fi

BIN=${PBEM_BIN:-}
if [ -z "$BIN" ]; then
    command -v cargo >/dev/null || skip "no PBEM_BIN and no cargo to build pbem"
    cargo build --locked --quiet
    BIN=${CARGO_TARGET_DIR:-target}/debug/pbem
fi
BIN=$(realpath "$BIN")

WORK=$(mktemp -d /tmp/pbem-e2e.XXXXXX)
chmod 755 "$WORK"
LMTP_PID=
started=$SECONDS
cleanup() {
    [ -z "$LMTP_PID" ] || kill "$LMTP_PID" 2>/dev/null || true
    postfix stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

# A clean start: Postfix as Debian installed it (its files saved the first time), no pbem state.
postfix stop >/dev/null 2>&1 || true
for f in main.cf master.cf; do
    if [ -e "/etc/postfix/$f.pbem-e2e-orig" ]; then
        cp "/etc/postfix/$f.pbem-e2e-orig" "/etc/postfix/$f"
    else
        cp "/etc/postfix/$f" "/etc/postfix/$f.pbem-e2e-orig"
    fi
done
rm -f /etc/postfix/transport /etc/postfix/transport.db
rm -rf /var/lib/pbem /var/spool/postfix/pbem /etc/pbem
: >"$LOG"
postconf -e "maillog_file = $LOG" 'queue_run_delay = 1s' 'minimal_backoff_time = 1s' \
    'maximal_backoff_time = 2s'
for p in "${PLAYERS[@]}"; do
    id "$p" >/dev/null 2>&1 || useradd -m -s /usr/sbin/nologin "$p"
    rm -f "/var/mail/$p"
done
# Without systemd, as on CI: Postfix started directly.
timeout 60 postfix start >"$WORK/postfix-start.log" 2>&1 ||
    skip "Postfix could not start: $(tail -1 "$WORK/postfix-start.log")"
postsuper -d ALL >/dev/null 2>&1 || true
for _ in $(seq 50); do
    python3 -c 'import socket; socket.create_connection(("127.0.0.1", 25), 1).close()' 2>/dev/null && break
    sleep 0.2
done
python3 -c 'import socket; socket.create_connection(("127.0.0.1", 25), 1).close()' 2>/dev/null ||
    skip "Postfix does not listen on localhost:25"
say "Postfix $(postconf -h mail_version) running; pbem binary $BIN"

# Step 1 of the README, with this checkout's binary, then the two settings it says to set.
local_block install | sed "s|target/release/pbem|$BIN|" | bash -e >"$WORK/install.log" 2>&1 ||
    fail "README block install: $(tail -3 "$WORK/install.log")"
sed -i "s|^name = \"pbem\"|name = \"Limit games (e2e)\"|; s|^address = \"pbem@localhost\"|address = \"$ADDRESS\"|" \
    /etc/pbem/pbem.toml
grep -q "^address = \"$ADDRESS\"" /etc/pbem/pbem.toml || fail "could not set [server] address"

# send.py PHASE SUBJECT...: for every player, one mail per subject over SMTP to localhost:25, the
# players in turn; each line of $WORK/sent.tsv is phase, player, Message-ID.
cat >"$WORK/send.py" <<'PY'
import smtplib, sys, time, uuid
phase, players, subjects = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
address, out = "play@localhost", open(sys.argv[0].rsplit("/", 1)[0] + "/sent.tsv", "a")
smtp = smtplib.SMTP("127.0.0.1", 25, timeout=30)
for subject in subjects:
    for p in players:
        mid = f"{phase}.{uuid.uuid4().hex}@e2e.client"
        user = p.removeprefix("e2e-")
        text = (f"From: {p}@localhost\r\nTo: {address}\r\nSubject: {subject.format(user=user)}\r\n"
                f"Message-ID: <{mid}>\r\n\r\nsent by postfix-e2e\r\n")
        smtp.sendmail(f"{p}@localhost", [address], text.encode())
        print(phase, p, mid, sep="\t", file=out, flush=True)
        time.sleep(0.02)
smtp.quit()
PY

# check.py [--wait SECONDS]: reads every player's mailbox and compares with sent.tsv. Prints
# "replies R of S, missing M, doubled D, stray X"; with --wait, polls until nothing is missing.
cat >"$WORK/check.py" <<'PY'
import collections, email, email.policy, mailbox, os, sys, time
work = os.path.dirname(sys.argv[0])
wait = float(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[1] == "--wait" else 0
deadline = time.time() + wait
while True:
    sent = {}
    for line in open(os.path.join(work, "sent.tsv")):
        phase, player, mid = line.rstrip("\n").split("\t")
        sent[mid] = player
    got, stray, froms = collections.Counter(), 0, set()
    for player in set(sent.values()) | set(sys.argv[3:]):
        path = f"/var/mail/{player}"
        if not os.path.exists(path):
            continue
        parse = lambda f: email.message_from_binary_file(f, policy=email.policy.default)
        for m in mailbox.mbox(path, factory=parse):
            irt = (m["In-Reply-To"] or "").strip().strip("<>")
            froms.add(str(m["From"]))
            if sent.get(irt) == player:
                got[irt] += 1
            else:
                stray += 1
    missing = [m for m in sent if got[m] == 0]
    doubled = [m for m in sent if got[m] > 1]
    if not missing or time.time() > deadline:
        break
    time.sleep(0.5)
print(f"replies {sum(got.values())} of {len(sent)}, missing {len(missing)}, "
      f"doubled {len(doubled)}, stray {stray}")
print("From: " + " | ".join(sorted(froms)))
for m in missing[:5]:
    print("missing: reply to", m)
sys.exit(0 if not missing and not doubled and not stray else 1)
PY
# rcpt.py ADDRESS: what Postfix answers to RCPT TO:<ADDRESS> ("550 5.1.1 ...").
cat >"$WORK/rcpt.py" <<'PY'
import smtplib, sys
smtp = smtplib.SMTP("127.0.0.1", 25, timeout=30)
smtp.ehlo()
smtp.mail("e2e-p1@localhost")
code, text = smtp.rcpt(sys.argv[1])
print(code, text.decode())
smtp.quit()
PY
: >"$WORK/sent.tsv"
send() { python3 "$WORK/send.py" "$@" >>"$WORK/send.log" 2>&1 || fail "sending over SMTP: $(tail -2 "$WORK/send.log")"; }
replies() { cat /var/mail/e2e-* 2>/dev/null | grep -c '^In-Reply-To: <lmtp\.' || true; }

# log_wait PATTERN: waits (30 s at most) for a line of Postfix's log, prints the last one. The queue
# is flushed every second: right after a reload Postfix may leave new mail alone for a while.
log_wait() {
    for i in $(seq 300); do
        grep -q "$1" "$LOG" && break
        [ $((i % 10)) != 0 ] || postqueue -f
        sleep 0.1
    done
    grep "$1" "$LOG" | tail -1
}

# Before (the README until issue 22): the pipe service and the transport entry alone. Postfix refuses
# the address at RCPT, as it refuses every address that is no Unix user or alias.
echo "$ADDRESS  pbem:" >/etc/postfix/transport
postmap /etc/postfix/transport
postconf -e 'transport_maps = hash:/etc/postfix/transport'
postfix reload >/dev/null 2>&1
sleep 1
answer=$(python3 "$WORK/rcpt.py" "$ADDRESS")
say "before: transport_maps alone: RCPT TO:<$ADDRESS> is answered: $answer"
[[ $answer == 550* ]] || fail "the old lines were expected to get 550"
: >/etc/postfix/transport

# Phase 1: step 2 of the README, Postfix's pipe to `pbem ingest`.
local_block postfix-pipe | bash -e >"$WORK/pipe.log" 2>&1 || fail "README block postfix-pipe: $(tail -3 "$WORK/pipe.log")"
say "after: the README's lines: RCPT TO:<$ADDRESS> is answered: $(python3 "$WORK/rcpt.py" "$ADDRESS")"
send pipe "${PLAYERS[*]}" "signup {user} pw-{user}-e2e"
python3 "$WORK/check.py" --wait 60 >"$WORK/check-signup.txt" || fail "signups: $(cat "$WORK/check-signup.txt")"
send pipe "${PLAYERS[*]}" "help"
python3 "$WORK/check.py" --wait 60 >"$WORK/check-pipe.txt" || fail "pipe: $(cat "$WORK/check-pipe.txt")"
say "pipe to pbem ingest: $(head -1 "$WORK/check-pipe.txt"); Postfix deferred \
$(grep -c 'relay=pbem, .*status=deferred' "$LOG" || true)"
say "  $(sed -n 2p "$WORK/check-pipe.txt")"

# A relative [database] path (the example configuration until issue 22): under Postfix's pipe it lies
# in the queue folder. pbem defers (75) and its line names the setting; with the README's line
# back, the mail waiting in Postfix's queue is answered once.
sed 's|^path = .*|path = "pbem.sqlite"|' /etc/pbem/pbem.toml >/etc/pbem/relative.toml
chgrp pbem /etc/pbem/relative.toml && chmod 640 /etc/pbem/relative.toml
pipe_service=$(local_block postfix-pipe | grep '^postconf -M')
eval "${pipe_service//pbem.toml/relative.toml}"
postfix reload >/dev/null 2>&1
sleep 1
send relative e2e-p1 "help"
line=$(log_wait 'relay=pbem, .*status=deferred')
say "relative [database] path: Postfix deferred the mail: ${line#*Command output: }"
grep -q 'set \[database\] path' <<<"$line" || fail "the deferral does not name [database] path: $line"
eval "$pipe_service"
postfix reload >/dev/null 2>&1
sleep 1
postqueue -f
python3 "$WORK/check.py" --wait 30 >"$WORK/check-relative.txt" || fail "after the fix: $(cat "$WORK/check-relative.txt")"
say "  the README's line back: $(head -1 "$WORK/check-relative.txt")"
rm -f /etc/pbem/relative.toml

# Reply just works (issue 25): two more players start a game through the pipe; the one to move
# replies to his board mail's signed Reply-To (play+<token>@localhost) with just the move. Postfix
# takes that address only with the README's recipient_delimiter, and pbem finds the token in To.
for p in e2e-r1 e2e-r2; do
    id "$p" >/dev/null 2>&1 || useradd -m -s /usr/sbin/nologin "$p"
    rm -f "/var/mail/$p"
done
cat >"$WORK/reply.py" <<'PY'
import email, email.policy, json, mailbox, os, smtplib, sqlite3, subprocess, sys, time, uuid
address, db = "play@localhost", "/var/lib/pbem/pbem.sqlite"

def send(sender, rcpt, subject, body, to=address):
    text = (f"From: {sender}\r\nTo: <{to}>\r\nSubject: {subject}\r\n"
            f"Message-ID: <reply.{uuid.uuid4().hex}@e2e.client>\r\n\r\n{body}\r\n")
    with smtplib.SMTP("127.0.0.1", 25, timeout=30) as smtp:
        smtp.sendmail(sender, [rcpt], text.encode())

def mails(user):
    path = f"/var/mail/{user}"
    if not os.path.exists(path):
        return []
    parse = lambda f: email.message_from_binary_file(f, policy=email.policy.default)
    return list(mailbox.mbox(path, factory=parse))

def wait(what, ok, secs=60):
    deadline = time.time() + secs
    while time.time() < deadline:
        found = ok()
        if found:
            return found
        subprocess.run(["postqueue", "-f"], capture_output=True)
        time.sleep(0.5)
    sys.exit(f"timed out waiting for {what}")

def state():
    with sqlite3.connect(db) as c:
        row = c.execute("SELECT g.board, st.state FROM games g JOIN game_states st ON st.game_id = g.id "
                        "WHERE g.game_type = 'limit' ORDER BY g.id DESC LIMIT 1").fetchone()
    return (row[0], json.loads(row[1]), row[1]) if row else None

for u in ("r1", "r2"):
    send(f"e2e-{u}@localhost", address, f"signup {u} pw-{u}-e2e", "sent by postfix-e2e")
wait("the signups' answers", lambda: all(mails(f"e2e-{u}") for u in ("r1", "r2")))
send("e2e-r1@localhost", address, "limit challenge r1 r2", "sent by postfix-e2e")
board, doc, raw = wait("the game", state)
seat = [s["side"] for s in doc["sides"]].index(doc["to_move"])
user = f"e2e-r{seat + 1}"
board_mail = wait("the board mail", lambda: [m for m in mails(user) if m["Reply-To"]])[-1]
reply_to = board_mail["Reply-To"].addresses[0].addr_spec
move = subprocess.run(["/usr/local/bin/pbem", "engine", "limit", "moves"], input=raw,
                      capture_output=True, text=True, check=True).stdout.split()[0]
quoted = "".join(f"> {l}\n" for l in board_mail.get_body(("plain",)).get_content().splitlines())
send(f"{user}@localhost", reply_to, f"Re: {board_mail['Subject']}",
     f"{move}\r\n\r\nOn a day, pbem wrote:\r\n{quoted}", to=reply_to)
wait("the move", lambda: state()[1]["move_number"] == doc["move_number"] + 1)
print(f"{user} replied {move} to {reply_to.split('+')[0]}+<token>@{reply_to.split('@')[1]}: "
      f"played on board {board} (no password)")
PY
out=$(timeout 120 python3 "$WORK/reply.py" 2>&1) || fail "reply by signed address: $out"
say "reply move through Postfix's pipe: $out"

# Phase 2: step 3 of the README, LMTP, with pbem lmtp run as its unit runs it.
sed -i '/[[:space:]]pbem:$/d' /etc/postfix/transport
local_block postfix-lmtp | bash -e >"$WORK/lmtp-setup.log" 2>&1 ||
    fail "README block postfix-lmtp: $(tail -3 "$WORK/lmtp-setup.log")"
unit=dist/systemd/pbem-lmtp.service
unit_user=$(sed -n 's/^User=//p' "$unit")
unit_dir=$(sed -n 's/^WorkingDirectory=//p' "$unit")
unit_pre=$(sed -n 's/^ExecStartPre=-\{0,1\}//p' "$unit")
unit_start=$(sed -n 's/^ExecStart=//p' "$unit")
as_unit() { (cd "$unit_dir" && exec setpriv --reuid="$unit_user" --regid="$unit_user" --init-groups -- "$@"); }
socket=/var/spool/postfix/pbem/lmtp.sock
start_lmtp() {
    # shellcheck disable=SC2086 # the unit's command lines, split into words as systemd does
    as_unit $unit_pre >>"$WORK/flush-on-start.log" 2>&1 || true
    # shellcheck disable=SC2086
    (cd "$unit_dir" && exec setpriv --reuid="$unit_user" --regid="$unit_user" --init-groups -- $unit_start) \
        >>"$WORK/lmtp.log" 2>&1 &
    LMTP_PID=$!
    for _ in $(seq 100); do [ -S "$socket" ] && python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' "$socket" 2>/dev/null && return; sleep 0.1; done
    fail "pbem lmtp did not listen on $socket: $(tail -2 "$WORK/lmtp.log")"
}
start_lmtp

# The socket's folder with the rights of /var/lib/pbem (0750 pbem:pbem, what the README left open
# until issue 22): Postfix may not enter it. Then the README's rights (group postfix).
chgrp pbem /var/spool/postfix/pbem
send socket e2e-p1 "help"
line=$(log_wait 'postfix/lmtp\[.*status=deferred')
say "before: socket folder 0750 pbem:pbem: Postfix deferred the mail: ${line#*status=deferred }"
grep -q 'Permission denied' <<<"$line" || fail "expected Permission denied: $line"
chgrp postfix /var/spool/postfix/pbem
postqueue -f
python3 "$WORK/check.py" --wait 30 >"$WORK/check-socket.txt" || fail "socket: $(cat "$WORK/check-socket.txt")"
say "after: 0750 pbem:postfix: $(head -1 "$WORK/check-socket.txt")"
deferred_before=$(grep -c 'postfix/lmtp\[.*status=deferred' "$LOG" || true)

subjects=()
for i in $(seq "$LMTP_MAILS"); do
    case $((i % 4)) in
        0) subjects+=("help") ;;
        1) subjects+=("help limit") ;;
        2) subjects+=("limit help") ;;
        3) subjects+=("help signup") ;;
    esac
done
send lmtp "${PLAYERS[*]}" "${subjects[@]}" &
sender=$!
total=$((${#PLAYERS[@]} * LMTP_MAILS))
kills=0
for k in $(seq "$KILLS"); do
    want=$((total * k / (KILLS + 1)))
    for _ in $(seq 300); do [ "$(replies)" -ge "$want" ] && break; sleep 0.1; done
    kill -9 "$LMTP_PID"
    wait "$LMTP_PID" 2>/dev/null || true
    kills=$((kills + 1))
    echo "kill -9 after $(replies) of $total replies" >>"$WORK/kills.log"
    sleep 1
    start_lmtp
    postqueue -f
done
wait "$sender" || fail "the SMTP sender failed: $(tail -2 "$WORK/send.log")"
for _ in $(seq 10); do
    python3 "$WORK/check.py" --wait 6 >"$WORK/check-lmtp.txt" && break
    postqueue -f
done
python3 "$WORK/check.py" >"$WORK/check-lmtp.txt" || fail "after the kills: $(cat "$WORK/check-lmtp.txt")"
say "LMTP to pbem lmtp, killed $kills times mid-traffic: $(head -1 "$WORK/check-lmtp.txt")"
say "  kills: $(paste -sd';' "$WORK/kills.log")"
deferrals=$(grep 'postfix/lmtp\[.*status=deferred' "$LOG" | tail -n +$((deferred_before + 1)))
say "  Postfix deferred and retried: $(grep -c 'while sending end of data' <<<"$deferrals" || true) mails in \
flight at a kill (\"may be sent more than once\"), $(grep -c 'Connection refused' <<<"$deferrals" || true) \
tries while it was down, $(grep -vc 'while sending end of data\|Connection refused' <<<"$deferrals" || true) other"
say "  pbem took $(grep -c 'already processed' "$WORK/lmtp.log" || true) of them again as duplicates; \
the unit's ExecStartPre flush at the $((kills + 1)) starts sent \
$(awk '{ s += $2 } END { print s + 0 }' "$WORK/flush-on-start.log") mail(s) committed but not sent by a killed \
pbem and recorded $(grep -o '[0-9]* delivered by' "$WORK/flush-on-start.log" | awk '{ s += $1 } END { print s + 0 }') \
that its sendmail hand-off had delivered"
waiting=$(as_unit /usr/local/bin/pbem --config /etc/pbem/pbem.toml outbox list 2>&1 >/dev/null | head -1)
say "  $waiting"
[[ $waiting == "outbox: 0 waiting"* ]] || fail "mail left in the outbox: $waiting"
grep -q '"Limit games (e2e)" <play@localhost>\|Limit games (e2e) <play@localhost>' "$WORK/check-lmtp.txt" ||
    fail "the From header lacks [server] name: $(sed -n 2p "$WORK/check-lmtp.txt")"
kill "$LMTP_PID" && wait "$LMTP_PID" 2>/dev/null || true
LMTP_PID=

# The cron line of dist/cron.d/pbem, as its user.
cron_line=$(grep -E '^[^#A-Z].* pbem +/' dist/cron.d/pbem | head -1)
cron_user=$(awk '{print $6}' <<<"$cron_line")
cron_cmd=$(cut -d' ' -f7- <<<"$(tr -s ' ' <<<"$cron_line")")
# shellcheck disable=SC2086
out=$(cd / && env -i PATH=/usr/bin:/bin setpriv --reuid="$cron_user" --regid="$cron_user" --init-groups -- $cron_cmd 2>&1) ||
    fail "dist/cron.d/pbem's line failed: $out"
say "dist/cron.d/pbem as $cron_user (cron's PATH): $out"
status=0
out=$(cd / && env -i PATH=/usr/bin:/bin sh -c 'pbem --config /etc/pbem/pbem.toml cron' 2>&1) || status=$?
say "before: the README's old cron line (bare pbem) on cron's PATH: exit $status, $out"
[ "$status" = 127 ] || fail "expected 'not found' (127)"

# The README's procmail recipe, against a pbem that must defer (its database folder is missing):
# procmail must exit 75 (the MTA retries) and file nothing; with the right configuration, 0.
sed 's|^path = .*|path = "/var/lib/pbem/missing/pbem.sqlite"|' /etc/pbem/pbem.toml >/etc/pbem/broken.toml
chgrp pbem /etc/pbem/broken.toml && chmod 640 /etc/pbem/broken.toml
install -d -o pbem -g pbem "$WORK/procmail"
printf ':0 w\n| /usr/local/bin/pbem --config /etc/pbem/pbem.toml ingest\n' >"$WORK/procmail-old"
for cfg in old broken pbem; do
    if [ "$cfg" = old ]; then
        # The recipe of the README until issue 22, against the pbem that must defer.
        sed 's|pbem.toml|broken.toml|' "$WORK/procmail-old" >"$WORK/procmailrc.$cfg"
    else
        readme_block procmail | sed "s|/etc/pbem/pbem.toml|/etc/pbem/$cfg.toml|" >"$WORK/procmailrc.$cfg"
    fi
    chmod 644 "$WORK/procmailrc.$cfg"
    rm -f "$WORK/procmail/mbox"
    printf 'From: e2e-p1@localhost\nTo: %s\nSubject: help\nMessage-ID: <procmail.%s.%s@e2e.client>\n\nhi\n' \
        "$ADDRESS" "$cfg" "$RANDOM" >"$WORK/procmail.eml"
    status=0
    (cd / && setpriv --reuid=pbem --regid=pbem --init-groups -- procmail -m \
        "DEFAULT=$WORK/procmail/mbox" "$WORK/procmailrc.$cfg") <"$WORK/procmail.eml" \
        2>>"$WORK/procmail.err" || status=$?
    filed=$([ -s "$WORK/procmail/mbox" ] && echo "filed in the pbem user's mailbox" || echo "nothing filed")
    case $cfg in
        old) say "before: the old procmail recipe, pbem deferring: procmail exit $status, $filed" ;;
        broken) say "after: the README's recipe, pbem deferring: procmail exit $status, $filed" ;;
        pbem) say "after: the README's recipe, pbem working: procmail exit $status, $filed" ;;
    esac
    case $cfg in
        old) [ "$status" = 0 ] && [ "$filed" != "nothing filed" ] || fail "the old recipe was expected to file it" ;;
        broken) [ "$status" = 75 ] && [ "$filed" = "nothing filed" ] || fail "want exit 75, nothing filed" ;;
        pbem) [ "$status" = 0 ] && [ "$filed" = "nothing filed" ] || fail "want exit 0, nothing filed" ;;
    esac
done
rm -f /etc/pbem/broken.toml

# The systemd units, checked by systemd itself (any line it prints is a fault it found).
if command -v systemd-analyze >/dev/null; then
    out=$(systemd-analyze verify dist/systemd/*.service dist/systemd/*.timer 2>&1) ||
        fail "systemd-analyze verify: $out"
    [ -z "$out" ] || fail "systemd-analyze verify: $out"
    say "systemd-analyze verify dist/systemd/*: no finding"
else
    say "systemd-analyze verify: skipped (not installed)"
fi
say "passed in $((SECONDS - started)) s; logs in $WORK"
